"""`memory collect`: research notes from `sources/` into the store (and hand-placed clarification
files through the PII gate). Unchanged files are skipped; notes whose file is gone are removed."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import select
from sqlalchemy.orm import Session

from lorekeeper.memory.clarify import ClarificationService
from lorekeeper.memory.layout import MemoryLayout
from lorekeeper.memory.notes import NoteError, ParsedNote, read_note, scan
from lorekeeper.store.engine import Store
from lorekeeper.store.models import ResearchNote, utcnow

#: `progress(phase, done, total)`: "reading" the files, "storing" the notes, "clarifications" files
PhaseProgress = Callable[[str, int, int], None]
LOAD_CHUNK = 500  # ids (paths) per SELECT ... IN (...)
#: notes per write transaction: the store's write lock is held for one batch at a time, so a hook
#: or another command waits a fraction of a second behind a 20,000-file collect, not all of it
#: (its `busy_timeout` is 15 s), and a collect that is stopped keeps the batches it committed
BATCH = 2000


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


class _Row(NamedTuple):
    id: int
    sha256: str
    workspace: str


def _phase(progress: PhaseProgress | None, phase: str) -> Callable[[int, int], None] | None:
    if progress is None:
        return None
    return lambda done, total: progress(phase, done, total)


def _load(s: Session, ids: list[int]) -> Iterator[ResearchNote]:
    """The whole rows of `ids`, LOAD_CHUNK at a time."""
    for i in range(0, len(ids), LOAD_CHUNK):
        yield from s.scalars(select(ResearchNote).where(ResearchNote.id.in_(ids[i : i + LOAD_CHUNK])))


def _rows(s: Session, paths: list[str]) -> dict[str, _Row]:
    """(id, sha256, workspace) of the rows at `paths`, LOAD_CHUNK paths per query."""
    out: dict[str, _Row] = {}
    cols = (ResearchNote.id, ResearchNote.path, ResearchNote.sha256, ResearchNote.workspace)
    for i in range(0, len(paths), LOAD_CHUNK):
        for rid, path, sha, ws in s.execute(select(*cols).where(ResearchNote.path.in_(paths[i : i + LOAD_CHUNK]))):
            out[str(path)] = _Row(int(rid), str(sha or ""), str(ws or ""))
    return out


def _all_unchanged(rows: dict[str, _Row], chunk: list[tuple[str, str, ParsedNote | None]], workspace: str) -> bool:
    """Every entry of `chunk` has a row with its sha256 that needs no claim: nothing to write."""
    for path, sha, _note in chunk:
        row = rows.get(path)
        if row is None or row.sha256 != sha or (row.workspace == "" and workspace != ""):
            return False
    return True


def _gone(s: Session, present: set[str], workspace: str) -> list[int]:
    """The ids of the notes whose file is gone that this collect removes (see `collect`)."""
    rows = s.execute(select(ResearchNote.id, ResearchNote.path, ResearchNote.workspace)).all()
    others = {str(w or "") for _i, _p, w in rows} - {"", workspace}
    return [
        int(i)
        for i, p, w in rows
        if str(p) not in present and ((w or "") == workspace or ((w or "") == "" and not others))
    ]


def _fill(row: ResearchNote, note: ParsedNote, now: datetime, workspace: str) -> None:
    row.title, row.summary, row.body = note.title, note.summary, note.body
    row.verdict, row.impact, row.date = note.verdict, note.impact, note.date
    row.tags, row.domain, row.project = ",".join(note.tags), note.domain, note.project
    row.sha256, row.collected_at, row.workspace = note.sha256, now, workspace


@contextmanager
def _no_cyclic_gc() -> Iterator[None]:
    """The cyclic garbage collector paused (issue 26): a collect keeps every note, row and ORM
    state it makes alive until its commit, so the collector's passes over that growing heap found
    nothing to free and cost a third of the run (20,000 files: 17.4 s -> 11.5 s CPU in-process,
    the same peak memory). Reference counting still frees everything else; the collector is
    switched back on (if it was on) whatever happens. Process-wide: in the app, other threads run
    without the cyclic collector for the collect's duration (a few seconds), nothing more."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def collect(
    store: Store,
    layout: MemoryLayout,
    clarifications: ClarificationService | None = None,
    *,
    workspace: str = "",
    progress: PhaseProgress | None = None,
) -> CollectReport:
    """Notes of this workspace's `sources/` into the store.

    On a store shared by several workspaces (issue 25 d3) the notes are the team's: each row records
    the workspace that collected it (`workspace`), a collect removes only its own rows whose file is
    gone, and a path another workspace already collected with other content is skipped with the
    reason (the note keeps its author's text; rename the file to add yours). On SQLite (one
    workspace per database file, a copied folder keeps its notes) the rows stay unowned. A note collected before
    the column existed (empty `workspace`) is claimed by the first collect that still has the file,
    and removed by one that does not only while no other workspace has collected into the store.

    At scale (issue 26: 20,000 files): a file whose bytes hash to its row's sha256 is not parsed
    again, the rows are read as (id, path, sha256, workspace) and only those that change are
    loaded whole; the changes are written BATCH notes per transaction (each signed and ledgered by
    the store's commit hook, each a change-feed revision; a batch with nothing to change writes
    nothing), then the rows whose file is gone are removed in one last transaction (always run). A collect
    stopped half-way keeps the batches it committed: the next one finds them unchanged. `progress(phase, done, total)`: phase "reading" per file,
    "storing" per note, "clarifications" per clarification file."""
    if store.is_sqlite:
        workspace = ""  # one workspace per database file (a copied folder keeps its notes)
    with _no_cyclic_gc():
        return _collect(store, layout, clarifications, workspace, progress)


