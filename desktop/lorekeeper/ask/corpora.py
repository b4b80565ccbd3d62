"""Corpora that other features' services provide, as passages (the workspace registers them).

The services are duck-typed (a small protocol each), so `ask` stays below the features it reads.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator
from typing import Any, Protocol

from lorekeeper.ask.passages import Passage
from lorekeeper.ask.service import Corpus
from lorekeeper.errors import LorekeeperError

log = logging.getLogger(__name__)
SKIPPED_STATUSES = ("rejected", "conflicting")  # never enter a pack: never an answer's source either


class FactSource(Protocol):
    def list(self, project: str | None = None) -> Iterable[Any]: ...

    def document(self, doc_id: str) -> Any: ...


def quote_lines(text: str, quote: str) -> tuple[int, int, str] | None:
    """The 1-based line range of the first occurrence of `quote` in `text`, and those whole lines.
    Verbatim as the facts define it: a run of whitespace (a line break too) matches any other."""
    words = quote.split()
    if not words:
        return None
    m = re.search(r"\s+".join(map(re.escape, words)), text)
    if m is None:
        return None
    start = text.count("\n", 0, m.start()) + 1
    end = text.count("\n", 0, m.end()) + 1
    lines = text.split("\n")
    return start, end, "\n".join(lines[start - 1 : end])


def facts_corpus(facts: FactSource) -> Corpus:
    """Each fact as the lines of its documents that hold its verbatim quotes; the passage's title is
    the fact's type and statement, so a question about the rule finds the lines that prove it."""

    def corpus(project: str) -> Iterator[Passage]:
        try:
            found = list(facts.list(project or None))
        except LorekeeperError as exc:  # no audit key: unverifiable facts are never a source
            log.info("facts left out of ask: %s", exc)
            return
        docs: dict[str, Any] = {}
        for f in found:
            if f.status in SKIPPED_STATUSES:
                continue
            for prov in f.provenance:
                if prov.document_id not in docs:
                    try:
                        docs[prov.document_id] = facts.document(prov.document_id)
                    except LorekeeperError:
                        docs[prov.document_id] = None
                doc = docs[prov.document_id]
                span = quote_lines(doc.text, prov.quote) if doc is not None else None
                if span is None:
                    continue
                start, end, text = span
                # the workspace-relative path when the document lives in the workspace (as the
                # documents corpus names it), else the origin it was ingested from
                where = doc.path if doc.path and not doc.path.startswith("/") else (prov.origin or prov.document_id)
                yield Passage("facts", where, f"{f.type}: {f.statement}", start, end, text)

    return corpus
