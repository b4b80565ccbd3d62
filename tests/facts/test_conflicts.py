"""Contradictions: the LLM consolidation marks them `conflicting` with a conflict record and never
chooses; a human resolves them (keep, merge, reject all) with a reason, as a signed event; the
losing facts keep their history. Plus the demo's content and the FACTS prompt block."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from facts_helpers import lk, write_docs
from sqlalchemy import text

from lorekeeper.errors import InvalidInputError
from lorekeeper.llm.base import LLMSettings
from lorekeeper.workspace import Workspace

DOC = """# Releases

We deploy on Friday evenings after 18:00.
No deploys on Fridays.
Use Java 21 for every service.
Every service runs on Java 21.
"""


def two_facts(ws: Workspace, tmp_path: Path) -> tuple[str, str, str, str]:
    doc = write_docs(tmp_path, {"release.md": DOC}) / "release.md"
    a = ws.facts.add(
        "nord",
        "runbook",
        "Deploy on Friday evenings after 18:00.",
        str(doc),
        "We deploy on Friday evenings after 18:00.",
    ).fact
    b = ws.facts.add("nord", "runbook", "Never deploy on a Friday.", str(doc), "No deploys on Fridays.").fact
    c = ws.facts.add("nord", "stack", "Use Java 21 for every service.", str(doc), "Use Java 21 for every service.").fact
    d = ws.facts.add("nord", "stack", "Run each service on Java 21.", str(doc), "Every service runs on Java 21.").fact
    return a.id, b.id, c.id, d.id


def test_llm_consolidation_merges_paraphrases_and_flags_contradictions(
    workspace: Workspace, tmp_path: Path, ollama_server: Any
) -> None:
    a, b, c, d = two_facts(workspace, tmp_path)
    workspace.llm.configure(
        LLMSettings(provider="ollama", model="llama-test", base_url=ollama_server.url, max_retries=0)
    )
    answer = {
        "merges": [{"facts": [c, d], "statement": "Run every service on Java 21."}],
        "contradictions": [{"facts": [a, b], "reason": "Friday deploys: allowed in one, forbidden in the other."}],
    }
    # a schema violation in the model's answer changes nothing
    ollama_server.behaviour.reply = lambda body: json.dumps({"merges": [{"facts": [a]}]})
    code, out, _ = lk(workspace.root, "facts", "consolidate", "--project", "nord", "--llm")
    assert code != 0 and out["error"]["code"] == "ERR_MODEL_ANSWER_INVALID"
    assert {f.status for f in workspace.facts.list("nord")} == {"candidate"} and not workspace.facts.conflicts()

    ollama_server.behaviour.reply = lambda body: json.dumps(answer)
    code, rep, err = lk(workspace.root, "facts", "consolidate", "--project", "nord", "--llm")
    assert code == 0, err
    assert rep["paraphrases"] == [{"facts": [c, d], "into": c, "statement": "Run every service on Java 21."}]
    (cid,) = rep["conflicts"]
    merged = workspace.facts.show(c)
    assert (
        merged.statement == "Run every service on Java 21."
        and merged.corroboration == 1
        and len(merged.provenance) == 2
    )
    assert workspace.facts.show(d).merged_into == c
    code, out, _ = lk(workspace.root, "facts", "conflicts", "--project", "nord")
    assert out["conflicts"] == [
        {
            **out["conflicts"][0],
            "id": cid,
            "facts": [a, b],
            "reason": "Friday deploys: allowed in one, forbidden in the other.",
        }
    ]
    assert {workspace.facts.show(x).status for x in (a, b)} == {"conflicting"}  # never chosen
    pack_ids = [f.id for f in workspace.facts.pack("nord").facts]
    assert a not in pack_ids and b not in pack_ids  # conflicting facts never enter a pack
    with pytest.raises(InvalidInputError):
        workspace.facts.approve(a)  # arbitration goes through `facts resolve`


def test_resolve_keep_merge_reject_all_with_a_reason(workspace: Workspace, tmp_path: Path) -> None:
    a, b, c, d = two_facts(workspace, tmp_path)
    rep = workspace.facts.apply_recorded_consolidation(
        {"contradictions": [{"facts": [a, b], "reason": "Friday"}, {"facts": [c, d], "reason": "Java"}]}, "nord"
    )
    first, second = rep.conflicts
    code, out, _ = lk(workspace.root, "facts", "resolve", str(first), "--keep", b)
    assert code == 2  # --reason is required
    code, out, _ = lk(workspace.root, "facts", "resolve", str(first), "--keep", c, "--reason", "x")
    assert code == 2  # not part of that conflict
    code, out, err = lk(
        workspace.root, "facts", "resolve", str(first), "--keep", b, "--reason", "the runbook is current"
    )
    assert code == 0, err
    assert out["conflict"]["status"] == "resolved" and out["conflict"]["resolution"] == "keep"
    status = {f["id"]: f["status"] for f in out["facts"]}
    assert status == {b: "approved", a: "rejected"}
    loser = workspace.facts.show(a)
    assert loser.provenance and "the runbook is current" in loser.decision_reason  # history kept
    code, out, _ = lk(workspace.root, "facts", "resolve", str(first), "--reject-all", "--reason", "again")
    assert code == 2  # already resolved

    code, out, _ = lk(workspace.root, "facts", "resolve", str(second), "--merge", "Run every service on Java 21 LTS.",
                      "--reason", "same rule")  # fmt: skip
    assert code == 0
    new = out["facts"][0]
    assert new["status"] == "approved" and new["statement"] == "Run every service on Java 21 LTS."
    assert len(new["provenance"]) == 2 and new["id"] not in (c, d)
    assert {workspace.facts.show(x).merged_into for x in (c, d)} == {new["id"]}
    code, listed, _ = lk(workspace.root, "facts", "conflicts", "--project", "nord")
    assert listed == {"conflicts": []}
    events = [e for e in workspace.audit.log.events() if e.type == "fact_conflict_resolved"]
    assert [e.data["resolution"] for e in events] == ["keep", "merge"]
    assert events[0].data["why"] == "the runbook is current" and events[0].data["by"] and events[0].data["at"]


def test_a_tampered_fact_row_is_never_shown_or_packed(workspace: Workspace, tmp_path: Path) -> None:
    a = two_facts(workspace, tmp_path)[0]
    with workspace.store.write() as s:  # written behind the service's back (plain SQL, outside the
        # ORM whose commit hook signs the app's own writes): the signature no longer matches
        assert s.execute(text("UPDATE facts SET confidence = 1.0 WHERE id = :i"), {"i": a}).rowcount == 1
    workspace.facts.rows.forget()
    assert a not in [f.id for f in workspace.facts.list("nord")]
    assert a not in [f.id for f in workspace.facts.pack("nord").facts]
    assert any(e.type == "unsigned_entry" for e in workspace.audit.log.events())


def test_demo_opens_on_candidates_and_one_real_conflict(demo_workspace: Workspace) -> None:
    facts = demo_workspace.facts
    counts = facts.counts()
    assert counts["candidate"] >= 20 and counts["approved"] == 0 and counts["conflicting"] == 2
    (conflict,) = facts.conflicts()
    sides = [facts.show(i) for i in conflict.facts]
    assert {p.origin for f in sides for p in f.provenance} == {
        "citadel-v2-deployment-runbook.md",
        "citadel-v2-onboarding-2024.md",
    }
    assert any(f.corroboration == 2 for f in facts.list("citadel-v2"))  # the onboarding note corroborates
    dropped = [d["reason"] for r in facts.runs() for d in r["report"]["dropped"]]
    assert any(r.startswith("invented quote") for r in dropped) and any(r.startswith("schema") for r in dropped)
    assert demo_workspace.llm.status().ready is False  # all of it without a model


def test_prompt_carries_a_facts_block_within_its_budget(demo_workspace: Workspace) -> None:
    assembled = demo_workspace.prompts.build("How do I ship the release?", "citadel-v2")
    (block,) = [text for name, text in assembled.blocks if name == "facts"]
    assert block.startswith("FACTS (citadel-v2")
    assert "Never call `cr.commit()` in business code" in block
    assert "Deploy Citadel releases on Friday evenings" not in block  # conflicting: never injected
    from lorekeeper.context import tokens

    assert tokens.count(block) <= demo_workspace.facts.prompt_budget() + 20
    assert not [n for n, _ in demo_workspace.prompts.build("hello", None).blocks if n == "facts"]


def test_fact_decisions_name_their_operator_and_list_filters_on_it(workspace: Workspace, tmp_path: Path) -> None:
    """Issue 25 d2: a fact's decision records the session's operator (here as a Vault identity
    would name it), in --json, in its signed event, and `facts list --by` / `conflicts --by` filter."""
    a, b, c, _d = two_facts(workspace, tmp_path)
    workspace.audit._operator = "token-carol"  # what AuditService.operator() asks Vault for once
    workspace.facts.approve(a)
    workspace.facts.reject(b, why="contradicts the runbook")
    workspace.facts.approve(c, by="dave")  # an explicit name wins

    code, out, err = lk(workspace.root, "facts", "list", "--project", "nord", "--by", "token-carol")
    assert code == 0, err
    assert sorted(f["id"] for f in out["facts"]) == sorted([a, b])
    assert {f["decided_by"] for f in out["facts"]} == {"token-carol"}
    code, out, _ = lk(workspace.root, "facts", "list", "--project", "nord", "--by", "DAVE")
    assert [f["id"] for f in out["facts"]] == [c]
    code, out, _ = lk(workspace.root, "audit", "events", "--by", "token-carol")
    assert {e["type"] for e in out["events"]} == {"fact_approved", "fact_rejected"}, out["events"]
    code, out, _ = lk(workspace.root, "facts", "conflicts", "--by", "token-carol")
    assert code == 0 and out["conflicts"] == []


def test_a_resolved_conflict_names_its_operator_and_conflicts_by_filters(demo_workspace: Workspace) -> None:
    """Issue 25 d2: who resolved a conflict is its session's operator, and `facts conflicts --by` keeps it."""
    (conflict,) = demo_workspace.facts.conflicts()
    demo_workspace.audit._operator = "token-erin"  # what AuditService.operator() asks Vault for once
    demo_workspace.facts.resolve(conflict.id, keep=conflict.facts[0], why="the runbook is newer")

    code, out, err = lk(demo_workspace.root, "facts", "conflicts", "--by", "token-erin")
    assert code == 0, err
    assert [(c["id"], c["resolved_by"]) for c in out["conflicts"]] == [(conflict.id, "token-erin")]
    code, out, _ = lk(demo_workspace.root, "facts", "conflicts", "--by", "someone-else")
    assert out["conflicts"] == []
    code, out, _ = lk(demo_workspace.root, "audit", "events", "--by", "token-erin")
    assert [e["type"] for e in out["events"]] == ["fact_conflict_resolved"], out["events"]
