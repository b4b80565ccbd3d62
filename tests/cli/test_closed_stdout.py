"""Issue 23 d5: `lorekeeper ... | head` — a reader that closes the pipe early ends the command
quietly (exit 141, 128 + SIGPIPE), with no traceback and nothing in the error log."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from lorekeeper.workspace import Workspace


@pytest.mark.parametrize("args", [("audit", "status"), ("facts", "list", "--json")])
def test_a_closed_stdout_ends_the_command_quietly(workspace: Workspace, args: tuple[str, ...]) -> None:
    root = workspace.root
    workspace.close()
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first byte: every write is EPIPE
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "lorekeeper", "--workspace", str(root), *args],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    finally:
        os.close(write)
    assert proc.returncode == 141, proc.stderr
    assert proc.stderr == ""
    assert not (Path(root) / "logs" / "errors.log").exists()
