"""Line diffs with word-level highlights, for the diff viewer (ui/diffview.py) and the CLI. No Qt.

`compute_diff(a, b)` aligns the two texts line by line (difflib, no junk heuristic) into rows: an
unchanged line faces itself, a changed line faces its new version, a removed (added) line faces
nothing. Inside a changed pair the changed words are character ranges (`Cell.spans`), found by a
second difflib pass over word tokens, so a one-word edit in a 2,000-character markdown paragraph
marks that word, not the paragraph. Consecutive changed rows form a hunk ("a change"), the unit of
next/previous navigation and of the count "3 changes, +12 −4 lines". `visible_rows` folds long
unchanged stretches into `Fold`s ("… 40 unchanged lines") that a viewer can expand one by one.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal

RowKind = Literal["equal", "change", "delete", "insert"]

CONTEXT = 3  # unchanged lines kept on each side of a change when a stretch is folded
MIN_FOLD = 4  # a stretch folds only when it hides at least this many lines
WORD_DIFF_MAX_CHARS = 20_000  # longer lines are marked whole (word diffs are quadratic at worst)
WORD_DIFF_MIN_RATIO = 0.3  # below this token similarity a pair is two different lines: no word marks

_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")
_WRAP_WORD = re.compile(r"\S+\s*|\s+")


@dataclass(frozen=True)
class Cell:
    """One side of a row: a line (1-based number) and the changed character ranges in it."""

    number: int
    text: str
    spans: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class Row:
    kind: RowKind
    left: Cell | None
    right: Cell | None
    hunk: int = -1  # the index of the change this row belongs to; -1 for an unchanged row


@dataclass(frozen=True)
class Hunk:
    first: int  # first row index
    end: int  # one past the last row index
    added: int
    removed: int


@dataclass(frozen=True)
class Fold:
    """Hidden unchanged rows [first, end) of a diff."""

    first: int
    end: int

    @property
    def count(self) -> int:
        return self.end - self.first


@dataclass(frozen=True)
class LineDiff:
    rows: tuple[Row, ...]
    hunks: tuple[Hunk, ...]
    left_lines: int
    right_lines: int

    @property
    def added(self) -> int:
        return sum(h.added for h in self.hunks)

    @property
    def removed(self) -> int:
        return sum(h.removed for h in self.hunks)

    @property
    def summary(self) -> str:
        """'3 changes, +12 −4 lines', or 'No difference.'"""
        if not self.hunks:
            return "No difference."
        n = len(self.hunks)
        return f"{n} change{'s' if n != 1 else ''}, +{self.added} \u2212{self.removed} lines"

    def left_text(self) -> str:
        return "".join(r.left.text + "\n" for r in self.rows if r.left is not None)

    def right_text(self) -> str:
        return "".join(r.right.text + "\n" for r in self.rows if r.right is not None)


def _merge(spans: list[tuple[int, int]], text: str) -> tuple[tuple[int, int], ...]:
    """Trim the white space off each range and join ranges separated only by white space:
    'quick brown' reads as one change, not two."""
    out: list[tuple[int, int]] = []
    for start, end in spans:
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if start == end:
            continue
        if out and not text[out[-1][1] : start].strip():
            out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return tuple(out)


def word_spans(a: str, b: str) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """The changed character ranges of `a` and of `b`, by words (runs of \\w, of spaces, or one
    punctuation mark). Two lines with little in common get no ranges (the whole line changed)."""
    if len(a) > WORD_DIFF_MAX_CHARS or len(b) > WORD_DIFF_MAX_CHARS:
        return (), ()
    ta, tb = _TOKEN.findall(a), _TOKEN.findall(b)
    # white space is junk: not an anchor of a match (it is everywhere; anchoring on it is slow and
    # pairs unrelated words), though matches still extend over it
    sm = difflib.SequenceMatcher(str.isspace, ta, tb, autojunk=False)
    if sm.ratio() < WORD_DIFF_MIN_RATIO:
        return (), ()
    offa = [0]
    for t in ta:
        offa.append(offa[-1] + len(t))
    offb = [0]
    for t in tb:
        offb.append(offb[-1] + len(t))
    sa: list[tuple[int, int]] = []
    sb: list[tuple[int, int]] = []
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            continue
        if i2 > i1 and a[offa[i1] : offa[i2]].strip():
            sa.append((offa[i1], offa[i2]))
        if j2 > j1 and b[offb[j1] : offb[j2]].strip():
            sb.append((offb[j1], offb[j2]))
    return _merge(sa, a), _merge(sb, b)


def compute_diff(a: str, b: str) -> LineDiff:
    """The row-aligned line diff of `a` (left, old) against `b` (right, new)."""
    al, bl = a.splitlines(), b.splitlines()
    rows: list[Row] = []
    hunks: list[Hunk] = []
    opcodes = difflib.SequenceMatcher(a=al, b=bl, autojunk=False).get_opcodes()
    start = -1
    added = removed = 0

    def close_hunk() -> None:
        nonlocal start, added, removed
        if start >= 0:
            hunks.append(Hunk(start, len(rows), added, removed))
        start, added, removed = -1, 0, 0

    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "equal":
            close_hunk()
            rows.extend(
                Row("equal", Cell(i1 + k + 1, al[i1 + k]), Cell(j1 + k + 1, bl[j1 + k])) for k in range(i2 - i1)
            )
            continue
        if start < 0:
            start = len(rows)
        h = len(hunks)
        removed += i2 - i1
        added += j2 - j1
        for k in range(max(i2 - i1, j2 - j1)):
            i, j = i1 + k, j1 + k
            if i < i2 and j < j2:
                sa, sb = word_spans(al[i], bl[j])
                rows.append(Row("change", Cell(i + 1, al[i], sa), Cell(j + 1, bl[j], sb), h))
            elif i < i2:
                rows.append(Row("delete", Cell(i + 1, al[i]), None, h))
            else:
                rows.append(Row("insert", None, Cell(j + 1, bl[j]), h))
    close_hunk()
    return LineDiff(tuple(rows), tuple(hunks), len(al), len(bl))


def visible_rows(diff: LineDiff, expanded: Collection[int] = (), context: int = CONTEXT) -> list[Row | Fold]:
    """The rows to show: long unchanged stretches become a `Fold` (keeping `context` lines next to
    each change) unless the fold's first row index is in `expanded`. A diff without any change is
    shown whole."""
    rows = diff.rows
    if not diff.hunks:
        return list(rows)
    out: list[Row | Fold] = []
    i = 0
    n = len(rows)
    while i < n:
        if rows[i].kind != "equal":
            out.append(rows[i])
            i += 1
            continue
        j = i
        while j < n and rows[j].kind == "equal":
            j += 1
        keep_head = 0 if i == 0 else context  # after a change
        keep_tail = 0 if j == n else context  # before a change
        first, end = i + keep_head, j - keep_tail
        if end - first >= MIN_FOLD and first not in expanded:
            out.extend(rows[i:first])
            out.append(Fold(first, end))
            out.extend(rows[end:j])
        else:
            out.extend(rows[i:j])
        i = j
    return out


def wrapped_lines(text: str, columns: int) -> int:
    """How many lines `text` takes wrapped at word boundaries (or anywhere, in a word longer than a
    line) in `columns` character cells: a fast estimate of a monospaced layout's height."""
    if columns <= 0:
        return max(len(text), 1)
    lines, cur = 1, 0
    for word in _WRAP_WORD.findall(text):
        core = len(word.rstrip())
        if cur + core <= columns:
            cur += len(word)
            continue
        if cur > 0:
            lines += 1
        while core > columns:
            lines += 1
            core -= columns
        cur = core + len(word) - len(word.rstrip())
    return lines


