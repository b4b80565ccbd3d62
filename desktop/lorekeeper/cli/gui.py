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
@click.option(
    "--size",
    "size",
    default=None,
    metavar="WxH",
    help="With --screenshot: the window size in logical pixels, e.g. 1024x640 (default 1400x900).",
)
@workspace_option
@handle_errors
def gui(screenshot: Path | None, workspace_dir: Path | None, size: str | None = None) -> None:
    """Open the desktop app."""
    from lorekeeper.cli.common import open_workspace

    ctx = click.get_current_context()
    if workspace_dir is None:
        workspace_dir = (ctx.find_root().obj or {}).get("workspace_dir")
    from lorekeeper.locations import resolve_workspace_dir
    from lorekeeper.ui.app import run_app

    shot_size = parse_size(size) if size is not None else None
    path = resolve_workspace_dir(workspace_dir)  # here: the factory runs in a worker thread, without click's context
    sys.exit(
        run_app(lambda: open_workspace(path), screenshot_dir=screenshot, where=str(path), screenshot_size=shot_size)
    )


def parse_size(text: str) -> tuple[int, int]:
    """`1024x640` -> (1024, 640); anything else is ERR_INVALID_INPUT."""
    from lorekeeper.errors import InvalidInputError

    parts = text.lower().replace("×", "x").split("x")
    if len(parts) == 2 and all(p.strip().isdigit() for p in parts):
        w, h = (int(p) for p in parts)
        if 320 <= w <= 8192 and 240 <= h <= 8192:
            return w, h
    raise InvalidInputError(f"--size must be WIDTHxHEIGHT in logical pixels (320x240 to 8192x8192), got {text!r}")
