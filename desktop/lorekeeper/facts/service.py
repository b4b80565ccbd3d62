"""`FactService` (`ws.facts`): typed facts from documentation (seed 003, issue 11).

API for the CLI and the GUI (names are stable; every method opens its own session, so call them
from a worker thread, never the GUI thread):

Reading (rows are signed: a row whose signature fails is dropped and reported, never shown;
verified rows are cached, so a second `list` of 10k facts costs the query, not the HMACs. After
a decision, update the panel's rows from `Decision.facts` rather than listing everything again.)
- `list(project=None, status=None, type=None, document=None, flagged=None, include_merged=False)`
  -> `list[FactInfo]` in creation order. `FactInfo.to_dict()` is DESIGN.md's JSON shape.
- `show(fact_id) -> FactInfo` (ERR_NOT_FOUND); `counts(project=None) -> {status: n}`.
- `documents(project=None) -> list[DocumentInfo]`; `document(doc_id) -> DocumentInfo` (with its
  text, for showing a quote in its document: `model.quote_span(quote, text)` gives the span).
- `conflicts(project=None, status="open") -> list[ConflictInfo]`; `conflict(id) -> ConflictInfo`.
- `projects() -> list[str]` (projects that have facts or documents).
- `include_candidates(project) -> bool`; `set_include_candidates(project, value)` writes
  `[facts.projects."<P>"] include_candidates` in lorekeeper.toml (the per-project policy).
- `pack(project, budget=None, approved_only=False) -> Pack` (`.to_dict()`, `.markdown`);
  `conventions(path, project) -> list[FactInfo]`; `prompt_block(request)` is the FACTS injector.
- `runs(limit=10)`: the last extraction / consolidation reports.

Decisions: each writes a signed audit event (who, when, why) before its store change (fail closed:
no key, no change) and returns a `Decision` (`.changes` the ChangeSet, `.facts` the facts after
the decision, `.conflict`, `.event_sig`):
- `approve(fact_id, why="", by=None)`, `approve_many(ids, why="", by=None)` (bulk, one event)
- `reject(fact_id, why, by=None)` (a reason is required)
- `reopen(fact_id, why="", by=None)`: back to candidate (the review queue's undo)
- `edit(fact_id, statement=None, detail=None, scope=None, type=None, tags=None, confidence=None,
  why="", by=None)`: a type change gives the fact a new id (the old row stays, merged into it)
- `add(project, type, statement, document, quote, ...)`: an operator-written fact; `document` is a
  document id or a file path (ingested if needed); the quote must occur in it verbatim
  (ERR_INVALID_SPEC); runs the lexical consolidation, `.facts[0]` is the surviving fact
- `resolve(conflict_id, keep=None | merge=None | reject_all=False, why, by=None)`

Work (jobs: generators yielding `jobs.Progress`, drive them with `jobs.drive` or `ui.workers`):
- `ingest(path, project=None) -> IngestReport` (quick: reads files, detects changes, flags facts
  whose quote vanished); `extract(project=None, documents=None, cancel=None)` -> `ExtractReport`
  (the configured model); `apply_recorded(path_or_data, project)` -> `ExtractReport` (a recorded
  extraction: the demo, tests); `consolidate(project=None, llm=False)` -> `ConsolidateReport`;
  `pending(project)`: documents whose current content was not extracted yet.

Change feed kinds: `facts` (ids: fact ids; also document ids `<p>:file:<hash>` and run ids from
`fact_documents` / `fact_runs`) and `fact_conflicts` (conflict ids). Facts hold no story-linked
data, so the service is not `Purgeable`.
"""

from __future__ import annotations

import builtins
import dataclasses
import getpass
import json
import logging
import stat
from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from lorekeeper import safejson
from lorekeeper.audit.rows import RowVerifier, sign_row
from lorekeeper.changes import ChangeSet
from lorekeeper.config import Config
from lorekeeper.errors import InvalidInputError, InvalidSpecError, LorekeeperError, NotFoundError
from lorekeeper.facts import documents as docs
from lorekeeper.facts import extract as ex
from lorekeeper.facts.model import (
    TYPES,
    WEIGHTS,
    ConflictInfo,
    FactInfo,
    Provenance,
    check_confidence,
    check_provenance,
    check_statement,
    check_type,
    document_id,
    dumps,
    fact_id,
    glob_matches,
    merge_provenance,
    normalise_scope,
    normalise_tags,
    posix,
    quote_in,
    specificity,
    squash,
    words,
)
from lorekeeper.fsutil import not_regular, read_regular_text, shown_path, utf8_name
from lorekeeper.jobs import CancelToken, Progress
from lorekeeper.store.engine import Store
from lorekeeper.store.models import Fact, FactConflict, FactDocument, FactRun, utcnow
from lorekeeper.store.scopes import validate_project

if TYPE_CHECKING:
    from lorekeeper.audit.log import SessionLog
    from lorekeeper.llm.base import Provider

log_module = logging.getLogger(__name__)

# Fact and conflict rows are born signed (never written unsigned), so they are not registered for
# `audit sign-rows` (`register_signed_model`): that data migration would only launder a row
# someone inserted behind the service's back.

EVENT_ADDED = "fact_added"
EVENT_APPROVED = "fact_approved"
EVENT_REJECTED = "fact_rejected"
EVENT_REOPENED = "fact_reopened"
EVENT_EDITED = "fact_edited"
EVENT_RESOLVED = "fact_conflict_resolved"
EVENT_EXTRACTED = "facts_extracted"
EVENT_CONSOLIDATED = "facts_consolidated"
MAX_REASON = 2000
DEFAULT_PACK_BUDGET = 2000  # o200k tokens of `facts pack` without --budget
DEFAULT_PROMPT_BUDGET = 600  # the FACTS block of `lorekeeper prompt` ([facts] prompt_budget)
CONSOLIDATE_BATCH = 60  # facts per LLM consolidation call


def operator_name() -> str:
    try:
        return getpass.getuser()
    except Exception:  # noqa: BLE001 - no login name in some containers
        return "operator"


def _iso(value: datetime | None) -> str:
    return value.isoformat() if value is not None else ""


def _loads(text: str, default: Any) -> Any:
    try:
        return json.loads(text) if text else default
    except ValueError:
        return default


#: a recorded extraction is the model's answers for a batch of documents: far below this
RECORDING_LIMIT = 32 * 1024 * 1024


def load_recording(path: str | Path) -> dict[str, Any]:
    """A recorded extraction file read and parsed before anything is written: a regular file,
    UTF-8, bounded in size and nesting; else an error naming the file (exit 2)."""
    shown = shown_path(path)
    text = read_regular_text(path, limit=RECORDING_LIMIT, what="recorded extraction")
    try:
        data = safejson.loads(text, what=shown)
    except ValueError as exc:
        raise InvalidSpecError(f"the recorded extraction is not valid JSON: {exc}", file=shown) from None
    if not isinstance(data, dict):
        raise InvalidSpecError('a recorded extraction is {"documents": {origin: {"facts": [...]}}}', file=shown)
    return data


@dataclass(frozen=True)
class DocumentInfo:
    id: str
    project: str
    origin: str
    path: str
    kind: str
    sha256: str
    size: int
    missing: bool
    extracted: bool  # the current content was extracted
    text: str = ""

    def to_dict(self, *, text: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "project": self.project,
            "origin": self.origin,
            "path": self.path,
            "kind": self.kind,
            "sha256": self.sha256,
            "size": self.size,
            "missing": self.missing,
            "extracted": self.extracted,
        }
        if text:
            out["text"] = self.text
        return out


@dataclass
class Decision:
    """What a decision did: the facts after it, the conflict it settled, the signed event."""

    changes: ChangeSet = field(default_factory=ChangeSet)
    facts: list[FactInfo] = field(default_factory=list)
    conflict: ConflictInfo | None = None
    event_sig: str = ""

    @property
    def fact(self) -> FactInfo:
        return self.facts[0]


