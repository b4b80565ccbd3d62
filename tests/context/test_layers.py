"""The smaller layers: intent, allocation, rewrites, MMR, surprise, ledger, RRF cache, hand-off, smells."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from lorekeeper.context import cache, tokens
from lorekeeper.context.allocate import boltzmann, choose_mode, temperature
from lorekeeper.context.handoff import DEPTH, ROLES, HandoffPackage, depth_for, handoff, role_budget
from lorekeeper.context.intent import TASK_TYPES, classify
from lorekeeper.context.ledger import ContextLedger, LedgerEntry
from lorekeeper.context.mmr import mmr_filter, shared_lines
from lorekeeper.context.rewrite import safe_rewrite
from lorekeeper.context.smells import find_smells
from lorekeeper.context.surprise import line_surprise


@pytest.mark.parametrize(
    ("task", "kind"),
    [
        ("fix the NaN bug in entropy.rs", "fix_bug"),
        ("refactor the session module", "refactor"),
        ("write tests for the parser", "test"),
        ("review the auth changes", "review"),
        ("configure the logging settings", "config"),
        ("deploy the release to production", "deploy"),
        ("document the public API", "document"),
        ("add a retry option to the client", "generate"),
        ("how does the scheduler pick a worker", "explore"),
    ],
)
def test_nine_task_types(task: str, kind: str) -> None:
    assert kind in TASK_TYPES
    assert classify(task).task_type == kind


def test_intent_slots() -> None:
    i = classify("fix the NaN bug in entropy.rs")
    assert i.targets[0] == "entropy.rs" and i.scope == "single_file" and i.language == "rust"
    assert i.action_verb == "fix" and i.confidence > 0.9
    broad = classify("refactor the whole codebase architecture")
    assert broad.scope == "project_wide"
    assert broad.specificity < i.specificity
    assert classify(None).task_type == "explore"


def test_boltzmann_concentrates_with_specificity() -> None:
    rel = [1.0, 0.6, 0.3, 0.1]
    sharp = boltzmann(rel, 10_000, temperature(0.9))
    flat = boltzmann(rel, 10_000, temperature(0.0))
    assert sum(sharp) <= 10_000 and sum(flat) <= 10_000
    assert sharp[0] > flat[0] and sharp[-1] < flat[-1]
    assert sharp == sorted(sharp, reverse=True)
    assert min(boltzmann(rel, 1000, 5.0)) >= 128 or sum(boltzmann(rel, 1000, 5.0)) <= 1000
    assert choose_mode({"full": 900, "map": 300, "signatures": 100}, 400) == "map"
    assert choose_mode({"full": 900, "map": 300, "signatures": 100}, 50) == "reference"


def test_safe_rewrite_never_touches_strings_and_keeps_meaning() -> None:
    src = 'x = 1   \n\n\n\ny = """a   \n\n\n\nb"""  \n\tz = 2\t\n'.replace("\tz", "z")
    out = safe_rewrite(src, [(4, 8)])
    assert "a   \n\n\n\nb" in out
    assert "x = 1\n\ny" in out
    assert ast.dump(ast.parse(src)) == ast.dump(ast.parse(out))
    assert tokens.count(out) <= tokens.count(src)


def test_mmr_drops_redundant_lines_only() -> None:
    lines = ["import os", "import os", "import sys", "compute the heat kernel"]
    kept = mmr_filter(lines, [0.3, 0.3, 0.3, 0.9])
    assert kept == [0, 2, 3]
    assert shared_lines([["import os", "import re"], ["import os"], ["import re"]]) == {"import os", "import re"}


def test_surprise_ranks_rare_tokens_above_boilerplate() -> None:
    assert line_surprise("scores[j] += heat[i] * decay / degree;") > line_surprise("self.assertEqual(x, 1)")
    assert line_surprise("   ") == 0.0


def test_surprise_on_the_seeds_own_examples() -> None:
    """Seed 002's examples: boilerplate (`return Ok(());`, a `use` line) below unique logic,
    with the token ranks measured on code (the token id alone ranked `return Ok(());` first)."""
    boilerplate = ["return Ok(());", "use std::collections::HashMap;"]
    logic = ["let decay = (-alpha * dist as f64).exp();", "scores[j] += heat[i] * decay / degree;"]
    assert max(line_surprise(line) for line in boilerplate) < min(line_surprise(line) for line in logic)
    assert line_surprise("return Ok(());") < 0.45 < line_surprise("scores[j] += heat[i] * decay / degree;")


def test_ledger_pressure_plan_and_deficits() -> None:
    ledger = ContextLedger(window=1000)
    ledger.record(LedgerEntry("app/auth.py", "full", 400, 400, 1.0, target=True, alternatives={"signatures": 50}))
    ledger.record(LedgerEntry("app/util.py", "full", 290, 290, 0.2, alternatives={"signatures": 40, "reference": 5}))
    assert ledger.pressure() == "none"  # 690 of 1000: 69%
    ledger.record(LedgerEntry("app/db.py", "full", 260, 260, 0.5, alternatives={"signatures": 60}))
    assert ledger.utilization == pytest.approx(0.95) and ledger.pressure() == "evict"
    plan = ledger.reinjection_plan()
    # back under 70%: the least relevant non-target file goes first, and that is enough
    assert [s.path for s in plan] == ["app/util.py"]
    assert [s.path for s in ledger.reinjection_plan(0.5)] == ["app/util.py", "app/db.py"]
    assert plan[0].to_mode == "signatures" and plan[0].saves == 250
    assert all(s.path != "app/auth.py" for s in plan)
    ledger.remove("app/db.py")
    ledger.remove("app/util.py")
    assert ledger.pressure() == "none"
    deficits = ledger.deficits(
        classify("fix the login bug in auth.py"), ["app/auth.py", "tests/test_auth.py", "README.md"]
    )
    assert deficits == ["tests/test_auth.py"]
    cfg = ContextLedger().deficits(classify("configure the build settings"), ["pyproject.toml", "a.py", "Dockerfile"])
    assert cfg == ["pyproject.toml", "Dockerfile"]


def test_pressure_thresholds() -> None:
    for used, level in ((699, "none"), (700, "compress"), (949, "compress"), (950, "evict")):
        ledger = ContextLedger(window=1000)
        ledger.record(LedgerEntry("a", "full", used, used))
        assert ledger.pressure() == level


def test_rrf_eviction_order() -> None:
    entries = [
        cache.CacheEntry("old-big-rare", last_used=1.0, uses=1, tokens=9000),
        cache.CacheEntry("new-small-hot", last_used=9.0, uses=20, tokens=100),
        cache.CacheEntry("mid", last_used=5.0, uses=5, tokens=1000),
    ]
    assert cache.eviction_order(entries) == ["old-big-rare", "mid", "new-small-hot"]
    assert cache.evict(entries, 500) == ["old-big-rare"]
    assert cache.evict(entries, 9500) == ["old-big-rare", "mid"]


def test_handoff_round_trip_and_roles() -> None:
    assert len(ROLES) == 7 and set(DEPTH) == set(ROLES)
    assert depth_for("Coder").max_files_full > depth_for("reviewer").max_files_full
    assert depth_for("reviewer").preferred_mode == "signatures"
    assert role_budget("coder", 100_000) == 80_000
    with pytest.raises(ValueError, match="unknown role"):
        depth_for("intern")
    ledger = ContextLedger(1000)
    ledger.record(LedgerEntry("auth.rs", "full", 100, 100, 1.0, target=True))
    pkg = handoff(
        "coder-1",
        "reviewer-1",
        "reviewer",
        classify("fix the auth bug"),
        ledger,
        {"discovery:auth_bug": "null check missing in line 42"},
    )
    text = pkg.to_json()
    assert HandoffPackage.from_json(text).to_json() == text
    assert pkg.knowledge_block() == "K:discovery:auth_bug = null check missing in line 42"


def test_smells_weighted_by_centrality(tmp_path: Path) -> None:
    nested = (
        "def tangled(x):\n"
        + "".join("    " * (k + 1) + f"if x > {k}:\n" for k in range(6))
        + "    " * 7
        + "return x\n    return 0\n"
    )
    (tmp_path / "hub.py").write_text(nested.replace("tangled", "hub_tangled"))
    (tmp_path / "leaf.py").write_text(nested)
    for k in range(3):
        (tmp_path / f"user{k}.py").write_text("import hub\n")
    found = find_smells(tmp_path)
    kinds = {(s.rel, s.kind) for s in found}
    assert ("hub.py", "deep_nesting") in kinds and ("leaf.py", "deep_nesting") in kinds
    hub = next(s for s in found if s.rel == "hub.py" and s.kind == "deep_nesting")
    leaf = next(s for s in found if s.rel == "leaf.py" and s.kind == "deep_nesting")
    assert hub.value == leaf.value == 6 and hub.score > leaf.score
