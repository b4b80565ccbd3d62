"""The judged scenario of issue 23, scripted: the operator's session in the app (offscreen) with a
terminal on the same workspace, then Ctrl+Q and a reopen.

The session that once left "database disk image is malformed" behind: approve, undo, edit & approve,
undo, reject, a conflict resolved, a purge from the Purge runs panel, a key rotation, a `learn add`
from a terminal while the app is open (it must appear in the open Learnings panel), a cancelled
pack, F5, Ctrl+Q. Reopened: the workspace opens, `PRAGMA integrity_check` is ok, `audit verify`
passes and every decision that reported success is in the store and in the signed log (the soak's
verdict, `helpers.soak.check`)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QAbstractItemModel, Qt

from helpers import forkcli

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX locks are the point")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "audit"))  # kill_support (the verdict's env)


def _shown(model: QAbstractItemModel, text: str) -> bool:
    return any(
        text in str(model.data(model.index(r, c), Qt.ItemDataRole.DisplayRole) or "")
        for r in range(model.rowCount())
        for c in range(model.columnCount())
    )


@pytest.fixture
def shared_keyring(demo_workspace, tmp_path):
    """The audit key in a keyring file this process and its children share (as the soak's)."""
    from kill_support import use_atomic_keyring

    restore = use_atomic_keyring(demo_workspace.audit.workspace_id, tmp_path / "keyring.json")
    yield
    restore()


def test_the_operator_session_then_ctrl_q_reopens_with_every_decision(
    qtbot, demo_workspace, shared_keyring, confirm_yes
):
    from kill_support import child_env

    from helpers.soak import Journal, check, prepare
    from helpers.soak_gui import GuiActor
    from lorekeeper.ui.main_window import MainWindow
    from lorekeeper.ui.workers import tracker

    ws = demo_workspace
    root = Path(ws.root)
    plan = prepare(ws, ["gui"], proposals=3, conflicts=1)
    journal = Journal(root.parent / "journals" / "gui.jsonl")
    win = MainWindow(ws)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    actor = GuiActor(qtbot, win, plan, journal)
    props = ws.improve.proposals
    p_plain, p_edited, p_rejected = plan["gui"]["proposals"]

    # approve, undo
    assert actor.job("proposal_approve", f"proposal:{p_plain}", props.approve, p_plain, why="looks right")[0]
    assert actor.job("proposal_undo", f"proposal:{p_plain}", props.undo, p_plain, why="second thoughts")[0]
    # edit & approve, undo
    info = props.get(p_edited)
    edited = info.proposed_content + "\nEdited by the operator before approving.\n"
    ok, _approved = actor.job(
        "proposal_approve", f"proposal:{p_edited}", props.approve, p_edited, why="with my edit", content=edited
    )
    assert ok and ws.skills.get(info.skill).content == edited
    assert actor.job("proposal_undo", f"proposal:{p_edited}", props.undo, p_edited, why="not yet")[0]
    # reject; a conflict resolved; a purge from the Purge runs panel; a key rotation
    assert actor.job("proposal_reject", f"proposal:{p_rejected}", props.reject, p_rejected, why="no")[0]
    actor.conflict()
    actor.clarify()
    assert actor.stories, "the clarification to purge was not saved"
    actor.purge()
    actor.rotate()

    # `learn add` from a terminal while the app is open: the open Learnings panel shows it (no F5)
    learnings = win.select_panel("learnings")
    qtbot.waitUntil(lambda: learnings.model.rowCount() > 0, timeout=10000)
    rule = "Operators re-read the diff before every approve"
    n = journal.start("learn_add", f"rule:{rule}")
    r = forkcli.run("--workspace", str(root), "learn", "add", rule, timeout=120, env=child_env())  # another process
    journal.end(n, r.returncode == 0, code=r.returncode, error=r.stderr)
    assert r.returncode == 0, r.stderr
    qtbot.waitUntil(lambda: _shown(learnings.model, rule), timeout=10000)

    # a cancelled pack (Cancel pressed, not a kill), F5, Ctrl+Q
    actor.rng.random = lambda: 0.9  # type: ignore[method-assign]  # >= 0.4: Cancel, not kill -9
    actor.cancelled_pack()
    actor.refresh()
    qtbot.keyClick(win, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not win.isVisible(), timeout=10000)
    qtbot.waitUntil(lambda: tracker().running() == 0, timeout=30000)
    ws.close()

    # reopened: opens, integrity ok, audit verify ok, every decision present and signed
    verdict = check(root, None)
    assert verdict.clean, verdict.text()
    assert verdict.failures.total() == 0, verdict.text()
    expected = {
        "proposal_approve": 2,
        "proposal_undo": 2,
        "proposal_reject": 1,
        "clarify": 1,
        "purge": 1,
        "rotate": 1,
        "learn_add": 1,
        "gui_pack_cancel": 1,
        "gui_f5": 1,
    }
    assert {k: verdict.successes[k] for k in expected} == expected, verdict.text()
    assert verdict.successes["conflict_keep"] + verdict.successes["conflict_reject-all"] == 1, verdict.text()
