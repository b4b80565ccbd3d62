"""The undo of an arbitration (issue 30 d3: "undo of any decision still undoable"): the conflict is
open again, its facts back in conflict, a merge's fact rejected; a signed event naming the
resolution it undoes; refused while a later decision stands on one of its facts."""

from __future__ import annotations

from pathlib import Path

import pytest
from facts_helpers import lk, write_docs

from lorekeeper.errors import InvalidInputError
from lorekeeper.workspace import Workspace

DOC = """# Releases

We deploy on Friday evenings after 18:00.
No deploys on Fridays.
"""


def conflict_of_two(ws: Workspace, tmp_path: Path) -> tuple[int, str, str]:
    doc = write_docs(tmp_path, {"release.md": DOC}) / "release.md"
    a = ws.facts.add(
        "nord",
        "runbook",
        "Deploy on Friday evenings after 18:00.",
        str(doc),
        "We deploy on Friday evenings after 18:00.",
    ).fact.id
    b = ws.facts.add("nord", "runbook", "Never deploy on a Friday.", str(doc), "No deploys on Fridays.").fact.id
    rep = ws.facts.apply_recorded_consolidation({"contradictions": [{"facts": [a, b], "reason": "Friday"}]}, "nord")
    (cid,) = rep.conflicts
    return cid, a, b


def events(ws: Workspace, kind: str) -> list[dict]:
    return [e.data for e in ws.audit.log.events() if e.type == kind]


def test_undo_a_keep_then_arbitrate_again(workspace: Workspace, tmp_path: Path) -> None:
    facts = workspace.facts
    cid, a, b = conflict_of_two(workspace, tmp_path)
    resolved = facts.resolve(cid, keep=b, why="the runbook is current")
    assert facts.show(b).status == "approved" and b in [f.id for f in facts.pack("nord").facts]

    d = facts.reopen_conflict(cid, why="kept the wrong one")
    assert d.conflict is not None and d.conflict.status == "open" and not d.conflict.resolution
    assert {f.id: f.status for f in d.facts} == {a: "conflicting", b: "conflicting"}
    assert [c.id for c in facts.conflicts(status="open")] == [cid]
    assert b not in [f.id for f in facts.pack("nord").facts]  # conflicting facts never enter a pack
    (undo,) = events(workspace, "fact_conflict_reopened")
    assert undo["undoes"] == resolved.event_sig and undo["resolution"] == "keep" and undo["result"] == b
    assert undo["why"] == "kept the wrong one" and undo["by"] and undo["facts"] == [a, b]
    facts.rows.forget()  # every row it wrote is signed: read again from scratch, all verify
    assert {f.id for f in facts.list("nord")} >= {a, b}

    again = facts.resolve(cid, keep=a, why="Friday evenings are the release window")
    assert {f.id: f.status for f in again.facts} == {a: "approved", b: "rejected"}
    facts.reopen(a)  # a later decision on the kept fact (back to candidate) …
    with pytest.raises(InvalidInputError, match=f"{a} was decided again"):
        facts.reopen_conflict(cid)  # … stands: the arbitration's undo is refused, nothing written
    assert facts.conflict(cid).status == "resolved" and facts.show(b).status == "rejected"


def test_undo_a_merge_rejects_the_merged_fact(workspace: Workspace, tmp_path: Path) -> None:
    facts = workspace.facts
    cid, a, b = conflict_of_two(workspace, tmp_path)
    merged = facts.resolve(cid, merge="Deploy on Fridays only after 18:00.", why="both are half right").fact
    assert merged.status == "approved" and {facts.show(x).merged_into for x in (a, b)} == {merged.id}

    d = facts.reopen_conflict(f"#{cid}")
    status = {f.id: (f.status, f.merged_into) for f in d.facts}
    assert status == {a: ("conflicting", ""), b: ("conflicting", ""), merged.id: ("rejected", "")}
    assert "the merge undone" in facts.show(merged.id).decision_reason
    packed = [f.id for f in facts.pack("nord").facts]
    assert not {a, b, merged.id} & set(packed)
    assert events(workspace, "fact_conflict_reopened")[0]["why"] == "undo"  # the default reason

    remerged = facts.resolve(cid, merge="Deploy on Fridays only after 18:00.", why="again").fact
    assert remerged.id != merged.id and remerged.status == "approved"


def test_nothing_to_undo_and_the_cli(workspace: Workspace, tmp_path: Path) -> None:
    cid, _a, _b = conflict_of_two(workspace, tmp_path)
    with pytest.raises(InvalidInputError, match="is open"):
        workspace.facts.reopen_conflict(cid)
    workspace.facts.resolve(cid, reject_all=True, why="neither is the rule")
    root = workspace.root
    workspace.close()
    code, out, err = lk(root, "facts", "reopen-conflict", str(cid), "--reason", "too hasty")
    assert code == 0, err
    assert out["conflict"]["status"] == "open" and {f["status"] for f in out["facts"]} == {"conflicting"}
    code, out, _ = lk(root, "facts", "reopen-conflict", str(cid))
    assert code == 2 and out["error"]["code"] == "ERR_INVALID_INPUT" and "is open" in out["error"]["message"]
