"""Shared CLI plumbing: the --workspace and --json options, output, and error → exit code mapping."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

import click

from lorekeeper.errors import LorekeeperError
from lorekeeper.locations import ENV_VAR, default_workspace_dir, resolve_workspace_dir

if TYPE_CHECKING:
    from lorekeeper.workspace import Workspace

F = TypeVar("F", bound=Callable[..., Any])
P = ParamSpec("P")
R = TypeVar("R")


def workspace_option(f: F) -> F:
    return click.option(
        "--workspace",
        "workspace_dir",
        type=click.Path(file_okay=False, path_type=Path),
        default=None,
        help=f"Workspace folder (default: ${ENV_VAR}, else the user data folder).",
    )(f)


def json_option(f: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")(f)


def open_workspace(workspace_dir: Path | None) -> Workspace:
    """Open the chosen workspace. The default location is created on first use (starter skills)."""
    from lorekeeper.workspace import Workspace

    ctx = click.get_current_context(silent=True)
    if workspace_dir is None and ctx is not None:
        workspace_dir = (ctx.find_root().obj or {}).get("workspace_dir")
    path = resolve_workspace_dir(workspace_dir)
    if path == default_workspace_dir() and not (path / "lorekeeper.toml").exists():
        return Workspace.init(path)
    return Workspace.open(path)


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def handle_errors(f: Callable[P, R]) -> Callable[P, R]:
    """Turn a LorekeeperError into `CODE: message` on stderr (and JSON on stdout with --json)."""

    @functools.wraps(f)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return f(*args, **kwargs)
        except LorekeeperError as exc:
            if kwargs.get("as_json"):
                click.echo(json.dumps({"error": exc.to_dict()}, ensure_ascii=False, indent=2))
            click.echo(f"error: {exc}", err=True)
            sys.exit(exc.exit_code)

    return wrapper
