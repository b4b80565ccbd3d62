"""The fact model of seed 003: types and pack weights, validation, scope globs, lexical similarity.

Pure functions, no store. DESIGN.md "Core rules" holds the exact rules kept here:
- 8 types with pack weights; a fact without provenance is invalid; an explicit `**` scope is
  removed (a universal scope is the absence of a scope);
- lexical consolidation compares `\\w+` word sets, case- and accent-folded, Jaccard >= 0.62;
- pack score = weight × confidence + 0.1 × (corroboration − 1), the bonus at most 0.2.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lorekeeper.errors import InvalidSpecError
from lorekeeper.text import fold

if TYPE_CHECKING:
    import pathspec

TYPES: tuple[str, ...] = (
    "stack",
    "convention",
    "architecture",
    "runbook",
    "constraint",
    "pitfall",
    "glossary",
    "contact",
)
WEIGHTS: dict[str, float] = {
    "constraint": 1.00,
    "convention": 0.95,
    "pitfall": 0.90,
    "stack": 0.85,
    "runbook": 0.70,
    "architecture": 0.60,
    "glossary": 0.35,
    "contact": 0.30,
}
#: the question each type answers (seed 003), used by the extraction prompt and the GUI
QUESTIONS: dict[str, str] = {
    "stack": "Which technologies, which versions, for what role?",
    "convention": "How do you write code that passes review here?",
    "architecture": "Why is it structured this way?",
    "runbook": "How do you ship, release, roll back, debug?",
    "constraint": "What is forbidden (security, compliance, SLA)?",
    "pitfall": "Which trap already cost someone dearly?",
    "glossary": "What does this internal term mean?",
    "contact": "Who owns what?",
}
STATUSES: tuple[str, ...] = ("candidate", "approved", "rejected", "conflicting")
JACCARD_THRESHOLD = 0.62
BONUS_PER_SOURCE = 0.1
BONUS_MAX = 0.2
MAX_STATEMENT = 600
MAX_DETAIL = 4000
MIN_EXTRACTED_CONFIDENCE = 0.3  # the seed's lowest band is 0.3-0.5 ("fragile inference")

_WORD = re.compile(r"\w+")
_UNIVERSAL = re.compile(r"^[*/]*\*\*[*/]*$")  # `**`, `**/*`, `/**`, `**/**`: everywhere


def words(text: str) -> frozenset[str]:
    return frozenset(_WORD.findall(fold(text)))


def jaccard(a: str, b: str) -> float:
    wa, wb = words(a), words(b)
    if not wa and not wb:
        return 1.0
    return len(wa & wb) / len(wa | wb)


def similar(a: str, b: str) -> bool:
    """Two statements a lexical consolidation merges (Jaccard of the word sets >= 0.62)."""
    wa, wb = words(a), words(b)
    union = len(wa | wb)
    # compare as integers (|A∩B| * 100 >= 62 * |A∪B|): no float rounding at the threshold
    return union > 0 and len(wa & wb) * 100 >= 62 * union


def normalise_scope(globs: Iterable[str]) -> list[str]:
    """Strip, drop empties and duplicates, remove an explicit `**` (and its spellings `**/*`, `/**`),
    and check that each glob compiles (gitignore-style). ERR_INVALID_SPEC on a bad glob."""
    out: list[str] = []
    for raw in globs:
        glob = str(raw).strip()
        if not glob or _UNIVERSAL.match(glob) or glob in out:
            continue
        if "\n" in glob or "\x00" in glob:
            raise InvalidSpecError(f"invalid scope glob {glob!r}: one glob per --scope, no newline")
        import pathspec  # with the first glob, not with every command that opens a workspace

        try:
            pathspec.GitIgnoreSpec.from_lines([glob])
        except Exception as exc:  # noqa: BLE001 - pathspec raises several types for a bad pattern
            raise InvalidSpecError(f"invalid scope glob {glob!r}: {exc}") from None
        out.append(glob)
    return out


def normalise_tags(tags: Iterable[str]) -> list[str]:
    out: list[str] = []
    for raw in tags:
        tag = str(raw).strip().lower()
        if tag and tag not in out:
            out.append(tag[:64])
    return out


def posix(path: str) -> str:
    p = path.replace("\\", "/").strip()
    while p.startswith("./"):
        p = p[2:]
    return p.lstrip("/")


@functools.lru_cache(maxsize=4096)
def _spec(glob: str) -> pathspec.GitIgnoreSpec:
    import pathspec

    return pathspec.GitIgnoreSpec.from_lines([glob])


def glob_matches(glob: str, path: str) -> bool:
    """gitignore-style matching (`**` spans directories; a glob without `/` matches at any depth)."""
    return bool(_spec(glob).match_file(posix(path)))


def specificity(glob: str) -> tuple[int, int, int]:
    """How specific a glob is: literal path segments, then literal characters, then anchoring.
    `db/migration/V1.sql` > `db/migration/**` > `db/**` > `**/*.sql` > `*.sql`."""
    segments = [s for s in glob.strip("/").split("/") if s]
    literal_segments = sum(1 for s in segments if not any(c in s for c in "*?["))
    literal_chars = sum(1 for c in glob if c not in "*?[]/!")
    anchored = 1 if "/" in glob.strip("/") or glob.startswith("/") else 0
    return (literal_segments, literal_chars, anchored)


def fact_id(project: str, type_: str, statement: str, salt: int = 0) -> str:
    """`<project>:<type>:<hash8>` of the statement (a salt when that id is taken)."""
    basis = f"{project}\n{type_}\n{' '.join(statement.split())}" + (f"\n{salt}" if salt else "")
    return f"{project}:{type_}:{hashlib.sha256(basis.encode('utf-8')).hexdigest()[:8]}"


def document_id(project: str, origin: str) -> str:
    """`<project>:file:<hash10>` of the document's origin (its path in the ingested folder): stable
    while the file's content changes."""
    return f"{project}:file:{hashlib.sha256(posix(origin).encode('utf-8')).hexdigest()[:10]}"


