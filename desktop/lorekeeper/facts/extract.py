"""The extraction prompt, its answer schema and the checks every proposed fact goes through.

The prompt applies seed 003's single test ("would a competent developer who is new to this client
produce different work, or be corrected in review, without this fact?") and excludes general
knowledge and paraphrases of the document. The answer is `{"facts": [...]}` validated against
`ANSWER_SCHEMA` (jsonschema, Draft 2020-12): an invalid item is dropped with the validator's
message, a quote that does not occur verbatim in the document is dropped as invented. Nothing a
model says is stored without those checks.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from lorekeeper.errors import LorekeeperError
from lorekeeper.facts.model import (
    MAX_STATEMENT,
    MIN_EXTRACTED_CONFIDENCE,
    QUESTIONS,
    TYPES,
    normalise_scope,
    normalise_tags,
    squash,
)

FACT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["type", "statement", "quote", "confidence"],
    "properties": {
        "type": {"enum": list(TYPES)},
        "statement": {"type": "string", "minLength": 1, "maxLength": MAX_STATEMENT},
        "detail": {"type": "string"},
        "scope": {"type": "array", "items": {"type": "string"}},
        "tags": {"type": "array", "items": {"type": "string"}},
        "confidence": {"type": "number", "minimum": 0, "maximum": 1},
        "quote": {"type": "string", "minLength": 1},
    },
    "additionalProperties": True,
}
ANSWER_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["facts"],
    "properties": {"facts": {"type": "array", "items": FACT_SCHEMA}},
}
if TYPE_CHECKING:
    from jsonschema import Draft202012Validator


@cache
def validator(name: str) -> Draft202012Validator:
    """The schema's validator, built on first use: jsonschema (about 0.1 s to import) loads when a
    model's answer is checked, not with every command that opens a workspace."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator({"answer": ANSWER_SCHEMA, "fact": FACT_SCHEMA, "consolidate": CONSOLIDATE_SCHEMA}[name])


SYSTEM = (
    "You extract typed facts from a client's documentation for AI coding agents. You answer with "
    "JSON only, matching the schema you are given. Three sharp facts beat twenty lukewarm ones."
)

CHUNK_CHARS = 24_000  # a longer document is extracted in parts cut at headings or blank lines


def prompt_for(origin: str, text: str, *, part: str = "") -> str:
    types = "\n".join(f"- `{t}`: {q}" for t, q in QUESTIONS.items())
    return f"""Extract the facts of this document that an AI coding agent must know before writing code for this client.

Apply one test to every candidate fact: if a competent developer who is new to this client did not
know it, would they produce different work, or be corrected in review? If not, do not extract it.

Never extract:
- general knowledge ("write tests", "use meaningful names", what any good developer already knows);
- a paraphrase or summary of the document ("the document describes the deployment");
- anything the document does not say.

Each fact has:
- `type`, one of:
{types}
- `statement`: ONE imperative, self-contained sentence that makes sense out of any context
  (good: "Never edit a Flyway migration already merged on main: create a new V<n>__name.sql.";
  bad: "The document talks about migrations.").
- `detail`: optional, one or two sentences of how-to.
- `scope`: the path globs the fact applies to (gitignore style, e.g. "db/migration/**",
  "**/*_test.go"); an empty list when it applies everywhere. Never "**".
- `tags`: a few lower-case keywords.
- `confidence`: 0.9 or more when the document states it explicitly and unambiguously; 0.6 to 0.8
  when deduced from an example or an observed usage; 0.3 to 0.5 for a fragile inference.
- `quote`: the sentence of the document that justifies the fact, copied VERBATIM (character for
  character; do not translate, fix or shorten words inside it). A fact without a real quote is
  discarded.

Answer with JSON only: {{"facts": [ ... ]}} (an empty list when the document holds no such fact).

Document: {origin}{part}
-----
{text}
-----"""


def chunks(text: str, size: int = CHUNK_CHARS) -> list[str]:
    """The document in parts of at most ~`size` characters, cut before a heading or a blank line."""
    if len(text) <= size:
        return [text]
    out: list[str] = []
    rest = text
    while len(rest) > size:
        window = rest[:size]
        cut = max(window.rfind("\n#"), window.rfind("\n\n"))
        if cut < size // 2:
            cut = size
        out.append(rest[:cut])
        rest = rest[cut:]
    if rest.strip():
        out.append(rest)
    return out


class AnswerInvalid(LorekeeperError):
    code = "ERR_MODEL_ANSWER_INVALID"


_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.IGNORECASE)


