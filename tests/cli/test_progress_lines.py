"""Issue 26 d3: progress on every command that can run long, on stderr only (a terminal, or
`--progress`), never on stdout: `--json` stays parseable. One helper, `lorekeeper.cli.progress`."""

from __future__ import annotations

import io
import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import click
import pytest

from helpers.cli import run_lorekeeper
from lorekeeper.cli import COMMANDS, main
from lorekeeper.cli import progress as progress_mod
from lorekeeper.cli.progress import ProgressLine
from lorekeeper.workspace import Workspace

#: the commands that can run longer than a second (bulk reads and writes, whole-store checks,
#: model calls, archives): each takes --progress
LONG = {
    "memory collect", "memory index", "memory search", "facts ingest", "facts extract", "facts consolidate",
    "facts pack", "skills import", "skills validate", "skills verify", "audit verify", "audit sign-rows",
    "audit status", "audit rotate", "backup", "restore", "nightly", "sage analyze", "bench run", "ctx pack",
    "ctx bench", "market add", "market install", "repair", "learn import", "purge",
}  # fmt: skip


def _commands() -> dict[str, click.Command]:
    ctx = click.Context(main)
    out: dict[str, click.Command] = {}
    stack = [(n, c) for n in COMMANDS if (c := main.get_command(ctx, n))]
    while stack:
        path, command = stack.pop()
        out[path] = command
        if isinstance(command, click.Group):
            stack.extend((f"{path} {n}", c) for n, c in command.commands.items())
    return out


def test_every_long_command_takes_progress() -> None:
    commands = _commands()
    lacking = [p for p in sorted(LONG) if "--progress" not in {o for x in commands[p].params for o in x.opts}]
    assert not lacking, f"without --progress: {lacking}"


def _notes(ws: Workspace, n: int = 3) -> None:
    folder = Path(ws.root) / "sources" / "topic"
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        (folder / f"n{i}.md").write_text(
            f"---\nverdict: signal\nimpact: fort\ndate: 2026-11-01\n---\n\n# Note {i}\n\nSummary {i}.\n",
            encoding="utf-8",
        )
    (folder / "bad.md").write_text("---\nverdict: nope\n---\n# Bad\n", encoding="utf-8")


def test_progress_flag_writes_stderr_lines_and_json_stays_parseable(workspace: Workspace) -> None:
    _notes(workspace)
    root = str(workspace.root)
    r = run_lorekeeper("--workspace", root, "memory", "collect", "--json", "--progress")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["added"] == 3  # stdout is the JSON document alone
    lines = r.stderr.splitlines()
    for want in ("memory collect: reading 1/4", "memory collect: reading 4/4", "memory collect: storing 3/3"):
        assert want in lines, r.stderr
    quiet = run_lorekeeper("--workspace", root, "memory", "collect", "--json")  # stderr not a terminal
    assert quiet.returncode == 0 and "memory collect:" not in quiet.stderr
    assert json.loads(quiet.stdout)["unchanged"] == 3
    idx = run_lorekeeper("--workspace", root, "memory", "index", "--corpus", "notes", "--json", "--progress")
    assert idx.returncode == 0, idx.stderr
    assert json.loads(idx.stdout)["indexes"][0]["count"] == 3
    assert "memory index: notes 3/3" in idx.stderr.splitlines()


def test_a_terminal_on_stderr_gets_the_redrawn_line_stdout_the_json(workspace: Workspace) -> None:
    """A real process with a pseudo-terminal as stderr and a pipe as stdout (what a user who runs
    `lorekeeper memory collect --json > out.json` in a terminal has)."""
    _notes(workspace)
    master, slave = pty.openpty()
    env = dict(os.environ, COLUMNS="120")
    cmd = [sys.executable, "-m", "lorekeeper", "--workspace", str(workspace.root), "memory", "collect", "--json"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=slave, env=env)
    os.close(slave)
    seen = b""
    try:
        while True:
            ready, _, _ = select.select([master], [], [], 60)
            if not ready:
                break
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            seen += chunk
    finally:
        os.close(master)
        out = proc.stdout.read() if proc.stdout else b""
        proc.wait(timeout=60)
    assert proc.returncode == 0, seen.decode(errors="replace")
    assert json.loads(out)["added"] == 3
    text = seen.decode()
    assert "\rmemory collect: reading 4/4" in text and "\rmemory collect: storing 3/3" in text
    assert text.rstrip(" ").endswith("\n")  # the line is ended, the shell prompt starts clean
    assert b"memory collect" not in out


def test_the_line_redraws_in_place_on_a_terminal() -> None:
    buf = io.StringIO()
    with ProgressLine("job", enabled=True, stream=buf, tty=True) as line:
        line.step(1, 3, "reading")
        line.step(3, 3, "reading")
        line.phases("storing", 2, 2)
    out = buf.getvalue()
    assert out.startswith("\rjob: reading 1/3") and "\rjob: reading 3/3" in out and "\rjob: storing 2/2" in out
    assert out.endswith("\n") and out.count("\n") == 1


def test_a_step_less_command_shows_its_elapsed_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress_mod, "QUIET_FOR", 0.0)
    monkeypatch.setattr(progress_mod, "TICK", 0.01)
    buf = io.StringIO()
    with ProgressLine("audit verify", enabled=True, stream=buf, tty=True):
        deadline = time.monotonic() + 30
        while "audit verify: " not in buf.getvalue() and time.monotonic() < deadline:
            time.sleep(0.01)
    out = buf.getvalue()
    assert "\raudit verify: 0 s" in out and "audit verify: done in" in out and out.endswith("\n")


def test_disabled_writes_nothing() -> None:
    buf = io.StringIO()
    with ProgressLine("job", enabled=False, stream=buf, tty=True) as line:
        line.step(1, 1, "x")
    assert buf.getvalue() == ""
