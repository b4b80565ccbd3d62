"""B3/B4: the reuse score formula, `learn scores`, `morning`'s format, promotion, eviction at 56 vs
57 days, restore with a signed event, and unsigned rows never counted."""

from __future__ import annotations

import json
import math
import re
from datetime import timedelta

import pytest
from memory_support import events, old

from helpers.cli import run_lorekeeper
from lorekeeper.learnings.reuse import format_score, promoted_scope, reuse_score


def expected(inj: int, go: int, dom: int) -> float:
    return min(float(f"{math.tanh((inj * 0.4 + go * 0.4 + dom * 0.2) / 10):.4f}"), 0.9999)


@pytest.mark.parametrize(
    ("inj", "go", "dom"),
    [(0, 0, 0), (1, 0, 1), (1, 1, 1), (4, 3, 1), (5, 5, 2), (10, 8, 3), (40, 40, 9), (200, 200, 50)],
)
def test_reuse_score_is_the_seed_formula_with_4_decimals_and_capped(inj: int, go: int, dom: int) -> None:
    score = reuse_score(inj, go, dom)
    assert score == expected(inj, go, dom)
    assert score <= 0.9999
    assert re.fullmatch(r"\d\.\d{4}", format_score(score))
    assert format_score(reuse_score(200, 200, 50)) == "0.9999"  # tanh rounds to 1.0000: capped


def test_promotion_thresholds() -> None:
    assert promoted_scope(0.2999, 5) is None
    assert promoted_scope(0.3, 1) == "domain"
    assert promoted_scope(0.3, 0) is None
    assert promoted_scope(0.6, 1) == "domain"
    assert promoted_scope(0.6, 2) == "global"
    assert promoted_scope(0.5999, 3) == "domain"


def _cycle(ws, stories: list[tuple[str, str, str, int]]) -> None:
    """Start each story `n` times (each start is one traced injection), then close it with its gate."""
    for sid, domain, gate, n in stories:
        for _ in range(n):
            assert ws.stories.start(sid, domain, "backend").error is None
        ws.stories.close(sid, "DONE", gate)


def test_scores_from_signed_injections_and_gate_outcomes_then_promotion(workspace) -> None:
    ws = workspace
    a = ws.learnings.add("Rotate JWT signing keys every 90 days", domain="auth", tags="jwt,keys", story="PD-1")
    g = ws.learnings.add("Never log tokens", scope="global", tags="logging")
    # auth: 3 stories (2 GO), 5 injections; billing: 2 stories (both GO), 5 injections of the global one
    _cycle(ws, [("AU-1", "auth", "GO", 3), ("AU-2", "auth", "GO", 1), ("AU-3", "auth", "NO_GO", 1)])
    _cycle(ws, [("BI-1", "billing", "GO", 4), ("BI-2", "billing", "GO", 1)])
    out = run_lorekeeper("learn", "scores", "--json", "--workspace", str(ws.root))
    assert out.returncode == 0, out.stderr
    rows = {r["id"]: r for r in json.loads(out.stdout)["learnings"]}
    ra, rg = rows[a.id], rows[g.id]
    assert (ra["injections"], ra["gate_go"], ra["domains"]) == (5, 2, 1)
    assert (rg["injections"], rg["gate_go"], rg["domains"]) == (10, 4, 2)
    for r in rows.values():
        assert r["reuse_score"] == expected(r["injections"], r["gate_go"], r["domains"])
    assert ra["reuse_score"] == 0.2913 and ra["scope"] == "story"  # tanh((2.0 + 0.8 + 0.2)/10): below 0.3
    assert rg["reuse_score"] == 0.5370 and rg["scope"] == "global"  # never demoted
    lines = run_lorekeeper("morning", "--workspace", str(ws.root)).stdout.splitlines()
    assert lines == ["- [-] [logging] score=0.5370", "- [PD-1] [jwt, keys] score=0.2913"]
    # one more GO story in auth: 6 injections, 3 GO -> tanh(0.38) = 0.3627 >= 0.3 with 1 domain: domain
    _cycle(ws, [("AU-4", "auth", "GO", 1)])
    assert ws.learnings.get(a.id).scope == "domain"
    assert any(e["content"]["data"]["id"] == a.id for e in events(ws, "learning_promoted"))


