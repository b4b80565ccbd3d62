"""What the fact services return: documents, decisions and job reports (seed 003, issue 11).

Plain dataclasses with a `to_dict()` in DESIGN.md's JSON shape; the audit event names; the helpers
every fact service shares (the operator's name, ISO times, lenient JSON columns, a recorded
extraction read from a file).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from lorekeeper import safejson
from lorekeeper.changes import ChangeSet
from lorekeeper.errors import InvalidSpecError
from lorekeeper.facts.model import ConflictInfo, FactInfo
from lorekeeper.fsutil import read_regular_text, shown_path
from lorekeeper.locations import os_login

operator_name = os_login  # who acts without a Vault identity (one definition: locations.os_login)

EVENT_ADDED = "fact_added"
EVENT_APPROVED = "fact_approved"
EVENT_REJECTED = "fact_rejected"
EVENT_REOPENED = "fact_reopened"
EVENT_EDITED = "fact_edited"
EVENT_RESOLVED = "fact_conflict_resolved"
EVENT_CONFLICT_REOPENED = "fact_conflict_reopened"  # an arbitration undone
EVENT_EXTRACTED = "facts_extracted"
EVENT_CONSOLIDATED = "facts_consolidated"
MAX_REASON = 2000
DEFAULT_PACK_BUDGET = 2000  # o200k tokens of `facts pack` without --budget
DEFAULT_PROMPT_BUDGET = 600  # the FACTS block of `lorekeeper prompt` ([facts] prompt_budget)
CONSOLIDATE_BATCH = 60  # facts per LLM consolidation call


def iso(value: datetime | str | None) -> str:
    """ISO 8601 in UTC; also from a timestamp as SQLite stores it (naive UTC text: `facts list`
    reads those columns raw, issue 26), the same text the column type would have given."""
    if value is None:
        return ""
    if isinstance(value, str):
        try:
            when = datetime.fromisoformat(value)
        except ValueError:
            return value
    else:
        when = value
    return (when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)).isoformat()


def loads(text: str, default: Any) -> Any:
    if text == "[]":  # the usual scope and tags: no parse (10k facts listed cold parsed 30k texts)
        return []
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
