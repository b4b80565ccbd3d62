"""Code smells weighted by the dependency graph: maintenance hot spots with the widest blast radius.

Per definition (from the tree-sitter parse): long functions, deep nesting, high cyclomatic
complexity. A smell's score is how far it exceeds its threshold, amplified by the file's
PageRank and by how many files import it, so a tangled function in a hub ranks above the same
function in a leaf script.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

from lorekeeper.context.parse import ParsedFile, parse_file
from lorekeeper.context.scan import scan

LONG_FUNCTION_LINES = 60  # a function longer than this is hard to hold in one's head
DEEP_NESTING = 4  # nested blocks (if/for/while/try/with) inside one function
HIGH_COMPLEXITY = 10  # cyclomatic complexity (McCabe's classic threshold)
CENTRALITY_WEIGHT = 1.0  # score x (1 + weight x normalised PageRank)
DEPENDENTS_WEIGHT = 0.1  # ... x (1 + weight x number of importing files)


@dataclass
class Smell:
    rel: str
    name: str
    line: int  # 1-based
    kind: str  # long_function | deep_nesting | complexity
    value: int
    threshold: int
    score: float

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def smells_of(files: list[ParsedFile], pagerank: list[float], dependents: list[int]) -> list[Smell]:
    out: list[Smell] = []
    for fi, pf in enumerate(files):
        amp = (1 + CENTRALITY_WEIGHT * pagerank[fi]) * (1 + DEPENDENTS_WEIGHT * dependents[fi])
        for d in pf.definitions:
            if d.kind != "function":
                continue
            length = d.end_line - d.start_line + 1
            for kind, value, threshold in (
                ("long_function", length, LONG_FUNCTION_LINES),
                ("deep_nesting", d.max_nesting, DEEP_NESTING),
                ("complexity", d.complexity, HIGH_COMPLEXITY),
            ):
                if value > threshold:
                    out.append(
                        Smell(
                            pf.rel,
                            d.qualname,
                            d.start_line + 1,
                            kind,
                            value,
                            threshold,
                            round(value / threshold * amp, 4),
                        )
                    )
    out.sort(key=lambda s: (-s.score, s.rel, s.line, s.kind))
    return out


def find_smells(root: Path) -> list[Smell]:
    from lorekeeper.context.graph import _normalise, _pagerank, build_import_graph

    sources, _ = scan(Path(root))
    files = [parse_file(s.rel, s.text) for s in sources]
    g = build_import_graph(files)
    pr = _normalise(_pagerank(g, None)) if files else []
    dependents = [g.in_degree(i) for i in range(len(files))]
    return smells_of(files, pr, dependents)
