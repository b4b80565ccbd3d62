"""The soak (issue 23) for minutes, on SQLite and PostgreSQL: the GUI (offscreen MainWindow) and CLI
and MCP worker processes on one workspace doing every kind of write, kill -9 of a worker every few
seconds; then PRAGMA integrity_check (SQLite; every table read on PostgreSQL), `audit verify` and
every operation that reported success found in the store and, for a decision, in the signed log.

Run: `LOREKEEPER_SOAK_SECONDS=600 python -m pytest -s tests/bench/bench_soak.py` (or `make bench`;
default 60 s per store). Prints the figures per operation kind; no timed assertion.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(TESTS / "audit"), str(TESTS / "store")]

SECONDS = float(os.environ.get("LOREKEEPER_SOAK_SECONDS", "60"))
WORKERS = {"w1": "cli", "w2": "cli", "mcp1": "mcp"}


@pytest.fixture(params=["sqlite", "postgres"])
def soak_ws(request, tmp_path, workspace_templates):
    if request.param == "sqlite":
        ws = workspace_templates.copy(tmp_path / "ws", demo=True)
        yield ws, None
        ws.close()
        return
    from store_helpers import make_demo

    from helpers.pg import fresh_database
    from lorekeeper.workspace import Workspace

    with fresh_database(request.getfixturevalue("pg_cluster")) as url:
        ws = Workspace.open(make_demo(tmp_path / "ws", url))
        yield ws, url
        ws.close()


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_soak(qtbot, soak_ws, tmp_path, confirm_yes):
    from helpers.soak_gui import run_soak

    ws, url = soak_ws
    verdict, figures = run_soak(
        qtbot,
        ws,
        tmp_path,
        seconds=SECONDS,
        workers=WORKERS,
        kill_every=4,
        proposals=max(12, int(SECONDS / 2)),
        conflicts=max(6, int(SECONDS / 6)),
        url=url,
    )
    store = "PostgreSQL" if url else "SQLite"
    print(f"\nsoak on {store}: {figures}\n{verdict.text()}")
    assert verdict.clean, verdict.text()
