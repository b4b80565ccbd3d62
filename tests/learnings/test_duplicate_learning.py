"""Issue 31 item 5: an identical learning is said once: `learn add` of an active rule the project
already has answers "exists" (exit 0), writes nothing, and the prompt carries the rule once."""

from __future__ import annotations

import json

from sqlalchemy import func, select

from helpers.cli import run_lorekeeper
from lorekeeper.store.models import Learning

RULE = "Run the smoke test after every deploy"


def _added(ws) -> int:
    r = run_lorekeeper("--workspace", str(ws.root), "audit", "events", "--json")
    assert r.returncode == 0, r.stderr
    return sum(1 for e in json.loads(r.stdout)["events"] if e["type"] == "learning_added")


def test_an_identical_learning_exists_and_is_injected_once(demo_workspace):
    ws = demo_workspace
    args = ("--workspace", str(ws.root), "learn", "add", RULE, "--project", "citadel-v2", "--json")
    first = run_lorekeeper(*args)
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout)["result"] == "added"
    events = _added(ws)
    again = run_lorekeeper(*args[:4], "  Run the smoke   test after every deploy ", "--project", "citadel-v2")
    assert again.returncode == 0 and again.stdout.startswith("exists:"), again.stdout + again.stderr
    dup = run_lorekeeper(*args)
    assert dup.returncode == 0 and json.loads(dup.stdout)["result"] == "exists"
    assert json.loads(dup.stdout)["id"] == json.loads(first.stdout)["id"]
    with ws.store.session() as s:
        assert s.scalar(select(func.count(Learning.id)).where(Learning.rule == RULE)) == 1
    assert _added(ws) == events  # no second signed learning_added
    prompt = run_lorekeeper("--workspace", str(ws.root), "prompt", "deploy the stock module", "--project", "citadel-v2")
    assert prompt.returncode == 0 and prompt.stdout.count(RULE) == 1