def squash(text: str) -> str:
    return " ".join(text.split())


def quote_in(quote: str, text: str) -> bool:
    """The quote occurs verbatim in the text (runs of whitespace, line breaks included, count as one
    space: a quote copied from a wrapped paragraph still matches; nothing else is forgiven)."""
    q = squash(quote)
    return bool(q) and q in squash(text)


def quote_span(quote: str, text: str) -> tuple[int, int] | None:
    """(start, end) of the quote in `text` (the same whitespace rule as `quote_in`), for highlighting."""
    parts = quote.split()
    if not parts:
        return None
    pattern = r"\s+".join(re.escape(p) for p in parts)
    m = re.search(pattern, text)
    return (m.start(), m.end()) if m else None


def pack_score(type_: str, confidence: float, corroboration: int) -> float:
    bonus = min(BONUS_MAX, BONUS_PER_SOURCE * max(corroboration - 1, 0))
    return WEIGHTS.get(type_, 0.0) * confidence + bonus


@dataclass(frozen=True)
class Provenance:
    document_id: str
    origin: str
    quote: str

    def to_dict(self) -> dict[str, str]:
        return {"document_id": self.document_id, "origin": self.origin, "quote": self.quote}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Provenance:
        return cls(str(data.get("document_id", "")), str(data.get("origin", "")), str(data.get("quote", "")))


