"""The eval footnote appended under an answer: `Eval: ⚠️ No force push | ℹ️ Response under 4000 chars`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

ICONS = {"warning": "\u26a0\ufe0f", "info": "\u2139\ufe0f"}
SEPARATOR = " | "
PREFIX = "Eval: "


class _Result(Protocol):  # read-only members: frozen dataclasses such as RuleResult match
    @property
    def name(self) -> str: ...
    @property
    def severity(self) -> str: ...
    @property
    def passed(self) -> bool: ...


def footnote(results: Iterable[_Result]) -> str:
    """The failed rules only, in file order; empty when everything passed."""
    parts = [f"{ICONS[r.severity]} {r.name}" for r in results if not r.passed]
    return PREFIX + SEPARATOR.join(parts) if parts else ""


def with_footnote(response: str, note: str) -> str:
    """The delivered message: the answer untouched, then a rule and the footnote when there is one."""
    if not note:
        return response
    return f"{response.rstrip()}\n---\n{note}"
