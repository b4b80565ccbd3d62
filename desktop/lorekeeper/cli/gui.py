"""`lorekeeper gui [--screenshot DIR]`: the desktop app (Qt is imported only here, lazily)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from lorekeeper.cli.common import handle_errors, workspace_option


@click.command()
@click.option(
    "--screenshot",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Render every panel offscreen to DIR/<panel>.png and exit.",
)
@workspace_option
@handle_errors
def gui(screenshot: Path | None, workspace_dir: Path | None) -> None:
    """Open the desktop app."""
    from lorekeeper.cli.common import open_workspace

    ctx = click.get_current_context()
    if workspace_dir is None:
        workspace_dir = (ctx.find_root().obj or {}).get("workspace_dir")
    from lorekeeper.locations import resolve_workspace_dir
    from lorekeeper.ui.app import run_app

    path = resolve_workspace_dir(workspace_dir)  # here: the factory runs in a worker thread, without click's context
    sys.exit(run_app(lambda: open_workspace(path), screenshot_dir=screenshot, where=str(path)))
