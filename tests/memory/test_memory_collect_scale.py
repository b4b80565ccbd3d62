"""`memory collect` at scale (issue 26 d3): unchanged files are not parsed again, a row changed
between the scan and the write is read again, libyaml's check gives the pure-Python verdicts, and
hand-placed clarification files are saved together (the bad one reported, the others imported)."""

from __future__ import annotations

from pathlib import Path

import pytest
from memory_support import write_note
from sqlalchemy import select

from lorekeeper import safeyaml
from lorekeeper.errors import UnsafeInputError
from lorekeeper.memory import collect as collect_mod
from lorekeeper.memory import notes as notes_mod
from lorekeeper.memory.collect import collect
from lorekeeper.memory.notes import NoteError, parse_note
from lorekeeper.store.models import Clarification, ResearchNote
from lorekeeper.workspace import Workspace


def _run(ws: Workspace, progress=None):
    return collect(ws.store, ws.memory_layout, ws.clarifications, workspace=ws.audit.workspace_id, progress=progress)


def test_unchanged_files_are_not_parsed_and_edits_removals_are_seen(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = [write_note(workspace, f"n{i}.md", f"Note {i}", f"Summary {i}.") for i in range(4)]
    parsed: list[str] = []
    real = notes_mod.parse_note
    monkeypatch.setattr(notes_mod, "parse_note", lambda text, rel: parsed.append(rel) or real(text, rel))
    steps: list[tuple[str, int, int]] = []
    before = workspace.store.revision()
    with workspace.store.capture() as cap:
        first = _run(workspace, progress=lambda *a: steps.append(a))
    assert (first.added, first.unchanged) == (4, 0) and len(parsed) == 4
    assert workspace.store.revision() > before and "memory" in cap.changes.kinds  # the feed moves
    assert ("reading", 4, 4) in steps and ("storing", 4, 4) in steps
    parsed.clear()
    again = _run(workspace)
    assert (again.added, again.updated, again.unchanged) == (0, 0, 4)
    assert parsed == []  # the bytes hash to the stored sha256: not parsed
    paths[1].write_text(paths[1].read_text(encoding="utf-8").replace("Note 1", "Note one"), encoding="utf-8")
    paths[2].unlink()
    edit = _run(workspace)
    assert (edit.updated, edit.unchanged, edit.removed) == (1, 2, 1)
    assert parsed == ["n1.md"]
    with workspace.store.session() as s:
        rows = {r.path: r for r in s.scalars(select(ResearchNote))}
    assert sorted(rows) == ["n0.md", "n1.md", "n3.md"] and rows["n1.md"].title == "Note one"
    assert workspace.audit.row_verifier().filter(list(rows.values())) == list(rows.values())  # signed and ledgered


def test_a_row_changed_after_the_scan_is_read_again(workspace: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    write_note(workspace, "a.md", "Alpha", "First.")
    _run(workspace)
    real_scan = collect_mod.scan

    def scan_then_someone_writes(*args, **kwargs):
        found = real_scan(*args, **kwargs)
        assert list(found.unchanged) == ["a.md"]
        with workspace.store.write() as s:  # another collect stored other content meanwhile
            row = s.scalars(select(ResearchNote)).one()
            row.title, row.sha256 = "Stale", "0" * 64
        return found

    monkeypatch.setattr(collect_mod, "scan", scan_then_someone_writes)
    report = _run(workspace)
    assert (report.updated, report.unchanged) == (1, 0)
    with workspace.store.session() as s:
        row = s.scalars(select(ResearchNote)).one()
    assert row.title == "Alpha" and row.sha256 != "0" * 64


BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(6)
)
HOSTILE = {
    "bomb": BOMB,
    "deep": "k: " + "[" * 80 + "]" * 80 + "\n",
    "invalid": "verdict: [signal\nimpact: fort\n",
    "tab": "verdict:\tsignal\n\timpact: fort\n",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_the_libyaml_check_gives_the_pure_python_verdict(name: str) -> None:
    fm = HOSTILE[name]
    text = f"---\n{fm}---\n\n# Title\n\nBody.\n"
    try:
        safeyaml.check(fm, what="x.md", line0=2)
        expected = None
    except UnsafeInputError as exc:
        expected = exc.message
    except Exception:
        expected = "yaml"
    try:
        parse_note(text, "x.md")
        got = None
    except NoteError as exc:
        got = str(exc)
    if expected is None:
        assert got is None or "YAML" in got
    elif expected == "yaml":
        assert got is not None and "YAML" in got
    else:
        assert got == expected


def test_non_ascii_front_matter_reads_as_before() -> None:
    text = "---\nverdict: veille\nimpact: modéré\ndate: 2026-02-03\ntags: [données, café]\nsummary: Résumé — été\n---\n\n# Été\n"
    note = parse_note(text, "fr.md")
    assert note is not None
    assert (note.impact, note.tags, note.summary, note.date) == (
        "modere",
        ("données", "café"),
        "Résumé — été",
        "2026-02-03",
    )


CLAR = """---
story: {story}
date: 2026-10-0{n}
domain: billing
project: shop
---

# Clarifications PO — {story}

## Problème / besoin utilisateur
{problem}

## Critères de succès
Runs nightly.

## Contraintes connues
No new database.

## Priorités (must-have / nice-to-have)
Must-have CSV.
"""


def test_clarification_files_are_gated_then_saved_together(workspace: Workspace) -> None:
    folder = workspace.memory_layout.clarifications
    folder.mkdir(parents=True, exist_ok=True)
    for n, story in enumerate(["CL-1", "CL-2", "CL-3"], 1):
        (folder / f"{story}-clarifications.md").write_text(
            CLAR.format(story=story, n=n, problem="Export invoices."), encoding="utf-8"
        )
    (folder / "CL-4-clarifications.md").write_text(
        CLAR.format(story="CL-4", n=4, problem="Call marie.curie@example.org about it."), encoding="utf-8"
    )
    steps: list[tuple[str, int, int]] = []
    report = _run(workspace, progress=lambda *a: steps.append(a))
    assert report.clarifications == 3
    assert [p for p, _r in report.skipped] == ["clarifications/CL-4-clarifications.md"]
    assert ("clarifications", 4, 4) in steps
    with workspace.store.session() as s:
        stories = sorted(s.scalars(select(Clarification.story)))
    assert stories == ["CL-1", "CL-2", "CL-3"]
    saved = [e for e in workspace.audit.log.events() if e.type == "clarification_saved"]
    assert sorted(e.data["story"] for e in saved) == stories
    assert "retention_until" in Path(folder / "CL-2-clarifications.md").read_text(encoding="utf-8")
    assert _run(workspace).clarifications == 0  # already in the store


def test_batches_commit_one_by_one_and_a_stopped_collect_resumes(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    for i in range(5):
        write_note(workspace, f"b{i}.md", f"Batch {i}", f"Summary {i}.")
    monkeypatch.setattr(collect_mod, "BATCH", 2)
    real_fill = collect_mod._fill

    def fill(row, note, now, ws):
        if note.path == "b3.md":
            raise RuntimeError("killed")  # the second batch dies before its commit
        real_fill(row, note, now, ws)

    monkeypatch.setattr(collect_mod, "_fill", fill)
    with pytest.raises(RuntimeError):
        _run(workspace)
    with workspace.store.session() as s:
        assert sorted(s.scalars(select(ResearchNote.path))) == ["b0.md", "b1.md"]  # the first batch stayed
    monkeypatch.setattr(collect_mod, "_fill", real_fill)
    before = workspace.store.revision()
    report = _run(workspace)
    assert (report.added, report.unchanged) == (3, 2)
    assert workspace.store.revision() - before == 3  # two batches with changes, then the removal step
    again = workspace.store.revision()
    assert _run(workspace).unchanged == 5 and workspace.store.revision() - again == 1  # only the last step
