"""Client configuration: Claude Code's `.mcp.json` (or a generic `mcpServers` file) and the hooks
in `.claude/settings.json`.

Installing merges ours into what is there and keeps everything else (other servers, the user's own
hooks, every other setting); uninstalling removes only the entries that run Lorekeeper's hook
commands. Files are written atomically and a file that is not a JSON object is never overwritten.
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any

from lorekeeper import safejson
from lorekeeper.errors import InvalidInputError
from lorekeeper.fsutil import atomic_write_text, read_regular_text

SERVER_NAME = "lorekeeper"
SETTINGS_LIMIT = 16 * 1024 * 1024  # a .claude/settings.json is a few KB
HOOK_MARK = "hooks claude-code"  # every command we install contains it, after the program
HOOK_EVENTS = {"UserPromptSubmit": "user-prompt-submit", "Stop": "stop"}
HOOK_TIMEOUT = {"UserPromptSubmit": 10, "Stop": 30}  # seconds; Claude Code's default is 60


def program() -> list[str]:
    """How to start this Lorekeeper: the `lorekeeper` script beside this interpreter, else on PATH,
    else `python -m lorekeeper` (absolute paths: a client's environment is not the shell's)."""
    beside = Path(sys.executable).with_name("lorekeeper")
    if beside.is_file():
        return [str(beside)]
    found = shutil.which("lorekeeper")
    if found:
        return [str(Path(found).resolve())]
    return [sys.executable, "-m", "lorekeeper"]


def _read_object(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:  # a regular file only (a FIFO is refused, not waited on), bounded in size and nesting
        text = read_regular_text(path, limit=SETTINGS_LIMIT, what="settings file")
        data = safejson.loads(text, what=str(path)) if text.strip() else {}
    except (OSError, ValueError) as exc:
        raise InvalidInputError(f"{path} is not readable JSON ({exc}); fix or move it, nothing was written") from None
    if not isinstance(data, dict):
        raise InvalidInputError(f"{path} does not hold a JSON object; fix or move it, nothing was written")
    return data


def _write(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(data, ensure_ascii=False, indent=2) + "\n")


# ---------------------------------------------------------------------- MCP client configuration
def mcp_entry(client: str, workspace: Path, project: str | None = None) -> dict[str, Any]:
    cmd = program()
    args = [*cmd[1:], "--workspace", str(workspace), "mcp", *(["--project", project] if project else [])]
    entry: dict[str, Any] = {"command": cmd[0], "args": args, "env": {}}
    if client == "claude-code":
        entry = {"type": "stdio", **entry}
    return entry


def mcp_config(client: str, workspace: Path, project: str | None = None) -> dict[str, Any]:
    """`{"mcpServers": {"lorekeeper": {...}}}`: Claude Code's `.mcp.json` shape, which most MCP
    clients (Claude Desktop, Cursor, ...) read as well."""
    if client not in ("claude-code", "generic"):
        raise InvalidInputError(f"unknown client {client!r}: use claude-code or generic")
    return {"mcpServers": {SERVER_NAME: mcp_entry(client, workspace, project)}}


def write_mcp_config(path: Path, client: str, workspace: Path, project: str | None = None) -> dict[str, Any]:
    """Merge our server into the file's `mcpServers` (other servers and keys kept)."""
    data = _read_object(path)
    servers = data.get("mcpServers")
    if servers is None:
        servers = data["mcpServers"] = {}
    if not isinstance(servers, dict):
        raise InvalidInputError(f"{path}: `mcpServers` is not an object; nothing was written")
    servers[SERVER_NAME] = mcp_entry(client, workspace, project)
    _write(path, data)
    return data


# ---------------------------------------------------------------------- Claude Code hooks
def hook_command(event: str, workspace: Path, project: str | None = None) -> str:
    parts = [*program(), "--workspace", str(workspace), *HOOK_MARK.split(), HOOK_EVENTS[event]]
    if project:
        parts += ["--project", project]
    return shlex.join(parts)


def is_ours(hook: object) -> bool:
    if not isinstance(hook, dict):
        return False
    cmd = hook.get("command")
    return isinstance(cmd, str) and "lorekeeper" in cmd and f" {HOOK_MARK} " in cmd


def _without_ours(groups: list[Any]) -> list[Any]:
    """The event's matcher groups with our hooks taken out (a group left empty goes too)."""
    kept: list[Any] = []
    for group in groups:
        if isinstance(group, dict) and isinstance(group.get("hooks"), list):
            hooks = [h for h in group["hooks"] if not is_ours(h)]
            if not hooks and len(hooks) != len(group["hooks"]):
                continue
            group = {**group, "hooks": hooks}
        kept.append(group)
    return kept


def settings_path(directory: Path) -> Path:
    return directory / ".claude" / "settings.json"


def install_hooks(directory: Path, workspace: Path, project: str | None = None) -> dict[str, Any]:
    """Merge our UserPromptSubmit and Stop hooks into `D/.claude/settings.json` (idempotent: a
    second install replaces ours, never duplicates them). Returns the written settings."""
    path = settings_path(directory)
    data = _read_object(path)
    hooks = data.get("hooks")
    if hooks is None:
        hooks = data["hooks"] = {}
    if not isinstance(hooks, dict):
        raise InvalidInputError(f"{path}: `hooks` is not an object; nothing was written")
    for event in HOOK_EVENTS:
        groups = hooks.get(event, [])
        if not isinstance(groups, list):
            raise InvalidInputError(f"{path}: hooks.{event} is not a list; nothing was written")
        ours = {"type": "command", "command": hook_command(event, workspace, project), "timeout": HOOK_TIMEOUT[event]}
        hooks[event] = [*_without_ours(groups), {"hooks": [ours]}]
    _write(path, data)
    return data


def uninstall_hooks(directory: Path) -> tuple[dict[str, Any], int]:
    """Remove our hooks only; an event left without hooks loses its key. Returns (settings, removed)."""
    path = settings_path(directory)
    if not path.exists():
        return {}, 0
    data = _read_object(path)
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return data, 0
    removed = 0
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        before = sum(1 for g in groups if isinstance(g, dict) for h in (g.get("hooks") or []) if is_ours(h))
        if not before:
            continue
        removed += before
        kept = _without_ours(groups)
        if kept:
            hooks[event] = kept
        else:
            del hooks[event]
    if not hooks:
        del data["hooks"]
    _write(path, data)
    return data, removed