@dataclass(frozen=True)
class FactInfo:
    """A fact as the services, the CLI and the GUI see it (`to_dict()` is DESIGN.md's JSON shape)."""

    id: str
    project: str
    type: str
    statement: str
    detail: str = ""
    scope: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    confidence: float = 0.9
    status: str = "candidate"
    provenance: tuple[Provenance, ...] = ()
    merged_into: str = ""
    flag: str = ""
    source: str = ""
    ordinal: int = 0
    conflict: int | None = None  # the open conflict it is part of
    decided_by: str = ""
    decided_at: str = ""
    decision_reason: str = ""
    created_at: str = ""
    updated_at: str = ""
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @functools.cached_property
    def corroboration(self) -> int:
        """The number of distinct documents among the provenances (computed once: the info is frozen)."""
        return len({p.document_id for p in self.provenance})

    @property
    def weight(self) -> float:
        return WEIGHTS.get(self.type, 0.0)

    @functools.cached_property
    def score(self) -> float:
        """The pack score (computed once: a pack of 10k facts sorts by it, and the infos are cached)."""
        return pack_score(self.type, self.confidence, self.corroboration)

    @functools.cached_property
    def pack_order(self) -> tuple[float, str]:
        """The pack's sort key: best score first (rounded, so float noise never reorders), then id."""
        return (-round(self.score, 9), self.id)

    @property
    def documents(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(p.document_id for p in self.provenance))

    def applies_to(self, path: str) -> bool:
        return any(glob_matches(g, path) for g in self.scope)

    def to_dict(self) -> dict[str, Any]:
        """DESIGN.md's JSON shape: a fresh dict each call whose nested lists are shared with the
        info's own (computed once: the info is frozen and cached, issue 26 d3); serialise it, or
        copy a list before changing it."""
        return dict(self._as_dict)

    @functools.cached_property
    def json_text(self) -> str:
        """`json.dumps(self.to_dict(), ensure_ascii=False)`, computed once: `facts list --json` to a
        pipe joins these texts, the very bytes `json.dumps` writes for the whole list (issue 26 d3:
        the agent service lists 10k cached infos without encoding them again)."""
        return json.dumps(self._as_dict, ensure_ascii=False)

    @functools.cached_property
    def _as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "project": self.project,
            "type": self.type,
            "statement": self.statement,
            "detail": self.detail,
            "scope": list(self.scope),
            "tags": list(self.tags),
            "confidence": self.confidence,
            "status": self.status,
            "provenance": [p.to_dict() for p in self.provenance],
            "corroboration": self.corroboration,
            "merged_into": self.merged_into or None,
            "flag": self.flag or None,
            "conflict": self.conflict,
            "source": self.source,
            "decided_by": self.decided_by or None,
            "decided_at": self.decided_at or None,
            "decision_reason": self.decision_reason or None,
            "created_at": self.created_at,
            **self.extra,
        }


@dataclass(frozen=True)
class ConflictInfo:
    id: int
    project: str
    facts: tuple[str, ...]
    reason: str
    status: str = "open"
    resolution: str = ""
    result: str = ""
    resolved_by: str = ""
    resolved_at: str = ""
    resolution_reason: str = ""
    created_at: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "project": self.project,
            "facts": list(self.facts),
            "reason": self.reason,
            "status": self.status,
            "resolution": self.resolution or None,
            "result": self.result or None,
            "resolved_by": self.resolved_by or None,
            "resolved_at": self.resolved_at or None,
            "resolution_reason": self.resolution_reason or None,
            "created_at": self.created_at,
        }


def check_type(type_: str) -> str:
    t = str(type_ or "").strip().lower()
    if t not in TYPES:
        raise InvalidSpecError(f"unknown fact type {type_!r}: use one of {', '.join(TYPES)}")
    return t


def check_statement(statement: str) -> str:
    s = squash(str(statement or ""))
    if not s:
        raise InvalidSpecError("a fact needs a statement: one imperative, self-contained sentence")
    if len(s) > MAX_STATEMENT:
        raise InvalidSpecError(
            f"the statement is {len(s)} characters; keep it to one sentence ({MAX_STATEMENT} at most)"
        )
    return s


def check_confidence(value: Any) -> float:
    try:
        c = float(value)
    except (TypeError, ValueError):
        raise InvalidSpecError(f"confidence {value!r} is not a number between 0 and 1") from None
    if not 0.0 < c <= 1.0 or c != c:
        raise InvalidSpecError(
            f"confidence {value!r} is outside (0, 1]: 0.9+ stated explicitly, 0.6-0.8 deduced from an "
            "example, 0.3-0.5 a fragile inference"
        )
    return round(c, 4)


def check_provenance(provenance: Sequence[Provenance]) -> tuple[Provenance, ...]:
    if not provenance:
        raise InvalidSpecError("a fact without provenance is invalid: give its document and a verbatim quote")
    for p in provenance:
        if not p.document_id or not squash(p.quote):
            raise InvalidSpecError("each provenance needs a document and a non-empty verbatim quote")
    return tuple(provenance)


def merge_provenance(a: Sequence[Provenance], b: Sequence[Provenance]) -> tuple[Provenance, ...]:
    """Every provenance of both, in order, without exact duplicates: a merge never loses one."""
    out: list[Provenance] = list(a)
    seen = {(p.document_id, squash(p.quote)) for p in out}
    for p in b:
        key = (p.document_id, squash(p.quote))
        if key not in seen:
            seen.add(key)
            out.append(p)
    return tuple(out)


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
