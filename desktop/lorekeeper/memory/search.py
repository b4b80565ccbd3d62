"""Hybrid search: BM25 (bm25s) and the vector index, fused by reciprocal rank fusion.

RRF (Cormack et al. 2009): score(d) = sum over the rankings r that hold d of 1 / (K + rank_r(d)),
K = 60, ranks from 1. A document only one ranking found still scores; BM25 ranks only documents
that share a word with the query (score > 0).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import bm25s
import numpy as np

from lorekeeper.memory.text import tokens

RRF_K = 60


@dataclass(frozen=True)
class Ranked:
    position: int  # index into the docs list given
    score: float
    bm25_rank: int | None = None
    vector_rank: int | None = None


class Bm25:
    """A BM25 index over token lists (built once per corpus revision, reused by searches)."""

    def __init__(self, texts: Sequence[str]) -> None:
        self.size = len(texts)
        self._retriever: bm25s.BM25 | None = None
        if self.size:
            corpus = [tokens(t) or [""] for t in texts]
            self._retriever = bm25s.BM25()
            self._retriever.index(corpus, show_progress=False)

    def scores(self, query: str) -> np.ndarray:
        if self._retriever is None:
            return np.zeros(0, dtype=np.float32)
        q = tokens(query)
        if not q:
            return np.zeros(self.size, dtype=np.float32)
        return np.asarray(self._retriever.get_scores(q), dtype=np.float32)

    def rank(
        self, query: str, allowed: Sequence[int] | None = None, *, tiebreak: Sequence[float] | None = None
    ) -> list[int]:
        """Positions of the documents with a positive score, best first (ties: the larger
        `tiebreak` value, then position)."""
        s = self.scores(query)
        if allowed is not None:
            mask = np.zeros(self.size, dtype=bool)
            mask[np.asarray(allowed, dtype=np.int64)] = True
            s = np.where(mask, s, 0.0)
        hits = np.flatnonzero(s > 0)
        if tiebreak is not None:
            tb = np.asarray(tiebreak, dtype=np.float64)
            order = np.lexsort((hits, -tb[hits], -s[hits]))  # score descending, then tiebreak, then position
        else:
            order = np.lexsort((hits, -s[hits]))  # score descending, then position
        return [int(i) for i in hits[order]]


def rrf(rankings: Sequence[Sequence[int]], k: int = RRF_K) -> list[tuple[int, float]]:
    scores: dict[int, float] = {}
    for ranking in rankings:
        for rank, pos in enumerate(ranking, start=1):
            scores[pos] = scores.get(pos, 0.0) + 1.0 / (k + rank)
    return sorted(scores.items(), key=lambda x: (-x[1], x[0]))


def fuse(bm25_ranking: Sequence[int], vector_ranking: Sequence[int], top: int) -> list[Ranked]:
    b = {p: r for r, p in enumerate(bm25_ranking, start=1)}
    v = {p: r for r, p in enumerate(vector_ranking, start=1)}
    return [Ranked(p, s, b.get(p), v.get(p)) for p, s in rrf([bm25_ranking, vector_ranking])[:top]]


def ndcg_at(ranking: Sequence[str], relevance: dict[str, int], k: int = 5) -> float:
    """nDCG@k with graded relevance (gain 2^rel - 1, log2 discount)."""
    import math

    dcg = sum((2 ** relevance.get(d, 0) - 1) / math.log2(i + 2) for i, d in enumerate(ranking[:k]))
    ideal = sorted(relevance.values(), reverse=True)[:k]
    idcg = sum((2**r - 1) / math.log2(i + 2) for i, r in enumerate(ideal))
    return dcg / idcg if idcg else 0.0
