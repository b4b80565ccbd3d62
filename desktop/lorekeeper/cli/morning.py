"""`lorekeeper morning`: the 3 learnings with the highest reuse score (seed 004 B3)."""

from __future__ import annotations

from pathlib import Path

import click

from lorekeeper.cli.common import emit_json, handle_errors, json_option, open_workspace, workspace_option


@click.command("morning")
@workspace_option
@json_option
@handle_errors
def morning(workspace_dir: Path | None, as_json: bool) -> None:
    """The 3 most reused learnings, one line each: - [story] [tags] score=<reuse score, 4 decimals>."""
    with open_workspace(workspace_dir) as ws:
        top = ws.reuse.morning(3)
    if as_json:
        emit_json({"learnings": [t.to_dict() for t in top], "lines": [t.morning_line() for t in top]})
        return
    for t in top:
        click.echo(t.morning_line())
