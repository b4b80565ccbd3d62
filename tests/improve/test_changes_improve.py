"""Approving a proposal yields a change set naming the proposal, the skill and the audit log."""

from __future__ import annotations


def test_approve_yields_proposals_skills_and_audit(weak_ws):
    created = weak_ws.improve.run_nightly().created[0]
    pid = created["proposal"]
    skill = weak_ws.improve.proposals.get(pid).skill
    with weak_ws.store.capture() as captured:
        weak_ws.improve.proposals.approve(pid, why="fixes it", by="alice")
    changes = captured.changes
    assert str(pid) in changes.ids("proposals")
    assert skill in changes.ids("skills")
    assert "audit" in changes  # the signed decision's checkpoint


def test_the_open_audit_panel_shows_every_event_after_an_approval(qtbot, weak_ws, sync_workers):
    """The issue: after approving a proposal the Audit panel showed 3 of the log's 4 events."""
    from improve_support import open_window

    pid = weak_ws.improve.run_nightly().created[0]["proposal"]
    win = open_window(qtbot, weak_ws)
    audit = win.select_panel("audit")
    qtbot.waitUntil(lambda: audit.events_model.rowCount() == len(weak_ws.audit.log.events()))
    before = audit.events_model.rowCount()
    weak_ws.improve.proposals.approve(pid, why="fixes it", by="alice")  # as the panel's job does
    win.select_panel("audit")
    total = len(weak_ws.audit.log.events())
    assert total > before
    qtbot.waitUntil(lambda: audit.events_model.rowCount() == total, timeout=2000)
    assert audit.count_label.text() == f"{total} of {total} events"
