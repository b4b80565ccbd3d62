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


#: a representative set of every kind of output: the eager options (printed while the arguments
#: are parsed), tables, JSON, long exports, a group's help, an error object with --json
CLOSED_PIPE_COMMANDS = [
    ("--help",),
    ("--version",),
    ("audit", "--help"),
    ("audit", "status"),
    ("audit", "verify"),
    ("facts", "list"),
    ("learn", "list"),
    ("learn", "export"),
    ("skills", "list"),
    ("skills", "list", "--json"),
    ("route", "--json", "write the release notes"),
    ("proposals", "list"),
    ("purge", "runs"),
    ("backup", "--list"),
    ("story", "list"),
    ("facts", "list", "--json", "--nosuch"),
]


def _run_into_closed_pipe(root: Path, args: tuple[str, ...]) -> tuple[object, str]:
    """The command in this process with its stdout a real pipe whose reader is gone (cheaper than a
    process per command; the interpreter's own exit flush is the subprocess test's above)."""
    import io

    from helpers.cli import _logging_restored
    from lorekeeper.cli import main

    read, write = os.pipe()
    os.close(read)
    out = io.TextIOWrapper(io.FileIO(write, "w", closefd=True), encoding="utf-8")
    err = io.StringIO()
    saved = sys.stdout, sys.stderr, sys.argv
    code: object = 0
    with _logging_restored():
        sys.stdout, sys.stderr, sys.argv = out, err, ["lorekeeper", "--workspace", str(root), *args]
        try:
            main.main(args=["--workspace", str(root), *args], prog_name="lorekeeper")
        except SystemExit as exc:
            code = exc.code
        finally:
            sys.stdout, sys.stderr, sys.argv = saved
            try:
                out.close()
            except OSError as exc:  # what was left unflushed: the interpreter would print this
                err.write(f"at exit: {exc!r}")
    return code, err.getvalue()


def test_a_closed_stdout_ends_every_kind_of_command_quietly(demo_workspace: Workspace) -> None:
    """`lorekeeper ... | head` on a representative set: each ends with 141 and nothing on stderr
    (`--help` and `--version` ended with click's exit 1: their text is printed before `invoke`)."""
    root = demo_workspace.root
    demo_workspace.close()
    outcomes = {" ".join(args): _run_into_closed_pipe(root, args) for args in CLOSED_PIPE_COMMANDS}
    wrong = {cmd: got for cmd, got in outcomes.items() if got != (141, "")}
    assert not wrong, wrong
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


def test_proposals_take_reason_like_facts(workspace_templates, tmp_path: Path) -> None:
    """Issue 31 item 3: `proposals reject` takes --reason (as `facts reject` does); --why still works."""
    import json

    from helpers.cli import run_lorekeeper

    ws = workspace_templates.copy(tmp_path / "ws", demo=True)
    root = str(ws.root)
    pending = [p for p in ws.improve.proposals.list() if p.status == "pending"]
    ws.close()
    assert pending, "the demo holds a pending proposal"
    proc = run_lorekeeper(
        "--workspace", root, "proposals", "reject", str(pending[0].id), "--reason", "too broad", "--json"
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["status"] == "rejected"
    proc = run_lorekeeper("--workspace", root, "proposals", "undo", str(pending[0].id), "--why", "misclick", "--json")
    assert proc.returncode == 0, proc.stderr
