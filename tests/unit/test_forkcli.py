"""tests/helpers/forkcli.py: a forked `lorekeeper` is another process that answers as a fresh
`python -m lorekeeper` does (streams, exit code, environment, what it leaves on disk)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from helpers import forkcli


def fresh(*args: str, env: dict[str, str] | None = None, input: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lorekeeper", *args],
        capture_output=True,
        text=True,
        env=env,
        input=input,
        timeout=120,
        check=False,
    )


def test_a_forked_call_answers_like_a_fresh_interpreter(tmp_path: Path) -> None:
    rules = tmp_path / "r.evals.json"
    rules.write_text(
        json.dumps(
            {
                "version": 1,
                "rules": [{"id": "n", "type": "string_not_contains", "value": "--force", "severity": "warning"}],
            }
        ),
        encoding="utf-8",
    )
    for args, stdin in (
        (["--no-such-option"], None),  # a usage error: exit 2, click's text on stderr
        (["eval", "--rules", str(rules), "--response", "-", "--json"], "git push --force\n"),  # stdin a pipe
    ):
        forked, spawned = forkcli.run(*args, input=stdin), fresh(*args, input=stdin)
        assert (forked.returncode, forked.stdout, forked.stderr) == (
            spawned.returncode,
            spawned.stdout,
            spawned.stderr,
        ), args
    assert json.loads(forked.stdout)["passed"] is False


def test_each_call_is_its_own_process_with_its_own_environment(workspace, tmp_path: Path) -> None:
    root = str(workspace.root)
    workspace.close()
    assert forkcli.server() is not None
    # the workspace named by the call's environment only
    env = {**os.environ, "LOREKEEPER_WORKSPACE": root}
    listed = forkcli.run("skills", "list", "--json", env=env)
    assert listed.returncode == 0, listed.stderr
    assert json.loads(listed.stdout), "the workspace's starter skills"
    missing = forkcli.run("skills", "list", "--json", env={**env, "LOREKEEPER_WORKSPACE": str(tmp_path / "none")})
    assert missing.returncode != 0, missing.stdout  # the call's environment, not the server's
    a, b = forkcli.start(["learn", "add", "First rule", "--workspace", root]), forkcli.start(["--version"])
    assert isinstance(a, forkcli.Forked) and isinstance(b, forkcli.Forked)
    assert len({a.pid, b.pid, os.getpid(), forkcli.server().proc.pid}) == 4  # type: ignore[union-attr]
    for p in (a, b):
        _out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err


def test_a_forked_write_leaves_the_files_a_fresh_process_leaves(workspace_templates, tmp_path: Path) -> None:
    """The child exits through the interpreter's shutdown: its connections closed, SQLite's WAL
    checkpointed and removed, as after a process started from scratch."""
    leftovers = {}
    for how in ("forked", "fresh"):
        ws = workspace_templates.copy(tmp_path / how)
        root = str(ws.root)
        ws.close()
        args = ("--workspace", root, "learn", "add", f"A rule written {how}")
        r = forkcli.run(*args) if how == "forked" else fresh(*args)
        assert r.returncode == 0, r.stderr
        leftovers[how] = sorted(p.name for p in Path(root).iterdir() if p.name.startswith("lorekeeper.db"))
    assert leftovers["forked"] == leftovers["fresh"], leftovers
