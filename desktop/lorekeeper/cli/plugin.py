"""`lorekeeper plugin build DIR [--project P] [--no-skills] [--check] [--json]`: a Claude Code plugin."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from lorekeeper.cli.common import emit_json, handle_errors, json_option, open_workspace, workspace_option


@click.group("plugin")
def plugin() -> None:
    """Claude Code plugin: hooks, MCP server and skills in one package a team installs from a marketplace."""


@plugin.command("build")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--project", default=None, help="The Lorekeeper project the hooks and the MCP server use.")
@click.option(
    "--skills/--no-skills",
    "with_skills",
    default=True,
    show_default=True,
    help="Put the workspace's skills (with their files) in the plugin's skills/ folder.",
)
@click.option(
    "--check",
    "check_only",
    is_flag=True,
    help="Validate DIR against Claude Code's plugin and marketplace layout instead of writing (exit 1 if it departs).",
)
@workspace_option
@json_option
@handle_errors
def build(
    directory: Path,
    project: str | None,
    with_skills: bool,
    check_only: bool,
    workspace_dir: Path | None,
    as_json: bool,
) -> None:
    """Write a Claude Code plugin and the marketplace that lists it into DIRECTORY.

    Then: `claude plugin marketplace add DIRECTORY` and `claude plugin install lorekeeper@lorekeeper`.
    """
    from lorekeeper.agents import plugin as plug

    directory = directory.expanduser().resolve()
    if check_only:
        result = plug.check(directory)
        if as_json:
            emit_json({"dir": str(directory), **result.to_dict()})
        else:
            for line in result.errors:
                click.echo(f"error: {line}")
            for line in result.warnings:
                click.echo(f"warning: {line}")
            if result.ok:
                click.echo(f"{directory}: a valid Claude Code marketplace and plugin")
        if not result.ok:
            sys.exit(1)
        return
    if project:
        from lorekeeper.store.scopes import validate_project

        validate_project(project)
    with open_workspace(workspace_dir) as ws:
        out = plug.build(directory, ws, project, skills=with_skills)
    if as_json:
        emit_json(out)
        return
    skills = out["skills"]
    click.echo(f"wrote the {out['plugin']} plugin ({len(skills)} skill(s)) and its marketplace into {directory}")
    for line in out["warnings"]:
        click.echo(f"warning: {line}")
    click.echo("install it in Claude Code with:")
    for line in out["install"]:
        click.echo(f"  {line}")
