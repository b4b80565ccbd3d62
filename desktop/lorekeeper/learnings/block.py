"""The LEARNINGS block injected into every prompt (seed 000/001, `formatForPrompt`).

The block (its header line and its `- rule` lines, newlines between them included) holds at most
2,000 characters: the newest rules first, stopping at the first rule that does not fit. An older,
shorter rule after it is not squeezed in, so the block is always a prefix of the newest-first list.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

HEADER = "LEARNINGS (past corrections \u2014 follow these rules):"
BUDGET = 2000


@dataclass(frozen=True)
class LearningsBlock:
    text: str  # empty when no rule fits (or there is none)
    used: tuple[int, ...]  # ids of the rules in the block, in block order
    dropped: int  # rules left out by the budget

    def __bool__(self) -> bool:
        return bool(self.text)


def learnings_block(rules_newest_first: Iterable[tuple[int, str]], budget: int = BUDGET) -> LearningsBlock:
    """`rules_newest_first`: (id, rule) pairs, newest first."""
    rules = list(rules_newest_first)
    lines: list[str] = []
    used: list[int] = []
    size = len(HEADER)
    for rid, rule in rules:
        line = "- " + rule
        if size + 1 + len(line) > budget:
            break
        lines.append(line)
        used.append(rid)
        size += 1 + len(line)
    if not lines:
        return LearningsBlock("", (), len(rules))
    return LearningsBlock("\n".join([HEADER, *lines]), tuple(used), len(rules) - len(used))