@dataclass
class IngestReport:
    project: str
    root: str
    new: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    skipped: list[dict[str, str]] = field(default_factory=list)
    flagged: list[str] = field(default_factory=list)  # facts whose quote vanished (or document removed)
    changes: ChangeSet = field(default_factory=ChangeSet)

    @property
    def to_extract(self) -> list[str]:
        return self.new + self.changed

    def to_dict(self) -> dict[str, Any]:
        return {
            "project": self.project,
            "root": self.root,
            "new": self.new,
            "changed": self.changed,
            "unchanged": self.unchanged,
            "removed": self.removed,
            "skipped": self.skipped,
            "flagged": self.flagged,
        }


@dataclass
class ExtractReport:
    project: str
    model: str = ""
    documents: int = 0
    proposed: int = 0
    kept: list[str] = field(default_factory=list)  # new fact ids
    merged: list[dict[str, str]] = field(default_factory=list)  # {"fact", "into"}
    dropped: list[dict[str, Any]] = field(default_factory=list)  # {"document", "statement", "reason"}
    errors: list[dict[str, str]] = field(default_factory=list)  # {"document", "error"}
    run_id: int | None = None
    changes: ChangeSet = field(default_factory=ChangeSet)

    def to_dict(self) -> dict[str, Any]:
        return {
            "project": self.project,
            "model": self.model,
            "documents": self.documents,
            "proposed": self.proposed,
            "kept": self.kept,
            "merged": self.merged,
            "dropped": self.dropped,
            "errors": self.errors,
            "run": self.run_id,
        }


@dataclass
class ConsolidateReport:
    project: str
    lexical: list[dict[str, str]] = field(default_factory=list)  # {"fact", "into"}
    paraphrases: list[dict[str, Any]] = field(default_factory=list)  # {"facts", "into", "statement"}
    conflicts: list[int] = field(default_factory=list)
    ignored: list[dict[str, Any]] = field(default_factory=list)  # model suggestions that could not apply
    model: str = ""
    changes: ChangeSet = field(default_factory=ChangeSet)

    def to_dict(self) -> dict[str, Any]:
        return {
            "project": self.project,
            "lexical": self.lexical,
            "paraphrases": self.paraphrases,
            "conflicts": self.conflicts,
            "ignored": self.ignored,
            "model": self.model,
        }


@dataclass
class Pack:
    project: str
    budget: int
    tokens: int
    facts: list[FactInfo]
    omitted: int
    include_candidates: bool
    markdown: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "project": self.project,
            "budget": self.budget,
            "tokens": self.tokens,
            "include_candidates": self.include_candidates,
            "omitted": self.omitted,
            "facts": [{**f.to_dict(), "score": round(f.score, 4)} for f in self.facts],
            "markdown": self.markdown,
        }


def _count_tokens(text: str) -> int:
    from lorekeeper.context import tokens

    return int(tokens.count(text))


def render_line(f: FactInfo) -> str:
    """One fact as a markdown bullet for AGENTS.md / CLAUDE.md."""
    line = f"- **{f.type}** {f.statement}"
    if f.detail:
        line += f" {f.detail}"
    if f.scope:
        line += " _(applies to: " + ", ".join(f"`{g}`" for g in f.scope) + ")_"
    origins = ", ".join(dict.fromkeys(p.origin for p in f.provenance))
    if origins:
        line += f" — source: {origins}"
    return line


def pack_header(project: str) -> str:
    return f"## Facts for {project}\n\nRules from {project}'s documentation, sharpest first (Lorekeeper).\n"


