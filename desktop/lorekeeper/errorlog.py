"""The workspace's error log: unexpected errors (ERR_INTERNAL) with their traceback, for support.

The CLI and the GUI append to the same file, `<workspace>/logs/errors.log`, one block per error:
a header line with the UTC time and the process id, then the text (usually a traceback).
Appending is one `write` call on a file opened in append mode, so concurrent processes do not
interleave within a block on local file systems.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

LOG_DIR = "logs"
LOG_FILE = "errors.log"


def error_log_path(workspace_root: Path | str) -> Path:
    return Path(workspace_root) / LOG_DIR / LOG_FILE


def append_error(workspace_root: Path | str, text: str) -> Path:
    """Append `text` (a traceback) to the workspace's error log; returns the log's path."""
    path = error_log_path(workspace_root)
    path.parent.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    block = f"--- {stamp} pid {os.getpid()}\n{text.rstrip()}\n\n"
    with path.open("a", encoding="utf-8") as fh:
        fh.write(block)
    return path
