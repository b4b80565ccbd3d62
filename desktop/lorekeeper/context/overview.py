"""`ctx overview`: the tree as the engine sees it, ranked for a task (or by centrality alone)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from lorekeeper.context import tokens
from lorekeeper.context.intent import StructuredIntent, classify
from lorekeeper.context.ledger import TARGET_RELEVANCE, ContextLedger, LedgerEntry
from lorekeeper.context.parse import parse_file
from lorekeeper.context.scan import scan


@dataclass
class Overview:
    root: str
    files: int
    tokens: int
    edges: int
    communities: int
    intent: StructuredIntent
    ranked: list[dict[str, object]] = field(default_factory=list)
    deficits: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {
            "root": self.root,
            "files": self.files,
            "tokens": self.tokens,
            "edges": self.edges,
            "communities": self.communities,
            "intent": self.intent.to_dict(),
            "ranked": self.ranked,
            "deficits": self.deficits,
        }


def overview(root: Path, task: str | None = None) -> Overview:
    from lorekeeper.context.graph import relevance

    sources, _ = scan(Path(root))
    files = [parse_file(s.rel, s.text) for s in sources]
    counts = tokens.count_many([f.text for f in files])
    intent = classify(task)
    rel = relevance(files, intent) if files else None
    ranked = []
    for i, pf in enumerate(files):
        ranked.append(
            {
                "rel": pf.rel,
                "language": pf.language,
                "tokens": counts[i],
                "relevance": round(rel.files[i], 4) if rel else 0.0,
                "heat": round(rel.heat[i], 4) if rel else 0.0,
                "pagerank": round(rel.pagerank[i], 4) if rel else 0.0,
                "community": rel.community[i] if rel else -1,
                "imports": rel.graph.out_degree(i) if rel else 0,
                "imported_by": rel.graph.in_degree(i) if rel else 0,
                "definitions": len(pf.definitions),
                "parse_error_line": pf.error_line,
            }
        )
    ranked.sort(key=lambda r: (-_number(r["relevance"]), str(r["rel"])))
    deficits: list[str] = []
    if intent.task:
        ledger = ContextLedger()
        for r in ranked:
            if _number(r["relevance"]) >= TARGET_RELEVANCE:
                ledger.record(
                    LedgerEntry(
                        str(r["rel"]),
                        "full",
                        int(_number(r["tokens"])),
                        int(_number(r["tokens"])),
                        _number(r["relevance"]),
                        target=True,
                    )
                )
        deficits = ledger.deficits(intent, [f.rel for f in files])
    n_comm = len({c for c in (rel.community if rel else []) if c >= 0})
    return Overview(
        str(root), len(files), sum(counts), rel.graph.number_of_edges() if rel else 0, n_comm, intent, ranked, deficits
    )


def _number(value: object) -> float:
    """A numeric cell of a ranked row (the rows are plain JSON objects)."""
    assert isinstance(value, int | float), value
    return float(value)
