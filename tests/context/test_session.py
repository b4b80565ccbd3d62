"""`lorekeeper ctx session`: deltas instead of re-sending, RRF eviction at pressure, hand-off in budget,
a session that survives separate CLI processes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers.cli import run_lorekeeper, run_lorekeeper_process
from lorekeeper.context import tokens
from lorekeeper.context.session import ContextSession


def _module(name: str, n: int) -> str:
    return "\n\n".join(
        f'def {name}_step_{i}(value: int) -> int:\n    """Step {i} of {name}."""\n    return value * {i} + {len(name)}\n'
        for i in range(n)
    )


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    for name, n in (("auth", 8), ("util", 8), ("cli", 8), ("db", 8), ("models", 8)):
        (root / f"{name}.py").write_text(_module(name, n), encoding="utf-8")
    return root


def _cli(ws: Path, *args: str) -> dict:
    res = run_lorekeeper("--workspace", str(ws), "ctx", "session", *args, "--json")
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def test_a_session_survives_two_processes_and_the_second_pack_sends_deltas(workspace, tree: Path) -> None:
    ws = str(workspace.root)
    started = run_lorekeeper_process("--workspace", ws, "ctx", "session", "start", str(tree), "--id", "s1", "--json")
    assert started.returncode == 0, started.stderr
    first = run_lorekeeper_process("--workspace", ws, "ctx", "session", "pack", "s1", "--mode", "full", "--json")
    assert first.returncode == 0, first.stderr
    one = json.loads(first.stdout)
    assert one["unchanged"] == [] and "def auth_step_3" in one["text"]

    two = _cli(workspace.root, "pack", "s1", "--mode", "full")  # another process's state, read from disk
    assert sorted(two["unchanged"]) == ["auth.py", "cli.py", "db.py", "models.py", "util.py"]
    assert "=== auth.py [unchanged since turn 1: full]" in two["text"]
    assert "def auth_step_3" not in two["text"]
    assert two["sent_tokens"] < one["sent_tokens"] / 4 and two["plain_tokens"] == one["plain_tokens"]

    # a file edited on disk is sent again, the others stay one line
    (tree / "db.py").write_text(_module("db", 8) + "\n\ndef db_extra() -> None:\n    pass\n", encoding="utf-8")
    three = _cli(workspace.root, "pack", "s1", "--mode", "full")
    assert "def db_extra" in three["text"] and "db.py" in three["resent"] and "db.py" not in three["unchanged"]
    read = _cli(workspace.root, "read", "s1", str(tree / "auth.py"))  # held in full: one line
    assert read["unchanged"] == ["auth.py"] and "def auth_step" not in read["text"]

    status = _cli(workspace.root, "status", "s1")
    assert status["turn"] == 4 and status["totals"]["sent_tokens"] < status["totals"]["plain_tokens"]
    ended = _cli(workspace.root, "end", "s1")
    assert ended["ended"] is True and ended["turns"] == 4
    gone = run_lorekeeper("--workspace", str(workspace.root), "ctx", "session", "status", "s1", "--json")
    assert gone.returncode == 3 and json.loads(gone.stdout)["error"]["code"] == "ERR_NOT_FOUND"


def test_unknown_session_and_bad_input_have_stable_codes(workspace, tree: Path) -> None:
    ws = str(workspace.root)
    res = run_lorekeeper("--workspace", ws, "ctx", "session", "pack", "nope", "--json")
    assert res.returncode == 3 and json.loads(res.stdout)["error"]["code"] == "ERR_NOT_FOUND"
    assert "unknown context session 'nope'" in json.loads(res.stdout)["error"]["message"]
    res = run_lorekeeper("--workspace", ws, "ctx", "session", "start", str(tree), "--id", "../x", "--json")
    assert res.returncode == 2 and json.loads(res.stdout)["error"]["code"] == "ERR_INVALID_INPUT"
    res = run_lorekeeper("--workspace", ws, "ctx", "session", "start", str(tree), "--role", "intern", "--json")
    assert res.returncode == 2 and "unknown role" in json.loads(res.stdout)["error"]["message"]
    _cli(workspace.root, "start", str(tree), "--id", "twice")
    res = run_lorekeeper("--workspace", ws, "ctx", "session", "start", str(tree), "--id", "twice", "--json")
    assert res.returncode == 2 and "already exists" in json.loads(res.stdout)["error"]["message"]


def _script(tree: Path, policy: str) -> tuple[ContextSession, list]:
    """auth.py is the task's file: read, then asked again twice; other files come after it."""
    s = ContextSession("t", tree, window=1000, task="fix the bug in auth_step_3 of auth.py", policy=policy)
    deliveries = [s.read(tree / "auth.py", mode="full")]
    deliveries.append(s.read(tree / "auth.py", mode="full"))
    for name in ("util", "cli", "db", "models"):
        deliveries.append(s.read(tree / f"{name}.py", mode="full"))
    return s, deliveries


