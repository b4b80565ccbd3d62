"""Boltzmann token allocation: how many tokens each file may use, and the mode that fits.

budget_i = total x exp(beta x E_i) / sum_j exp(beta x E_j), with E_i the file's relevance and the
inverse temperature beta growing with the task's specificity: a precise task concentrates the
budget on its few files, a broad one spreads it. Budgets are clamped per file, then each file
gets the richest mode whose exact token cost fits its budget.
"""

from __future__ import annotations

import math

BETA_PER_SPECIFICITY = 5.0  # beta = 5 x specificity (seed 002: specificity 0.85 -> beta ~4.2)
BETA_MIN = 0.5  # even a broad task prefers relevant files a little
MIN_FILE_BUDGET = 128  # seed 002's per-file floor...
MAX_FILE_BUDGET = 4096  # ...and ceiling, for budgets up to MAX_FILE_SHARE of the total
MAX_FILE_SHARE = 0.35  # with a large total, one file may take up to this share instead


def temperature(specificity: float) -> float:
    """The inverse temperature beta for a task of this specificity (0..1)."""
    return max(BETA_MIN, BETA_PER_SPECIFICITY * max(0.0, min(1.0, specificity)))


def boltzmann(relevance: list[float], total: int, beta: float) -> list[int]:
    """Token budget per file (sums to at most `total`)."""
    n = len(relevance)
    if n == 0 or total <= 0:
        return [0] * n
    top = max(relevance)
    weights = [math.exp(beta * (r - top)) for r in relevance]  # shifted: no overflow
    z = sum(weights)
    ceiling = max(MAX_FILE_BUDGET, int(total * MAX_FILE_SHARE))
    floor = min(MIN_FILE_BUDGET, total // n)
    budgets = [min(ceiling, max(floor, int(total * w / z))) for w in weights]
    over = sum(budgets) - total
    if over > 0:  # the floors pushed the sum over: take it back from the largest budgets
        for i in sorted(range(n), key=lambda k: (-budgets[k], k)):
            take = min(over, max(0, budgets[i] - floor))
            budgets[i] -= take
            over -= take
            if over <= 0:
                break
    return budgets


def choose_mode(costs: dict[str, int], budget: int) -> str:
    """The richest of full / map / signatures / reference whose cost fits `budget`."""
    for mode in ("full", "map", "signatures"):
        if mode in costs and costs[mode] <= budget:
            return mode
    return "reference"
