"""`lorekeeper mcp [--project P]` (the MCP server on stdio) and `lorekeeper mcp install`."""

from __future__ import annotations

from pathlib import Path

import click

from lorekeeper.cli.common import emit_json, handle_errors, json_option, open_workspace, workspace_option


@click.group("mcp", invoke_without_command=True)
@click.option("--project", default=None, help="Default project for tool calls that name none.")
@workspace_option
@click.pass_context
def mcp(ctx: click.Context, project: str | None, workspace_dir: Path | None) -> None:
    """The MCP server on stdio: skills, prompt, evals, feedback, context, facts and memory tools."""
    if ctx.invoked_subcommand is not None:
        return
    from lorekeeper.agents.mcp_server import serve

    with open_workspace(workspace_dir) as ws:
        serve(ws, project)


@mcp.command("install")
@click.option(
    "--client",
    type=click.Choice(["claude-code", "generic"]),
    default="claude-code",
    show_default=True,
    help="claude-code: a project's .mcp.json; generic: the mcpServers JSON most MCP clients read.",
)
@click.option("--write", "write", is_flag=True, help="Write (merge) the configuration instead of printing it.")
@click.option(
    "--dir",
    "directory",
    type=click.Path(file_okay=False, path_type=Path),
    default=".",
    show_default=True,
    help="claude-code --write: the project folder whose .mcp.json is merged.",
)
@click.option(
    "--file",
    "file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="generic --write: the client's configuration file to merge into.",
)
@click.option("--project", default=None, help="Default project for the server's tool calls.")
@workspace_option
@json_option
@handle_errors
def install(
    client: str,
    write: bool,
    directory: Path,
    file: Path | None,
    project: str | None,
    workspace_dir: Path | None,
    as_json: bool,
) -> None:
    """Print (or with --write, merge into the client's file) the MCP client configuration."""
    from lorekeeper.agents.install import mcp_config, write_mcp_config
    from lorekeeper.errors import InvalidInputError

    with open_workspace(workspace_dir) as ws:
        root = ws.root
    config = mcp_config(client, root, project)
    if not write:
        emit_json(config)
        return
    if client == "claude-code":
        target = directory.expanduser().resolve() / ".mcp.json"
    else:
        if file is None:
            raise InvalidInputError("generic --write needs --file PATH (the client's configuration file)")
        target = file.expanduser().resolve()
    written = write_mcp_config(target, client, root, project)
    if as_json:
        emit_json({"path": str(target), "config": written})
    else:
        click.echo(f"wrote the lorekeeper MCP server into {target}")
