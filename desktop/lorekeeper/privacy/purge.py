"""GDPR purge runs (seed 004 §3.1, §3.8, §3.12.7): erase a story from every artefact, prove it.

A run enumerates every `Purgeable` the workspace hands it (built once, in erasure order), so a new
service that holds story-linked data cannot be forgotten (tests/privacy/test_coverage.py fails on
a table or folder holding story ids that no purgeable covers). For each story:

1. the plan (count per purgeable) is journaled in the store (`purge_runs`, `purge_steps`);
2. each purgeable erases (store rows with secure_delete, FAISS `remove_ids` rewritten atomically,
   `.npy` rows, cache entries, session-log events replaced by signed tombstones, the markdown);
   each step is journaled, so a run killed at any point (even `kill -9`) is finished by the next
   purge, which resumes it first;
3. the store is compacted so the erased bytes are gone from the files, not just unreachable:
   - SQLite: `secure_delete` zeroes freed cells, `VACUUM` rewrites the database without the free
     pages (and the old cells of earlier updates), `PRAGMA wal_checkpoint(TRUNCATE)` empties the
     WAL, whose frames still held the pages as they were before;
   - PostgreSQL: `VACUUM` on the touched tables marks the dead tuples' space reusable and removes
     their index entries. It does NOT overwrite them: the bytes stay in the heap pages until new
     rows reuse the space, in the WAL segments until they are recycled, in WAL archives and base
     backups until their retention ends, and on replicas. `VACUUM FULL` would rewrite the table
     (an exclusive lock) but the old files' blocks stay on the disk. The run says so in its notes:
     the operator's backup retention is the bound on erasure there;
4. every artefact is verified: each purgeable's `verify_erased`, and every file of the workspace
   (database, WAL, indexes, logs) searched byte for byte for the story's distinctive lines, which
   live in memory during the run only. Anything left makes the run `incomplete` and the command
   fail with ERR_PURGE_INCOMPLETE naming it;
5. a signed `clarification_purged` event per story carries the counts per artefact (never content).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Select, func, select, text

from lorekeeper.audit.log import SessionLog
from lorekeeper.errors import InvalidInputError, LorekeeperError, NotFoundError
from lorekeeper.jobs import Progress, drive
from lorekeeper.locations import os_login
from lorekeeper.locks import RWLock
from lorekeeper.protocols import Purgeable
from lorekeeper.store.backup import retained_copies
from lorekeeper.store.engine import Store
from lorekeeper.store.models import PurgeRun, PurgeStep
from lorekeeper.store.ordering import order_clauses

ARTEFACTS = ("store", "faiss", "embeddings", "cache", "sessions", "markdown")
CRASH_ENV = "LOREKEEPER_PURGE_CRASH_AT"  # tests only: SIGKILL this process at the named point
LOCK_NAME = "purge.lock"
RESIDUE_TIMEOUT = 600.0  # seconds: the byte scan of a large workspace
PG_VACUUM_NOTE = (
    "PostgreSQL: VACUUM ran on the touched tables: dead tuples are reclaimable and out of the indexes, "
    "but their bytes stay in heap pages until reused, in WAL segments until recycled, and in WAL archives, "
    "base backups and replicas until their retention ends."
)

operator = os_login  # who acts without a Vault identity (one definition: locations.os_login)


class PurgeIncompleteError(LorekeeperError):
    code = "ERR_PURGE_INCOMPLETE"


def crash_point(name: str) -> None:
    """Tests kill the purge at a named point (`LOREKEEPER_PURGE_CRASH_AT=name`) to prove it resumes."""
    if os.environ.get(CRASH_ENV) == name:
        os.kill(os.getpid(), signal.SIGKILL)


def artefact_of(p: Purgeable) -> str:
    """The artefact a purgeable's single step counts in (its first one)."""
    kind = p.purge_artefacts[0] if p.purge_artefacts else "store"
    return kind if kind in ARTEFACTS else "store"


