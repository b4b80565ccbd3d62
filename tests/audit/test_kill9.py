"""kill -9 during skill imports, rotations and learnings imports: no change without its event, no
half file in skills/ (issue 18). 6 runs here; `tests/bench/bench_audit_kill.py` runs 50."""

from __future__ import annotations

import sys

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")


def test_kill_9_never_leaves_a_change_without_its_event(workspace, tmp_path):

    from kill_support import run, use_atomic_keyring

    restore = use_atomic_keyring(workspace.audit.workspace_id, tmp_path / "keyring.json")
    root = workspace.root
    workspace.close()
    try:
        results = run(root, iterations=6)  # 2 per operation here (CPU budget); the bench runs 50
        assert {r["op"] for r in results} == {"learn", "skills", "rotate"}
    finally:
        restore()
