"""User regexes: compiled with the `regex` module (Python `re` syntax and semantics for the flags
i, m, s) so that every search runs with a time limit, plus a static warning for nested quantifiers.

The time limit is the `regex` module's `timeout=`: it counts the process's CPU time spent in the
match, so on a loaded machine the wall-clock time can be longer. The default is
DEFAULT_REGEX_TIMEOUT seconds per rule; `LOREKEEPER_REGEX_TIMEOUT` (seconds) changes it, and a
rule's own `"timeout"` field wins over both.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import regex

#: Seconds of matching per regex rule before the rule fails with "regex timed out after N s".
DEFAULT_REGEX_TIMEOUT = 0.5
#: The largest per-rule limit a rules file may ask for.
MAX_REGEX_TIMEOUT = 10.0
TIMEOUT_ENV = "LOREKEEPER_REGEX_TIMEOUT"

#: the rule flags' bits: the `regex` module's are `re`'s (tests/evals hold it), so a command that
#: never compiles a user regex does not import `regex` (issue 26 d3: a lighter start)
FLAG_BITS = {"i": int(re.IGNORECASE), "m": int(re.MULTILINE), "s": int(re.DOTALL)}


def default_timeout() -> float:
    """The per-rule regex time limit: LOREKEEPER_REGEX_TIMEOUT when it is a positive number."""
    raw = os.environ.get(TIMEOUT_ENV, "").strip()
    if raw:
        try:
            value = float(raw)
        except ValueError:
            return DEFAULT_REGEX_TIMEOUT
        if 0 < value <= MAX_REGEX_TIMEOUT:
            return value
    return DEFAULT_REGEX_TIMEOUT


@lru_cache(maxsize=4096)
def compile_pattern(pattern: str, flags: int) -> regex.Pattern[str]:
    """Compile once per (pattern, flags) for the whole process (VERSION0: `re`-compatible)."""
    import regex

    return regex.compile(pattern, flags | regex.VERSION0)


REGEX_TIMEOUT = "ERR_REGEX_TIMEOUT"  # the result code of a rule whose regex ran past its limit


class RegexTimeout(Exception):
    """A search ran past its time limit."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"regex timed out after {seconds:g} s")
        self.seconds = seconds


def search(compiled: regex.Pattern[str], text: str, timeout: float) -> bool:
    """True when the pattern is found; RegexTimeout past the limit. The GIL is released meanwhile."""
    try:
        return compiled.search(text, concurrent=True, timeout=timeout) is not None
    except TimeoutError:
        raise RegexTimeout(timeout) from None


# ---- static check: nested quantifiers -------------------------------------------------------


@dataclass
class _Node:
    lo: int = 1
    hi: float = 1  # float("inf") when unbounded
    zero_width: bool = False
    atomic: bool = False  # possessive quantifier or atomic group: no backtracking into it
    alts: list[list[_Node]] | None = None  # a group's alternatives
    quantified: bool = False
    atom: str = ""  # the atom's text for a single-character atom (`.`, `x`, `\\d`, `[a-z]`); "" for a group

    @property
    def varies(self) -> bool:
        """The node can match different lengths through its own or an inner quantifier."""
        if self.quantified and self.hi > self.lo and not self.atomic:
            return True
        return bool(self.alts) and any(n.varies for alt in self.alts or [] for n in alt)