def test_morning_prints_exactly_the_3_highest(workspace) -> None:
    ws = workspace
    ids = [ws.learnings.add(f"rule number {i}", domain="d", tags=f"t{i}", story=f"S-{i}").id for i in range(4)]
    for n, lid in enumerate(ids):  # learning i injected i times through signed rows
        for k in range(n):
            inj = ws.stories.start(f"X-{lid}-{k}", "d", "p")
            assert inj.error is None
        ws.learnings.edit(lid, scope="story")
    out = run_lorekeeper("morning", "--workspace", str(ws.root))
    lines = out.stdout.splitlines()
    assert len(lines) == 3
    for line in lines:
        assert re.fullmatch(r"- \[[^\]]*\] \[[^\]]*\] score=\d\.\d{4}", line), line
    scores = [float(line.rsplit("=", 1)[1]) for line in lines]
    assert scores == sorted(scores, reverse=True)


def test_eviction_at_56_vs_57_days_and_signed_restore(workspace) -> None:
    ws = workspace
    now = old(0)
    keep = ws.learnings.add("fifty-six days old", created_at=now - timedelta(days=56))
    go = ws.learnings.add("fifty-seven days old", created_at=now - timedelta(days=57))
    used = ws.learnings.add("old but injected", created_at=now - timedelta(days=300), scope="global")
    assert ws.stories.start("EV-1", "x", "y").error is None
    today = now.date().isoformat()
    out = run_lorekeeper("learn", "archive-stale", "--today", today, "--json", "--workspace", str(ws.root))
    assert out.returncode == 0, out.stderr
    archived = {a["id"] for a in json.loads(out.stdout)["archived"]}
    assert go.id in archived and keep.id not in archived and used.id not in archived
    assert ws.learnings.get(go.id).status == "archived"
    assert events(ws, "learnings_evicted")[-1]["sig"]
    # archived learnings leave the learnings index
    ws.memory.ensure("learnings")
    assert str(go.id) not in {e["key"] for e in ws.memory.index("learnings").meta()["entries"].values()}
    out = run_lorekeeper("learn", "restore", str(go.id), "--workspace", str(ws.root))
    assert out.returncode == 0, out.stderr
    assert ws.learnings.get(go.id).status == "active"
    ev = events(ws, "learning_restored_from_archive")
    assert ev and ev[-1]["sig"] and ev[-1]["content"]["data"]["id"] == go.id


def test_a_forged_injection_row_is_ignored_and_reported(workspace) -> None:
    from sqlalchemy import text

    ws = workspace
    lid = ws.learnings.add("a rule someone wants to push", scope="global").id
    # written behind the service's back (plain SQL, as with the database file alone: the ORM's
    # commit hook signs what the app itself writes): no valid signature
    with ws.store.write() as s:
        for i in range(50):
            s.execute(
                text(
                    "INSERT INTO memory_injections (trace, story, domain, project, kind, item, position,"
                    " created_at, key_version, sig) VALUES ('forged', :story, :domain, 'p', 'learning', :item,"
                    " 0, '2026-11-01T00:00:00+00:00', 1, :sig)"
                ),
                {"story": f"F-{i}", "domain": f"d{i}", "item": str(lid), "sig": "0" * 64},
            )
    scores = {s.id: s for s in ws.reuse.scores()}
    assert scores[lid].injections == 0 and scores[lid].reuse_score == 0.0
    assert any(e["content"]["data"]["code"] == "ERR_UNSIGNED_ENTRY" for e in events(ws, "unsigned_entry"))
