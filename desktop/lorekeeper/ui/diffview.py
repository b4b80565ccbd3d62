"""The diff viewer every panel shows (proposals, skill versions): side by side or unified.

The diff itself is `lorekeeper.diffs` (no Qt): rows aligned line by line, the changed words of a
changed line as character ranges, hunks, folds of long unchanged stretches. This module paints it.

`DiffCanvas` paints the rows itself (a QAbstractScrollArea, not a QTextDocument: a rich-text table
of a few hundred rows took 0.5 s to lay out, 15 s for 3,000). Each row is one band across both
halves, as tall as the taller side once wrapped, so a wrapped paragraph on the left keeps the right
side aligned, and both halves scroll as one (line 20 on the left faces its match, line 50 on the
right, whatever was inserted above). Only the rows on screen are laid out (`QTextLayout`, changed
words as format ranges); heights are measured once per width, short ASCII lines by arithmetic.

`DiffView` adds the bar: the count ("3 changes, +12 −4 lines"), previous/next change (Alt+Up /
Alt+Down), the side-by-side/unified toggle (Alt+V, remembered in QSettings for every view), and
computes diffs of more than `ASYNC_LINES` lines in a job, showing "computing diff…" meanwhile.
"""

from __future__ import annotations

import bisect
import math
import weakref
from collections.abc import Sequence
from dataclasses import dataclass

import shiboken6
from PySide6.QtCore import QPoint, QPointF, QRectF, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QGuiApplication,
    QKeyEvent,
    QKeySequence,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QResizeEvent,
    QShortcut,
    QTextCharFormat,
    QTextLayout,
    QTextOption,
)
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from lorekeeper.diffs import (
    Cell,
    Fold,
    LineDiff,
    Row,
    aligned_diff,
    compute_diff,
    visible_rows,
    wrapped_lines,
)
from lorekeeper.ui.i18n import QT_TRANSLATE_NOOP, ensure_installed, tr_const
from lorekeeper.ui.theme import DARK, color, current_mode
from lorekeeper.ui.widgets import label, mono_font
from lorekeeper.ui.workers import run_task

__all__ = ["ASYNC_LINES", "SPLIT", "UNIFIED", "DiffCanvas", "DiffView", "aligned_diff"]

SPLIT = "split"
UNIFIED = "unified"
ASYNC_LINES = 2000  # more lines than this (both sides together): the diff is computed in a job
SETTINGS_KEY = "diff/mode"
PENDING_TEXT = QT_TRANSLATE_NOOP("diffview", "computing diff…")


def settings() -> QSettings:
    """Where the chosen view is remembered (tests point this elsewhere)."""
    return QSettings("lorekeeper", "Lorekeeper")


def saved_mode() -> str:
    value = settings().value(SETTINGS_KEY, SPLIT)
    return UNIFIED if value == UNIFIED else SPLIT


def palette() -> dict[str, QColor]:
    dark = current_mode() == DARK
    pairs = {
        "del_word": ("#f2aca5", "#8a3434"),
        "add_word": ("#9fdcae", "#2d6e40"),
        "filler": ("#f1f2f4", "#24272d"),
        "gutter": ("#f5f6f8", "#20232a"),
        "fold": ("#e8eef8", "#28303e"),
        "rule": ("#d5d9e0", "#3a3f49"),
        "mark": ("#3b6cc4", "#8ab4ff"),
        "find": ("#fff0a0", "#6b5a12"),
        "find_current": ("#ffb23e", "#b8741a"),
    }
    out = {k: QColor(d if dark else light) for k, (light, d) in pairs.items()}
    out.update(del_line=color("diff_del"), add_line=color("diff_add"), muted=color("muted"), info=color("info"))
    return out


def find_all(text: str, term: str) -> list[int]:
    """The start of every occurrence of `term` in `text`, case-insensitive, not overlapping."""
    if not term:
        return []
    hay, needle = text.casefold(), term.casefold()
    if len(hay) != len(text) or len(needle) != len(term):  # casefold changed the length (ß): exact case
        hay, needle = text, term
    out, at = [], hay.find(needle)
    while at >= 0:
        out.append(at)
        at = hay.find(needle, at + len(needle))
    return out


@dataclass(frozen=True)
class Line:
    """One line of the unified view: a removed, added or unchanged line with its numbers."""

    kind: str  # 'equal' | 'delete' | 'insert'
    old: int | None
    new: int | None
    cell: Cell
    hunk: int = -1


Item = Row | Fold | Line


def unified_items(rows: Sequence[Row | Fold]) -> list[Line | Fold]:
    """The visible rows as unified lines: each change's removed lines, then its added lines."""
    out: list[Line | Fold] = []
    dels: list[Line] = []
    adds: list[Line] = []

    def flush() -> None:
        out.extend(dels)
        out.extend(adds)
        dels.clear()
        adds.clear()

    for r in rows:
        if isinstance(r, Fold) or r.kind == "equal":
            flush()
            if isinstance(r, Fold):
                out.append(r)
            elif r.left is not None and r.right is not None:
                out.append(Line("equal", r.left.number, r.right.number, r.right))
            continue
        if dels and adds and dels[-1].hunk != r.hunk:
            flush()
        if r.left is not None:
            dels.append(Line("delete", r.left.number, None, r.left, r.hunk))
        if r.right is not None:
            adds.append(Line("insert", None, r.right.number, r.right, r.hunk))
    flush()
    return out