def _collect(
    store: Store,
    layout: MemoryLayout,
    clarifications: ClarificationService | None,
    workspace: str,
    progress: PhaseProgress | None,
) -> CollectReport:
    with store.session() as s:
        known = {str(p): str(h) for p, h in s.execute(select(ResearchNote.path, ResearchNote.sha256))}
    found = scan(layout.sources, known, progress=_phase(progress, "reading"))
    report = CollectReport(skipped=list(found.bad))
    entries: list[tuple[str, str, ParsedNote | None]] = [(n.path, n.sha256, n) for n in found.notes]
    entries += [(path, sha, None) for path, sha in found.unchanged.items()]
    entries.sort(key=lambda e: e[0])
    step = _phase(progress, "storing")
    present: set[str] = set()  # the paths that still hold a note (their rows are not removed)
    now = utcnow()
    done = 0
    for start in range(0, len(entries), BATCH):
        chunk = entries[start : start + BATCH]
        with store.session() as s:
            if _all_unchanged(_rows(s, [e[0] for e in chunk]), chunk, workspace):
                present.update(e[0] for e in chunk)
                report.unchanged += len(chunk)
                done += len(chunk)
                if step is not None:
                    step(done, len(entries))
                continue  # nothing to write: no transaction, the store revision stays
        with store.write() as s:
            # read again under the write lock: another collect may have run since `known` was read
            rows = _rows(s, [e[0] for e in chunk])
            new: list[ParsedNote] = []
            changed: dict[int, ParsedNote] = {}
            claimed: list[int] = []
            for path, sha, note in chunk:
                done += 1
                if step is not None:
                    step(done, len(entries))
                row = rows.get(path)
                if row is not None and row.workspace not in ("", workspace):
                    present.add(path)
                    if row.sha256 == sha:
                        report.unchanged += 1
                    else:
                        report.skipped.append(
                            (
                                path,
                                f"the team's store already holds a note at this path, collected by workspace "
                                f"{row.workspace}: rename the file to add yours",
                            )
                        )
                    continue
                if row is not None and row.sha256 == sha:
                    present.add(path)
                    if row.workspace != workspace:
                        claimed.append(row.id)  # claimed (not signed: the row's signature still holds)
                    report.unchanged += 1
                    continue
                if note is None:  # unchanged when scanned, but its row changed since: read it now
                    try:
                        note = read_note(layout.sources, path)
                    except NoteError as exc:
                        report.skipped.append((path, str(exc)))
                        note = None
                    if note is None:  # no longer a note here: as if the file were gone
                        continue
                present.add(path)
                if row is None:
                    new.append(note)
                    report.added += 1
                else:
                    changed[row.id] = note
                    report.updated += 1
            for obj in _load(s, [*changed, *claimed]):
                if obj.id in changed:
                    _fill(obj, changed[obj.id], now, workspace)
                else:
                    obj.workspace = workspace
            for note in new:
                obj = ResearchNote(path=note.path)
                _fill(obj, note, now, workspace)
                s.add(obj)
    # the rows whose file is gone, once every batch is in. Always a write transaction, as a collect
    # always was: it is a writing command, so a key or chain that refuses writes fails it (exit 4)
    # even when nothing changed, and the revision moves once.
    with store.write() as s:
        gone = _gone(s, present, workspace)
        for obj in _load(s, gone):
            s.delete(obj)
    report.removed = len(gone)
    if clarifications is not None:
        added, cbad = clarifications.import_files(progress=_phase(progress, "clarifications"))
        report.clarifications = added
        report.skipped.extend((f"clarifications/{p}", r) for p, r in cbad)
    return report