def parse_answer(text: str) -> list[Any]:
    """The `facts` list of an answer (code fences and prose around the JSON tolerated); raises
    AnswerInvalid when there is no JSON object with a `facts` list."""
    body = _FENCE.sub("", text.strip())
    try:
        data = json.loads(body)
    except ValueError:
        start, end = body.find("{"), body.rfind("}")
        if start < 0 or end <= start:
            raise AnswerInvalid("the model's answer is not JSON") from None
        try:
            data = json.loads(body[start : end + 1])
        except ValueError as exc:
            raise AnswerInvalid(f"the model's answer is not JSON: {exc}") from None
    if isinstance(data, list):
        data = {"facts": data}
    if not isinstance(data, dict) or not isinstance(data.get("facts"), list):
        raise AnswerInvalid('the model\'s answer has no "facts" list')
    return list(data["facts"])


@dataclass
class Proposed:
    """A checked fact ready to store."""

    type: str
    statement: str
    detail: str
    scope: list[str]
    tags: list[str]
    confidence: float
    quote: str


@dataclass
class Checked:
    kept: list[Proposed] = field(default_factory=list)
    dropped: list[dict[str, Any]] = field(default_factory=list)


def check_items(items: list[Any], text: str, origin: str) -> Checked:
    """Validate each proposed fact against the schema and the document; drop the bad ones with a reason."""
    out = Checked()
    flat = squash(text)  # once per document, not once per proposed fact

    def drop(item: Any, reason: str) -> None:
        statement = item.get("statement") if isinstance(item, dict) else None
        out.dropped.append(
            {"document": origin, "statement": str(statement)[:300] if statement else None, "reason": reason}
        )

    for item in items:
        errors = sorted(validator("fact").iter_errors(item), key=lambda e: list(e.path))
        if errors:
            first = errors[0]
            where = "/".join(str(p) for p in first.path) or "fact"
            drop(item, f"schema: {where}: {first.message}"[:300])
            continue
        statement = squash(item["statement"])
        if "\n" in item["statement"].strip() or not statement:
            drop(item, "the statement is not one sentence")
            continue
        confidence = float(item["confidence"])
        if confidence < MIN_EXTRACTED_CONFIDENCE:
            drop(item, f"confidence {confidence} is below {MIN_EXTRACTED_CONFIDENCE} (not even a fragile inference)")
            continue
        quote = item["quote"]
        if not squash(quote) or squash(quote) not in flat:
            drop(item, "invented quote: it does not occur verbatim in the document")
            continue
        try:
            scope = normalise_scope(item.get("scope") or [])
        except LorekeeperError as exc:
            drop(item, exc.message if hasattr(exc, "message") else str(exc))
            continue
        out.kept.append(
            Proposed(
                type=item["type"],
                statement=statement,
                detail=squash(str(item.get("detail") or "")),
                scope=scope,
                tags=normalise_tags(item.get("tags") or []),
                confidence=round(confidence, 4),
                quote=squash(quote),
            )
        )
    return out


# ---------------------------------------------------------------------------- LLM consolidation

CONSOLIDATE_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["merges", "contradictions"],
    "properties": {
        "merges": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["facts", "statement"],
                "properties": {
                    "facts": {"type": "array", "items": {"type": "string"}, "minItems": 2},
                    "statement": {"type": "string", "minLength": 1, "maxLength": MAX_STATEMENT},
                },
            },
        },
        "contradictions": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["facts", "reason"],
                "properties": {
                    "facts": {"type": "array", "items": {"type": "string"}, "minItems": 2},
                    "reason": {"type": "string", "minLength": 1},
                },
            },
        },
    },
}


def consolidate_prompt(facts: list[dict[str, str]]) -> str:
    listing = "\n".join(f"- {f['id']} [{f['type']}] {f['statement']}" for f in facts)
    return f"""These facts were extracted from one client's documentation, document by document.

1. Paraphrases: facts that state the same rule in different words. Group them and write ONE merged
   imperative, self-contained statement for each group.
2. Contradictions: facts that cannot both be followed (different versions, opposite rules). List
   them with a short reason. Do NOT choose which one is right: a human arbitrates.

Leave out every fact that is neither. Answer with JSON only:
{{"merges": [{{"facts": [ids], "statement": "..."}}], "contradictions": [{{"facts": [ids], "reason": "..."}}]}}

Facts:
{listing}"""


def parse_consolidation(text: str) -> dict[str, Any]:
    body = _FENCE.sub("", text.strip())
    try:
        data = json.loads(body)
    except ValueError:
        start, end = body.find("{"), body.rfind("}")
        try:
            data = json.loads(body[start : end + 1]) if 0 <= start < end else None
        except ValueError:
            data = None
    if not isinstance(data, dict):
        raise AnswerInvalid("the model's consolidation answer is not a JSON object")
    errors = list(validator("consolidate").iter_errors(data))
    if errors:
        raise AnswerInvalid(f"the model's consolidation answer does not match its schema: {errors[0].message}")
    return data
