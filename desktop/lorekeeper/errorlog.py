"""The error logs: one writer, one format, rotated, inside the workspace or the user's state folder.

Unexpected errors (ERR_INTERNAL) with their traceback go to `<workspace>/logs/errors.log` (the
CLI, the GUI, the MCP server); the agent path's notices and failures go to
`<workspace>/logs/hooks.log` (hooks, `prompt`). Without a workspace (a hook pointed at a folder
that is not one, a command before any workspace exists) the same file names sit in the user's
state folder (`platformdirs.user_state_dir("lorekeeper")/logs`): never a shared temp folder.

Every block is written the same way (issue 28, where four writers had three formats and no
rotation): `logging` with a `RotatingFileHandler` (`MAX_BYTES` per file, `BACKUPS` older files),
one record per block, whose first line is `--- <UTC ISO time> pid <pid> <what>`, then the text
(usually a traceback). A FIFO, device or socket put in a log's place is refused (OSError) before
the file is opened, never waited on: a log must never hang the command.
"""

from __future__ import annotations

import logging
import os
import stat
import traceback
from datetime import UTC, datetime
from logging.handlers import RotatingFileHandler
from pathlib import Path

from lorekeeper.config import CONFIG_NAME
from lorekeeper.fsutil import NotRegularFileError

LOG_DIR = "logs"
LOG_FILE = "errors.log"
HOOK_LOG = "hooks.log"
MAX_BYTES = 1024 * 1024  # one log file; then errors.log.1 .. errors.log.3
BACKUPS = 3


def state_log_dir() -> Path:
    """The user's state folder's `logs/` (for errors met outside any workspace)."""
    from platformdirs import user_state_dir

    return Path(user_state_dir("lorekeeper", appauthor=False)) / LOG_DIR


def log_path(workspace_root: Path | str | None, name: str = LOG_FILE) -> Path:
    """`<workspace>/logs/<name>` when `workspace_root` is a workspace, else the state folder's."""
    if workspace_root is not None and (Path(workspace_root) / CONFIG_NAME).is_file():
        return Path(workspace_root) / LOG_DIR / name
    return state_log_dir() / name


def error_log_path(workspace_root: Path | str) -> Path:
    return Path(workspace_root) / LOG_DIR / LOG_FILE


class _Handler(RotatingFileHandler):
    def handleError(self, record: logging.LogRecord) -> None:
        raise  # noqa: PLE0704 - called inside logging's `except`: the caller gets the OSError


def _refuse_non_regular(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        return
    try:
        mode = os.fstat(fd).st_mode
    finally:
        os.close(fd)
    if not stat.S_ISREG(mode):
        raise NotRegularFileError(path, mode)


def write(path: Path, what: str, text: str = "") -> Path:
    """Append one block to the log at `path` (rotated); OSError when it cannot be written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    _refuse_non_regular(path)
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    head = f"--- {stamp} pid {os.getpid()} {what}".rstrip()
    body = f"{head}\n{text.rstrip()}" if text.strip() else head
    handler = _Handler(path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8", delay=True)
    handler.setFormatter(logging.Formatter("%(message)s"))
    try:  # the handler alone, no logger: no global logging configuration sees these blocks
        handler.handle(logging.makeLogRecord({"msg": body + "\n", "levelno": logging.ERROR, "levelname": "ERROR"}))
    finally:
        handler.close()
    return path


def log_exception(workspace_root: Path | str | None, what: str, exc: BaseException, *, name: str = LOG_FILE) -> Path:
    """The exception's traceback in the workspace's log (the state folder's if that one cannot be
    written or there is no workspace); returns where it went."""
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return write_or_fallback(log_path(workspace_root, name), what, text)


def write_or_fallback(path: Path, what: str, text: str = "") -> Path:
    """`write`, else the same file name in the state folder; the path tried first if neither works."""
    for target in dict.fromkeys((path, state_log_dir() / path.name)):
        try:
            return write(target, what, text)
        except OSError:
            continue
    return path


def append_error(workspace_root: Path | str, text: str) -> Path:
    """Append `text` (a traceback) to the workspace's error log; returns the log's path."""
    return write(error_log_path(workspace_root), "lorekeeper gui", text)
