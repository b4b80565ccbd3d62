"""B5: exactly 5 + 3 + 3 at story start, under_corpus, the scope filter, the signed trace written
before the block is returned, fail closed on an unwritable session log, the block in `prompt --story`."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from memory_support import add_clarification, collect, events, write_note

from helpers.cli import run_lorekeeper


def _fill(ws, *, learnings: int = 7, notes: int = 5, clarifications: int = 4) -> None:
    for i in range(learnings):
        ws.learnings.add(f"auth rule {i}: rotate signing keys", domain="auth", tags="auth")
    for i in range(notes):
        write_note(ws, f"note-{i}.md", f"Note {i} on token rotation", f"Key rotation finding {i}.")
    collect(ws)
    for i in range(clarifications):
        add_clarification(ws, f"OLD-{i}", "auth", "backend", day=f"2026-10-0{i + 1}")


def test_story_start_injects_exactly_5_3_3_and_the_trace_comes_first(workspace) -> None:
    ws = workspace
    _fill(ws)
    out = run_lorekeeper(
        "story", "start", "PD-42", "--domain", "auth", "--project", "backend", "--json", "--workspace", str(ws.root)
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) >= {
        "story",
        "learnings",
        "notes",
        "clarifications",
        "count_configured",
        "count_effective",
        "under_corpus",
        "block",
    }
    assert data["count_configured"] == {"learnings": 5, "notes": 3, "clarifications": 3}
    assert data["count_effective"] == {"learnings": 5, "notes": 3, "clarifications": 3}
    assert (len(data["learnings"]), len(data["notes"]), len(data["clarifications"])) == (5, 3, 3)
    assert data["under_corpus"] is False
    assert [c["story"] for c in data["clarifications"]] == ["OLD-3", "OLD-2", "OLD-1"]  # newest first
    for section in ("### Learnings", "### Research notes", "### Past clarifications"):
        assert section in data["block"]
    # the signed trace: one session event naming every item, and one signed row per item
    ev = [e for e in events(ws, "memory_injected") if e["story"] == "PD-42"]
    assert len(ev) == 1 and ev[0]["sig"]
    assert ev[0]["content"]["data"]["trace"] == data["trace"]
    assert len(ev[0]["content"]["data"]["items"]["learnings"]) == 5
    from sqlalchemy import select

    from lorekeeper.store.models import MemoryInjection

    with ws.store.session() as s:
        rows = list(s.scalars(select(MemoryInjection).where(MemoryInjection.trace == data["trace"])))
        assert len(ws.audit.row_verifier().filter(rows)) == len(rows) == 11


def test_under_corpus_and_the_scope_filter(workspace) -> None:
    ws = workspace
    ws.learnings.add("story rule of auth", domain="auth", scope="story")
    ws.learnings.add("domain rule of auth", domain="auth", scope="domain")
    ws.learnings.add("global rule", scope="global")
    ws.learnings.add("story rule of billing", domain="billing", scope="story")
    ws.learnings.add("domain rule of billing", domain="billing", scope="domain")
    archived = ws.learnings.add("archived auth rule", domain="auth")
    ws.learnings.archive([archived.id])
    write_note(ws, "only.md", "Only note", "One finding.")
    collect(ws)
    add_clarification(ws, "OLD-1", "auth", "backend")
    add_clarification(ws, "OLD-2", "auth", "frontend")  # other project: not injected
    add_clarification(ws, "PD-7", "auth", "backend")  # the story's own: not past memory
    inj = ws.stories.start("PD-7", "auth", "backend")
    assert inj.error is None
    d = inj.to_dict()
    assert sorted(x["rule"] for x in d["learnings"]) == ["domain rule of auth", "global rule", "story rule of auth"]
    assert d["count_effective"] == {"learnings": 3, "notes": 1, "clarifications": 1}
    assert d["under_corpus"] is True
    assert [c["story"] for c in d["clarifications"]] == ["OLD-1"]


def test_unwritable_session_log_gives_an_empty_block_and_err_trace_write_failed(workspace) -> None:
    ws = workspace
    _fill(ws, learnings=2, notes=1, clarifications=1)
    today = datetime.now(UTC).date().isoformat()
    day_file = Path(ws.root) / "sessions" / f"{today}.jsonl"
    if day_file.exists():
        day_file.unlink()
    day_file.mkdir()  # the day's log cannot be opened for appending (works as root too)
    try:
        out = run_lorekeeper(
            "story", "start", "PD-9", "--domain", "auth", "--project", "backend", "--json", "--workspace", str(ws.root)
        )
        assert out.returncode == 4
        data = json.loads(out.stdout)
        assert data["block"] == ""
        assert data["learnings"] == data["notes"] == data["clarifications"] == []
        assert data["error"]["code"] == "ERR_TRACE_WRITE_FAILED"
        assert "ERR_TRACE_WRITE_FAILED" in out.stderr
    finally:
        day_file.rmdir()
    from sqlalchemy import func, select

    from lorekeeper.store.models import MemoryInjection

    with ws.store.session() as s:  # nothing counts as injected
        assert s.scalar(select(func.count(MemoryInjection.id)).where(MemoryInjection.story == "PD-9")) == 0


def test_failure_of_the_trace_rows_records_injection_failed_fail_closed(workspace, monkeypatch) -> None:
    ws = workspace
    _fill(ws, learnings=1, notes=0, clarifications=0)
    from lorekeeper.audit import rows as rows_mod
    from lorekeeper.memory import stories

    def broken(*_a, **_k):
        raise OSError("disk full")

    monkeypatch.setattr(
        stories,
        "sign_row",
        lambda signer, row: broken() if row.__tablename__ == "memory_injections" else rows_mod.sign_row(signer, row),
    )
    inj = ws.stories.start("PD-10", "auth", "backend")
    assert inj.block == "" and inj.error is not None and inj.error.code == "ERR_TRACE_WRITE_FAILED"
    assert inj.failure_recorded
    assert [e["story"] for e in events(ws, "injection_failed_fail_closed")] == ["PD-10"]


def test_the_block_plugs_into_prompt_for_the_story(workspace) -> None:
    ws = workspace
    _fill(ws, learnings=2, notes=1, clarifications=1)
    start = ws.stories.start("PD-5", "auth", "backend")
    out = run_lorekeeper("prompt", "review the key rotation", "--story", "PD-5", "--json", "--workspace", str(ws.root))
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert {"name": "memory", "text": start.block} in data["blocks"]
    assert start.block in data["prompt"]
    assert len(events(ws, "memory_injected")) == 1  # the prompt reuses the traced injection
