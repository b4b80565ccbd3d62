"""One rounding rule for every rate Lorekeeper shows (success rates, trigger precision and recall):
rounded *down*, so a rate below a threshold never reads as the threshold.

A base module, so the skills, quality and memory layers and the CLI and GUI all use the same two
functions (issue 31 item 8).
"""

from __future__ import annotations

import math


def json_rate(rate: float | None) -> float | None:
    """A share for JSON: 4 decimals, rounded down like `format_rate`: 2/3 -> 0.6666, which reads
    as "66.6%", never 0.6667 beside "66.6%"."""
    if rate is None:
        return None
    return math.floor(rate * 10_000 + 1e-9) / 10_000


def format_rate(rate: float | None, *, none: str = "-") -> str:
    """A share as a percentage with at most one decimal, rounded *down*: 0.799 -> "79.9%",
    0.8 -> "80%", 2/3 -> "66.6%"."""
    if rate is None:
        return none
    tenths = math.floor(rate * 1000 + 1e-9)  # the epsilon absorbs float noise such as 0.29 * 1000
    return f"{tenths // 10}%" if tenths % 10 == 0 else f"{tenths / 10:.1f}%"