# ---------------------------------------------------------------- the older, plain aligned form
Marks = dict[int, str]  # line number -> 'del' | 'add' | 'chg'


def aligned_diff(a: str, b: str) -> tuple[str, str, Marks, Marks, dict[str, int]]:
    """Side-by-side texts with blank filler lines, so line N of one side faces line N of the other;
    the changed lines of each side ({line: 'del'|'add'|'chg'}) and the counts of each kind."""
    diff = compute_diff(a, b)
    kinds = {"change": ("chg", "chg"), "delete": ("del", "del"), "insert": ("add", "add")}
    left: list[str] = []
    right: list[str] = []
    marks_l: Marks = {}
    marks_r: Marks = {}
    stats = {"chg": 0, "add": 0, "del": 0}
    for n, row in enumerate(diff.rows):
        left.append(row.left.text if row.left else "")
        right.append(row.right.text if row.right else "")
        if row.kind == "equal":
            continue
        kl, kr = kinds[row.kind]
        if row.left is not None:
            marks_l[n] = kl
        if row.right is not None:
            marks_r[n] = kr
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(
        a=a.splitlines(), b=b.splitlines(), autojunk=False
    ).get_opcodes():
        if tag == "replace":
            stats["chg"] += j2 - j1
        elif tag == "insert":
            stats["add"] += j2 - j1
        elif tag == "delete":
            stats["del"] += i2 - i1
    return "\n".join(left) + "\n", "\n".join(right) + "\n", marks_l, marks_r, stats
