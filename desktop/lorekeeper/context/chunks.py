"""Semantic chunks with attention bridges and a tail anchor ("lost in the middle").

A file's top-level blocks (imports, each top-level definition, with its nested ones) are the
chunks. For a task, the chunks holding relevant definitions move to the top, ordered by relevance
(the high-attention position); the others follow by type priority (types and classes, then
functions, then imports). A bridge line `---` separates the groups, and the header of the most
relevant definition is repeated as the last line (recency bias).
"""

from __future__ import annotations

from dataclasses import dataclass

from lorekeeper.context.parse import ParsedFile

BRIDGE = "---"  # boundary marker between chunk groups
TYPE_PRIORITY = {"type": 0, "class": 1, "function": 2, "imports": 3}  # order of the non-relevant chunks
ANCHOR_PREFIX = "anchor: "


@dataclass
class Chunk:
    kind: str
    definitions: list[int]  # indices in ParsedFile.definitions (the top-level one first)
    relevance: float = 0.0
    start: int = 0  # source position, for stable ordering


def chunks_of(pf: ParsedFile, scores: dict[int, float]) -> list[Chunk]:
    out: list[Chunk] = []
    if pf.imports:
        out.append(Chunk("imports", [], 0.0, -1))
    current: Chunk | None = None
    for i, d in enumerate(pf.definitions):
        if d.depth == 0 or current is None:
            current = Chunk(d.kind, [i], scores.get(i, 0.0), d.start)
            out.append(current)
        else:
            current.definitions.append(i)
            current.relevance = max(current.relevance, scores.get(i, 0.0))
    return out


def order(chunks: list[Chunk]) -> tuple[list[Chunk], list[Chunk]]:
    """(relevant chunks by relevance, the rest by type priority then position)."""
    relevant = sorted((c for c in chunks if c.relevance > 0), key=lambda c: (-c.relevance, c.start))
    rest = sorted((c for c in chunks if c.relevance <= 0), key=lambda c: (TYPE_PRIORITY.get(c.kind, 9), c.start))
    return relevant, rest


def assemble(relevant: list[list[str]], rest: list[list[str]], anchor: str | None) -> str:
    """Join chunk texts: relevant group, bridge, the rest, bridge, anchor."""
    groups = []
    if relevant:
        groups.append("\n".join(line for chunk in relevant for line in chunk))
    if rest:
        groups.append("\n".join(line for chunk in rest for line in chunk))
    text = f"\n{BRIDGE}\n".join(g for g in groups if g)
    if anchor:
        text += f"\n{BRIDGE}\n{ANCHOR_PREFIX}{anchor}"
    return text
