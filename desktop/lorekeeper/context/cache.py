"""Reciprocal Rank Fusion cache eviction.

A cached context entry has incomparable signals (seconds since last use, number of uses, size in
tokens). RRF ranks the entries on each signal separately and fuses the ranks:
RRF(d) = sum_i 1 / (K + rank_i(d)). The entries with the lowest fused score leave first, so no
weight has to be tuned between seconds, counts and tokens.
"""

from __future__ import annotations

from dataclasses import dataclass

RRF_K = 60  # the usual RRF constant: dampens the weight of the very first ranks


@dataclass(frozen=True)
class CacheEntry:
    key: str
    last_used: float  # timestamp
    uses: int
    tokens: int


def rrf_scores(entries: list[CacheEntry], k: int = RRF_K) -> dict[str, float]:
    """Fused score of each entry (higher: keep). Ranks start at 1; ties broken by key."""
    rankings = [
        sorted(entries, key=lambda e: (-e.last_used, e.key)),  # recent first
        sorted(entries, key=lambda e: (-e.uses, e.key)),  # frequent first
        sorted(entries, key=lambda e: (e.tokens, e.key)),  # small first: cheap to keep
    ]
    scores = {e.key: 0.0 for e in entries}
    for ranking in rankings:
        for rank, e in enumerate(ranking, start=1):
            scores[e.key] += 1.0 / (k + rank)
    return scores


def eviction_order(entries: list[CacheEntry]) -> list[str]:
    """Keys in the order they should be evicted (lowest fused score first)."""
    scores = rrf_scores(entries)
    return sorted(scores, key=lambda key: (scores[key], key))


def evict(entries: list[CacheEntry], free_tokens: int) -> list[str]:
    """The keys to evict, in order, until at least `free_tokens` tokens are freed."""
    by_key = {e.key: e for e in entries}
    out: list[str] = []
    freed = 0
    for key in eviction_order(entries):
        if freed >= free_tokens:
            break
        out.append(key)
        freed += by_key[key].tokens
    return out
