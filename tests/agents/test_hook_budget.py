"""A cold hook that would exceed its budget answers with what it has and says so in its log (issue
26 d1): here the Stop hook finds the store's write lock held by another process (it would wait the
store's 15 s busy timeout, past Claude Code's 10 s kill), and answers at its budget instead."""

from __future__ import annotations

import os
import sqlite3
import subprocess

from sqlalchemy import select
from test_hooks import hook_input

from helpers.cli import run_lorekeeper_process
from lorekeeper.store.models import EvalRun


def test_a_cold_stop_hook_stuck_on_the_write_lock_answers_at_its_budget(demo_workspace) -> None:
    ws = demo_workspace
    env = dict(os.environ, LOREKEEPER_HOOK_WAIT="2", LOREKEEPER_AGENTD="off")
    payload = hook_input("Stop", stop_hook_active=False)
    blocker = sqlite3.connect(ws.root / "lorekeeper.db", timeout=30)
    try:
        blocker.execute("BEGIN IMMEDIATE")  # another process's long write transaction
        try:
            res = run_lorekeeper_process(
                "--workspace", str(ws.root), "hooks", "claude-code", "stop", input=payload, env=env, timeout=12
            )
        except subprocess.TimeoutExpired as exc:
            raise AssertionError("the hook waited for the lock past its budget (and Claude Code's 10 s)") from exc
    finally:
        blocker.rollback()
        blocker.close()
    assert res.returncode == 0 and res.stdout == "", res.stderr
    log = (ws.root / "logs" / "hooks.log").read_text(encoding="utf-8")
    assert "Stop: exceeded its 2 s budget" in log, log
    with ws.store.session() as s:  # nothing half-recorded
        assert not s.scalars(select(EvalRun).where(EvalRun.source == "claude-code")).all()

    # the lock released, the same hook records as before (a generous budget: a cold process on a
    # loaded machine can take over 2 s by itself, which is not what this half checks)
    env["LOREKEEPER_HOOK_WAIT"] = "60"
    res = run_lorekeeper_process("--workspace", str(ws.root), "hooks", "claude-code", "stop", input=payload, env=env)
    assert res.returncode == 0, res.stderr
    with ws.store.session() as s:
        assert s.scalars(select(EvalRun).where(EvalRun.source == "claude-code")).all()
