"""Output edges. Issue 23 d5: `lorekeeper ... | head` — a reader that closes the pipe early ends
the command quietly (exit 141, 128 + SIGPIPE), with no traceback and nothing in the error log.
Issue 31 item 2: usage errors with --json are JSON too."""

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


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("facts", "list", "--json", "--nosuch"), "No such option '--nosuch'"),
        (("facts", "show", "--json"), "Missing argument 'FACT_ID'"),
        (("facts", "list", "--status", "bogus", "--json"), "Invalid value for '--status'"),
    ],
)
def test_usage_errors_are_json_with_json(workspace: Workspace, args: tuple[str, ...], message: str) -> None:
    """Issue 31 item 2: with --json a usage error is the JSON error object on stdout (exit 2)."""
    import json

    from helpers.cli import run_lorekeeper

    proc = run_lorekeeper("--workspace", str(workspace.root), *args)
    assert proc.returncode == 2
    error = json.loads(proc.stdout)["error"]
    assert error["code"] == "ERR_INVALID_INPUT" and message in error["message"]
    assert "Usage:" in proc.stderr
