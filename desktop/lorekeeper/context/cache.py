"""Reciprocal Rank Fusion cache eviction (the context session's eviction policy).

A cached context entry has incomparable signals (turns since last use, number of uses, relevance
to the current task). RRF ranks the entries on each signal separately and fuses the ranks:
RRF(d) = sum_i 1 / (K + rank_i(d)). The entries with the lowest fused score leave first, so no
weight has to be tuned between turns, counts and relevance scores. Equal values share a rank, and
a signal on which every entry is equal (no task yet: relevance 0 everywhere) ranks nobody.

Size is not a signal: eviction exists to free tokens, and ranking small entries first would keep
a target file out of the window just because it is large.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

RRF_K = 60  # the usual RRF constant: dampens the weight of the very first ranks


@dataclass(frozen=True)
class CacheEntry:
    key: str
    last_used: float  # timestamp or turn number: larger is more recent
    uses: int
    tokens: int
    relevance: float = 0.0  # to the current task (0..1)


def _ranks(entries: list[CacheEntry], value: Callable[[CacheEntry], float]) -> dict[str, int] | None:
    """Rank 1 for the largest value; equal values share the rank of the first of them."""
    values = {e.key: value(e) for e in entries}
    if len(set(values.values())) <= 1:
        return None
    ordered = sorted(values.values(), reverse=True)
    first: dict[float, int] = {}
    for rank, v in enumerate(ordered, start=1):
        first.setdefault(v, rank)
    return {k: first[v] for k, v in values.items()}


def rrf_scores(entries: list[CacheEntry], k: int = RRF_K) -> dict[str, float]:
    """Fused score of each entry (higher: keep): recent, frequent and relevant entries rank first."""
    scores = {e.key: 0.0 for e in entries}
    for signal in (lambda e: e.last_used, lambda e: float(e.uses), lambda e: e.relevance):
        ranks = _ranks(entries, signal)
        if ranks is None:
            continue
        for key, rank in ranks.items():
            scores[key] += 1.0 / (k + rank)
    return scores


def eviction_order(entries: list[CacheEntry]) -> list[str]:
    """Keys in the order they should be evicted (lowest fused score first; ties: least recent, key)."""
    scores = rrf_scores(entries)
    recency = {e.key: e.last_used for e in entries}
    return sorted(scores, key=lambda key: (scores[key], recency[key], key))


def lru_order(entries: list[CacheEntry]) -> list[str]:
    """Plain least-recently-used order: the baseline RRF is measured against."""
    return [e.key for e in sorted(entries, key=lambda e: (e.last_used, e.key))]


def evict(entries: list[CacheEntry], free_tokens: int, order: list[str] | None = None) -> list[str]:
    """The keys to evict, in order (RRF's unless `order` is given), until `free_tokens` are freed.

    An entry taken on the way that the goal turned out not to need (a small file evicted before the
    large one that freed the room) is kept after all: evicting it would lose it for nothing."""
    by_key = {e.key: e for e in entries}
    out: list[str] = []
    freed = 0
    for key in order if order is not None else eviction_order(entries):
        if freed >= free_tokens:
            break
        out.append(key)
        freed += by_key[key].tokens
    surplus = freed - free_tokens
    for key in reversed(out[:-1]):  # the most worth keeping first
        if 0 < by_key[key].tokens <= surplus:
            out.remove(key)
            surplus -= by_key[key].tokens
    return out