class DiffCanvas(QAbstractScrollArea):
    """Paints a `LineDiff` as rows (see the module docstring); wraps, never scrolls sideways."""

    PAD = 4  # horizontal padding inside a text cell
    VPAD = 1  # vertical padding of a row

    fold_clicked = Signal(int)  # the first row index of the fold

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("diff")
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)  # keyboard-first panels keep their shortcuts
        self.setFont(mono_font(9))
        self.mode = SPLIT
        self.items: list[Item] = []
        self.titles = ("", "")
        self.note = ""
        self.message = ""
        self.current_hunk = -1
        self._tops: list[float] = [0.0]  # y of each item, then the total height
        self._hunk_item: dict[int, int] = {}  # hunk -> index of its first item
        self._layouts: dict[tuple[int, int, int], QTextLayout] = {}
        self._exact: dict[int, float] = {}  # row heights measured from real layouts, at this width
        self._estimated: dict[int, float] = {}  # and estimated (the rows not painted yet)
        self._pal = palette()
        self._width = -1
        self._digits = 3
        self.find_term = ""  # Ctrl+F: every occurrence is marked, the current one more strongly
        self.find_current: tuple[int, int] | None = None  # (id of its Cell, start)
        self._option = QTextOption()
        self._option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self._metrics()
        self.verticalScrollBar().valueChanged.connect(lambda _v: self.viewport().update())

    # ------------------------------------------------------------------ content
    def set_items(self, items: list[Item], mode: str, digits: int) -> None:
        self.items, self.mode, self._digits, self.message = items, mode, max(digits, 2), ""
        self._hunk_item = {}
        for i, it in enumerate(items):
            h = -1 if isinstance(it, Fold) else it.hunk
            if h >= 0 and h not in self._hunk_item:
                self._hunk_item[h] = i
        self._relayout(force=True)

    def set_message(self, text: str) -> None:
        self.items, self.message, self.current_hunk = [], text, -1
        self._hunk_item = {}
        self._relayout(force=True)

    def set_titles(self, left: str, right: str) -> None:
        self.titles = (left, right)
        self._relayout(force=True)

    def set_find(self, term: str, current: tuple[int, int] | None) -> None:
        """Mark the occurrences of `term` (case-insensitive) and the current one."""
        self.find_term, self.find_current = term, current
        self._layouts.clear()
        self.viewport().update()

    def set_note(self, text: str) -> None:
        """A line said at the right end of the title row (the count, where a panel has no room)."""
        self.note = text
        self.viewport().update()

    # ------------------------------------------------------------------ geometry
    def _metrics(self) -> None:
        fm = QFontMetricsF(self.font())
        self.line_h = fm.lineSpacing()
        self.char_w = fm.horizontalAdvance("M")
        self.header_h = self.line_h + 8 if any(self.titles) else 0.0

    def gutter_w(self) -> float:
        return self.char_w * self._digits + 10

    def columns(self) -> list[tuple[float, float]]:
        """(x, width) of each text column: two halves side by side, one column unified."""
        w = float(self.viewport().width())
        g = self.gutter_w()
        if self.mode == UNIFIED:
            x = 2 * g + self.char_w * 2
            return [(x, max(w - x, 20.0))]
        half = w / 2
        return [(g, max(half - g, 20.0)), (half + g, max(w - half - g, 20.0))]

    def _cells(self, item: Item) -> list[Cell | None]:
        if isinstance(item, Row):
            return [item.left, item.right] if self.mode == SPLIT else [item.right or item.left]
        if isinstance(item, Line):
            return [item.cell]
        return []

    def _text_height(self, text: str, width: float) -> float:
        """The height of a cell's text: exact for a line that fits, an estimate for a long one
        (corrected when the row is painted, see `_exact_height`)."""
        inner = width - 2 * self.PAD
        if not text or (text.isascii() and "\t" not in text and len(text) * self.char_w <= inner):
            return self.line_h
        columns = max(int(inner // self.char_w), 1)
        if len(text) > 4 * columns:  # a paragraph: proportional (word wrap wastes some 5% of a line)
            return self.line_h * math.ceil(len(text) / (columns * 0.95))
        return self.line_h * wrapped_lines(text, columns)

    def _row_height(self, i: int, it: Item, cols: list[tuple[float, float]]) -> float:
        if isinstance(it, Fold):
            return self.line_h + 6
        known = self._exact.get(i) or self._estimated.get(i)
        if known is not None:
            return known
        h = self.line_h
        for c, cell in enumerate(self._cells(it)):
            if cell is not None:
                h = max(h, self._text_height(cell.text, cols[c][1]))
        h = self._estimated[i] = h + 2 * self.VPAD
        return h

    def _exact_height(self, i: int, cols: list[tuple[float, float]]) -> float:
        """The row's height from its real text layouts (what painting uses), remembered."""
        it = self.items[i]
        if isinstance(it, Fold):
            return self.line_h + 6
        exact = self._exact.get(i)
        if exact is None:
            h = self.line_h
            for c, cell in enumerate(self._cells(it)):
                if cell is not None:
                    lay = self._layout((i, c, self._width), cell.text, cols[c][1] - 2 * self.PAD)
                    h = max(h, lay.boundingRect().height())
            exact = self._exact[i] = h + 2 * self.VPAD
        return exact

    def _relayout(self, force: bool = False) -> None:
        width = self.viewport().width()
        if not force and width == self._width:
            return
        self._width = width
        self._layouts.clear()
        self._exact.clear()
        self._estimated.clear()
        self._pal = palette()
        self._metrics()
        self._retop(0)

    def _retop(self, start: int) -> None:
        """Recompute the rows' tops from item `start` on, and the scroll range."""
        cols = self.columns()
        tops = self._tops[: start + 1] if start > 0 else [self.header_h]
        y = tops[-1]
        for i in range(start, len(self.items)):
            y += self._row_height(i, self.items[i], cols)
            tops.append(y)
        self._tops = tops
        bar = self.verticalScrollBar()
        page = self.viewport().height()
        bar.setPageStep(page)
        bar.setSingleStep(int(self.line_h * 3))
        bar.setRange(0, max(int(y - page + self.line_h), 0) if self.items else 0)
        self.viewport().update()

    def _layout(self, key: tuple[int, int, int], text: str, width: float) -> QTextLayout:
        lay = self._layouts.get(key)
        if lay is not None:
            return lay
        lay = QTextLayout(text, self.font())
        lay.setTextOption(self._option)
        i, c, _w = key
        spans = self._spans(self.items[i], c)
        if self.find_term:
            cells = self._cells(self.items[i])
            cell = cells[c] if c < len(cells) else None
            if cell is not None:
                for start in find_all(cell.text, self.find_term):
                    current = self.find_current == (id(cell), start)
                    spans.append((start, start + len(self.find_term), self._pal["find_current" if current else "find"]))
        if spans:
            ranges = []
            for start, end, col in spans:
                fr = QTextLayout.FormatRange()
                fr.start, fr.length = start, end - start
                fmt = QTextCharFormat()
                fmt.setBackground(col)
                fr.format = fmt
                ranges.append(fr)
            lay.setFormats(ranges)
        lay.beginLayout()
        y = 0.0
        while True:
            line = lay.createLine()
            if not line.isValid():
                break
            line.setLineWidth(width)
            line.setPosition(QPointF(0, y))
            y += line.height()
        lay.endLayout()
        self._layouts[key] = lay
        return lay

    def _spans(self, item: Item, column: int) -> list[tuple[int, int, QColor]]:
        """The changed words of one cell, with the colour they are painted in."""
        pal = self._pal
        if isinstance(item, Row):
            if self.mode == SPLIT:
                cell, col = (item.left, pal["del_word"]) if column == 0 else (item.right, pal["add_word"])
            else:
                cell, col = item.right or item.left, pal["add_word"]
        elif isinstance(item, Line):
            cell, col = item.cell, pal["del_word"] if item.kind == "delete" else pal["add_word"]
        else:
            return []
        return [(s, e, col) for s, e in cell.spans] if cell is not None else []

    def highlighted_words(self, index: int, column: int) -> list[str]:
        """The texts painted with a word highlight in one cell (what a reader sees marked)."""
        it = self.items[index]
        cells = self._cells(it)
        cell = cells[column] if column < len(cells) else None
        if cell is None:
            return []
        lay = self._layout((index, column, self._width), cell.text, self.columns()[column][1] - 2 * self.PAD)
        return [cell.text[f.start : f.start + f.length] for f in lay.formats()]

    def item_top(self, index: int) -> float:
        return self._tops[index]

    def item_at(self, y: float) -> int:
        """The index of the item at viewport y (-1 above the first or below the last)."""
        doc_y = y + self.verticalScrollBar().value()
        i = bisect.bisect_right(self._tops, doc_y) - 1
        return i if 0 <= i < len(self.items) else -1

    def top_item(self) -> int:
        return self.item_at(self.header_h + 1)

    def scroll_to_item(self, index: int, above: int = 2) -> None:
        """Put item `index` near the top, `above` rows of context over it (at most a quarter of
        the view: wrapped paragraphs of context must not push the change out of a short view)."""
        y = self._tops[index]
        context = min(y - self._tops[max(index - above, 0)], max(self.viewport().height() - self.header_h, 0) / 4)
        self.verticalScrollBar().setValue(int(y - context - self.header_h))

    def hunk_items(self) -> dict[int, int]:
        return dict(self._hunk_item)

    # ------------------------------------------------------------------ events
    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        top = self.top_item()
        self._relayout()
        if top > 0:
            self.verticalScrollBar().setValue(int(self._tops[top] - self.header_h))

    def mousePressEvent(self, event: QMouseEvent) -> None:
        i = self.item_at(event.position().y())
        if i >= 0 and isinstance(self.items[i], Fold) and event.button() == Qt.MouseButton.LeftButton:
            fold = self.items[i]
            assert isinstance(fold, Fold)
            self.fold_clicked.emit(fold.first)
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        i = self.item_at(event.position().y())
        over = i >= 0 and isinstance(self.items[i], Fold)
        self.viewport().setCursor(Qt.CursorShape.PointingHandCursor if over else Qt.CursorShape.ArrowCursor)
        super().mouseMoveEvent(event)

    def paintEvent(self, event: QPaintEvent) -> None:
        pal = palette()
        if pal["del_word"] != self._pal["del_word"]:  # the theme changed: the word colours too
            self._layouts.clear()
        self._pal = pal
        self._measure_visible()
        p = QPainter(self.viewport())
        base = self.palette().base().color()
        text_col = self.palette().text().color()
        w = float(self.viewport().width())
        h = float(self.viewport().height())
        p.fillRect(QRectF(0, 0, w, h), base)
        if self.message and not self.items:
            p.setPen(pal["muted"])
            p.drawText(QRectF(0, self.header_h, w, h - self.header_h), Qt.AlignmentFlag.AlignCenter, self.message)
        offset = self.verticalScrollBar().value()
        cols = self.columns()
        g = self.gutter_w()
        first = max(bisect.bisect_right(self._tops, offset + self.header_h) - 1, 0)
        for i in range(first, len(self.items)):
            top = self._tops[i] - offset
            if top > h:
                break
            bottom = self._tops[i + 1] - offset
            self._paint_item(p, i, QRectF(0, top, w, bottom - top), cols, g, pal, base, text_col)
        if self.header_h:
            self._paint_header(p, w, pal, base)
        p.end()

    def _measure_visible(self) -> None:
        """Replace the estimated heights of the rows on screen by their real ones (and move the
        rows below if one differs) before painting them."""
        cols = self.columns()
        offset = self.verticalScrollBar().value()
        bottom = offset + self.viewport().height()
        i = max(bisect.bisect_right(self._tops, offset + self.header_h) - 1, 0)
        changed = -1
        while i < len(self.items) and self._tops[i] <= bottom:
            h = self._exact_height(i, cols)
            if abs((self._tops[i + 1] - self._tops[i]) - h) > 0.5 and changed < 0:
                changed = i
            if changed >= 0:
                self._tops[i + 1] = self._tops[i] + h
            i += 1
        if changed >= 0:
            self._retop(i)

    def _paint_header(self, p: QPainter, w: float, pal: dict[str, QColor], base: QColor) -> None:
        p.fillRect(QRectF(0, 0, w, self.header_h), pal["gutter"])
        p.setPen(pal["rule"])
        p.drawLine(QPointF(0, self.header_h - 0.5), QPointF(w, self.header_h - 0.5))
        font = QFont(self.font())
        font.setBold(True)
        p.setFont(font)
        p.setPen(self.palette().text().color())
        left, right = self.titles
        fm = p.fontMetrics()
        if self.mode == UNIFIED:
            text = " \u2192 ".join(t for t in (left, right) if t)
            spans = [(6.0, w - 12, text)]
        else:
            spans = [(6.0, w / 2 - 12, left), (w / 2 + 6, w / 2 - 12, right)]
        end = 0.0
        for x, width, t in spans:
            elided = fm.elidedText(t, Qt.TextElideMode.ElideRight, int(width))
            p.drawText(QRectF(x, 0, width, self.header_h), Qt.AlignmentFlag.AlignVCenter, elided)
            end = x + fm.horizontalAdvance(elided)
        if self.note:  # right-aligned after the last title, elided if it would reach it
            p.setFont(QGuiApplication.font())  # proportional: narrower than the text's font
            p.setPen(pal["muted"])
            room = int(max(w - 6 - (end + 12), 0))
            nfm = p.fontMetrics()
            short = self.note.removesuffix(" lines")  # "1 change, +1 −0" where the room is short
            note = self.note if nfm.horizontalAdvance(self.note) <= room else short
            note = nfm.elidedText(note, Qt.TextElideMode.ElideRight, room)
            right_edge = QRectF(0, 0, w - 6, self.header_h)
            p.drawText(right_edge, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight, note)
        p.setFont(self.font())

    def _paint_item(
        self,
        p: QPainter,
        i: int,
        rect: QRectF,
        cols: list[tuple[float, float]],
        g: float,
        pal: dict[str, QColor],
        base: QColor,
        text_col: QColor,
    ) -> None:
        it = self.items[i]
        if isinstance(it, Fold):
            p.fillRect(rect, pal["fold"])
            p.setPen(pal["info"])
            n = it.count
            p.drawText(
                rect.adjusted(g, 0, 0, 0),
                Qt.AlignmentFlag.AlignVCenter,
                self.tr("… %n unchanged line(s) (click to show)", "", n),
            )
            return
        if isinstance(it, Row) and self.mode == SPLIT:
            cells: list[tuple[Cell | None, QColor, float, float]] = [
                (it.left, pal["del_line"] if it.kind != "equal" else base, 0.0, cols[0][0] + cols[0][1]),
                (it.right, pal["add_line"] if it.kind != "equal" else base, cols[1][0] - g, cols[1][1] + g),
            ]
            for c, (cell, bg, x, width) in enumerate(cells):
                if cell is None:
                    p.fillRect(QRectF(x, rect.top(), width, rect.height()), pal["filler"])
                    continue
                p.fillRect(QRectF(x, rect.top(), width, rect.height()), bg)
                p.fillRect(QRectF(x, rect.top(), g, rect.height()), bg if it.kind != "equal" else pal["gutter"])
                self._paint_number(p, cell.number, x, g, rect.top())
                self._paint_text(p, i, c, cell, cols[c], rect.top(), text_col)
            p.setPen(pal["rule"])  # the line between the halves (not across a fold)
            p.drawLine(QPointF(cols[1][0] - g, rect.top()), QPointF(cols[1][0] - g, rect.bottom()))
        else:
            kind = it.kind if isinstance(it, Line) else "equal"
            bg = {"delete": pal["del_line"], "insert": pal["add_line"]}.get(kind, base)
            p.fillRect(rect, bg)
            if kind == "equal":
                p.fillRect(QRectF(0, rect.top(), 2 * g, rect.height()), pal["gutter"])
            old = it.old if isinstance(it, Line) else None
            new = it.new if isinstance(it, Line) else None
            self._paint_number(p, old, 0, g, rect.top())
            self._paint_number(p, new, g, g, rect.top())
            p.setPen(pal["muted"])
            sign = {"delete": "\u2212", "insert": "+"}.get(kind, " ")
            p.drawText(QRectF(2 * g + 2, rect.top() + self.VPAD, self.char_w * 2, self.line_h), sign)
            cell = it.cell if isinstance(it, Line) else None
            if cell is not None:
                self._paint_text(p, i, 0, cell, cols[0], rect.top(), text_col)
        hunk = -1 if isinstance(it, Fold) else it.hunk
        if hunk >= 0 and hunk == self.current_hunk:
            p.fillRect(QRectF(0, rect.top(), 3, rect.height()), pal["mark"])

    def _paint_number(self, p: QPainter, number: int | None, x: float, g: float, top: float) -> None:
        if number is None:
            return
        p.setPen(self._pal["muted"])
        p.drawText(
            QRectF(x, top + self.VPAD, g - 6, self.line_h),
            Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
            str(number),
        )

    def _paint_text(
        self, p: QPainter, i: int, c: int, cell: Cell, col: tuple[float, float], top: float, text_col: QColor
    ) -> None:
        x, width = col
        p.setPen(text_col)
        lay = self._layout((i, c, self._width), cell.text, width - 2 * self.PAD)
        lay.draw(p, QPointF(x + self.PAD, top + self.VPAD))


class _FindEdit(QLineEdit):
    """The search field: Shift+Enter goes back, Esc closes (Enter is `returnPressed`)."""

    back = Signal()
    closed = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            self.back.emit()
            return
        if key == Qt.Key.Key_Escape:
            self.closed.emit()
            return
        super().keyPressEvent(event)


_views: weakref.WeakSet[DiffView] = weakref.WeakSet()


class DiffView(QWidget):
    """A diff with its bar: count, previous/next change, side-by-side/unified toggle."""

    ready = Signal(object)  # the LineDiff, once it is on screen

    def summary_text(self, diff: LineDiff) -> str:
        """`diff.summary` in the app's language: "3 changes, +12 −4 lines" / "3 modifications, …"."""
        if not diff.hunks:
            return self.tr("No difference.")
        return self.tr("%n change(s)", "", len(diff.hunks)) + self.tr(", +{added} \u2212{removed} lines").format(
            added=diff.added, removed=diff.removed
        )

    def __init__(self, left_title: str = "", right_title: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        ensure_installed()  # the plural forms of its summary line
        self.diff: LineDiff | None = None
        self.expanded: set[int] = set()
        self.pending = False
        self._serial = 0
        self._shortcuts: list[QShortcut] = []
        self.canvas = DiffCanvas(self)
        self.canvas.set_titles(left_title, right_title)
        self.canvas.fold_clicked.connect(self.expand)
        self.canvas.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.canvas.customContextMenuRequested.connect(self._menu)
        self.summary: QLabel = label("", "hintText")
        self.prev_button = self._tool("\u25b2", self.tr("Previous change (Alt+Up)"), self.previous_change)
        self.next_button = self._tool("\u25bc", self.tr("Next change (Alt+Down)"), self.next_change)
        self.mode_button = self._tool(
            "", self.tr("Switch between split (side by side) and unified (Alt+V)"), self.toggle_mode
        )
        self.window_button = self._tool("\u2922", self.tr("Open this diff in a window of its own"), self.open_window)
        self.popout: QDialog | None = None
        # the bar is a widget of its own: a panel short of height may put it in one of its rows
        self.bar = QWidget(self)
        bar = QHBoxLayout(self.bar)
        bar.setContentsMargins(0, 0, 0, 0)
        bar.setSpacing(2)
        bar.addWidget(self.summary, 1)
        for b in (self.prev_button, self.next_button, self.mode_button, self.window_button):
            bar.addWidget(b)
        # Ctrl+F: search inside the diff (both sides, folded lines too), Enter / Shift+Enter or
        # F3 / Shift+F3 next / previous, Esc closes; "3 of 12" says where the reader is
        self.matches: list[tuple[int, int, int]] = []  # (row index in the diff, id of its Cell, start)
        self.match_index = -1
        self.find_bar = QWidget(self)
        self.find_bar.setObjectName("diffFindBar")
        fb = QHBoxLayout(self.find_bar)
        fb.setContentsMargins(0, 0, 0, 0)
        fb.setSpacing(2)
        self.find_edit = _FindEdit(self.find_bar)
        self.find_edit.setObjectName("diffFindEdit")
        self.find_edit.setPlaceholderText(self.tr("Find in the diff (Enter: next, Shift+Enter: previous, Esc: close)"))
        self.find_edit.textChanged.connect(self._find_changed)
        self.find_edit.returnPressed.connect(self.find_next)
        self.find_edit.back.connect(self.find_previous)
        self.find_edit.closed.connect(self.close_find)
        self.find_count = label("", "hintText")
        self.find_prev_button = self._tool(
            "\u2191", self.tr("Previous match (Shift+Enter, Shift+F3)"), self.find_previous
        )
        self.find_next_button = self._tool("\u2193", self.tr("Next match (Enter, F3)"), self.find_next)
        self.find_close_button = self._tool("\u2715", self.tr("Close the search (Esc)"), self.close_find)
        fb.addWidget(self.find_edit, 1)
        fb.addWidget(self.find_count)
        for b in (self.find_prev_button, self.find_next_button, self.find_close_button):
            fb.addWidget(b)
        self.find_bar.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.bar)
        layout.addWidget(self.find_bar)
        layout.addWidget(self.canvas, 1)
        self.mode = saved_mode()
        self._update_bar()
        self.install_shortcuts(self)
        _views.add(self)

    def _tool(self, text: str, tip: str, slot: object) -> QToolButton:
        b = QToolButton(self)
        b.setText(text)
        b.setToolTip(tip)
        b.setAutoRaise(True)
        b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        b.clicked.connect(slot)
        return b

    def install_shortcuts(self, host: QWidget) -> None:
        """Alt+Down / Alt+Up (next/previous change) and Alt+V (toggle the view) while the focus is
        in `host` (a panel puts them on itself: its focus is on its list, not on the diff); they
        move from wherever they were (two hosts of the same keys would make them ambiguous)."""
        for old in self._shortcuts:
            old.setEnabled(False)
            old.deleteLater()
        self._shortcuts = []
        for keys, text, slot in (
            ("Alt+Down", self.tr("Next change in the diff"), self.next_change),
            ("Alt+Up", self.tr("Previous change in the diff"), self.previous_change),
            ("Alt+V", self.tr("Diff: side by side / unified"), self.toggle_mode),
            ("F3", self.tr("Next match in the diff"), self.find_next),
            ("Shift+F3", self.tr("Previous match in the diff"), self.find_previous),
        ):
            sc = QShortcut(QKeySequence(keys), host)
            sc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            sc.setWhatsThis(text)
            sc.activated.connect(slot)
            self._shortcuts.append(sc)

    # ------------------------------------------------------------------ feeding
    def set_titles(self, left: str, right: str) -> None:
        self.canvas.set_titles(left, right)

    def show_diff(self, a: str, b: str) -> None:
        """Show `a` (left, old) against `b` (right, new): at once for small texts, from a job
        ("computing diff…" meanwhile) for big ones; `ready` is emitted once it is on screen."""
        self._serial += 1
        serial = self._serial
        self.expanded = set()
        if a.count("\n") + b.count("\n") <= ASYNC_LINES:
            self._show(compute_diff(a, b), serial)
            return
        self.pending = True
        self.diff = None
        self.summary.setText(tr_const("diffview", PENDING_TEXT))
        self.canvas.set_message(tr_const("diffview", PENDING_TEXT))
        self._update_bar()
        run_task(
            compute_diff,
            a,
            b,
            name=self.tr("Computing diff"),
            key=(id(self), "diff"),
            visible=False,
            on_result=lambda d: self._show(d, serial),
        )

    def show_computed(self, diff: LineDiff) -> None:
        """Show a diff already computed (another view's)."""
        self._serial += 1
        self.expanded = set()
        self._show(diff, self._serial)

    def open_window(self) -> None:
        """The same diff in a resizable window (a laptop-sized panel leaves the diff little room)."""
        if self.diff is None:
            return
        if self.popout is not None:
            self.popout.close()
        dlg = self.popout = QDialog(self.window())
        left, right = self.canvas.titles
        dlg.setWindowTitle(" \u2192 ".join(t for t in (left, right) if t) or self.tr("Diff"))
        view = DiffView(left, right, dlg)
        QVBoxLayout(dlg).addWidget(view)
        QShortcut(QKeySequence("Ctrl+F"), dlg).activated.connect(view.open_find)  # its own window
        view.show_computed(self.diff)
        size = self.window().size()
        dlg.resize(int(size.width() * 0.9), int(size.height() * 0.9))
        dlg.show()

    def _show(self, diff: LineDiff, serial: int) -> None:
        if serial != self._serial:
            return
        self.pending = False
        self.diff = diff
        self.canvas.current_hunk = -1
        self.summary.setText(self.summary_text(diff))
        self._render()
        self._find_changed(keep=False, move=False)  # a new text: its matches, counted, not scrolled to
        self.scroll_to_first_change()
        QTimer.singleShot(0, self, self.scroll_to_first_change)  # again once the view has its size
        self.ready.emit(diff)

    def _render(self) -> None:
        diff = self.diff
        if diff is None:
            self._update_bar()
            return
        rows = visible_rows(diff, self.expanded)
        items: list[Item] = list(rows) if self.mode == SPLIT else list(unified_items(rows))
        digits = len(str(max(diff.left_lines, diff.right_lines, 1)))
        self.canvas.set_items(items, self.mode, digits)
        self._update_bar()

    def clear(self) -> None:
        self._serial += 1
        self.pending = False
        self.diff = None
        self.summary.setText("")
        self.canvas.set_message("")
        self._find_changed(keep=False)
        self._update_bar()

    # ------------------------------------------------------------------ find (Ctrl+F)
    def find_term(self) -> str:
        return self.find_edit.text() if self.find_bar.isVisible() else ""

    def open_find(self) -> None:
        """Show the search bar and put the keyboard in it (the selected text, if any, stays)."""
        self.find_bar.show()
        self.find_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.find_edit.selectAll()
        self._find_changed(keep=True)

    def close_find(self) -> None:
        was = self.find_bar.isVisible()
        self.find_bar.hide()
        self.matches, self.match_index = [], -1
        self.canvas.set_find("", None)
        if was:
            host = self.parentWidget()
            while host is not None and not hasattr(host, "queue") and host.parentWidget() is not None:
                host = host.parentWidget()
            queue = getattr(host, "queue", None)  # a review panel: the keyboard goes back to its list
            (queue.table if queue is not None else self.canvas).setFocus(Qt.FocusReason.OtherFocusReason)

    def _all_items(self) -> list[Item]:
        """Every item of the current view with every fold open (what a search walks through)."""
        rows = self.diff.rows if self.diff else ()
        return list(rows) if self.mode == SPLIT else list(unified_items(rows))

    def _find_changed(self, *_args: object, keep: bool = False, move: bool = True) -> None:
        term = self.find_term()
        old = self.matches[self.match_index] if 0 <= self.match_index < len(self.matches) else None
        self.matches = []
        if term and self.diff is not None:
            row_of = {id(c): r for r, row in enumerate(self.diff.rows) for c in (row.left, row.right) if c is not None}
            for it in self._all_items():
                for cell in self.canvas._cells(it):
                    if cell is not None:
                        r = row_of.get(id(cell), 0)
                        self.matches.extend((r, id(cell), start) for start in find_all(cell.text, term))
        self.match_index = -1
        if self.matches:
            self.match_index = 0
            if keep and old is not None:
                self.match_index = next((i for i, m in enumerate(self.matches) if m[1:] == old[1:]), 0)
        self._show_match(scroll=move)

    def find_next(self) -> None:
        self._step_match(1)

    def find_previous(self) -> None:
        self._step_match(-1)

    def _step_match(self, step: int) -> None:
        if not self.find_bar.isVisible():
            self.open_find()
            return
        if not self.matches:
            return
        self.match_index = (self.match_index + step) % len(self.matches)  # wraps, as a browser's does
        self._show_match()

    def _show_match(self, scroll: bool = True) -> None:
        n = len(self.matches)
        term = self.find_term()
        if not term:
            self.find_count.setText("")
        elif not n:
            self.find_count.setText(self.tr("no match"))
        else:
            self.find_count.setText(self.tr("{0} of {1}").format(self.match_index + 1, n))
        self.find_prev_button.setEnabled(n > 1)
        self.find_next_button.setEnabled(n > 1)
        if not n or self.diff is None:
            self.canvas.set_find(term, None)
            return
        row, cell_id, start = self.matches[self.match_index]
        self.canvas.set_find(term, (cell_id, start))
        if not scroll:
            return
        hidden = next(
            (f for f in visible_rows(self.diff, self.expanded) if isinstance(f, Fold) and f.first <= row < f.end),
            None,
        )
        if hidden is not None:  # the match is in folded unchanged lines: open them
            self.expanded.add(hidden.first)
            self._render()
            self.canvas.set_find(term, (cell_id, start))
        index = next(
            (
                i
                for i, it in enumerate(self.canvas.items)
                if any(c is not None and id(c) == cell_id for c in self.canvas._cells(it))
            ),
            -1,
        )
        if index >= 0:
            self.canvas.scroll_to_item(index)

    def current_match(self) -> tuple[int, str] | None:
        """(row index in the diff, the text of its line) of the current match, or None."""
        if not (0 <= self.match_index < len(self.matches)) or self.diff is None:
            return None
        row = self.matches[self.match_index][0]
        r = self.diff.rows[row]
        cell = next(c for c in (r.left, r.right) if c is not None and id(c) == self.matches[self.match_index][1])
        return row, cell.text

    # ------------------------------------------------------------------ reading
    def left_text(self) -> str:
        return self.diff.left_text() if self.diff else ""

    def right_text(self) -> str:
        return self.diff.right_text() if self.diff else ""

    @property
    def stats(self) -> dict[str, int]:
        d = self.diff
        return {"changes": len(d.hunks), "add": d.added, "del": d.removed} if d else {"changes": 0, "add": 0, "del": 0}

    # ------------------------------------------------------------------ actions
    def set_mode(self, mode: str, remember: bool = True) -> None:
        mode = UNIFIED if mode == UNIFIED else SPLIT
        if remember:
            settings().setValue(SETTINGS_KEY, mode)
            for view in list(_views):
                if not shiboken6.isValid(view):  # its window is gone, its wrapper not yet
                    _views.discard(view)
                elif view is not self and view.mode != mode:
                    view.set_mode(mode, remember=False)
        if mode == self.mode:
            return
        top = self.canvas.top_item()
        anchor = self._row_of_item(top)
        self.mode = mode
        self._render()
        if anchor is not None:
            self.canvas.scroll_to_item(self._item_of_row(anchor), above=0)
        if self.find_term():
            self._find_changed(keep=True, move=False)  # the unified view lists the sides in another order

    def toggle_mode(self) -> None:
        self.set_mode(UNIFIED if self.mode == SPLIT else SPLIT)

    def _row_of_item(self, index: int) -> Row | Fold | Cell | None:
        if index < 0 or index >= len(self.canvas.items):
            return None
        it = self.canvas.items[index]
        return it.cell if isinstance(it, Line) else it

    def _item_of_row(self, anchor: Row | Fold | Cell) -> int:
        for i, it in enumerate(self.canvas.items):
            if it is anchor or (isinstance(it, Fold) and it == anchor) or (isinstance(it, Line) and it.cell is anchor):
                return i
            if isinstance(it, Row) and isinstance(anchor, Cell) and anchor in (it.left, it.right):
                return i
            if isinstance(anchor, Row) and isinstance(it, Line) and it.cell in (anchor.left, anchor.right):
                return i
        return 0

    def expand(self, first: int) -> None:
        """Show the unchanged lines of the fold starting at row `first`."""
        top = self.canvas.verticalScrollBar().value()
        self.expanded.add(first)
        self._render()
        self.canvas.verticalScrollBar().setValue(top)

    def expand_all(self) -> None:
        diff = self.diff
        if diff is None:
            return
        top = self.canvas.verticalScrollBar().value()
        self.expanded.update(f.first for f in visible_rows(diff, self.expanded) if isinstance(f, Fold))
        self._render()
        self.canvas.verticalScrollBar().setValue(top)

    def _go(self, hunk: int) -> None:
        items = self.canvas.hunk_items()
        if hunk not in items:
            return
        self.canvas.current_hunk = hunk
        self.canvas.scroll_to_item(items[hunk])
        self.canvas.viewport().update()
        self._update_bar()

    def next_change(self) -> None:
        if self.diff and self.canvas.current_hunk + 1 < len(self.diff.hunks):
            self._go(self.canvas.current_hunk + 1)

    def previous_change(self) -> None:
        if self.diff and self.canvas.current_hunk > 0:
            self._go(self.canvas.current_hunk - 1)

    def scroll_to_first_change(self) -> None:
        if self.diff and self.diff.hunks:
            self._go(0)
        else:
            self.canvas.verticalScrollBar().setValue(0)

    def _update_bar(self) -> None:
        n = len(self.diff.hunks) if self.diff else 0
        cur = self.canvas.current_hunk
        self.prev_button.setEnabled(n > 0 and cur > 0)
        self.next_button.setEnabled(n > 0 and cur + 1 < n)
        self.mode_button.setText(self.tr("Unified") if self.mode == SPLIT else self.tr("Split"))  # GitHub's names
        self.window_button.setEnabled(self.diff is not None)
        if self.diff is not None and n > 1 and cur >= 0:
            self.summary.setText(
                self.tr("{summary} · change {0} of {n}").format(cur + 1, summary=self.summary_text(self.diff), n=n)
            )
        elif self.diff is not None:
            self.summary.setText(self.summary_text(self.diff))

    def _menu(self, pos: QPoint) -> None:
        menu = QMenu(self)
        menu.addAction(self.tr("Show all unchanged lines"), self.expand_all)
        menu.addAction(
            self.tr("Split (side by side)") if self.mode == UNIFIED else self.tr("Unified"), self.toggle_mode
        )
        menu.addSeparator()
        clip = QGuiApplication.clipboard()
        menu.addAction(self.tr("Copy the old text (left)"), lambda: clip.setText(self.left_text()))
        menu.addAction(self.tr("Copy the new text (right)"), lambda: clip.setText(self.right_text()))
        menu.exec(self.canvas.mapToGlobal(pos))
