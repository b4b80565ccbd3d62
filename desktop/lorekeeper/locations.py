"""Where a workspace is, without loading anything heavy (the CLI starts fast)."""

from __future__ import annotations

import getpass
import os
from pathlib import Path

ENV_VAR = "LOREKEEPER_WORKSPACE"


def default_workspace_dir() -> Path:
    from platformdirs import user_data_dir  # only when no workspace was named (a few ms of every start)

    return Path(user_data_dir("lorekeeper", appauthor=False)) / "workspace"


def resolve_workspace_dir(explicit: str | os.PathLike[str] | None) -> Path:
    """--workspace, else $LOREKEEPER_WORKSPACE, else the user data dir."""
    if explicit:
        return Path(explicit).expanduser()
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    return default_workspace_dir()


def os_login() -> str:
    """The OS login: who acts when no Vault identity names the operator (the `by` of events,
    decisions, comments and skill versions); "operator" where the container has no login name."""
    try:
        return getpass.getuser() or "operator"
    except Exception:  # noqa: BLE001 - no login name in some containers
        return "operator"
