"""MMR de-duplication: drop lines that add more redundancy than information.

MMR(l) = LAMBDA x relevance(l) - (1 - LAMBDA) x max_similarity(l, kept), similarity being the
Jaccard index of character bigrams; a line scoring below 0 is dropped. Applied where dropping is
safe: repeated import lines across files (hoisted into one shared block, so nothing is lost) and
comment or docstring lines; never inside code that is sent whole.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

LAMBDA = 0.7  # relevance vs. diversity (seed 002 default)
MMR_WINDOW = 64  # a line is compared with this many latest kept lines (bounded cost on huge files)
SHARED_MIN_FILES = 2  # an import line printed in this many files is hoisted into the shared block


def bigrams(line: str) -> set[str]:
    s = " ".join(line.split())
    return {s[i : i + 2] for i in range(len(s) - 1)} if len(s) > 1 else {s}


def jaccard(a: set[str], b: set[str]) -> float:
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


def mmr_filter(lines: list[str], relevance: list[float], lam: float = LAMBDA) -> list[int]:
    """Indices of the lines kept, in their order: each is compared with the lines kept before it."""
    kept: list[int] = []
    cover: list[set[str]] = []
    for i, line in enumerate(lines):
        grams = bigrams(line)
        sim = max((jaccard(grams, c) for c in cover[-MMR_WINDOW:]), default=0.0)
        if lam * relevance[i] - (1 - lam) * sim >= 0:
            kept.append(i)
            cover.append(grams)
    return kept


def shared_lines(per_file: Iterable[list[str]], min_files: int = SHARED_MIN_FILES) -> set[str]:
    """Lines that occur in at least `min_files` of the files (exact duplicates: similarity 1, so
    their MMR score is below 0 everywhere after their first occurrence)."""
    counts: Counter[str] = Counter()
    for lines in per_file:
        counts.update(set(lines))
    return {line for line, c in counts.items() if c >= min_files}
