"""The soak, short (issue 23): the GUI (offscreen MainWindow, its change feed polling) and CLI and MCP
worker processes on one workspace, every kind of write, kill -9 of workers at random points; then
PRAGMA integrity_check is ok, `audit verify` passes and every operation that reported success is
in the store and, for a decision, in the signed log. `tests/bench/bench_soak.py` runs it for
minutes ($LOREKEEPER_SOAK_SECONDS) on SQLite and PostgreSQL."""

from __future__ import annotations

import sys

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")


def test_a_short_soak_loses_nothing_and_corrupts_nothing(qtbot, demo_workspace, tmp_path, confirm_yes):
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1] / "audit"))
    from helpers.soak_gui import run_soak

    verdict, figures = run_soak(
        qtbot,
        demo_workspace,
        tmp_path,
        seconds=6,
        workers={"w1": "cli", "mcp1": "mcp"},
        kill_every=3,
        proposals=8,
        conflicts=4,
    )
    print(f"\nsoak {figures}\n{verdict.text()}")
    assert verdict.clean, verdict.text()
    assert figures["kill9_workers"] >= 1