class _Parser:
    """A small, forgiving parser of `re` syntax: only what the nested-quantifier check needs."""

    def __init__(self, pattern: str) -> None:
        self.p = pattern
        self.i = 0

    def parse(self) -> list[list[_Node]]:
        return self._alternatives()

    def _alternatives(self) -> list[list[_Node]]:
        alts: list[list[_Node]] = [[]]
        while self.i < len(self.p):
            c = self.p[self.i]
            if c == ")":
                break
            if c == "|":
                self.i += 1
                alts.append([])
                continue
            node = self._atom()
            if node is None:
                continue
            self._quantifier(node)
            alts[-1].append(node)
        return alts

    def _atom(self) -> _Node | None:
        p, c = self.p, self.p[self.i]
        if c == "\\":
            nxt = p[self.i + 1 : self.i + 2]
            self.i += 2
            if nxt in ("p", "P", "N") and p[self.i : self.i + 1] == "{":
                end = p.find("}", self.i)
                self.i = len(p) if end < 0 else end + 1
            return _Node(zero_width=nxt in ("b", "B", "A", "Z", "z", "G"), atom=p[self.i - 2 : self.i])
        if c == "[":
            start = self.i
            self._skip_class()
            return _Node(atom=p[start : self.i])
        if c == "(":
            return self._group()
        self.i += 1
        if c in "^$":
            return _Node(zero_width=True)
        return _Node(atom=c)

    def _skip_class(self) -> None:
        p = self.p
        self.i += 1
        if p[self.i : self.i + 1] == "^":
            self.i += 1
        if p[self.i : self.i + 1] == "]":
            self.i += 1
        while self.i < len(p) and p[self.i] != "]":
            self.i += 2 if p[self.i] == "\\" else 1
        self.i += 1

    def _group(self) -> _Node | None:
        p = self.p
        self.i += 1
        zero_width = atomic = False
        if p.startswith("?", self.i):
            if p.startswith("?#", self.i):  # comment
                end = p.find(")", self.i)
                self.i = len(p) if end < 0 else end + 1
                return None
            if p.startswith(("?=", "?!", "?<=", "?<!"), self.i):
                zero_width = True
            elif p.startswith("?>", self.i):
                atomic = True
            elif p.startswith(("?P<", "?<"), self.i):
                end = p.find(">", self.i)
                self.i = len(p) if end < 0 else end
            elif p.startswith("?P=", self.i):
                end = p.find(")", self.i)
                self.i = len(p) if end < 0 else end + 1
                return _Node()
            else:  # inline flags: (?i) alone is no atom, (?i:...) is a group
                j = self.i + 1
                while j < len(p) and (p[j].isalpha() or p[j] == "-"):
                    j += 1
                if p[j : j + 1] == ")":
                    self.i = j + 1
                    return None
                self.i = j
            # skip to the body: past the ':' / '=' / '!' / '>' of the group's prefix
            while self.i < len(p) and p[self.i] not in ":=!>" and p[self.i] != ")":
                self.i += 1
            if self.i < len(p) and p[self.i] != ")":
                self.i += 1
        alts = self._alternatives()
        self.i += 1  # the closing ')'
        return _Node(alts=alts, zero_width=zero_width, atomic=atomic)

    def _quantifier(self, node: _Node) -> None:
        p = self.p
        if self.i >= len(p):
            return
        c = p[self.i]
        if c in "*+?":
            node.lo, node.hi = {"*": (0, float("inf")), "+": (1, float("inf")), "?": (0, 1)}[c]
            self.i += 1
        elif c == "{":
            end = p.find("}", self.i)
            body = p[self.i + 1 : end] if end > 0 else ""
            lo_s, comma, hi_s = body.partition(",")
            if not body or not (lo_s.isdigit() or lo_s == "") or not (hi_s.isdigit() or hi_s == ""):
                return  # a literal '{'
            node.lo = int(lo_s or 0)
            node.hi = (float(hi_s) if hi_s else float("inf")) if comma else node.lo
            self.i = end + 1
        else:
            return
        node.quantified = True
        if p[self.i : self.i + 1] == "+":
            node.atomic = True
            self.i += 1
        elif p[self.i : self.i + 1] == "?":
            self.i += 1


def _ambiguous(group: _Node) -> bool:
    """A repeated group whose body can match the same text many ways: essentially one varying piece
    (`(a+)+`, `(\\w+\\s?)*`, `(a*)*`), an unbounded `.` (`(.*a){20}`), or the same atom repeated
    twice in a row (`(x+x+)+`)."""
    for alt in group.alts or []:
        if not any(n.varies for n in alt):
            continue
        mandatory = [n for n in alt if n.lo >= 1 and not n.zero_width]
        if not mandatory or (len(mandatory) == 1 and mandatory[0].varies):
            return True
        if any(n.atom == "." and n.varies and n.hi == float("inf") for n in alt):
            return True
        pieces = [n for n in alt if not n.zero_width]
        if any(a.atom and a.atom == b.atom and a.varies and b.varies for a, b in pairwise(pieces)):
            return True
    return False


def _walk(alts: list[list[_Node]]) -> bool:
    for alt in alts:
        for n in alt:
            if n.alts is None:
                continue
            if n.quantified and n.hi > 1 and not n.atomic and not n.zero_width and _ambiguous(n):
                return True
            if _walk(n.alts):
                return True
    return False


def nested_quantifier_warning(pattern: str) -> str | None:
    """A warning when a repeated group holds a quantifier that can match the same text many ways.

    Such patterns (`^(a+)+$`, `(\\w+\\s?)*$`) backtrack exponentially on a near-miss. This is a
    heuristic: it does not catch every slow pattern (the time limit does), and it is only a warning.
    """
    try:
        found = _walk(_Parser(pattern).parse())
    except (IndexError, ValueError):  # the parser is forgiving; a pattern it cannot read gets no warning
        return None
    if not found:
        return None
    return (
        f"pattern {pattern!r} nests quantifiers (a repeated group whose body repeats too): it can take "
        "exponential time on a near-miss; it runs with a time limit, but consider rewriting it"
    )
