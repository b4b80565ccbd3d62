"""Seed 004 §5.2/§5.3 exactness on search (issue 25 d5): learnings come by relevance, then by
reuse score, `--min-score` keeps the reused ones (before `--top`); a clarification search needs
`--domain` and `--project`."""

from __future__ import annotations

import json

import pytest
from memory_support import add_clarification

from helpers.cli import run_lorekeeper

RULE = "Pin dependency versions in lock files"
QUERY = "pin dependency versions"


def _search(ws, *args: str) -> tuple[int, dict]:
    out = run_lorekeeper(*args, "--json", "--workspace", str(ws.root))
    return out.returncode, json.loads(out.stdout or out.stderr or "{}")


@pytest.fixture
def reused(workspace):
    """The same rule in two projects (the same text, so the same relevance): `low` never injected,
    `high` injected into 2 GO stories; `other` shares one word of the query and was injected too."""
    ws = workspace
    low = ws.learnings.add(RULE, project="alpha", domain="auth", tags="deps")
    ws.learnings.archive([low.id])  # out of the injections while `high` is reused
    high = ws.learnings.add(RULE, project="beta", domain="auth", tags="deps")
    other = ws.learnings.add("Cache dependency downloads between builds", domain="auth", tags="ci")
    for n in range(2):
        assert ws.stories.start(f"AU-{n}", "auth", "backend").error is None
        ws.stories.close(f"AU-{n}", "DONE", "GO")
    ws.reuse.restore([low.id])
    return ws, low.id, high.id, other.id


@pytest.mark.parametrize("mode", ["hybrid", "bm25", "vector"])
def test_equal_relevance_goes_to_the_higher_reuse_score(reused, mode: str) -> None:
    ws, low, high, other = reused
    code, out = _search(ws, "memory", "search", QUERY, "--corpus", "learnings", "--mode", mode)
    assert code == 0, out
    res = out["results"]
    # the two identical rules tie on relevance; the reused one (higher id, so later by position) wins
    assert [r["id"] for r in res[:2]] == [str(high), str(low)]
    assert res[0]["rule"] == res[1]["rule"] and res[0]["tags"] == res[1]["tags"]  # the same text: a tie
    assert (res[0]["reuse_score"], res[1]["reuse_score"]) == (0.1781, 0.0)  # tanh((0.8 + 0.8 + 0.2)/10)
    # relevance stays the first key: the less relevant rule, as reused as `high`, comes after both
    ids = [r["id"] for r in res]
    if str(other) in ids:
        assert ids.index(str(other)) > 1


def test_min_score_keeps_the_reused_learnings_before_top(reused) -> None:
    ws, _low, high, other = reused
    code, out = _search(ws, "learn", "search", QUERY, "--min-score", "0.1", "--top", "2")
    assert code == 0, out
    assert [r["id"] for r in out["results"]] == [str(high), str(other)]  # `low` (0.0) left out, top still 2
    assert all(r["reuse_score"] >= 0.1 for r in out["results"])
    code, out = _search(ws, "memory", "search", QUERY, "--corpus", "learnings", "--min-score", "0.2")
    assert (code, out["results"]) == (0, [])
    text = run_lorekeeper("learn", "search", QUERY, "--top", "1", "--workspace", str(ws.root)).stdout
    assert text.strip().endswith(f"{RULE}  reuse=0.1781")


@pytest.mark.parametrize(
    ("args", "what"),
    [
        (["--corpus", "learnings", "--min-score", "1.5"], "from 0 to 1"),
        (["--corpus", "notes", "--min-score", "0.3"], "--corpus learnings"),
    ],
)
def test_min_score_refused_out_of_range_or_off_learnings(workspace, args: list[str], what: str) -> None:
    code, out = _search(workspace, "memory", "search", QUERY, *args)
    assert code == 2 and out["error"]["code"] == "ERR_INVALID_INPUT" and what in out["error"]["message"]


def test_clarification_search_needs_domain_and_project_and_filters_by_both(workspace) -> None:
    ws = workspace
    add_clarification(ws, "PD-1", "billing", "backend", text="export invoices as CSV")
    add_clarification(ws, "PD-2", "billing", "frontend", text="export invoices as CSV")
    add_clarification(ws, "PD-3", "auth", "backend", text="export invoices as CSV")
    for missing in (["--domain", "billing"], ["--project", "backend"], []):
        code, out = _search(ws, "memory", "search", "export invoices", "--corpus", "clarifications", *missing)
        assert code == 2 and out["error"]["code"] == "ERR_INVALID_INPUT", out
        assert "--domain D --project P" in out["error"]["message"]
    code, out = _search(
        ws,
        "memory",
        "search",
        "export invoices",
        "--corpus",
        "clarifications",
        "--domain",
        "billing",
        "--project",
        "backend",
    )
    assert code == 0 and [r["id"] for r in out["results"]] == ["PD-1"]
