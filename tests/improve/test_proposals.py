"""Approve / reject / undo: effects on the skill, the proposal, and the signed audit log."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from lorekeeper.audit.errors import AuditKeyUnavailableError
from lorekeeper.errors import InvalidInputError


@pytest.fixture
def proposal(weak_ws):
    return weak_ws.improve.proposals.get(weak_ws.improve.run_nightly().created[0]["proposal"])


def events(ws, kind: str) -> list[dict]:
    return [e.data for e in ws.audit.log.events() if e.type == kind and e.status == "valid"]


def test_approve_backs_up_and_makes_the_proposal_current(weak_ws, proposal):
    before = weak_ws.skills.get("code-review")
    p = weak_ws.improve.proposals.approve(proposal.id, why="fixes the force-push answers", by="alice")
    now = weak_ws.skills.get("code-review")
    assert now.content == proposal.proposed_content
    assert now.version == before.version + 1 == p.applied_version
    assert now.evals == before.evals  # the rules are untouched
    history = {v.version: v for v in weak_ws.skills.versions("code-review")}
    assert history[before.version].content == before.content  # the backup
    assert f"proposal #{p.id} approved by alice" in history[now.version].message
    assert (p.status, p.decided_by, p.decision_reason) == ("approved", "alice", "fixes the force-push answers")
    assert p.decided_at is not None
    # the skills/ folder agents read is rewritten
    assert (weak_ws.root / "skills" / "code-review" / "SKILL.md").read_text(
        encoding="utf-8"
    ) == proposal.proposed_content
    [ev] = events(weak_ws, "proposal_approved")
    assert ev["proposal"] == p.id and ev["by"] == "alice" and ev["why"] == "fixes the force-push answers"
    assert ev["backup_version"] == before.version
    assert weak_ws.audit.verify().ok


def test_reject_changes_only_the_status(weak_ws, proposal):
    before = weak_ws.skills.get("code-review")
    with pytest.raises(InvalidInputError, match="needs a reason"):
        weak_ws.improve.proposals.reject(proposal.id, why="  ")
    p = weak_ws.improve.proposals.reject(proposal.id, why="too vague", by="bob")
    after = weak_ws.skills.get("code-review")
    assert (after.version, after.content) == (before.version, before.content)
    assert (p.status, p.decided_by, p.decision_reason) == ("rejected", "bob", "too vague")
    [ev] = events(weak_ws, "proposal_rejected")
    assert (ev["proposal"], ev["by"], ev["why"]) == (p.id, "bob", "too vague")
    with pytest.raises(InvalidInputError, match="already rejected"):
        weak_ws.improve.proposals.approve(p.id)


def test_undo_an_approval_restores_the_backup(weak_ws, proposal):
    weak_ws.improve.proposals.approve(proposal.id, why="try it")
    p = weak_ws.improve.proposals.undo(proposal.id, why="made it worse")
    current = weak_ws.skills.get("code-review")
    assert current.content == proposal.current_content
    assert p.status == "pending" and p.applied_version is None
    assert events(weak_ws, "proposal_undone")[0]["undone"] == "approved"
    # decided again after an undo, without --force
    again = weak_ws.improve.proposals.approve(proposal.id)
    assert weak_ws.skills.get("code-review").content == proposal.proposed_content and again.status == "approved"


def test_undo_a_rejection(weak_ws, proposal):
    weak_ws.improve.proposals.reject(proposal.id, why="no")
    p = weak_ws.improve.proposals.undo(proposal.id)
    assert p.status == "pending" and p.decision_reason == ""
    with pytest.raises(InvalidInputError, match="no decision to undo"):
        weak_ws.improve.proposals.undo(proposal.id)


def test_undo_from_the_versions_history(weak_ws, proposal):
    """What the skill's Versions tab does: restore the backed-up version."""
    p = weak_ws.improve.proposals.approve(proposal.id)
    weak_ws.skills.restore("code-review", None, p.base_version)
    assert weak_ws.skills.get("code-review").content == proposal.current_content


def test_decisions_fail_closed_without_the_audit_key(weak_ws, proposal, monkeypatch):
    def no_key():
        raise AuditKeyUnavailableError("keyring locked", cause="unavailable", provider="keyring")

    before = weak_ws.skills.get("code-review").version
    monkeypatch.setattr(weak_ws.audit, "_log", None)
    monkeypatch.setattr(weak_ws.audit, "require_key", no_key)
    with pytest.raises(AuditKeyUnavailableError):
        weak_ws.improve.proposals.approve(proposal.id)
    with pytest.raises(AuditKeyUnavailableError):
        weak_ws.improve.proposals.reject(proposal.id, why="x")
    assert weak_ws.skills.get("code-review").version == before
    assert weak_ws.improve.proposals.get(proposal.id).status == "pending"


def test_approve_refuses_a_skill_changed_since(weak_ws, proposal):
    cur = weak_ws.skills.get("code-review")
    weak_ws.skills.save("code-review", None, cur.content + "\nEdited by hand.\n")
    with pytest.raises(InvalidInputError, match="changed since proposal"):
        weak_ws.improve.proposals.approve(proposal.id)
    p = weak_ws.improve.proposals.approve(proposal.id, force=True)
    assert p.base_version == cur.version + 1


def test_cli_proposals_flow(weak_ws, proposal):
    from lorekeeper.cli import main

    root = str(weak_ws.root)
    r = CliRunner().invoke(main, ["proposals", "list", "--json", "--workspace", root], catch_exceptions=False)
    assert [p["id"] for p in json.loads(r.output)] == [proposal.id]
    r = CliRunner().invoke(main, ["proposals", "show", str(proposal.id), "--workspace", root], catch_exceptions=False)
    assert "Skill: code-review" in r.output and "Reason: low success rate (50%)" in r.output
    assert "• Never force-push a shared branch" in r.output and "+## Corrections from review" in r.output
    r = CliRunner().invoke(main, ["proposals", "reject", str(proposal.id), "--workspace", root])
    assert r.exit_code == 2  # --why is required
    r = CliRunner().invoke(
        main,
        ["proposals", "approve", str(proposal.id), "--why", "ok", "--by", "carol", "--workspace", root],
        catch_exceptions=False,
    )
    assert r.exit_code == 0 and "approved" in r.output
    r = CliRunner().invoke(main, ["proposals", "approve", str(proposal.id), "--workspace", root])
    assert r.exit_code == 2 and "already approved by carol" in r.output
    r = CliRunner().invoke(main, ["proposals", "show", "999", "--workspace", root])
    assert r.exit_code == 3


def test_approval_without_a_note_records_why_from_the_reason(weak_ws, proposal):
    p = weak_ws.improve.proposals.approve(proposal.id)
    assert p.decision_reason == "accepted as proposed: low success rate (50%)"
    [ev] = events(weak_ws, "proposal_approved")
    assert ev["why"] == p.decision_reason and ev["proposal_reason"] == "low success rate (50%)"
    assert ev["by"] and ev["at"]
