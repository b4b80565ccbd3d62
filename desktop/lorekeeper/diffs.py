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
from itertools import accumulate
from typing import Literal

RowKind = Literal["equal", "change", "delete", "insert"]

CONTEXT = 3  # unchanged lines kept on each side of a change when a stretch is folded
MIN_FOLD = 4  # a stretch folds only when it hides at least this many lines
WORD_DIFF_MAX_CHARS = 20_000  # longer lines are marked whole (word diffs are quadratic at worst)
WORD_DIFF_MAX_EDITS = 400  # more token edits than this: the pair is marked whole, not word by word
WORD_DIFF_MIN_RATIO = 0.3  # below this token similarity a pair is two different lines: no word marks

_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")
_WORD_CHAR = re.compile(r"\w")
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


def _common_prefix(a: str, b: str) -> int:
    """Length of the common prefix (a binary search of slice comparisons: C speed)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _common_suffix(a: str, b: str, limit: int) -> int:
    lo, hi = 0, limit
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[len(a) - mid :] == b[len(b) - mid :]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _run_class(ch: str) -> str:
    return "w" if _WORD_CHAR.match(ch) else "s" if ch.isspace() else "p"


def word_spans(a: str, b: str) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """The changed character ranges of `a` and of `b`, by words (runs of \\w, of spaces, or one
    punctuation mark). Two lines with little in common get no ranges (the whole line changed)."""
    if len(a) > WORD_DIFF_MAX_CHARS or len(b) > WORD_DIFF_MAX_CHARS:
        return (), ()
    # The common head and tail first (C-speed slice comparisons), widened to whole words: a
    # one-word edit of a paragraph leaves only that word to tokenise and match.
    start = _common_prefix(a, b)
    if start > 0 and _run_class(a[start - 1]) != "p":
        cls = _run_class(a[start - 1])
        while start > 0 and _run_class(a[start - 1]) == cls:
            start -= 1
    tail = _common_suffix(a, b, min(len(a), len(b)) - start)
    end_a = len(a) - tail
    if tail > 0 and _run_class(a[end_a]) != "p":
        cls = _run_class(a[end_a])
        while end_a < len(a) and _run_class(a[end_a]) == cls:
            end_a += 1
    end_b = len(b) - (len(a) - end_a)
    ta, tb = _TOKEN.findall(a[start:end_a]), _TOKEN.findall(b[start:end_b])
    pairs = _matched_tokens(ta, tb, WORD_DIFF_MAX_EDITS)
    if pairs is None:  # too different to mark words in
        return (), ()
    offa = list(accumulate(map(len, ta), initial=start))
    offb = list(accumulate(map(len, tb), initial=start))
    matched = start + len(a) - end_a + sum(len(ta[i]) for i, _j in pairs)  # characters in common
    if 2 * matched < WORD_DIFF_MIN_RATIO * (len(a) + len(b)):
        return (), ()
    in_a = {i for i, _j in pairs}
    in_b = {j for _i, j in pairs}
    return _runs(offa, len(ta), in_a, a), _runs(offb, len(tb), in_b, b)


def _runs(offsets: list[int], n: int, matched: set[int], text: str) -> tuple[tuple[int, int], ...]:
    """The character ranges of the runs of unmatched tokens."""
    spans: list[tuple[int, int]] = []
    i = 0
    while i < n:
        if i in matched:
            i += 1
            continue
        j = i
        while j < n and j not in matched:
            j += 1
        spans.append((offsets[i], offsets[j]))
        i = j
    return _merge(spans, text)


def _matched_tokens(a: list[str], b: list[str], max_edits: int) -> list[tuple[int, int]] | None:
    """The (i, j) token pairs a shortest edit script keeps (Myers' O(ND) diff: fast when the lines
    differ by a few words, however often their words repeat); None beyond `max_edits` edits."""
    n, m = len(a), len(b)
    v: dict[int, int] = {1: 0}
    trace: list[dict[int, int]] = []
    for d in range(min(max_edits, n + m) + 1):
        trace.append(dict(v))
        for k in range(-d, d + 1, 2):
            if k == -d or (k != d and v[k - 1] < v[k + 1]):
                x = v[k + 1]
            else:
                x = v[k - 1] + 1
            y = x - k
            while x < n and y < m and a[x] == b[y]:
                x += 1
                y += 1
            v[k] = x
            if x >= n and y >= m:
                return _backtrack(trace, n, m)
    return None


def _backtrack(trace: list[dict[int, int]], n: int, m: int) -> list[tuple[int, int]]:
    pairs: list[tuple[int, int]] = []
    x, y = n, m
    for d in range(len(trace) - 1, -1, -1):
        v = trace[d]
        k = x - y
        if k == -d or (k != d and v[k - 1] < v[k + 1]):
            prev_k = k + 1
        else:
            prev_k = k - 1
        prev_x = v[prev_k] if d > 0 else 0
        prev_y = prev_x - prev_k if d > 0 else 0
        while x > prev_x and y > prev_y:
            x -= 1
            y -= 1
            pairs.append((x, y))
        x, y = prev_x, prev_y
    pairs.reverse()
    return pairs


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
