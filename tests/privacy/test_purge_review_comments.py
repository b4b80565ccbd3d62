"""Review comments are free text about a story (issue 30 d3): the right to be forgotten erases the
comments that name the story or sit on a proposal built from its learnings, their signed rows
through the row ledger and their events as tombstones; every other comment stays and verifies."""

from __future__ import annotations

from purge_helpers import files_holding, seed
from sqlalchemy import select

from lorekeeper.improve.proposals import NewProposal
from lorekeeper.store.models import Learning
from lorekeeper.workspace import Workspace

SECRET = "Madame Ondine Varlamov-Quist called twice about her refund"


def test_purge_erases_the_comments_of_the_story_and_keeps_the_chain(workspace: Workspace) -> None:
    ws = workspace
    seed(ws, "PD-1")
    seed(ws, "PD-2")
    with ws.store.session() as s:
        learning = s.scalar(select(Learning.id).where(Learning.story == "PD-1"))
    skill = ws.skills.get("code-review")
    proposal = ws.improve.proposals.create(
        NewProposal(
            skill="code-review",
            scope="",
            project="backend",
            source="template",
            reason="PD-1's learning",
            summary="one more step",
            metrics={},
            failing_rules=[],
            learnings=[{"id": learning, "rule": "a rule", "source": "fixit", "project": "backend"}],
            base_version=skill.version,
            current_content=skill.content,
            proposed_content=skill.content + "\nOne more step.\n",
        )
    )
    assert proposal is not None
    notes = ws.review
    named = notes.comment("fact", "backend:runbook:1", f"PD-1: {SECRET}")
    linked = notes.comment("proposal", proposal.id, "Ask the reporter before approving: she is upset")
    other = notes.comment("fact", "backend:runbook:1", "PD-2 is about the latency board")
    prefix = notes.comment("conflict", 7, "Same as PD-12, not this story")
    assert ws.purge.plan("PD-1")["store"] >= 2 + 3  # the two comments, the story's rows

    result = ws.purge.purge_story("PD-1")
    assert result.verified, result.remaining
    kept = {c.id for c in notes.comments("fact", "backend:runbook:1")} | {c.id for c in notes.comments("conflict", 7)}
    assert kept == {other.id, prefix.id}  # PD-12 is not PD-1
    assert notes.comments("proposal", proposal.id) == [] and named.id not in kept and linked.id not in kept
    assert files_holding(ws.root, "Ondine Varlamov-Quist") == []  # no byte left: db, WAL, logs
    events = [e for e in ws.audit.log.events() if e.type == "review_comment"]
    assert sorted(e.status for e in events) == ["tombstone", "tombstone", "valid", "valid"]
    assert ws.audit.log.verify().ok  # tombstones keep the chain verifiable
    ws.audit.row_verifier().refresh()
    assert len(notes.comments("fact", "backend:runbook:1")) == 1  # the ledger still names the kept rows
    assert ws.purge.purge_story("PD-1").artefacts["store"] == 0  # idempotent
