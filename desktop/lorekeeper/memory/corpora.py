"""The three corpora as documents, read from the store (the single source of truth):

- `notes`: research notes (key: their path under sources/);
- `clarifications`: validated clarification summaries (key: the story);
- `learnings`: active learnings (key: the learning id); archived ones are not indexed (seed 004 B4).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select

from lorekeeper.memory.items import Item
from lorekeeper.memory.layout import check_corpus, item_id64
from lorekeeper.store.engine import Store
from lorekeeper.store.models import Clarification, Learning, ResearchNote

CLARIFICATION_HEADINGS = {
    "problem": "Problème / besoin utilisateur",
    "criteria": "Critères de succès",
    "constraints": "Contraintes connues",
    "priorities": "Priorités (must-have / nice-to-have)",
}


@dataclass(frozen=True)
class Doc:
    corpus: str
    key: str
    title: str
    text: str  # what BM25 and the embedder read
    story: str = ""
    fields: dict[str, Any] = field(default_factory=dict)

    @property
    def id64(self) -> int:
        return item_id64(self.corpus, self.key)

    def item(self) -> Item:
        return Item(self.id64, self.key, self.text, self.story)


def note_doc(n: ResearchNote) -> Doc:
    tags = [t for t in n.tags.split(",") if t]
    return Doc(
        "notes",
        n.path,
        n.title,
        "\n".join([n.title, n.summary, " ".join(tags), n.body]),
        fields={
            "path": n.path,
            "summary": n.summary,
            "verdict": n.verdict,
            "impact": n.impact,
            "date": n.date,
            "tags": tags,
            "domain": n.domain,
            "project": n.project,
        },
    )


def clarification_doc(c: Clarification) -> Doc:
    parts = {k: getattr(c, k) for k in CLARIFICATION_HEADINGS}
    return Doc(
        "clarifications",
        c.story,
        f"Clarifications — {c.story}",
        "\n".join([c.domain, c.project, *parts.values()]),
        story=c.story,
        fields={
            "story": c.story,
            "domain": c.domain,
            "project": c.project,
            "date": c.date,
            "retention_until": c.retention_until,
            **parts,
        },
    )


def learning_doc(row: Learning) -> Doc:
    tags = [t for t in row.tags.split(",") if t]
    return Doc(
        "learnings",
        str(row.id),
        row.rule,
        "\n".join([row.rule, " ".join(tags), row.domain]),
        story=row.story,
        fields={
            "learning_id": row.id,
            "rule": row.rule,
            "story": row.story,
            "domain": row.domain,
            "project": row.project,
            "tags": tags,
            "scope": row.scope,
            "created_at": row.stamp,
        },
    )


def load_docs(store: Store, corpus: str, keep: Callable[[list[Any]], list[Any]] | None = None) -> list[Doc]:
    """The corpus's documents; `keep` filters the rows first (issue 24: the session's row verifier,
    so a row forged or written back in the database never reaches an index or a search result)."""
    check_corpus(corpus)

    def kept(rows: Any) -> list[Any]:
        out = list(rows)
        return keep(out) if keep is not None else out

    with store.session() as s:
        if corpus == "notes":
            return [note_doc(n) for n in kept(s.scalars(select(ResearchNote).order_by(ResearchNote.path)))]
        if corpus == "clarifications":
            return [clarification_doc(c) for c in kept(s.scalars(select(Clarification).order_by(Clarification.story)))]
        rows = s.scalars(select(Learning).where(Learning.status == "active").order_by(Learning.id))
        return [learning_doc(r) for r in kept(rows)]