class FactService:
    def __init__(
        self,
        store: Store,
        *,
        audit_log: Callable[[], SessionLog],
        provider: Callable[[], Provider],
        config: Config,
        workspace_root: Path | None = None,
        verifier: Callable[[], RowVerifier] | None = None,
    ) -> None:
        self.store = store
        self.audit_log = audit_log
        # issue 24: the session's verifier checks the row ledger too (an older, validly signed
        # row written back is refused); without one (tests of the service alone) only signatures
        self.verifier = verifier
        self.provider = provider
        self.config = config
        # documents inside the workspace are stored by their path relative to it (a copied or
        # moved workspace keeps finding them); others by their absolute path
        self.workspace_root = workspace_root.resolve() if workspace_root is not None else None
        self._verified: dict[tuple[str, str], tuple[Any, ...]] = {}  # (table, id) -> verified content
        self._infos: dict[str, tuple[tuple[Any, ...], FactInfo]] = {}  # id -> ((sig, updated_at), info)

    # ------------------------------------------------------------------ settings
    def include_candidates(self, project: str) -> bool:
        """`[facts.projects.<P>] include_candidates` in lorekeeper.toml, else `[facts]
        include_candidates`, else true (seed 003: a pack of approved facts only is empty on day one)."""
        per = self.config.get("facts.projects", {}) or {}
        proj = per.get(project) if isinstance(per, dict) else None
        if isinstance(proj, dict) and "include_candidates" in proj:
            return bool(proj["include_candidates"])
        return bool(self.config.get("facts.include_candidates", True))

    def set_include_candidates(self, project: str, value: bool) -> bool:
        """Write `[facts.projects."<P>"] include_candidates` in lorekeeper.toml and reload the config."""
        from lorekeeper.facts.settings import write_include_candidates

        proj = validate_project(project)
        if not proj or self.config.path is None:
            raise InvalidInputError("include_candidates is set for a project of a workspace with a lorekeeper.toml")
        write_include_candidates(self.config.path, proj, bool(value))
        self.config.reload()
        return self.include_candidates(proj)

    def prompt_budget(self) -> int:
        return int(self.config.get("facts.prompt_budget", DEFAULT_PROMPT_BUDGET))

    def _stored_path(self, path: Path) -> str:
        resolved = path.resolve()
        if self.workspace_root is not None:
            try:
                return resolved.relative_to(self.workspace_root).as_posix()
            except ValueError:
                pass
        return str(resolved)

    def absolute_path(self, stored: str) -> Path:
        """The file a document was read from (its stored path is relative inside the workspace)."""
        p = Path(stored)
        if not p.is_absolute() and self.workspace_root is not None:
            return self.workspace_root / p
        return p

    # ------------------------------------------------------------------ signing
    def _signer(self) -> Any:
        return self.audit_log().signer

    def _verifier(self) -> RowVerifier:
        if self.verifier is not None:
            return self.verifier()
        log = self.audit_log()
        return RowVerifier(log.signer, report=lambda data: log.record("unsigned_entry", data))

    @staticmethod
    def _cache_key(row: Any) -> tuple[Any, ...]:
        d = row.__dict__  # loaded column values, without the instrumented getters
        return (d.get("sig"), d.get("key_version"), *(d.get(f) for f in row.__signed_fields__))

    def _filter(self, rows: Sequence[Any], purpose: str) -> builtins.list[Any]:
        """Verified rows only; a row verified before with exactly the same content is not
        re-hashed (the cache holds the whole signed content, so any change is verified again)."""
        if not rows:
            return []
        verifier = self._verifier()
        if verifier.store is not None:
            # the ledger is read again at each call (a row verified earlier may have been written
            # back since); the verifier's own cache spares the HMACs of rows seen before
            return verifier.filter(rows, purpose=purpose)
        todo: builtins.list[Any] = []
        kept_ids: set[int] = set()
        verified = self._verified
        for row in rows:
            if verified.get((row.__tablename__, str(row.id))) == self._cache_key(row):
                kept_ids.add(id(row))
            else:
                todo.append(row)
        if todo:
            for row in verifier.filter(todo, purpose=purpose):
                verified[(row.__tablename__, str(row.id))] = self._cache_key(row)
                kept_ids.add(id(row))
        return [r for r in rows if id(r) in kept_ids]

    def _sign(self, row: Any, signer: Any) -> None:
        """Sign a row; unset signed fields get their column default first (a default is applied
        only at INSERT, and the signature must cover what the database will hold)."""
        for name in row.__signed_fields__:
            if getattr(row, name) is None:
                default = row.__table__.c[name].default
                if default is not None and getattr(default, "is_scalar", False):
                    setattr(row, name, default.arg)
        if isinstance(row, Fact):
            row.updated_at = utcnow()
        sign_row(signer, row)

    def _event(self, log: Any, kind: str, data: dict[str, Any]) -> str:
        """The decision's event, in the decision's own transaction (the audit outbox, issue 24): it
        commits with the rows or not at all. Returns the event's content hash, which its signed
        header carries: the rows name their event by it (`event_sig`)."""
        return str(log.record_ref(kind, data))

    # ------------------------------------------------------------------ conversion
    @staticmethod
    def _info(row: Fact, conflicts: dict[str, int] | None = None) -> FactInfo:
        prov = tuple(Provenance.from_dict(p) for p in _loads(row.provenance, []) if isinstance(p, dict))
        return FactInfo(
            id=row.id,
            project=row.project,
            type=row.type,
            statement=row.statement,
            detail=row.detail or "",
            scope=tuple(_loads(row.scope, [])),
            tags=tuple(_loads(row.tags, [])),
            confidence=float(row.confidence),
            status=row.status,
            provenance=prov,
            merged_into=row.merged_into or "",
            flag=row.flag or "",
            source=row.source or "",
            ordinal=int(row.ordinal or 0),
            conflict=(conflicts or {}).get(row.id),
            decided_by=row.decided_by or "",
            decided_at=_iso(row.decided_at),
            decision_reason=row.decision_reason or "",
            created_at=_iso(row.created_at),
            updated_at=_iso(row.updated_at),
        )

    def _cached_info(self, row: Fact, conflicts: dict[str, int]) -> FactInfo:
        """`_info` for a verified row, reused while its signature and update time are the same
        (every write through the service re-signs the row)."""
        key = (row.sig, row.updated_at)
        hit = self._infos.get(row.id)
        if hit is not None and hit[0] == key:
            info = hit[1]
        else:
            info = self._info(row)
            self._infos[row.id] = (key, info)
        cid = conflicts.get(row.id)
        return info if info.conflict == cid else dataclasses.replace(info, conflict=cid)

    @staticmethod
    def _conflict_info(row: FactConflict) -> ConflictInfo:
        return ConflictInfo(
            id=int(row.id),
            project=row.project,
            facts=tuple(_loads(row.facts, [])),
            reason=row.reason,
            status=row.status,
            resolution=row.resolution or "",
            result=row.result or "",
            resolved_by=row.resolved_by or "",
            resolved_at=_iso(row.resolved_at),
            resolution_reason=row.resolution_reason or "",
            created_at=_iso(row.created_at),
        )

    @staticmethod
    def _doc_info(row: FactDocument, *, text: bool = False) -> DocumentInfo:
        return DocumentInfo(
            id=row.id,
            project=row.project,
            origin=row.origin,
            path=row.path,
            kind=row.kind,
            sha256=row.sha256,
            size=int(row.size or 0),
            missing=bool(row.missing),
            extracted=row.extracted_sha256 == row.sha256,
            text=row.text if text else "",
        )

    def _open_conflicts(self, s: Session, project: str | None = None) -> dict[str, int]:
        q = select(FactConflict).where(FactConflict.status == "open")
        if project:
            q = q.where(FactConflict.project == project)
        out: dict[str, int] = {}
        for c in self._filter(s.scalars(q).all(), "fact conflicts"):
            for fid in _loads(c.facts, []):
                out[str(fid)] = int(c.id)
        return out

    # ------------------------------------------------------------------ reading
    def list(
        self,
        project: str | None = None,
        status: str | None = None,
        type: str | None = None,
        document: str | None = None,
        flagged: bool | None = None,
        include_merged: bool = False,
    ) -> builtins.list[FactInfo]:
        proj = validate_project(project) if project else None
        if status is not None and status not in ("candidate", "approved", "rejected", "conflicting"):
            raise InvalidInputError(f"unknown status {status!r}: candidate, approved, rejected or conflicting")
        if type is not None:
            type = check_type(type)
        with self.store.session() as s:
            q = select(Fact)
            if proj:
                q = q.where(Fact.project == proj)
            if status:
                q = q.where(Fact.status == status)
            if type:
                q = q.where(Fact.type == type)
            if not include_merged:
                q = q.where(Fact.merged_into == "")
            rows = self._filter(s.scalars(q.order_by(Fact.ordinal, Fact.id)).all(), "facts list")
            conflicts = self._open_conflicts(s, proj)
            out = [self._cached_info(r, conflicts) for r in rows]
        if document:
            out = [f for f in out if document in f.documents]
        if flagged is not None:
            out = [f for f in out if bool(f.flag) == flagged]
        return out

    def show(self, fact_id: str) -> FactInfo:
        with self.store.session() as s:
            row = s.get(Fact, fact_id)
            if row is None or not self._filter([row], "facts show"):
                raise NotFoundError(f"no fact {fact_id!r}; list them with `lorekeeper facts list`")
            return self._info(row, self._open_conflicts(s, row.project))

    def counts(self, project: str | None = None) -> dict[str, int]:
        out = dict.fromkeys(("candidate", "approved", "rejected", "conflicting"), 0)
        for f in self.list(project):
            out[f.status] = out.get(f.status, 0) + 1
        return out

    def projects(self) -> builtins.list[str]:
        with self.store.session() as s:
            names = set(s.scalars(select(Fact.project).distinct()).all())
            names |= set(s.scalars(select(FactDocument.project).distinct()).all())
        return sorted(names)

    def documents(self, project: str | None = None) -> builtins.list[DocumentInfo]:
        with self.store.session() as s:
            q = select(FactDocument)
            if project:
                q = q.where(FactDocument.project == validate_project(project))
            return [self._doc_info(r) for r in s.scalars(q.order_by(FactDocument.project, FactDocument.origin))]

    def document(self, doc_id: str) -> DocumentInfo:
        with self.store.session() as s:
            row = s.get(FactDocument, doc_id)
            if row is None:
                raise NotFoundError(f"no document {doc_id!r}; ingest it with `lorekeeper facts ingest PATH`")
            return self._doc_info(row, text=True)

    def conflicts(self, project: str | None = None, status: str | None = "open") -> builtins.list[ConflictInfo]:
        with self.store.session() as s:
            q = select(FactConflict)
            if project:
                q = q.where(FactConflict.project == validate_project(project))
            if status:
                q = q.where(FactConflict.status == status)
            rows = self._filter(s.scalars(q.order_by(FactConflict.id)).all(), "fact conflicts")
            return [self._conflict_info(r) for r in rows]

    def conflict(self, conflict_id: int | str) -> ConflictInfo:
        cid = self._conflict_key(conflict_id)
        with self.store.session() as s:
            row = s.get(FactConflict, cid)
            if row is None or not self._filter([row], "fact conflict"):
                raise NotFoundError(f"no conflict {conflict_id!r}; list them with `lorekeeper facts conflicts`")
            return self._conflict_info(row)

    @staticmethod
    def _conflict_key(conflict_id: int | str) -> int:
        try:
            return int(str(conflict_id).strip().lstrip("#"))
        except ValueError:
            raise NotFoundError(f"no conflict {conflict_id!r}: conflicts have numeric ids") from None

    def runs(self, limit: int = 10) -> builtins.list[dict[str, Any]]:
        with self.store.session() as s:
            rows = s.scalars(select(FactRun).order_by(FactRun.id.desc()).limit(limit)).all()
            return [
                {
                    "id": r.id,
                    "kind": r.kind,
                    "project": r.project,
                    "model": r.model,
                    "started_at": _iso(r.started_at),
                    "finished_at": _iso(r.finished_at),
                    "report": _loads(r.report, {}),
                }
                for r in rows
            ]

    # ------------------------------------------------------------------ decisions
    def _load(self, s: Session, fact_id: str) -> Fact:
        row = s.get(Fact, fact_id)
        if row is None or not self._filter([row], "fact decision"):
            raise NotFoundError(f"no fact {fact_id!r}; list them with `lorekeeper facts list`")
        if row.merged_into:
            raise InvalidInputError(f"fact {fact_id} was merged into {row.merged_into}; decide on that one")
        return row

    def _decidable(self, s: Session, row: Fact) -> None:
        if row.status == "conflicting":
            cid = self._open_conflicts(s, row.project).get(row.id)
            raise InvalidInputError(
                f"fact {row.id} is in conflict #{cid}; arbitrate it with `lorekeeper facts resolve {cid} ...`"
            )

    def _decide(
        self,
        fact_ids: Sequence[str],
        status: str,
        event: str,
        why: str,
        by: str | None,
        *,
        require_reason: bool = False,
    ) -> Decision:
        by = (by or operator_name()).strip() or "operator"
        why = (why or "").strip()[:MAX_REASON]
        if require_reason and not why:
            raise InvalidInputError("a rejection needs a reason (--reason), so the next review can learn from it")
        ids = list(dict.fromkeys(fact_ids))
        if not ids:
            raise InvalidInputError("no fact to decide on")
        log = self.audit_log()  # fail closed before anything is checked or written
        with self.store.session() as s:
            before = {}
            for fid in ids:
                row = self._load(s, fid)
                self._decidable(s, row)
                before[fid] = row.status
        now = utcnow()
        data: dict[str, Any] = {
            "facts": ids,
            "before": before,
            "status": status,
            "by": by,
            "at": now.isoformat(),
            "why": why,
        }
        with self.store.write() as s:
            sig = self._event(log, event, data)
            signer = log.signer
            for fid in ids:
                row = self._load(s, fid)
                self._decidable(s, row)
                row.status = status
                row.flag = ""  # a decision is the review a flag asked for
                row.decided_by = by
                row.decided_at = now
                row.decision_reason = why
                row.event_sig = sig
                self._sign(row, signer)
        changes = self.store.last_changes()
        return Decision(changes, [self.show(fid) for fid in ids], None, sig)

    def approve(self, fact_id: str, *, why: str = "", by: str | None = None) -> Decision:
        return self._decide([fact_id], "approved", EVENT_APPROVED, why, by)

    def approve_many(self, fact_ids: Iterable[str], *, why: str = "", by: str | None = None) -> Decision:
        """Bulk approval (the panel's "approve all matching the filter"): one signed event, one transaction."""
        return self._decide(list(fact_ids), "approved", EVENT_APPROVED, why, by)

    def reject(self, fact_id: str, *, why: str, by: str | None = None) -> Decision:
        return self._decide([fact_id], "rejected", EVENT_REJECTED, why, by, require_reason=True)

    def reject_many(self, fact_ids: Iterable[str], *, why: str, by: str | None = None) -> Decision:
        """Bulk rejection of a selection, one reason for all: one signed event, one transaction."""
        return self._decide(list(fact_ids), "rejected", EVENT_REJECTED, why, by, require_reason=True)

    def reopen(self, fact_id: str, *, why: str = "", by: str | None = None) -> Decision:
        """Back to candidate: the undo of an approval or a rejection (signed too)."""
        return self._decide([fact_id], "candidate", EVENT_REOPENED, why or "undo", by)

    def edit(
        self,
        fact_id: str,
        *,
        statement: str | None = None,
        detail: str | None = None,
        scope: Sequence[str] | None = None,
        type: str | None = None,
        tags: Sequence[str] | None = None,
        confidence: float | None = None,
        why: str = "",
        by: str | None = None,
    ) -> Decision:
        """Change what a fact says. The status stays; a type change re-ids the fact (the id names
        its type): the old row stays, merged into the new one, so its history is kept."""
        by = (by or operator_name()).strip() or "operator"
        why = (why or "").strip()[:MAX_REASON]
        new_values: dict[str, Any] = {}
        if statement is not None:
            new_values["statement"] = check_statement(statement)
        if detail is not None:
            new_values["detail"] = squash(detail)
        if scope is not None:
            new_values["scope"] = dumps(normalise_scope(scope))
        if type is not None:
            new_values["type"] = check_type(type)
        if tags is not None:
            new_values["tags"] = dumps(normalise_tags(tags))
        if confidence is not None:
            new_values["confidence"] = check_confidence(confidence)
        log = self.audit_log()
        with self.store.session() as s:
            row = self._load(s, fact_id)
            self._decidable(s, row)
            before = {k: getattr(row, k) for k in new_values}
        changed = {k: v for k, v in new_values.items() if before[k] != v}
        if not changed:
            return Decision(ChangeSet(), [self.show(fact_id)], None, "")
        now = utcnow()
        result_id = fact_id
        with self.store.write() as s:
            sig = self._event(
                log,
                EVENT_EDITED,
                {
                    "fact": fact_id,
                    "before": {k: before[k] for k in changed},
                    "after": changed,
                    "by": by,
                    "at": now.isoformat(),
                    "why": why,
                },
            )
            signer = log.signer
            row = self._load(s, fact_id)
            if "type" in changed:
                result_id = self._free_id(s, row.project, changed["type"], changed.get("statement", row.statement))
                new = Fact(
                    id=result_id,
                    project=row.project,
                    type=row.type,
                    statement=row.statement,
                    detail=row.detail,
                    scope=row.scope,
                    tags=row.tags,
                    confidence=row.confidence,
                    status=row.status,
                    provenance=row.provenance,
                    ordinal=row.ordinal,  # the same fact: it keeps its age
                    source=row.source,
                    created_at=row.created_at,
                )
                s.add(new)
                row.merged_into = result_id
                row.decision_reason = f"re-typed as {changed['type']}: {why}".strip(": ")
                self._sign(row, signer)
                row = new
            for k, v in changed.items():
                setattr(row, k, v)
            row.flag = ""
            row.decided_by = by
            row.decided_at = now
            row.event_sig = sig
            if why:
                row.decision_reason = why
            self._sign(row, signer)
        return Decision(self.store.last_changes(), [self.show(result_id)], None, sig)

    # ------------------------------------------------------------------ adding facts
    def _free_id(self, s: Session, project: str, type_: str, statement: str) -> str:
        """A fact id not used yet: the ids are loaded once per transaction (one query, not one per fact)."""
        taken: set[str] | None = s.info.get("facts_taken_ids")
        if taken is None:
            with s.no_autoflush:
                taken = set(s.scalars(select(Fact.id)).all())
            s.info["facts_taken_ids"] = taken
        salt = 0
        while True:
            fid = fact_id(project, type_, statement, salt)
            if fid not in taken:
                taken.add(fid)
                return fid
            salt += 1

    def _next_ordinal(self, s: Session) -> int:
        """Creation order, computed once per transaction (the write lock is held: no race)."""
        nxt = s.info.get("facts_next_ordinal")
        if nxt is None:
            with s.no_autoflush:
                nxt = int(s.scalar(select(func.max(Fact.ordinal))) or 0) + 1
        s.info["facts_next_ordinal"] = nxt + 1
        return int(nxt)

    def _new_fact(
        self,
        s: Session,
        signer: Any,
        *,
        project: str,
        type_: str,
        statement: str,
        detail: str,
        scope: Sequence[str],
        tags: Sequence[str],
        confidence: float,
        provenance: Sequence[Provenance],
        source: str,
        status: str = "candidate",
    ) -> Fact:
        prov = check_provenance(provenance)  # a fact without provenance is invalid by construction
        row = Fact(
            id=self._free_id(s, project, type_, statement),
            project=project,
            type=type_,
            statement=statement,
            detail=detail,
            scope=dumps(list(scope)),
            tags=dumps(list(tags)),
            confidence=confidence,
            status=status,
            provenance=dumps([p.to_dict() for p in prov]),
            ordinal=self._next_ordinal(s),
            source=source,
            merged_into="",
            flag="",
            created_at=utcnow(),
        )
        self._sign(row, signer)  # every signed field is set above: no flush needed per fact
        s.add(row)
        return row

    def add(
        self,
        project: str,
        type: str,
        statement: str,
        document: str,
        quote: str,
        *,
        detail: str = "",
        scope: Sequence[str] = (),
        tags: Sequence[str] = (),
        confidence: float = 0.9,
        why: str = "",
        by: str | None = None,
    ) -> Decision:
        """An operator-written fact. Validates everything first (ERR_INVALID_SPEC), ingests the
        document if needed, runs the lexical consolidation; `.facts[0]` is the surviving fact."""
        proj = validate_project(project)
        if not proj:
            raise InvalidSpecError("a fact belongs to a project: give --project")
        type_ = check_type(type)
        text = check_statement(statement)
        conf = check_confidence(confidence)
        globs = normalise_scope(scope)
        tag_list = normalise_tags(tags)
        if not squash(quote or ""):
            raise InvalidSpecError("a fact needs a verbatim quote of its document (--quote)")
        by = (by or operator_name()).strip() or "operator"
        log = self.audit_log()
        doc = self._document_for(proj, document)
        if not quote_in(quote, doc.text):
            raise InvalidSpecError(
                f"the quote does not occur verbatim in {doc.origin} ({doc.id}): copy the sentence exactly as "
                "the document writes it"
            )
        now = utcnow()
        prov = Provenance(doc.id, doc.origin, squash(quote))
        with self.store.write() as s:
            sig = self._event(
                log,
                EVENT_ADDED,
                {
                    "project": proj,
                    "type": type_,
                    "statement": text,
                    "provenance": prov.to_dict(),
                    "by": by,
                    "at": now.isoformat(),
                    "why": why,
                },
            )
            row = self._new_fact(
                s,
                log.signer,
                project=proj,
                type_=type_,
                statement=text,
                detail=squash(detail or ""),
                scope=globs,
                tags=tag_list,
                confidence=conf,
                provenance=[prov],
                source="operator",
            )
            row.decided_by = by
            row.event_sig = sig
            self._sign(row, log.signer)
            merged = self._lexical(s, log.signer, [row])
        survivor = merged[0]["into"] if merged else row.id
        return Decision(self.store.last_changes(), [self.show(survivor)], None, sig)

    def _document_for(self, project: str, document: str) -> FactDocument:
        """A document id of the project, or a file (ingested now when it is new or changed)."""
        with self.store.session() as s:
            row = s.get(FactDocument, document)
            if row is not None:
                if row.project != project:
                    raise InvalidSpecError(f"document {document} belongs to project {row.project}, not {project}")
                s.expunge(row)
                return row
        path = Path(document).expanduser()
        if not path.is_file():
            raise InvalidSpecError(f"no document {document!r}: give a file path or a document id of {project}")
        resolved = path.resolve()
        readable = docs.read_text(resolved)
        if isinstance(readable, docs.Skipped):  # say why (the size cap, binary, not UTF-8), not just "unreadable"
            raise InvalidSpecError(f"cannot be a fact's document: {readable.reason}", file=str(document))
        with self.store.session() as s:
            known = s.scalars(
                select(FactDocument).where(
                    FactDocument.project == project, FactDocument.path == self._stored_path(resolved)
                )
            ).first()
            origin = known.origin if known is not None else self._origin_for(resolved)
        self._ingest_files(
            project, resolved.parent, [docs.Candidate(origin, resolved, docs.kind_of(resolved) or "text")]
        )
        with self.store.session() as s:
            row = s.get(FactDocument, document_id(project, origin))
            if row is None:
                raise InvalidSpecError(f"{document} could not be read as a text document")
            s.expunge(row)
            return row

    @staticmethod
    def _origin_for(path: Path) -> str:
        try:
            return path.relative_to(Path.cwd().resolve()).as_posix()
        except ValueError:
            return path.name

    # ------------------------------------------------------------------ lexical consolidation
    def _lexical(self, s: Session, signer: Any, new_rows: Sequence[Fact]) -> builtins.list[dict[str, str]]:
        """Merge each new fact into the most similar older fact of its project and type (Jaccard
        >= 0.62; ties: the oldest). The older survives with its id and statement and gains the
        provenances; the newer stays as history (`merged_into`)."""
        merged: builtins.list[dict[str, str]] = []
        if not new_rows:
            return merged
        in_conflict = set(self._open_conflicts(s))
        by_key: dict[tuple[str, str], builtins.list[Fact]] = {}
        for row in new_rows:
            by_key.setdefault((row.project, row.type), [])
        for project, type_ in by_key:
            q = select(Fact).where(Fact.project == project, Fact.type == type_, Fact.merged_into == "")
            by_key[(project, type_)] = sorted(
                self._filter(s.scalars(q).all(), "consolidation"), key=lambda r: (r.ordinal, r.id)
            )
        fresh = {r.id for r in new_rows}
        for pool in by_key.values():
            merged += self._merge_pool(pool, fresh, in_conflict, signer)
        return merged

    def _merge_pool(
        self, pool: Sequence[Fact], fresh: set[str], in_conflict: set[str], signer: Any
    ) -> builtins.list[dict[str, str]]:
        """One project and type, in creation order: each fresh fact merges into the most similar
        older survivor. Candidates come from a prefix-filter index (AllPairs): two word sets with
        Jaccard >= 0.62 share a word among the first |A| - ceil(0.62 |A|) + 1 of each, rarest
        words first; each candidate is then checked exactly, so 10k facts stay fast."""
        wsets = {r.id: words(r.statement) for r in pool}
        df: dict[str, int] = {}
        for ws_ in wsets.values():
            for w in ws_:
                df[w] = df.get(w, 0) + 1

        def prefix(ws_: frozenset[str]) -> builtins.list[str]:
            ordered = sorted(ws_, key=lambda w: (df[w], w))
            n = len(ordered)
            return ordered[: n - (62 * n + 99) // 100 + 1] if n else []

        index: dict[str, builtins.list[Fact]] = {}
        merged: builtins.list[dict[str, str]] = []
        for row in pool:  # sorted by (ordinal, id)
            mine = wsets[row.id]
            head = prefix(mine)
            if row.id in fresh and not row.merged_into and row.id not in in_conflict:
                seen: set[str] = set()
                best: tuple[float, int, Fact] | None = None
                for w in head:
                    for other in index.get(w, ()):
                        if other.id in seen or other.merged_into or other.ordinal >= row.ordinal:
                            continue
                        seen.add(other.id)
                        theirs = wsets[other.id]
                        inter, union = len(mine & theirs), len(mine | theirs)
                        if union == 0 or inter * 100 < 62 * union:
                            continue
                        score = inter / union
                        if best is None or score > best[0] or (score == best[0] and other.ordinal < best[1]):
                            best = (score, other.ordinal, other)
                if best is not None:
                    self._merge_into(best[2], row, signer)
                    merged.append({"fact": row.id, "into": best[2].id})
                    continue  # merged: no longer a survivor to index
            for w in head:
                index.setdefault(w, []).append(row)
        return merged

    def _merge_into(self, survivor: Fact, loser: Fact, signer: Any) -> None:
        a = [Provenance.from_dict(p) for p in _loads(survivor.provenance, [])]
        b = [Provenance.from_dict(p) for p in _loads(loser.provenance, [])]
        survivor.provenance = dumps([p.to_dict() for p in merge_provenance(a, b)])
        loser.merged_into = survivor.id
        self._sign(survivor, signer)
        self._sign(loser, signer)

    # ------------------------------------------------------------------ ingest
    def ingest(self, path: str | Path, project: str | None = None) -> IngestReport:
        """Read the markdown, text and source files under `path` (a folder, a git checkout or one
        file). New and changed files are recorded for extraction; an unchanged file does nothing;
        facts whose quote vanished from a changed file are flagged for review."""
        target = Path(path).expanduser()
        if not target.exists():
            raise InvalidSpecError(f"{shown_path(path)} does not exist: give a folder, a git checkout or a file")
        mode = target.stat().st_mode
        if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):  # a FIFO or a device: refused, never read
            raise not_regular(target, mode, "document")
        root, found = docs.scan(target)
        proj = validate_project(project or self._default_project(root))
        report = self._ingest_files(proj, root, found, whole_root=target.is_dir())
        return report

    @staticmethod
    def _default_project(root: Path) -> str:
        name = "".join(c if c.isalnum() or c in "._-" else "-" for c in root.name).strip("-._") or "docs"
        return name[:128]

    def _ingest_files(
        self, project: str, root: Path, found: Sequence[docs.Candidate], *, whole_root: bool = False
    ) -> IngestReport:
        report = IngestReport(project=project, root=str(root))
        texts: dict[str, tuple[docs.Candidate, str, str]] = {}
        import hashlib

        for cand in found:
            if not utf8_name(cand.origin) or not utf8_name(str(cand.path)):
                report.skipped.append({"origin": shown_path(cand.origin), "reason": "the file name is not UTF-8"})
                continue
            text = docs.read_text(cand.path)
            if isinstance(text, docs.Skipped):
                report.skipped.append({"origin": cand.origin, "reason": text.reason})
                continue
            if not text.strip():
                report.skipped.append({"origin": cand.origin, "reason": "empty"})
                continue
            texts[document_id(project, cand.origin)] = (cand, text, hashlib.sha256(text.encode("utf-8")).hexdigest())
        signer: Any = None
        with self.store.write() as s:
            existing = {r.id: r for r in s.scalars(select(FactDocument).where(FactDocument.project == project)).all()}
            changed_docs: dict[str, str] = {}
            for did, (cand, text, sha) in texts.items():
                row = existing.get(did)
                now = utcnow()
                if row is None:
                    s.add(
                        FactDocument(
                            id=did,
                            project=project,
                            origin=posix(cand.origin),
                            path=self._stored_path(cand.path),
                            kind=cand.kind,
                            sha256=sha,
                            text=text,
                            size=len(text.encode("utf-8")),
                            created_at=now,
                            updated_at=now,
                        )
                    )
                    report.new.append(did)
                elif row.sha256 == sha and not row.missing:
                    report.unchanged.append(did)
                else:
                    row.sha256, row.text, row.size = sha, text, len(text.encode("utf-8"))
                    row.path, row.kind, row.missing = self._stored_path(cand.path), cand.kind, False
                    row.updated_at = now
                    report.changed.append(did)
                    changed_docs[did] = text
            if whole_root:  # files gone from the folder: their facts are flagged
                resolved_root = root.resolve()
                for did, row in existing.items():
                    if (
                        did not in texts
                        and not row.missing
                        and self.absolute_path(row.path).is_relative_to(resolved_root)
                    ):
                        row.missing = True
                        row.updated_at = utcnow()
                        report.removed.append(did)
                        changed_docs[did] = ""
            if changed_docs:
                flat_docs = {did: squash(text) if text else "\0" for did, text in changed_docs.items()}
                facts = s.scalars(select(Fact).where(Fact.project == project, Fact.merged_into == "")).all()
                for frow in self._filter(facts, "ingest"):
                    prov = [Provenance.from_dict(p) for p in _loads(frow.provenance, [])]
                    mine = [p for p in prov if p.document_id in changed_docs]
                    if not mine:
                        continue
                    vanished = [p for p in mine if squash(p.quote) not in flat_docs[p.document_id]]
                    flag = ""
                    if vanished:
                        flag = (
                            "document_removed"
                            if all(not changed_docs[p.document_id] for p in vanished)
                            else "quote_vanished"
                        )
                    if flag != frow.flag and (flag or frow.flag in ("quote_vanished", "document_removed")):
                        if signer is None:
                            signer = self._signer()
                        frow.flag = flag
                        self._sign(frow, signer)
                        if flag:
                            report.flagged.append(frow.id)
        report.changes = self.store.last_changes()
        return report

    # ------------------------------------------------------------------ extraction
    def pending(self, project: str | None = None) -> builtins.list[str]:
        """Documents whose current content was not extracted yet."""
        return [d.id for d in self.documents(project) if not d.extracted and not d.missing]

    def extract(
        self,
        project: str | None = None,
        documents: Sequence[str] | None = None,
        cancel: CancelToken | None = None,
    ) -> Generator[Progress, None, ExtractReport]:
        """A job: extract facts from `documents` (default: the project's pending ones) with the
        configured model; yields Progress per part, returns an ExtractReport."""
        proj = validate_project(project) if project else ""
        provider = self.provider()
        status = provider.status()
        if not status.ready:
            from lorekeeper.llm.base import LLMUnavailableError

            raise LLMUnavailableError(status.reason or "no model is configured")
        self.audit_log()  # fail closed before the first model call
        ids = list(documents) if documents else self.pending(proj or None)
        work: builtins.list[tuple[DocumentInfo, int, str]] = []
        for did in ids:
            doc = self.document(did)
            if proj and doc.project != proj:
                raise InvalidInputError(f"document {did} belongs to project {doc.project}, not {proj}")
            for i, part in enumerate(ex.chunks(doc.text)):
                work.append((doc, i, part))
        report = ExtractReport(project=proj, model=provider.model)
        total = len(work)
        answers: dict[str, builtins.list[Any]] = {}
        started = utcnow()
        yield Progress(0, total, f"extracting {len({d.id for d, _, _ in work})} document(s)")
        for n, (doc, i, part) in enumerate(work):
            if cancel is not None:
                cancel.raise_if_cancelled()
            parts = len(ex.chunks(doc.text))
            label = f" (part {i + 1} of {parts})" if parts > 1 else ""
            prompt = ex.prompt_for(doc.origin, part, part=label)
            try:
                text = provider.complete_json(prompt, schema=ex.ANSWER_SCHEMA, system=ex.SYSTEM)
                items = ex.parse_answer(str(text))
            except LorekeeperError as exc:
                report.errors.append({"document": doc.origin, "error": f"{exc.code}: {exc.message}"})
                items = None
            if items is not None:
                answers.setdefault(doc.id, []).extend(items)
            yield Progress(n + 1, total, f"{doc.origin}{label}")
        if cancel is not None:
            cancel.raise_if_cancelled()
        failed = {e["document"] for e in report.errors}
        done = [did for did in dict.fromkeys(d.id for d, _, _ in work) if self.document(did).origin not in failed]
        self._store_extraction(report, {d: answers.get(d, []) for d in done}, kind="extract", started=started)
        return report

    def apply_recorded(self, recording: str | Path | dict[str, Any], project: str) -> ExtractReport:
        """Apply a recorded extraction (`{"documents": {origin or document id: {"facts": [...]}}}`,
        the model's answers as they were given): the same checks as a live one. The demo and the
        tests use it; so can an operator who ran the prompt elsewhere."""
        proj = validate_project(project)
        data = recording if isinstance(recording, dict) else load_recording(recording)
        entries = data.get("documents") if isinstance(data, dict) else None
        if not isinstance(entries, dict):
            raise InvalidSpecError('a recorded extraction is {"documents": {origin: {"facts": [...]}}}')
        by_origin = {d.origin: d.id for d in self.documents(proj)}
        report = ExtractReport(project=proj, model=str(data.get("model", "recorded")))
        answers: dict[str, builtins.list[Any]] = {}
        for key, answer in entries.items():
            did = key if key in by_origin.values() else by_origin.get(posix(key))
            if did is None:
                report.errors.append({"document": key, "error": "ERR_NOT_FOUND: not an ingested document"})
                continue
            items = answer.get("facts") if isinstance(answer, dict) else answer
            if not isinstance(items, list):
                report.errors.append({"document": key, "error": 'ERR_MODEL_ANSWER_INVALID: no "facts" list'})
                continue
            answers.setdefault(did, []).extend(items)
        self._store_extraction(report, answers, kind="recorded", started=utcnow())
        return report

    def _store_extraction(
        self, report: ExtractReport, answers: dict[str, builtins.list[Any]], *, kind: str, started: datetime
    ) -> None:
        log = self.audit_log()
        checked: dict[str, tuple[DocumentInfo, ex.Checked]] = {}
        for did, items in answers.items():
            doc = self.document(did)
            report.documents += 1
            report.proposed += len(items)
            result = ex.check_items(items, doc.text, doc.origin)
            report.dropped.extend(result.dropped)
            checked[did] = (doc, result)
        with self.store.write() as s:
            new_rows: builtins.list[Fact] = []
            for did, (doc, result) in checked.items():
                for p in result.kept:
                    row = self._new_fact(
                        s,
                        log.signer,
                        project=doc.project,
                        type_=p.type,
                        statement=p.statement,
                        detail=p.detail,
                        scope=p.scope,
                        tags=p.tags,
                        confidence=p.confidence,
                        provenance=[Provenance(doc.id, doc.origin, p.quote)],
                        source="extraction",
                    )
                    new_rows.append(row)
                drow = s.get(FactDocument, did)
                if drow is not None:
                    drow.extracted_sha256 = drow.sha256
                    drow.extracted_at = utcnow()
            report.merged = self._lexical(s, log.signer, new_rows)
            merged_ids = {m["fact"] for m in report.merged}
            report.kept = [r.id for r in new_rows if r.id not in merged_ids]
            run = FactRun(
                kind=kind,
                project=report.project,
                model=report.model,
                report=dumps(report.to_dict()),
                started_at=started,
                finished_at=utcnow(),
            )
            s.add(run)
            s.flush()
            report.run_id = int(run.id)
            run.report = dumps(report.to_dict())
            log.record(  # in the run's own transaction (issue 24): the facts and their event, or neither
                EVENT_EXTRACTED,
                {
                    "run": report.run_id,
                    "kind": kind,
                    "project": report.project,
                    "model": report.model,
                    "documents": report.documents,
                    "kept": len(report.kept),
                    "merged": len(report.merged),
                    "dropped": len(report.dropped),
                },
            )
        report.changes = self.store.last_changes()

    # ------------------------------------------------------------------ consolidation
    def consolidate(
        self, project: str | None = None, *, llm: bool = False, cancel: CancelToken | None = None
    ) -> Generator[Progress, None, ConsolidateReport]:
        """A job: the lexical pass over every fact (older survives), then with `llm` the model pass:
        paraphrases merged with a rewritten statement, contradictions marked `conflicting` with a
        conflict record (never decided). Returns a ConsolidateReport."""
        proj = validate_project(project) if project else ""
        log = self.audit_log()
        report = ConsolidateReport(project=proj)
        yield Progress(0, 0, "lexical consolidation")
        with self.store.capture() as cap:
            with self.store.write() as s:
                q = select(Fact).where(Fact.merged_into == "")
                if proj:
                    q = q.where(Fact.project == proj)
                rows = sorted(self._filter(s.scalars(q).all(), "consolidation"), key=lambda r: (r.ordinal, r.id))
                report.lexical = self._lexical(s, log.signer, rows)
                # each pass's event in the pass's own transaction (issue 24)
                log.record(EVENT_CONSOLIDATED, {"project": proj, "pass": "lexical", "lexical": len(report.lexical)})
            if llm:
                provider = self.provider()
                status = provider.status()
                if not status.ready:
                    from lorekeeper.llm.base import LLMUnavailableError

                    raise LLMUnavailableError(status.reason or "no model is configured")
                report.model = provider.model
                active = [
                    f for f in self.list(proj or None) if f.status in ("candidate", "approved") and f.conflict is None
                ]
                groups: dict[str, builtins.list[FactInfo]] = {}
                for f in active:
                    groups.setdefault(f.project, []).append(f)
                batches = [
                    fs[i : i + CONSOLIDATE_BATCH]
                    for fs in groups.values()
                    for i in range(0, len(fs), CONSOLIDATE_BATCH)
                ]
                batches = [b for b in batches if len(b) > 1]
                for n, batch in enumerate(batches):
                    if cancel is not None:
                        cancel.raise_if_cancelled()
                    yield Progress(n, len(batches), f"model consolidation {n + 1} of {len(batches)}")
                    prompt = ex.consolidate_prompt(
                        [{"id": f.id, "type": f.type, "statement": f.statement} for f in batch]
                    )
                    answer = provider.complete_json(prompt, schema=ex.CONSOLIDATE_SCHEMA, system=ex.SYSTEM)
                    data = ex.parse_consolidation(str(answer))
                    self._apply_consolidation(data, {f.id for f in batch}, report, by="model")
                yield Progress(len(batches), len(batches), "model consolidation done")
        report.changes = cap.changes
        return report

    def _apply_consolidation(
        self, data: dict[str, Any], allowed: set[str], report: ConsolidateReport, *, by: str
    ) -> None:
        """Apply a (validated) model consolidation answer: merges, then contradictions."""
        log = self.audit_log()
        paraphrases, conflicts = len(report.paraphrases), len(report.conflicts)
        with self.store.write() as s:
            used: set[str] = set()
            for merge in data.get("merges", []):
                ids = [i for i in dict.fromkeys(merge["facts"]) if i in allowed and i not in used]
                rows = [r for r in (s.get(Fact, i) for i in ids) if r is not None and not r.merged_into]
                rows = self._filter(rows, "consolidation")
                if len(rows) < 2:
                    report.ignored.append({"merge": merge["facts"], "reason": "fewer than two known facts"})
                    continue
                try:
                    statement = check_statement(merge["statement"])
                except LorekeeperError as exc:
                    report.ignored.append({"merge": merge["facts"], "reason": exc.message})
                    continue
                rows.sort(key=lambda r: (r.ordinal, r.id))
                survivor = rows[0]
                survivor.statement = statement
                for loser in rows[1:]:
                    self._merge_into(survivor, loser, log.signer)
                self._sign(survivor, log.signer)
                used.update(r.id for r in rows)
                report.paraphrases.append({"facts": [r.id for r in rows], "into": survivor.id, "statement": statement})
            for contra in data.get("contradictions", []):
                ids = [i for i in dict.fromkeys(contra["facts"]) if i in allowed and i not in used]
                rows = [r for r in (s.get(Fact, i) for i in ids) if r is not None and not r.merged_into]
                rows = [r for r in self._filter(rows, "consolidation") if r.status != "conflicting"]
                if len(rows) < 2:
                    report.ignored.append({"contradiction": contra["facts"], "reason": "fewer than two open facts"})
                    continue
                cid = self._open_conflict(s, log.signer, rows, squash(contra["reason"])[:MAX_REASON])
                used.update(r.id for r in rows)
                report.conflicts.append(cid)
            if len(report.paraphrases) > paraphrases or len(report.conflicts) > conflicts:
                log.record(
                    EVENT_CONSOLIDATED,
                    {
                        "project": report.project,
                        "pass": by,
                        "model": report.model,
                        "paraphrases": report.paraphrases[paraphrases:],
                        "conflicts": report.conflicts[conflicts:],
                    },
                )

    def _open_conflict(self, s: Session, signer: Any, rows: Sequence[Fact], reason: str) -> int:
        conflict = FactConflict(
            project=rows[0].project,
            facts=dumps([r.id for r in rows]),
            reason=reason or "contradictory facts",
            status="open",
            created_at=utcnow(),
        )
        s.add(conflict)
        s.flush()
        self._sign(conflict, signer)
        for r in rows:
            r.prior_status = r.status
            r.status = "conflicting"
            self._sign(r, signer)
        return int(conflict.id)

    def apply_recorded_consolidation(self, data: dict[str, Any], project: str) -> ConsolidateReport:
        """A recorded model consolidation (the demo): statements instead of ids are accepted, so a
        recording does not depend on hashes; the same rules as a live answer."""
        proj = validate_project(project)
        facts = self.list(proj)
        by_statement = {f.statement: f.id for f in facts}

        def ident(x: str) -> str:
            return by_statement.get(squash(x), x)

        translated = {
            "merges": [{**m, "facts": [ident(i) for i in m.get("facts", [])]} for m in data.get("merges", [])],
            "contradictions": [
                {**c, "facts": [ident(i) for i in c.get("facts", [])]} for c in data.get("contradictions", [])
            ],
        }
        errors = list(ex.CONSOLIDATE_VALIDATOR.iter_errors(translated))
        if errors:
            raise InvalidSpecError(f"recorded consolidation: {errors[0].message}")
        report = ConsolidateReport(project=proj, model=str(data.get("model", "recorded")))
        with self.store.capture() as cap:
            self._apply_consolidation(translated, {f.id for f in facts}, report, by="recorded")
        report.changes = cap.changes
        return report

    # ------------------------------------------------------------------ arbitration
    def resolve(
        self,
        conflict_id: int | str,
        *,
        keep: str | None = None,
        merge: str | None = None,
        reject_all: bool = False,
        why: str,
        by: str | None = None,
    ) -> Decision:
        """Arbitrate a conflict: keep one fact (the others rejected), merge into a new statement
        (a new approved fact with every provenance; the others rejected, merged into it), or reject
        them all. A reason is required; the decision is a signed event; the losers keep their rows."""
        by = (by or operator_name()).strip() or "operator"
        why = (why or "").strip()[:MAX_REASON]
        choices = sum(1 for c in (keep is not None, merge is not None, reject_all) if c)
        if choices != 1:
            raise InvalidInputError("choose exactly one of --keep FACT, --merge STATEMENT or --reject-all")
        if not why:
            raise InvalidInputError("an arbitration needs a reason (--reason): it is signed with the decision")
        statement = check_statement(merge) if merge is not None else None
        cid = self._conflict_key(conflict_id)
        log = self.audit_log()
        conflict = self.conflict(cid)
        if conflict.status != "open":
            raise InvalidInputError(f"conflict #{cid} was already resolved ({conflict.resolution})")
        if keep is not None and keep not in conflict.facts:
            raise InvalidInputError(f"{keep} is not part of conflict #{cid}: choose one of {', '.join(conflict.facts)}")
        resolution = "keep" if keep is not None else "merge" if statement is not None else "reject_all"
        now = utcnow()
        result_id = keep or ""
        with self.store.write() as s:
            sig = self._event(
                log,
                EVENT_RESOLVED,
                {
                    "conflict": cid,
                    "project": conflict.project,
                    "facts": list(conflict.facts),
                    "conflict_reason": conflict.reason,
                    "resolution": resolution,
                    "keep": keep,
                    "statement": statement,
                    "by": by,
                    "at": now.isoformat(),
                    "why": why,
                },
            )
            signer = log.signer
            crow = s.get(FactConflict, cid)
            if crow is None or crow.status != "open":
                raise InvalidInputError(f"conflict #{cid} was resolved by someone else meanwhile")
            rows = [r for r in (s.get(Fact, i) for i in conflict.facts) if r is not None]
            rows = self._filter(rows, "arbitration")
            if statement is not None:
                rows.sort(key=lambda r: (r.ordinal, r.id))
                prov: tuple[Provenance, ...] = ()
                scope: builtins.list[str] = []
                tags: builtins.list[str] = []
                for r in rows:
                    prov = merge_provenance(prov, [Provenance.from_dict(p) for p in _loads(r.provenance, [])])
                    scope += [g for g in _loads(r.scope, []) if g not in scope]
                    tags += [t for t in _loads(r.tags, []) if t not in tags]
                new = self._new_fact(
                    s,
                    signer,
                    project=conflict.project,
                    type_=rows[0].type,
                    statement=statement,
                    detail="",
                    scope=scope,
                    tags=tags,
                    confidence=max(float(r.confidence) for r in rows),
                    provenance=prov,
                    source="merge",
                    status="approved",
                )
                new.decided_by, new.decided_at, new.decision_reason, new.event_sig = by, now, why, sig
                self._sign(new, signer)
                result_id = new.id
            for r in rows:
                r.status = "approved" if r.id == keep else "rejected"
                if statement is not None:
                    r.merged_into = result_id
                r.decided_by, r.decided_at, r.event_sig = by, now, sig
                r.decision_reason = f"conflict #{cid}: {why}"
                self._sign(r, signer)
            crow.status = "resolved"
            crow.resolution = resolution
            crow.result = result_id
            crow.resolved_by, crow.resolved_at, crow.resolution_reason = by, now, why
            crow.event_sig = sig
            self._sign(crow, signer)
        changes = self.store.last_changes()
        shown = [self.show(result_id)] if result_id else []
        shown += [f for f in (self.show(i) for i in conflict.facts) if f.id != result_id]
        return Decision(changes, shown, self.conflict(cid), sig)

    # ------------------------------------------------------------------ packs and conventions
    def packable(self, project: str, *, approved_only: bool = False) -> builtins.list[FactInfo]:
        """The facts a pack may hold, best first: score (weight × confidence + bonus), then id."""
        proj = validate_project(project)
        statuses = {"approved"} if approved_only or not self.include_candidates(proj) else {"approved", "candidate"}
        facts = [f for f in self.list(proj) if f.status in statuses]
        return sorted(facts, key=lambda f: (-round(f.score, 9), f.id))

    def pack(self, project: str, budget: int | None = None, *, approved_only: bool = False) -> Pack:
        """The static pack: the sharpest facts within `budget` o200k tokens (header included),
        in score order; the first fact that does not fit ends it (a lower-scored fact never takes
        the place of a higher one)."""
        proj = validate_project(project)
        if not proj:
            raise InvalidInputError("a pack is for a project: give --project")
        limit = DEFAULT_PACK_BUDGET if budget is None else int(budget)
        if limit < 0:
            raise InvalidInputError("the budget is a number of tokens, 0 or more")
        facts = self.packable(proj, approved_only=approved_only)
        header = pack_header(proj)
        used = _count_tokens(header + "\n")
        chosen: builtins.list[FactInfo] = []
        lines: builtins.list[str] = []
        for f in facts:
            line = render_line(f)
            cost = _count_tokens(line + "\n")
            if used + cost > limit:
                break
            used += cost
            chosen.append(f)
            lines.append(line)
        markdown = header + "\n" + "".join(line + "\n" for line in lines) if chosen else ""
        return Pack(
            project=proj,
            budget=limit,
            tokens=used if chosen else 0,
            facts=chosen,
            omitted=len(facts) - len(chosen),
            include_candidates=self.include_candidates(proj) and not approved_only,
            markdown=markdown,
        )

    def conventions(self, path: str, project: str) -> builtins.list[FactInfo]:
        """The facts whose (non-empty) scope matches `path`, most specific glob first (then pack
        score, then id). Universal facts are not here: they live in the pack."""
        proj = validate_project(project)
        target = posix(path)
        if not target:
            raise InvalidInputError("give the path of the file being edited")
        out: builtins.list[tuple[tuple[int, int, int], FactInfo]] = []
        for f in self.packable(proj):
            matching = [g for g in f.scope if glob_matches(g, target)]
            if matching:
                out.append((max(specificity(g) for g in matching), f))
        out.sort(key=lambda t: (tuple(-x for x in t[0]), -round(t[1].score, 9), t[1].id))
        return [f for _, f in out]

    def prompt_block(self, request: Any) -> str:
        """The FACTS block of the assembled prompt (an injector of `PromptBuilder`): the project's
        pack within `[facts] prompt_budget` tokens; empty without a project, facts or audit key."""
        project = getattr(request, "project", "") or ""
        if not project:
            return ""
        with self.store.session() as s:
            if not s.scalar(select(func.count()).select_from(Fact).where(Fact.project == project)):
                return ""
        try:
            pack = self.pack(project, self.prompt_budget())
        except LorekeeperError as exc:  # no key session: unverifiable facts are never injected
            log_module.info("FACTS block left out: %s", exc)
            return ""
        if not pack.facts:
            return ""
        body = "".join(render_line(f) + "\n" for f in pack.facts)
        return f"FACTS ({project}'s documented rules — follow these):\n{body}".rstrip("\n")

    # ------------------------------------------------------------------ misc
    @staticmethod
    def types() -> tuple[str, ...]:
        return TYPES

    @staticmethod
    def weights() -> dict[str, float]:
        return dict(WEIGHTS)
