"""`lorekeeper route MESSAGE [--top N] [--project P] [--json]`."""

from __future__ import annotations

from pathlib import Path

import click

from lorekeeper.cli.common import emit_json, handle_errors, json_option, open_workspace, workspace_option
from lorekeeper.skills.router import DEFAULT_TOP


@click.command()
@click.argument("message")
@click.option(
    "--top", type=click.IntRange(min=0), default=None, help=f"How many skills to hint (default {DEFAULT_TOP})."
)
@click.option("--project", default=None, help="Route for a project: its forks replace the global skills.")
@workspace_option
@json_option
@handle_errors
def route(message: str, top: int | None, project: str | None, workspace_dir: Path | None, as_json: bool) -> None:
    """Rank the skills for MESSAGE and print the SKILLS_HINT block."""
    with open_workspace(workspace_dir) as ws:
        n = top if top is not None else int(ws.config.get("router.top", DEFAULT_TOP))
        result = ws.routers.get(project).route(message, top=n)
    if as_json:
        emit_json(result.to_dict())
        return
    if not result.skills:
        click.echo("No skill matched this message.")
        return
    for m in result.skills:
        words = ", ".join([*(f'"{t}"' for t in m.triggers), *m.keywords])
        click.echo(f"{m.score:>3}  {m.name}  ({words})")
    click.echo()
    click.echo(result.hint)