def test_eviction_at_pressure_names_what_was_dropped_and_keeps_the_frequent_file(tree: Path) -> None:
    s, ds = _script(tree, "rrf")
    dropped = [(d.turn, e["path"]) for d in ds for e in d.evicted]
    assert dropped, "a 1,000-token window holding five 240-token files must evict"
    turn, path = dropped[0]
    d = ds[turn - 1]
    assert "evicted from your context" in d.text and path in d.text.splitlines()[0]
    assert d.used <= 0.95 * s.window and path not in s.items
    assert "auth.py" in s.items  # asked twice: RRF keeps it
    assert path in {e["path"] for e in s.status()["evicted"]}
    again = s.read(tree / path, mode="full")  # asked again after eviction: sent in full
    assert again.resent == [path] and again.unchanged == [] and f"def {path[:-3]}_step_3" in again.text

    _lru, lds = _script(tree, "lru")  # the same script with plain LRU drops the task's file first
    assert next(e["path"] for d in lds for e in d.evicted) == "auth.py"


def test_handoff_honours_its_budget(tree: Path) -> None:
    s, _ = _script(tree, "rrf")
    s.note("keep the step signature unchanged", "decision")
    s.note("auth_step_3 overflows for value > 2**31", "discovery")
    s.note("ask the reviewer about negative values", "open")
    wide = s.handoff("reviewer", budget=2000)
    assert wide.dropped_files == 0 and "keep the step signature unchanged" in wide.text
    assert "K:discovery:1 = auth_step_3 overflows" in wide.text and "ask the reviewer" in wide.text
    assert "no test file was read" in wide.text and "was evicted at turn" in wide.text
    assert wide.files[0]["advice"] == "full" and tokens.count(wide.text) == wide.tokens <= 2000
    small = s.handoff("reviewer", budget=120)
    assert tokens.count(small.text) <= 120 and small.tokens <= 120
    assert small.dropped_files > 0 and "more files left out for the budget" in small.text
    with pytest.raises(Exception, match="at least"):
        s.handoff("reviewer", budget=5)
    with pytest.raises(ValueError, match="unknown role"):
        s.handoff("intern")


def test_a_session_pack_with_its_notice_stays_within_the_budget(tree: Path) -> None:
    """The notice of held and evicted files goes on top of the pack: the delivery still honours --budget."""
    for name in ("api", "jobs", "mail", "search", "cache"):  # more files than the window holds
        (tree / f"{name}.py").write_text(_module(name, 8), encoding="utf-8")
    s = ContextSession("b", tree, window=700, task="fix the bug in auth_step_3 of auth.py")
    budgets = (500, 900, 500, 700)
    deliveries = [s.pack(budget=b, mode="auto") for b in budgets]
    assert any(d.evicted for d in deliveries) and any(d.unchanged for d in deliveries)
    for b, d in zip(budgets, deliveries, strict=True):
        assert tokens.count(d.text) <= b, (b, d.text[:300])
