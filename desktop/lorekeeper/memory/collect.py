"""`memory collect`: research notes from `sources/` into the store (and hand-placed clarification
files through the PII gate). Unchanged files are skipped; notes whose file is gone are removed."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select

from lorekeeper.memory.clarify import ClarificationService
from lorekeeper.memory.layout import MemoryLayout
from lorekeeper.memory.notes import scan
from lorekeeper.store.engine import Store
from lorekeeper.store.models import ResearchNote, utcnow


@dataclass
class CollectReport:
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    removed: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)
    clarifications: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "added": self.added,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "removed": self.removed,
            "clarifications_imported": self.clarifications,
            "skipped": [{"path": p, "reason": r} for p, r in self.skipped],
        }


def collect(
    store: Store, layout: MemoryLayout, clarifications: ClarificationService | None = None, *, workspace: str = ""
) -> CollectReport:
    """Notes of this workspace's `sources/` into the store.

    On a store shared by several workspaces (issue 25 d3) the notes are the team's: each row records
    the workspace that collected it (`workspace`), a collect removes only its own rows whose file is
    gone, and a path another workspace already collected with other content is skipped with the
    reason (the note keeps its author's text; rename the file to add yours). On SQLite (one
    workspace per database file, a copied folder keeps its notes) the rows stay unowned. A note collected before
    the column existed (empty `workspace`) is claimed by the first collect that still has the file,
    and removed by one that does not only while no other workspace has collected into the store."""
    if store.is_sqlite:
        workspace = ""  # one workspace per database file (a copied folder keeps its notes)
    notes, bad = scan(layout.sources)
    report = CollectReport(skipped=bad)
    with store.write() as s:
        rows = list(s.scalars(select(ResearchNote)))
        others = {r.workspace for r in rows} - {"", workspace}
        existing = {n.path: n for n in rows}
        now = utcnow()
        for note in notes:
            row = existing.pop(note.path, None)
            if row is not None and row.workspace not in ("", workspace):
                if row.sha256 == note.sha256:
                    report.unchanged += 1
                else:
                    report.skipped.append(
                        (
                            note.path,
                            f"the team's store already holds a note at this path, collected by workspace "
                            f"{row.workspace}: rename the file to add yours",
                        )
                    )
                continue
            if row is not None and row.sha256 == note.sha256:
                if row.workspace != workspace:
                    row.workspace = workspace  # claimed (not signed: the row's signature still holds)
                report.unchanged += 1
                continue
            if row is None:
                row = ResearchNote(path=note.path)
                s.add(row)
                report.added += 1
            else:
                report.updated += 1
            row.title, row.summary, row.body = note.title, note.summary, note.body
            row.verdict, row.impact, row.date = note.verdict, note.impact, note.date
            row.tags, row.domain, row.project = ",".join(note.tags), note.domain, note.project
            row.sha256, row.collected_at, row.workspace = note.sha256, now, workspace
        for gone in existing.values():
            if gone.workspace == workspace or (gone.workspace == "" and not others):
                s.delete(gone)
                report.removed += 1
    if clarifications is not None:
        added, cbad = clarifications.import_files()
        report.clarifications = added
        report.skipped.extend((f"clarifications/{p}", r) for p, r in cbad)
    return report
