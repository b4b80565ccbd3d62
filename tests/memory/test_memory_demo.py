"""The demo workspace carries a real memory: notes, learnings in two domains, validated clarification
summaries and a started story whose traced injection preview is non-empty, with no model."""

from __future__ import annotations

from helpers.cli import run_lorekeeper


def test_demo_memory(demo_workspace) -> None:
    ws = demo_workspace
    assert {i.domain for i in ws.learnings.list()} >= {"erp", "frontend"}
    assert len(ws.memory.docs("notes")) >= 5
    assert {c.domain for c in ws.clarifications.list()} == {"erp", "frontend"}
    assert ws.memory.stale() == []
    out = run_lorekeeper("story", "show", "PD-250", "--workspace", str(ws.root))
    assert out.returncode == 0, out.stderr
    assert "### Learnings" in out.stdout and "### Past clarifications" in out.stdout
    assert "PD-201" in out.stdout  # a past erp clarification of citadel-v2
    assert "PD-240" not in out.stdout  # the frontend one stays out
