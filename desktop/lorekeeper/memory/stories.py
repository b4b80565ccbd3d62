"""Stories and the memory injection at their start (seed 004 B5), and `on_story_close`.

`start(story, domain, project)`:
1. the story row (signed: its gate outcome drives reuse scores) is created or checked;
2. under the memory files' shared lock, the selection: exactly `count_configured` items of each
   corpus (5 learnings + 3 research notes + 3 clarification summaries) when the corpora hold that
   many, else all there are (`under_corpus`). Learnings follow the scope filter (story-scope
   learnings of the same domain, domain-scope learnings of the domain, every global one), best
   reuse score first, then newest, with at most one learning of another domain on trial in the
   last slot (a domain-scope learning whose reuse score already meets the global bar, 0.6: only
   its second domain is missing; it counts there once that story passes its gate); notes of the story's domain or project come first, then
   those of no project, signal before veille before bruit, then by the hybrid search on the story's
   domain, project and own clarification, then impact and date; clarifications are the past stories' of
   the same domain and project, newest first (the story's own summary is not "past memory");
3. the signed trace: a `memory_injected` event in the session log, then one signed
   `memory_injections` row per item, BEFORE the block is returned. If either cannot be written
   the result is an empty block with ERR_TRACE_WRITE_FAILED, and an `injection_failed_fail_closed`
   event is attempted (nested fail-closed handling is bounded: ERR_FAIL_CLOSED_RECURSION).

`close(story, state, gate)` records the outcome and runs `on_story_close`: scores (B3), promotion
and eviction (B4), then the retention purge (`retention_purge`, issue 13's `PurgeService.on_story_close`).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any, Protocol

from sqlalchemy import delete, func, select

from lorekeeper.audit import failclosed
from lorekeeper.audit.log import SessionLog
from lorekeeper.audit.rows import RowVerifier, sign_row
from lorekeeper.errors import InvalidInputError, LorekeeperError, NotFoundError
from lorekeeper.learnings.reuse import GLOBAL_SCORE, ReuseService, format_score
from lorekeeper.locks import RWLock
from lorekeeper.memory.clarify import ClarificationService
from lorekeeper.memory.corpora import CLARIFICATION_HEADINGS
from lorekeeper.memory.indexes import MemoryIndexes
from lorekeeper.memory.layout import check_story_id
from lorekeeper.prompt import PromptRequest
from lorekeeper.store.engine import Store
from lorekeeper.store.models import Clarification, Learning, MemoryInjection, ResearchNote, Story

STATES = ("DONE", "REJECTED", "DONE_WITH_ANOMALY")
GATES = ("GO", "NO_GO")
DEFAULT_COUNTS = {"learnings": 5, "notes": 3, "clarifications": 3}
IMPACT_RANK = {"fort": 0, "modere": 1, "faible": 2}
VERDICT_RANK = {"signal": 0, "veille": 1, "bruit": 2}
BLOCK_LABELS = {"problem": "Problem", "criteria": "Criteria", "constraints": "Constraints", "priorities": "Priorities"}
EVENT_INJECTED = "memory_injected"
EVENT_FAILED = "injection_failed_fail_closed"
KIND = {"learnings": "learning", "notes": "note", "clarifications": "clarification"}
# issue 25 d5: at most this many learnings of another domain are offered on trial per injection
TRIAL_SLOTS = 1


class RetentionReport(Protocol):
    """What the retention purge returns for a closed story (`privacy.purge.PurgeResult`)."""

    def to_dict(self) -> dict[str, Any]: ...


# The retention purge of issue 13 (`PurgeService.on_story_close`): (story, today) -> its report,
# None when the story's summary is not due yet.
RetentionPurge = Callable[[str, date], RetentionReport | None]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


@dataclass
class Injection:
    story: str
    domain: str
    project: str
    learnings: list[dict[str, Any]] = field(default_factory=list)
    notes: list[dict[str, Any]] = field(default_factory=list)
    clarifications: list[dict[str, Any]] = field(default_factory=list)
    count_configured: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_COUNTS))
    available: dict[str, int] = field(default_factory=dict)
    block: str = ""
    trace: str = ""
    error: LorekeeperError | None = None
    failure_recorded: bool = False

    @property
    def count_effective(self) -> dict[str, int]:
        return {"learnings": len(self.learnings), "notes": len(self.notes), "clarifications": len(self.clarifications)}

    @property
    def under_corpus(self) -> bool:
        return any(self.available.get(k, 0) < n for k, n in self.count_configured.items())

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "story": self.story,
            "domain": self.domain,
            "project": self.project,
            "learnings": self.learnings,
            "notes": self.notes,
            "clarifications": self.clarifications,
            "count_configured": dict(self.count_configured),
            "count_effective": self.count_effective,
            "under_corpus": self.under_corpus,
            "block": self.block,
            "trace": self.trace or None,
        }
        if self.error is not None:
            out["error"] = self.error.to_dict()
            out["failure_recorded"] = self.failure_recorded
        return out

    def emptied(self, error: LorekeeperError) -> Injection:
        """Fail closed: nothing is injected (the block is empty), the error says why."""
        self.learnings, self.notes, self.clarifications = [], [], []
        self.block = ""
        self.error = error
        return self


def story_dict(st: Story) -> dict[str, Any]:
    return {
        "id": st.id,
        "domain": st.domain,
        "project": st.project,
        "state": st.state,
        "gate": st.gate or None,
        "started_at": st.started_at or None,
        "closed_at": st.closed_at or None,
    }


def render_block(inj: Injection) -> str:
    if not (inj.learnings or inj.notes or inj.clarifications):
        return ""
    lines = [f"MEMORY (story {inj.story}, domain {inj.domain}, project {inj.project}):", "", "### Learnings"]
    lines += [
        f"- {x['rule']} [domain {x['domain']}, trial]" if x.get("trial") else f"- {x['rule']} [{x['scope']}]"
        for x in inj.learnings
    ] or ["- (none)"]
    lines += ["", "### Research notes"]
    for n in inj.notes:
        meta = ", ".join(v for v in (n.get("verdict"), n.get("impact"), n.get("date")) if v)
        lines.append(f"- {n['title']} ({meta}): {n.get('summary') or ''}".rstrip(": "))
    if not inj.notes:
        lines.append("- (none)")
    lines += ["", "### Past clarifications"]
    for c in inj.clarifications:
        parts = " ".join(f"{BLOCK_LABELS[k]}: {c[k]}" for k in BLOCK_LABELS if c.get(k))
        lines.append(f"- {c['story']} ({c['date']}): {parts}")
    if not inj.clarifications:
        lines.append("- (none)")
    return "\n".join(lines)


class StoryService:
    purge_name = "stories"  # lorekeeper.protocols.Purgeable: the story's row

    def __init__(
        self,
        store: Store,
        *,
        indexes: MemoryIndexes,
        clarifications: ClarificationService,
        reuse: ReuseService,
        audit_log: Callable[[], SessionLog],
        verifier: Callable[[], RowVerifier],
        lock: RWLock,
        counts: dict[str, int] | None = None,
        retention_purge: RetentionPurge | None = None,
    ) -> None:
        self.store = store
        self.indexes = indexes
        self.clarifications = clarifications
        self.reuse = reuse
        self.audit_log = audit_log
        self.verifier = verifier
        self.lock = lock
        self.counts = {**DEFAULT_COUNTS, **(counts or {})}
        # issue 13's retention purge: it runs at the end of every `on_story_close`, after scoring,
        # promotion and eviction
        self.retention_purge = retention_purge

    # ------------------------------------------------------------------ rows
    def get(self, story: str) -> dict[str, Any]:
        with self.store.session() as s:
            row = s.get(Story, check_story_id(story))
            if row is None:
                raise NotFoundError(f"no story {story}: `lorekeeper story start {story} --domain D --project P`")
            return story_dict(row)

    def stories(self) -> list[dict[str, Any]]:
        with self.store.session() as s:
            return [story_dict(r) for r in s.scalars(select(Story).order_by(Story.started_at.desc(), Story.id))]

    def _ensure_story(self, sid: str, domain: str, project: str) -> None:
        signer = self.audit_log().signer
        with self.store.write() as s:
            row = s.get(Story, sid)
            if row is None:
                row = Story(
                    id=sid, domain=domain, project=project, state="OPEN", gate="", started_at=_now(), closed_at=""
                )
                s.add(row)
            elif (row.domain, row.project) != (domain, project):
                raise InvalidInputError(
                    f"story {sid} belongs to domain {row.domain!r}, project {row.project!r}; "
                    "start it with the same --domain and --project"
                )
            sign_row(signer, row)

    # ------------------------------------------------------------------ B5
    def select(self, sid: str, domain: str, project: str, *, limit: int | None = None) -> Injection:
        """The items to inject (no trace, no write): the shared lock is held by the caller.
        `limit` replaces every count (re-rendering a past injection reads all candidates)."""
        inj = Injection(sid, domain, project, count_configured=dict(self.counts))
        n = dict(self.counts) if limit is None else dict.fromkeys(self.counts, limit)
        with self.store.session() as s:
            rows = list(
                s.scalars(
                    select(Learning).where(
                        Learning.status == "active",
                        (Learning.scope == "global")
                        | ((Learning.scope.in_(["story", "domain"])) & (Learning.domain == domain)),
                    )
                )
            )
            # issue 25 d5: domain learnings of other domains, offered on trial (kept below if their
            # reuse score already meets the global bar)
            trials = list(
                s.scalars(
                    select(Learning).where(
                        Learning.status == "active",
                        Learning.scope == "domain",
                        Learning.domain != "",
                        Learning.domain != domain,
                    )
                )
            )
            clar = list(
                s.scalars(
                    select(Clarification)
                    .where(Clarification.domain == domain, Clarification.project == project, Clarification.story != sid)
                    .order_by(Clarification.date.desc(), Clarification.story.desc())
                )
            )
            own = s.get(Clarification, sid)
            notes = list(s.scalars(select(ResearchNote)))
        # issue 18/24: only verified rows are injected (signed, and the version the ledger names)
        verifier = self.verifier()
        rows = verifier.filter(rows, purpose="story injection")
        clar = verifier.filter(clar, purpose="story injection")
        notes = verifier.filter(notes, purpose="story injection")
        if own is not None and not verifier.filter([own], purpose="story injection"):
            own = None
        trials = verifier.filter(trials, purpose="story injection")
        scores = self.reuse.live_scores([r.id for r in rows + trials])
        trials = [r for r in trials if scores.get(r.id, 0.0) >= GLOBAL_SCORE]

        def rank(r: Learning) -> tuple[float, float, int]:
            return (-scores.get(r.id, 0.0), -r.created_at.timestamp(), -r.id)

        rows.sort(key=rank)
        trials.sort(key=rank)
        k = n["learnings"]
        if limit is None:  # the domain's own first; at most one trial, in the last slot
            trial = trials[:TRIAL_SLOTS] if k > 0 else []
            chosen = rows[: k - len(trial)] + trial
        else:  # a past injection re-rendered: every candidate (the trace says which were served)
            chosen = rows + trials
        trial_ids = {r.id for r in trials}
        inj.available = {
            "learnings": len(rows) + min(len(trials), TRIAL_SLOTS),
            "notes": len(notes),
            "clarifications": len(clar),
        }
        inj.learnings = [
            {
                "id": r.id,
                "rule": r.rule,
                "scope": r.scope,
                "domain": r.domain or None,
                "story": r.story or None,
                "project": r.project or None,
                "tags": [t for t in r.tags.split(",") if t],
                "reuse_score": float(format_score(scores.get(r.id, 0.0))),
                "trial": r.id in trial_ids,
            }
            for r in chosen
        ]
        inj.notes = self._rank_notes(notes, domain, project, own)[: n["notes"]]
        inj.clarifications = [
            {
                "story": c.story,
                "domain": c.domain,
                "project": c.project,
                "date": c.date,
                **{k: getattr(c, k) for k in CLARIFICATION_HEADINGS},
            }
            for c in clar[: n["clarifications"]]
        ]
        inj.block = render_block(inj)
        return inj

    def _rank_notes(
        self, notes: list[ResearchNote], domain: str, project: str, own: Clarification | None
    ) -> list[dict[str, Any]]:
        if not notes:
            return []
        query = " ".join(
            [domain, project, *(getattr(own, k) for k in CLARIFICATION_HEADINGS)] if own else [domain, project]
        )
        order: dict[str, int] = {}
        try:
            hits = self.indexes.search(query, "notes", top=max(self.counts["notes"] * 4, 12))
            order = {h.doc.key: i for i, h in enumerate(hits)}
        except LorekeeperError:
            order = {}  # the ranking falls back to impact and date; the selection itself never fails here

        def scope(n: ResearchNote) -> int:  # the story's domain or project first, then notes of no project
            if (n.domain and n.domain == domain) or (n.project and n.project == project):
                return 0
            return 1 if not (n.domain or n.project) else 2

        notes = sorted(
            notes,
            key=lambda n: (
                scope(n),
                VERDICT_RANK.get(n.verdict, 3),
                order.get(n.path, len(order)),
                IMPACT_RANK.get(n.impact, 3),
                _neg_date(n.date),
                n.path,
            ),
        )
        return [
            {
                "id": n.path,
                "title": n.title,
                "summary": n.summary,
                "verdict": n.verdict,
                "impact": n.impact,
                "date": n.date,
                "tags": [t for t in n.tags.split(",") if t],
                "domain": n.domain or None,
                "project": n.project or None,
            }
            for n in notes
        ]

    def start(self, story: str, domain: str, project: str) -> Injection:
        """Start (or restart) a story and return its traced memory injection; fails closed."""
        sid = check_story_id(story)
        domain, project = " ".join(domain.split()), " ".join(project.split())
        if not domain or not project:
            raise InvalidInputError("a story needs --domain and --project")
        failclosed.reset()
        return self.inject(sid, domain, project, ensure=True)

    def inject(self, sid: str, domain: str, project: str, *, ensure: bool = False) -> Injection:
        """Select and trace one injection. The story row (`ensure`), the trace rows and the
        signed event are one transaction (issue 24): a refused trace leaves no story behind."""
        try:
            with self.lock.shared(), self.store.write():
                if ensure:
                    self._ensure_story(sid, domain, project)
                inj = self.select(sid, domain, project)
                self._trace(inj)
        except InvalidInputError:
            raise
        except LorekeeperError as exc:
            return self._fail(Injection(sid, domain, project, count_configured=dict(self.counts)), exc)
        return inj

    def _trace(self, inj: Injection) -> None:
        """The signed trace, written before anything is returned: the session event, then the rows."""
        from lorekeeper.audit.errors import TraceWriteFailedError

        log = self.audit_log()
        inj.trace = uuid.uuid4().hex
        items = [
            (c, x["id"] if c != "clarifications" else x["story"])
            for c in ("learnings", "notes", "clarifications")
            for x in getattr(inj, c)
        ]
        import hashlib

        log.record(  # in the trace's transaction: the rows and their event commit together
            EVENT_INJECTED,
            {
                "story_id": inj.story,
                "domain": inj.domain,
                "project": inj.project,
                "trace": inj.trace,
                "items": {c: [str(k) for cc, k in items if cc == c] for c in ("learnings", "notes", "clarifications")},
                "count_configured": dict(inj.count_configured),
                "count_effective": inj.count_effective,
                "under_corpus": inj.under_corpus,
                "block_sha256": hashlib.sha256(inj.block.encode()).hexdigest(),
            },
            story=inj.story,
        )
        try:
            signer = log.signer
            now = _now()
            with self.store.write() as s:
                for pos, (corpus, key) in enumerate(items):
                    row = MemoryInjection(
                        trace=inj.trace,
                        story=inj.story,
                        domain=inj.domain,
                        project=inj.project,
                        kind=KIND[corpus],
                        item=str(key),
                        position=pos,
                        created_at=now,
                    )
                    s.add(row)
                    s.flush()
                    sign_row(signer, row)
        except LorekeeperError:
            raise
        except Exception as exc:  # noqa: BLE001 - the store refused the trace rows: fail closed
            raise TraceWriteFailedError(
                f"the injection rows could not be stored ({type(exc).__name__}); nothing injected"
            ) from None

    def _fail(self, inj: Injection, exc: LorekeeperError) -> Injection:
        from lorekeeper.audit.errors import TraceWriteFailedError

        err = (
            exc
            if exc.code in ("ERR_AUDIT_KEY_UNAVAILABLE", "ERR_AUDIT_KEY_INVALID", "ERR_FAIL_CLOSED_RECURSION")
            else (
                exc
                if isinstance(exc, TraceWriteFailedError)
                else TraceWriteFailedError(f"memory injection not traced: {exc}")
            )
        )
        inj.emptied(err)
        with failclosed.fail_closed("memory injection"):
            try:
                self.audit_log().record(
                    EVENT_FAILED, {"story_id": inj.story, "code": err.code, "trace": inj.trace or None}, story=inj.story
                )
                inj.failure_recorded = True
            except LorekeeperError:
                inj.failure_recorded = False  # the log itself is what failed: the error is returned instead
        return inj

    def prompt_block(self, request: PromptRequest) -> str:
        """The memory block of the assembled prompt (an injector of `PromptBuilder`): the block of
        the request's story, empty without one."""
        return self.block_for(request.story) if request.story else ""

    def block_for(self, story: str, *, inject: bool = True) -> str:
        """The block of the story's latest traced injection (verified rows), re-rendered; no new trace."""
        sid = check_story_id(story)
        with self.store.session() as s:
            st = s.get(Story, sid)
            if st is None:
                raise NotFoundError(f"no story {sid}: `lorekeeper story start {sid} --domain D --project P` first")
            last = s.scalar(
                select(MemoryInjection.trace)
                .where(MemoryInjection.story == sid)
                .order_by(MemoryInjection.id.desc())
                .limit(1)
            )
            domain, project = st.domain, st.project
            rows = (
                []
                if last is None
                else list(
                    s.scalars(
                        select(MemoryInjection).where(MemoryInjection.trace == last).order_by(MemoryInjection.position)
                    )
                )
            )
        if last is None:
            return self.inject(sid, domain, project).block if inject else ""
        rows = self.verifier().filter(rows, purpose="prompt block")
        keep = {(r.kind, r.item): r.position for r in rows}

        def kept(kind: str, items: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
            found = [x for x in items if (kind, str(x[key])) in keep]
            return sorted(found, key=lambda x: keep[(kind, str(x[key]))])  # in the injection's order

        with self.lock.shared():
            full = self.select(sid, domain, project, limit=10**6)  # every candidate, then filtered
        full.learnings = kept("learning", full.learnings, "id")
        full.notes = kept("note", full.notes, "id")
        full.clarifications = kept("clarification", full.clarifications, "story")
        return render_block(full)

    # ------------------------------------------------------------------ close
    def close(self, story: str, state: str, gate: str | None = None, *, today: date | None = None) -> dict[str, Any]:
        sid = check_story_id(story)
        if state not in STATES:
            raise InvalidInputError(f"invalid state {state!r}: use one of {', '.join(STATES)}")
        if gate is not None and gate not in GATES:
            raise InvalidInputError(f"invalid gate {gate!r}: use GO or NO_GO")
        log = self.audit_log()
        with self.store.write() as s:
            row = s.get(Story, sid)
            if row is None:
                raise NotFoundError(f"no story {sid}: start it first (`lorekeeper story start {sid} ...`)")
            row.state = state
            row.gate = gate or ""
            row.closed_at = _now()
            sign_row(log.signer, row)
            s.flush()
            info = story_dict(row)
            log.record("story_closed", {"story_id": sid, "state": state, "gate": gate}, story=sid)
        return {"story": info, **self.on_story_close(sid, state, today=today)}

    def on_story_close(self, story: str, state: str, *, today: date | None = None) -> dict[str, Any]:
        """Scores, promotion, eviction (each under the memory lock), then the retention purge hook."""
        day = today or datetime.now(UTC).date()
        scores = self.reuse.compute()
        promoted = self.reuse.promote(recompute=False)
        archived = self.reuse.archive_stale(day)
        purge: dict[str, Any] | None = None  # None: no retention purge wired; {}: nothing was due
        if self.retention_purge is not None:
            report = self.retention_purge(story, day)
            purge = report.to_dict() if report is not None else {}
        return {"state": state, "scores": len(scores), "promoted": promoted, "archived": archived, "purge": purge}

    # ------------------------------------------------------------------ Purgeable
    def count_for_story(self, story: str) -> int:
        with self.store.session() as s:
            return int(s.get(Story, story) is not None)

    def erase_story(self, story: str) -> int:
        with self.store.write() as s:
            row = s.get(Story, story)
            if row is None:
                return 0
            s.delete(row)
            return 1

    def verify_erased(self, story: str) -> bool:
        return self.count_for_story(story) == 0


def _neg_date(d: str) -> str:
    """Sort key for newest first on YYYY-MM-DD strings."""
    return "".join(chr(0x7F - ord(c)) for c in d) if d else "\x7f"


class InjectionTraces:
    """The signed injection rows of a story (`Purgeable`)."""

    purge_name = "memory injections"

    def __init__(self, store: Store) -> None:
        self.store = store

    @staticmethod
    def _of(story: str) -> Any:
        """Rows of the story's injections, and the rows that injected its clarification elsewhere."""
        return (MemoryInjection.story == story) | (
            (MemoryInjection.kind == "clarification") & (MemoryInjection.item == story)
        )

    def count_for_story(self, story: str) -> int:
        with self.store.session() as s:
            return int(s.scalar(select(func.count(MemoryInjection.id)).where(self._of(story))) or 0)

    def erase_story(self, story: str) -> int:
        n: int = self.count_for_story(story)
        with self.store.write() as s:
            s.execute(delete(MemoryInjection).where(self._of(story)))
        return n

    def verify_erased(self, story: str) -> bool:
        return self.count_for_story(story) == 0
