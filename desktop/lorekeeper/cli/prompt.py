"""`lorekeeper prompt MESSAGE [--project P] [--json]`: the prompt the model would get (buildGsdPrompt)."""

from __future__ import annotations

from pathlib import Path

import click

from lorekeeper.cli.common import emit_json, handle_errors, json_option, open_workspace, workspace_option


@click.command("prompt")
@click.argument("message")
@click.option("--project", default=None, help="Assemble for a project: its forks, its learnings.")
@click.option("--story", default=None, help="A started story: its memory injection block is added.")
@workspace_option
@json_option
@handle_errors
def prompt_cmd(message: str, project: str | None, story: str | None, workspace_dir: Path | None, as_json: bool) -> None:
    """Print the assembled prompt for MESSAGE: SKILLS_HINT, LEARNINGS, then the message."""
    with open_workspace(workspace_dir) as ws:
        assembled = ws.prompts.build(message, project, story=story)
        if assembled.notices:  # no key session: logged and on stderr, never in the prompt an agent reads
            from lorekeeper.agents.hooks import untrusted

            untrusted(ws.root, ws.audit.workspace_id, assembled.notices, event="prompt")
            for notice in assembled.notices:
                click.echo(f"warning: {notice}", err=True)
    if as_json:
        emit_json(assembled.to_dict())
    else:
        click.echo(assembled.text)
