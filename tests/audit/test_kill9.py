"""kill -9 during skill imports, rotations and learnings imports: no change without its event, no
half file in skills/ (issue 18). 6 runs here; `tests/bench/bench_audit_kill.py` runs 50."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")


def test_kill_9_never_leaves_a_change_without_its_event(workspace, tmp_path, monkeypatch):
    import shutil

    import keyring
    from kill_support import run

    # the file keyring that stands in for the OS keyring rewrites its file in place: a kill during a
    # rotation can tear it, so this test gets a copy of its own (a real OS keyring is a daemon)
    src = keyring.get_keyring().file_path
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    dest = keyring.get_keyring().file_path
    Path(dest).parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(src, dest)
    root = workspace.root
    workspace.close()
    results = run(root, iterations=6)  # 2 per operation here (CPU budget); the bench runs 50
    assert {r["op"] for r in results} == {"learn", "skills", "rotate"}
