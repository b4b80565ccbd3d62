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