def steps_of(p: Purgeable) -> list[tuple[str, str]]:
    """(step name, artefact) of one purgeable: one step, or one per artefact it spans."""
    if len(p.purge_artefacts) > 1:
        return [(f"{p.purge_name}#{a}", a) for a in p.purge_artefacts]
    return [(p.purge_name, artefact_of(p))]


def parse_day(value: str | date | None) -> date:
    if value is None:
        return date.today()
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value).strip())
    except ValueError:
        raise InvalidInputError(f"not a date: {value!r} (expected YYYY-MM-DD)") from None


@dataclass
class PurgeResult:
    """What one purge invocation erased (its runs, resumed ones included) and whether it is proven."""

    mode: str
    stories: list[str] = field(default_factory=list)
    artefacts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ARTEFACTS, 0))
    verified: bool = True
    remaining: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    runs: list[int] = field(default_factory=list)
    resumed: list[int] = field(default_factory=list)
    today: str | None = None

    def merge(self, other: PurgeResult) -> None:
        self.stories.extend(s for s in other.stories if s not in self.stories)
        for k, v in other.artefacts.items():
            self.artefacts[k] = self.artefacts.get(k, 0) + v
        self.verified = self.verified and other.verified
        self.remaining.extend(other.remaining)
        self.notes.extend(n for n in other.notes if n not in self.notes)
        self.runs.extend(other.runs)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "stories": list(self.stories),
            "artefacts": {k: int(self.artefacts.get(k, 0)) for k in ARTEFACTS},
            "verified": self.verified,
            "mode": self.mode,
            "runs": list(self.runs),
            "resumed": list(self.resumed),
            "remaining": list(self.remaining),
            "notes": list(self.notes),
        }
        if self.today is not None:
            out["today"] = self.today
        return out

    def text(self) -> str:
        what = ", ".join(f"{k} {self.artefacts.get(k, 0)}" for k in ARTEFACTS)
        who = ", ".join(self.stories) or "no story"
        head = f"purged {who}: {what}; " + ("verified" if self.verified else "INCOMPLETE")
        lines = [head]
        if self.resumed:
            lines.append("resumed interrupted run(s): " + ", ".join(f"#{r}" for r in self.resumed))
        lines.extend(f"  remains: {r}" for r in self.remaining)
        lines.extend(f"  note: {n}" for n in self.notes)
        return "\n".join(lines)


@dataclass
class RunInfo:
    """One journaled run, as `purge runs` and the Purge runs panel show it."""

    id: int
    mode: str
    stories: list[str]
    today: str
    status: str
    artefacts: dict[str, int]
    verified: bool
    remaining: list[str]
    notes: list[str]
    by: str
    started_at: str
    finished_at: str | None
    verified_at: str | None

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _run_info(run: PurgeRun) -> RunInfo:
    return RunInfo(
        id=run.id,
        mode=run.mode,
        stories=json.loads(run.stories or "[]"),
        today=run.today,
        status=run.status,
        artefacts={k: int(json.loads(run.counts or "{}").get(k, 0)) for k in ARTEFACTS},
        verified=bool(run.verified),
        remaining=json.loads(run.remaining or "[]"),
        notes=json.loads(run.notes or "[]"),
        by=run.by,
        started_at=run.started_at.isoformat(timespec="seconds"),
        finished_at=run.finished_at.isoformat(timespec="seconds") if run.finished_at else None,
        verified_at=run.verified_at.isoformat(timespec="seconds") if run.verified_at else None,
    )


#: the columns `PurgeService.runs(order_by=...)` sorts on (the Purge runs table's headers)
RUN_SORT: dict[str, Any] = {
    "id": PurgeRun.id,
    "started_at": PurgeRun.started_at,
    "mode": PurgeRun.mode,
    "stories": PurgeRun.stories,
    "status": PurgeRun.status,
    "verified": PurgeRun.verified,
    "by": PurgeRun.by,
}

_Sel = TypeVar("_Sel", bound="Select[Any]")


def _story_filter(stmt: _Sel, story: str | None) -> _Sel:
    """Runs whose stories hold `story` (in SQL: the JSON list's text holds it, escaped as JSON)."""
    if not story:
        return stmt
    needle = json.dumps(story.lower())[1:-1]
    return stmt.where(func.lower(PurgeRun.stories).contains(needle, autoescape=True))


