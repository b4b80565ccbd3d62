"""Issue 17: proposals learn from decisions (only evidence after the current version and the last
decision counts), one corrections section, related learnings by relevance, approve with edits,
the nightly Sage option."""

from __future__ import annotations

import json

from click.testing import CliRunner
from improve_support import record

from lorekeeper.improve.nightly import SECTION


def created(summary) -> list[str]:
    return [c["skill"] for c in summary.created]


def test_no_proposal_after_a_decision_until_new_evidence(weak_ws):
    props = weak_ws.improve.proposals
    first = weak_ws.improve.run_nightly()
    assert created(first) == ["code-review"]
    props.approve(first.created[0]["proposal"], why="ok")
    assert weak_ws.improve.run_nightly().created == []  # approve -> nightly -> nothing
    assert weak_ws.quality.underperforming() == []  # the Quality panel agrees
    record(weak_ws, "code-review", None, passed=[False, False])  # 2 new failing uses: below the minimum
    assert weak_ws.improve.run_nightly().created == []
    record(weak_ws, "code-review", None, passed=[False])  # the third
    second = weak_ws.improve.run_nightly()
    assert created(second) == ["code-review"]
    p = props.get(second.created[0]["proposal"])
    assert p.metrics["by_project"][0]["applied_count"] == 3  # only the new uses
    assert p.failing_rules[0]["checked"] == 3
    props.reject(p.id, why="not this way")
    assert weak_ws.improve.run_nightly().created == []  # reject -> nightly -> nothing
    record(weak_ws, "code-review", None, passed=[False, False, False])  # 3 new failing uses
    assert created(weak_ws.improve.run_nightly()) == ["code-review"]


def test_four_approve_nightly_cycles_keep_one_corrections_section(weak_ws):
    props = weak_ws.improve.proposals
    for cycle in range(4):
        summary = weak_ws.improve.run_nightly()
        if cycle:  # right after an approval: nothing to propose
            assert summary.created == []
            record(weak_ws, "code-review", None, passed=[False, False, False])
            summary = weak_ws.improve.run_nightly()
        props.approve(summary.created[0]["proposal"], why="ok")
        content = weak_ws.skills.get("code-review").content
        assert content.count(SECTION) == 1, content
        assert content.count('Must satisfy the check "No force push"') == 1
        assert content.count("--force-with-lease on your own branch") == 1


def test_related_learnings_need_relevance_not_shared_stop_words(ws):
    ws.learnings.add(
        "Query elements with getByRole and an accessible name before falling back to data-testid", source="fixit"
    )
    ws.learnings.add("Run odoo-bin --stop-after-init on the staging copy before upgrading production", source="fixit")
    ws.learnings.add("Cite file:line for every code review finding", source="fixit")
    from lorekeeper.improve.evidence import related_learnings

    def rules(skill: str) -> list[str]:
        return [str(x["rule"]) for x in related_learnings(ws.skills, ws.learnings, skill, "", [])]

    # "before" (and a word of the multi-word trigger "slow query") is not enough
    assert rules("performance-profiling") == []
    assert rules("incident-runbook") == []
    assert rules("code-review") == ["Cite file:line for every code review finding"]
    assert rules("deployment-flow") == [
        "Run odoo-bin --stop-after-init on the staging copy before upgrading production"
    ]
    assert rules("security-audit") == []  # "review", "code" and "finding" are generic across the library


def test_a_learning_naming_a_skills_trigger_is_related(ws):
    # "changelog" is a trigger of release-notes only; dependency-upgrade's description also
    # mentions changelogs, which must not make the trigger word generic
    ws.learnings.add("Use ISO dates in the changelog", source="fixit")
    ws.learnings.add("Always check the weather before leaving the house", source="fixit")
    from lorekeeper.improve.evidence import related_learnings

    rel = [str(x["rule"]) for x in related_learnings(ws.skills, ws.learnings, "release-notes", "", [])]
    assert rel == ["Use ISO dates in the changelog"]


def test_approve_with_edits_signs_the_edit(weak_ws):
    from lorekeeper.cli import main

    pid = weak_ws.improve.run_nightly().created[0]["proposal"]
    p = weak_ws.improve.proposals.get(pid)
    edited = p.proposed_content.rstrip("\n") + "\n- Prefer a new commit over rewriting history.\n"
    f = weak_ws.root / "edited.md"
    f.write_text(edited, encoding="utf-8")
    r = CliRunner().invoke(
        main,
        ["proposals", "approve", str(pid), "--content-file", str(f), "--workspace", str(weak_ws.root)],
        catch_exceptions=False,
    )
    assert r.exit_code == 0, r.output
    assert "with your edits" in r.output
    assert weak_ws.skills.get("code-review").content == edited
    events = [
        json.loads(line)
        for path in sorted((weak_ws.root / "sessions").rglob("*.jsonl"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    approved = [e for e in events if e["type"] == "proposal_approved"]
    data = approved[-1]["content"]["data"]  # the signed event's payload
    assert data["edited"]["lines_added"] == 1 and data["edited"]["lines_removed"] == 0
    import hashlib

    assert data["content_sha256"] == hashlib.sha256(edited.encode()).hexdigest()
    assert data["edited"]["proposed_sha256"] == hashlib.sha256(p.proposed_content.encode()).hexdigest()


def test_approve_with_a_renaming_edit_is_refused(weak_ws):
    import pytest

    from lorekeeper.errors import InvalidInputError

    pid = weak_ws.improve.run_nightly().created[0]["proposal"]
    p = weak_ws.improve.proposals.get(pid)
    with pytest.raises(InvalidInputError):
        weak_ws.improve.proposals.approve(pid, content=p.proposed_content.replace("name: code-review", "name: other"))
    assert weak_ws.improve.proposals.get(pid).status == "pending"


def test_nightly_sage_without_a_model_says_so_and_templates_still_run(weak_ws):
    from lorekeeper.cli import main

    r = CliRunner().invoke(
        main, ["nightly", "--sage", "--json", "--workspace", str(weak_ws.root)], catch_exceptions=False
    )
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert [c["skill"] for c in data["created"]] == ["code-review"]
    assert data["notes"] and data["notes"][0].startswith("Sage skipped: it needs a model")