def _by_filter(stmt: _Sel, by: str | None) -> _Sel:
    """Runs made by the operator `by` (issue 25 d2; case and surrounding spaces aside)."""
    if by is None or not by.strip():
        return stmt
    return stmt.where(func.lower(PurgeRun.by) == by.strip().lower())


class PurgeService:
    """Erase stories from every registered `Purgeable`, journaled, compacted, verified and signed."""

    def __init__(
        self,
        *,
        store: Store,
        purgeables: Sequence[Purgeable],
        audit_log: Callable[[], SessionLog],
        root: Path,
        locks_dir: Path,
        today: Callable[[], date] = date.today,
    ) -> None:
        self.store = store
        self.purgeables: tuple[Purgeable, ...] = tuple(purgeables)  # built once, in erasure order
        self._retained = tuple(p for p in self.purgeables if p.purge_on_retention)
        self._steps = {
            name: (p, a) for p in self.purgeables for name, a in steps_of(p)
        }  # step -> (purgeable, artefact)
        self.audit_log = audit_log
        self.root = Path(root)
        self.lock = RWLock(Path(locks_dir) / LOCK_NAME, timeout=60.0)
        self.today = today

    def _operator(self) -> str:
        """Who runs the purge: the signed log's operator (the Vault identity, else the OS login)."""
        from lorekeeper.errors import LorekeeperError

        try:
            return self.audit_log().operator()
        except LorekeeperError:
            return operator()

    # ------------------------------------------------------------------ what there is
    def selected(self, mode: str) -> tuple[Purgeable, ...]:
        return self._retained if mode == "retention" else self.purgeables

    def plan(self, story: str, mode: str = "story") -> dict[str, int]:
        """Counts per artefact of what a purge of `story` would erase now."""
        counts = dict.fromkeys(ARTEFACTS, 0)
        for p in self.selected(mode):
            for _name, artefact, n in self._counts(p, story):
                counts[artefact] += n
        return counts

    @staticmethod
    def _counts(p: Purgeable, story: str) -> list[tuple[str, str, int]]:
        """(step name, artefact, count) of one purgeable: one step, or one per artefact it spans."""
        if len(p.purge_artefacts) > 1:
            split = p.artefact_counts(story)
            return [(name, a, int(split.get(a, 0))) for name, a in steps_of(p)]
        return [(name, a, int(p.count_for_story(story))) for name, a in steps_of(p)]

    def retention_dates(self) -> dict[str, str]:
        """story -> its earliest retention_until, from every purgeable that knows one."""
        out: dict[str, str] = {}
        for p in self.purgeables:
            for story, until in p.retention_dates():
                if story and until and (story not in out or until < out[story]):
                    out[story] = until
        return out

    def due(self, today: str | date | None = None) -> list[tuple[str, str]]:
        """(story, retention_until) erased by a retention run on `today`: today > retention_until, strictly."""
        day = parse_day(today) if today is not None else self.today()
        out = []
        for story, until in sorted(self.retention_dates().items()):
            try:
                if day > date.fromisoformat(until[:10]):
                    out.append((story, until))
            except ValueError:
                continue  # a malformed date is never erased silently: preview lists it as kept
        return out

    def preview(self, today: str | date | None = None) -> dict[str, Any]:
        """What a retention run on `today` erases (with counts) and what it keeps, until when."""
        day = parse_day(today) if today is not None else self.today()
        due = dict(self.due(day))
        items, kept = [], []
        for story, until in sorted(self.retention_dates().items()):
            if story in due:
                items.append({"story": story, "retention_until": until, "artefacts": self.plan(story, "retention")})
            else:
                kept.append({"story": story, "retention_until": until})
        kept.sort(key=lambda k: k["retention_until"])
        return {
            "today": day.isoformat(),
            "stories": [i["story"] for i in items],
            "due": items,
            "kept": kept,
            "next_expiry": kept[0] if kept else None,
        }

    # ------------------------------------------------------------------ running
    def purge_story(self, story: str, *, progress: Callable[[Progress], None] | None = None) -> PurgeResult:
        result: PurgeResult = drive(self.run_iter, ("story", [story]), on_progress=progress)
        return result

    def purge_retention(
        self, today: str | date | None = None, *, progress: Callable[[Progress], None] | None = None
    ) -> PurgeResult:
        result: PurgeResult = drive(self.run_iter, ("retention", None), {"today": today}, on_progress=progress)
        return result

    def on_story_close(self, story: str, today: str | date | None = None) -> PurgeResult | None:
        """The hook `story close` calls (seed 004 §3.8, §3.12.3): the retention purge for that story,
        when its summary is due; idempotent (nothing due: nothing run, None)."""
        if story not in dict(self.due(today)):
            return None
        result: PurgeResult = drive(self.run_iter, ("retention", None), {"today": today, "only": [story]})
        return result

    def run_iter(
        self,
        mode: str,
        stories: Sequence[str] | None,
        *,
        today: str | date | None = None,
        only: Sequence[str] | None = None,
    ) -> Generator[Progress, None, PurgeResult]:
        """The purge as a job: yields progress, returns the result; resumes interrupted runs first.

        Raises nothing on an incomplete run: `result.verified` is False and `remaining` names what
        is left (the CLI turns that into ERR_PURGE_INCOMPLETE)."""
        if mode not in ("story", "retention"):
            raise InvalidInputError(f"unknown purge mode {mode!r}")
        day = (parse_day(today) if today is not None else self.today()).isoformat()
        if mode == "story":
            wanted = [" ".join(str(s).split()) for s in (stories or [])]
            if not wanted or not all(wanted):
                raise InvalidInputError("name the story to purge: purge --story STORY --force")
        # the key and an intact chain, fail closed, before anything is erased (tombstones and the
        # proof are signed; a broken chain would leave erased rows without their proof, issue 24)
        self.audit_log().check()
        result = PurgeResult(mode=mode, today=day if mode == "retention" else None)
        with self.lock.exclusive():
            for run_id in self._interrupted():
                yield Progress(0, 1, f"resuming interrupted purge #{run_id}")
                resumed = yield from self._execute(run_id)
                result.merge(resumed)
                result.resumed.append(run_id)
            if mode == "retention":
                wanted = [s for s, _ in self.due(day) if only is None or s in only]
            run_id = self._journal(mode, wanted, day)
            fresh = yield from self._execute(run_id)
            result.merge(fresh)
        return result

    def _interrupted(self) -> list[int]:
        with self.store.session() as s:
            return list(s.scalars(select(PurgeRun.id).where(PurgeRun.status == "running").order_by(PurgeRun.id)))

    def _journal(self, mode: str, stories: list[str], day: str) -> int:
        """The run and its planned steps, in one transaction, before anything is erased."""
        plan = [(story, step) for story in stories for p in self.selected(mode) for step in self._counts(p, story)]
        with self.store.write() as s:
            run = PurgeRun(
                mode=mode, stories=json.dumps(stories), today=day if mode == "retention" else "", by=self._operator()
            )
            s.add(run)
            s.flush()
            for story, (name, artefact, planned) in plan:
                s.add(PurgeStep(run_id=run.id, story=story, purgeable=name, artefact=artefact, planned=planned))
            return int(run.id)

    def _execute(self, run_id: int) -> Generator[Progress, None, PurgeResult]:
        by_step = self._steps
        with self.store.session() as s:
            run = s.get(PurgeRun, run_id)
            if run is None:
                raise NotFoundError(f"no purge run #{run_id}")
            mode, stories = run.mode, json.loads(run.stories or "[]")
            notes: list[str] = json.loads(run.notes or "[]")
            rows = s.scalars(select(PurgeStep).where(PurgeStep.run_id == run_id).order_by(PurgeStep.id))
            steps = [(st.id, st.story, st.purgeable, st.status) for st in rows]
        total = len(steps) * 2 + 2
        done = 0
        # distinctive text, gathered before the erasure, in memory only (never journaled)
        probes: dict[str, list[str]] = {story: [] for story in stories}
        for _sid, story, name, status in steps:
            p = by_step.get(name, (None, ""))[0]
            if status == "pending" and p is not None:
                probes.setdefault(story, []).extend(p.probes(story))
        shared = self._shared_lines(probes, self.purgeables)
        for story, others in sorted(shared.items()):
            lines = {q for q, _who in others}
            probes[story] = [q for q in probes[story] if q not in lines]
            who = sorted({w for _q, ws in others for w in ws})
            own = len(probes[story])
            note = (
                f"{story}: {len(lines)} line(s) of its summary are shared with the live summary of "
                f"{', '.join(who)} and were left there; verified byte for byte with its {own} own line(s)"
                if own
                else f"{story}: every line of its summary is shared with the live summary of {', '.join(who)}; "
                "the erasure was verified per artefact, not byte for byte"
            )
            if note not in notes:
                notes.append(note)
        erased_rows = False
        erased_now: set[tuple[str, str]] = set()
        for _sid, story, name, status in steps:
            done += 1
            p, _artefact = by_step.get(name, (None, ""))
            yield Progress(done, total, f"{story}: erasing {name}")
            if status != "pending" or p is None or (story, p.purge_name) in erased_now:
                continue
            crash_point(f"before:{p.purge_name}")
            split = dict(p.erase_artefacts(story)) if len(p.purge_artefacts) > 1 else {}
            n = sum(split.values()) if split else int(p.erase_story(story))
            erased_now.add((story, p.purge_name))
            erased_rows = erased_rows or (artefact_of(p) == "store" and n > 0)
            with self.store.write() as s:
                for st in s.scalars(select(PurgeStep).where(PurgeStep.run_id == run_id, PurgeStep.story == story)):
                    if st.purgeable == name and not split:
                        st.erased = int(st.erased) + n
                        st.status = "erased"
                    elif split and st.purgeable.startswith(f"{p.purge_name}#") and st.status == "pending":
                        st.erased = int(st.erased) + int(split.get(st.artefact, 0))
                        st.status = "erased"
            crash_point(f"after:{p.purge_name}")
        done += 1
        yield Progress(done, total, "compacting the store")
        all_probes = [q for qs in probes.values() for q in qs]
        if all_probes:
            self._scrub_text(all_probes)
        touched = sorted({t for p in self.purgeables if artefact_of(p) == "store" for t in p.purge_tables})
        note = self.compact(touched, force=erased_rows or bool(all_probes) or mode == "story")
        if note and note not in notes:
            notes.append(note)
        crash_point("after:compact")
        remaining: list[str] = []
        step_ok: dict[int, bool] = {}
        checked: dict[tuple[str, str], bool] = {}
        for sid, story, name, _status in steps:
            done += 1
            yield Progress(done, total, f"{story}: verifying {name}")
            p, artefact = by_step.get(name, (None, "store"))
            if p is None:
                step_ok[sid] = False
                remaining.append(f"{story}: {name} (no such purgeable any more)")
                continue
            key = (story, p.purge_name)
            if key not in checked:
                checked[key] = bool(p.verify_erased(story))
                if not checked[key]:
                    left = (
                        dict(p.artefact_counts(story))
                        if len(p.purge_artefacts) > 1
                        else {artefact: p.count_for_story(story)}
                    )
                    what = ", ".join(f"{a} {n}" for a, n in left.items() if n) or "data"
                    remaining.append(f"{story}: {p.purge_name} still holds {what}")
            step_ok[sid] = checked[key]
        for story, qs in probes.items():
            found, retained = self.scan(qs)
            for rel in found:
                remaining.append(f"{story}: bytes of its text remain in {rel}")
            copies = sorted({"/".join(rel.split("/")[:2]) if rel.startswith("backups/") else rel for rel in retained})
            if copies:
                note = (
                    f"{story}: {len(copies)} retained cop{'y' if len(copies) == 1 else 'ies'} made before this purge "
                    f"still hold its text ({', '.join(copies)}): they go when pruned ([backup] keep) or deleted, and "
                    "a restore of one erases the story again"
                )
                if note not in notes:
                    notes.append(note)
        done += 1
        yield Progress(done, total, "signing the proof")
        counts_by_story: dict[str, dict[str, int]] = {s: dict.fromkeys(ARTEFACTS, 0) for s in stories}
        verified = not remaining
        log = self.audit_log()
        # the verdicts, the signed proof and the run's outcome: one transaction (issue 24)
        with self.store.write() as s:
            for st in s.scalars(select(PurgeStep).where(PurgeStep.run_id == run_id)):
                counts_by_story.setdefault(st.story, dict.fromkeys(ARTEFACTS, 0))[st.artefact] += int(st.erased)
                if st.id in step_ok:
                    st.status = "verified" if step_ok[st.id] else "remains"
            for story in stories:
                left_over = [r.split(": ", 1)[1] for r in remaining if r.startswith(f"{story}: ")]
                log.record(
                    "clarification_purged",
                    {
                        "run": run_id,
                        "mode": mode,
                        "artefacts": counts_by_story[story],
                        "verified": not left_over,
                        "remaining": len(left_over),
                    },
                    story=story,
                )
            totals = dict.fromkeys(ARTEFACTS, 0)
            for c in counts_by_story.values():
                for k, v in c.items():
                    totals[k] += v
            now = datetime.now(UTC)
            run = s.get(PurgeRun, run_id)
            assert run is not None
            run.status = "done" if verified else "incomplete"
            run.counts = json.dumps(totals)
            run.verified = verified
            run.remaining = json.dumps(remaining)
            run.notes = json.dumps(notes)
            run.finished_at = now
            run.verified_at = now
        return PurgeResult(
            mode=mode,
            stories=list(stories),
            artefacts=totals,
            verified=verified,
            remaining=remaining,
            notes=notes,
            runs=[run_id],
        )

    @staticmethod
    def _shared_lines(
        probes: dict[str, list[str]], purgeables: Sequence[Purgeable]
    ) -> dict[str, list[tuple[str, frozenset[str]]]]:
        """Per purged story, its probe lines that a story outside this run also holds in a live
        summary (file or row): text that belongs to another story is not residue of this one, and
        must not be scrubbed from the other story's events either (issue 23)."""
        stories = list(probes)
        if not any(probes.values()):
            return {}
        others: list[tuple[str, str]] = []
        for p in purgeables:
            others.extend(p.others_text(stories))
        out: dict[str, list[tuple[str, frozenset[str]]]] = {}
        for story, qs in probes.items():
            for q in qs:
                holders = frozenset(who for who, body in others if q in body and who not in stories)
                if holders:
                    out.setdefault(story, []).append((q, holders))
        return out

    # ------------------------------------------------------------------ store bytes
    def _scrub_text(self, probes: Sequence[str]) -> None:
        """Text of the story copied elsewhere (a prompt that carried its summary, a trace): the
        session events holding it are tombstoned (`erase_text`: only the session log's purgeable
        holds copies); store cells holding it are left to verification."""
        files = [p for p in (self.root / "sessions").glob("*.jsonl") if p.is_file()]
        needles = [q.encode("utf-8") for q in probes]
        if any(any(n in f.read_bytes() for n in needles) for f in files):
            for p in self.purgeables:
                p.erase_text(list(probes))

    def compact(self, tables: Sequence[str], *, force: bool = True) -> str:
        """Make erased rows unrecoverable from the store's files (see the module docstring)."""
        if not force:
            return ""
        if self.store.is_sqlite:
            raw = self.store.engine.raw_connection()
            try:
                con: Any = raw.driver_connection
                con.execute("PRAGMA secure_delete = ON")
                con.execute("VACUUM")
                busy = 1
                for _ in range(50):
                    busy = int(con.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0])
                    if not busy:
                        break
                    time.sleep(0.1)
            finally:
                raw.close()
            if busy:
                return "SQLite: VACUUM ran but a reader kept the WAL from being truncated; run the purge again"
            return "SQLite: secure_delete, VACUUM and WAL checkpoint (TRUNCATE): no free page or WAL frame keeps erased rows"
        with self.store.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            for table in tables:
                if conn.execute(text("SELECT to_regclass(:t)"), {"t": f'"{table}"'}).scalar() is None:
                    continue  # a shared index table not created yet (nothing to compact)
                conn.execute(text(f'VACUUM (ANALYZE) "{table}"'))
        return PG_VACUUM_NOTE

    def residue(self, probes: Sequence[str]) -> list[str]:
        """Workspace files (relative paths) whose bytes still hold one of `probes`, outside the
        copies the workspace keeps on purpose (backups, stores set aside by a restore)."""
        return self.scan(probes)[0]

    def scan(self, probes: Sequence[str]) -> tuple[list[str], list[str]]:
        """(residue, retained copies holding the text). The scan runs in a child process that holds
        no connection (`residue_scan`): this process's SQLite connections would lose their `fcntl`
        locks the moment it closed a descriptor of the database, its WAL or its shared-memory file
        (see `lorekeeper.dbfiles`). A scan that cannot run is reported as residue, never as a clean
        verification."""
        needles = [q for q in probes if q]
        if not needles:
            return [], []
        kept = [p.as_posix() for p in retained_copies(self.root)]
        request = json.dumps({"root": str(self.root), "needles": needles, "retained": kept}).encode("utf-8")
        try:
            proc = subprocess.run(
                [sys.executable, "-m", "lorekeeper.privacy.residue_scan"],
                input=request,
                capture_output=True,
                timeout=RESIDUE_TIMEOUT,
                check=False,
            )
            if proc.returncode != 0:
                raise OSError(proc.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or proc.returncode)
            answer = json.loads(proc.stdout.decode("utf-8"))
            return [str(p) for p in answer["found"]], [str(p) for p in answer.get("retained", [])]
        except (OSError, ValueError, KeyError, subprocess.SubprocessError) as exc:
            return [f"(the byte scan of the workspace could not run: {exc}; run the purge again)"], []

    # ------------------------------------------------------------------ history
    def runs(
        self,
        limit: int = 200,
        story: str | None = None,
        *,
        offset: int = 0,
        order_by: str = "id",
        descending: bool = True,
        by: str | None = None,
    ) -> list[RunInfo]:
        """The runs (those that erased a story containing `story`, case-insensitive; made by the
        operator `by`), newest first unless `order_by` (a key of `RUN_SORT`, ties by id) and
        `descending` say otherwise."""
        stmt = _by_filter(_story_filter(select(PurgeRun), story), by)
        stmt = stmt.order_by(*order_clauses(RUN_SORT, order_by, descending, PurgeRun.id))
        with self.store.session() as s:
            return [_run_info(r) for r in s.scalars(stmt.limit(limit).offset(offset))]

    def count_runs(self, story: str | None = None, by: str | None = None) -> int:
        with self.store.session() as s:
            return int(s.scalar(_by_filter(_story_filter(select(func.count(PurgeRun.id)), story), by)) or 0)

    def run(self, run_id: int) -> RunInfo:
        with self.store.session() as s:
            row = s.get(PurgeRun, run_id)
            if row is None:
                raise NotFoundError(f"no purge run #{run_id}; `lorekeeper purge runs` lists them")
            return _run_info(row)

    def reverify(self, run_id: int) -> RunInfo:
        """Verify a past run again: every purgeable of its mode for every story it erased."""
        info = self.run(run_id)
        remaining: list[str] = []
        for story in info.stories:
            for p in self.selected(info.mode):
                if not p.verify_erased(story):
                    remaining.append(f"{story}: {p.purge_name} ({artefact_of(p)}) holds its data again")
        with self.store.write() as s:
            row = s.get(PurgeRun, run_id)
            assert row is not None
            if row.status != "running":
                row.verified = not remaining
                row.remaining = json.dumps(remaining)
                row.verified_at = datetime.now(UTC)
                if row.status in ("done", "incomplete"):
                    row.status = "done" if not remaining else "incomplete"
        return self.run(run_id)
