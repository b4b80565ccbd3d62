"""The side-by-side diff every panel shows (skill versions, proposals): line N of one side faces
line N of the other (blank filler lines), changed lines are tinted, both sides scroll together."""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor, QTextFormat
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QSplitter, QTextEdit, QVBoxLayout, QWidget

from lorekeeper.ui.theme import color
from lorekeeper.ui.widgets import label, mono_font

Marks = dict[int, str]  # line number -> 'del' | 'add' | 'chg'


def aligned_diff(a: str, b: str) -> tuple[str, str, Marks, Marks, dict[str, int]]:
    """Side-by-side texts with blank filler lines, so line N of one side faces line N of the other;
    the changed lines of each side ({line: 'del'|'add'|'chg'}) and the counts of each kind."""
    al, bl = a.splitlines(), b.splitlines()
    left: list[str] = []
    right: list[str] = []
    marks_l: Marks = {}
    marks_r: Marks = {}
    stats = {"chg": 0, "add": 0, "del": 0}
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=al, b=bl, autojunk=False).get_opcodes():
        if tag == "equal":
            left.extend(al[i1:i2])
            right.extend(bl[j1:j2])
            continue
        kind_l = {"replace": "chg", "delete": "del"}.get(tag)
        kind_r = {"replace": "chg", "insert": "add"}.get(tag)
        n = max(i2 - i1, j2 - j1)
        for k in range(n):
            if i1 + k < i2:
                marks_l[len(left)] = kind_l or "del"
                left.append(al[i1 + k])
            else:
                left.append("")
            if j1 + k < j2:
                marks_r[len(right)] = kind_r or "add"
                right.append(bl[j1 + k])
            else:
                right.append("")
        if tag == "replace":
            stats["chg"] += j2 - j1
        elif tag == "insert":
            stats["add"] += j2 - j1
        else:
            stats["del"] += i2 - i1
    return "\n".join(left) + "\n", "\n".join(right) + "\n", marks_l, marks_r, stats


def stats_text(stats: dict[str, int]) -> str:
    return f"{stats['chg']} changed, {stats['add']} added, {stats['del']} removed lines"


def highlight_lines(edit: QPlainTextEdit, lines: Marks) -> None:
    """Tint whole lines of a text view by kind of change."""
    selections = []
    doc = edit.document()
    colours = {"del": color("diff_del"), "add": color("diff_add"), "chg": color("diff_chg")}
    for number, kind in sorted(lines.items()):
        block = doc.findBlockByNumber(number)
        if not block.isValid():
            continue
        sel = QTextEdit.ExtraSelection()
        fmt = QTextCharFormat()
        fmt.setBackground(QColor(colours[kind]))
        fmt.setProperty(QTextFormat.Property.FullWidthSelection, True)
        sel.format = fmt
        sel.cursor = QTextCursor(block)
        selections.append(sel)
    edit.setExtraSelections(selections)


def diff_view() -> QPlainTextEdit:
    view = QPlainTextEdit()
    view.setReadOnly(True)
    view.setObjectName("diff")
    view.setFont(mono_font(9))
    view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
    view.setFocusPolicy(Qt.FocusPolicy.ClickFocus)  # keyboard-first panels keep their shortcuts
    return view


class SideBySideDiff(QSplitter):
    """Two titled, read-only views of an aligned diff that scroll together."""

    def __init__(self, left_title: str = "", right_title: str = "", parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.left = diff_view()
        self.right = diff_view()
        self.left.verticalScrollBar().valueChanged.connect(self.right.verticalScrollBar().setValue)
        self.right.verticalScrollBar().valueChanged.connect(self.left.verticalScrollBar().setValue)
        self.left_title: QLabel = label(left_title, "sectionTitle")
        self.right_title: QLabel = label(right_title, "sectionTitle")
        for title, view in ((self.left_title, self.left), (self.right_title, self.right)):
            column = QWidget()
            col = QVBoxLayout(column)
            col.setContentsMargins(0, 0, 0, 0)
            col.addWidget(title)
            col.addWidget(view)
            title.setVisible(bool(title.text()))
            self.addWidget(column)
        self.first_change = 0
        self.stats = {"chg": 0, "add": 0, "del": 0}

    def set_titles(self, left: str, right: str) -> None:
        for title, text in ((self.left_title, left), (self.right_title, right)):
            title.setText(text)
            title.setVisible(bool(text))

    def show_diff(self, a: str, b: str) -> dict[str, int]:
        """Show a against b; returns the counts of changed, added and removed lines."""
        for _ in self.show_diff_steps(a, b):
            pass
        return self.stats

    def show_diff_steps(self, a: str, b: str) -> Iterator[None]:
        """`show_diff` in pieces (a generator for `in_turns`): the diff, then each side's text and
        tints, so that a big diff does not hold the GUI thread in one event-loop turn."""
        left_text, right_text, left, right, self.stats = aligned_diff(a, b)
        self.first_change = max(min(list(left) + list(right), default=0) - 3, 0)
        yield
        self.left.setPlainText(left_text)
        highlight_lines(self.left, left)
        yield
        self.right.setPlainText(right_text)
        highlight_lines(self.right, right)

    def clear(self) -> None:
        self.left.setPlainText("")
        self.right.setPlainText("")
        self.first_change = 0

    def scroll_to_first_change(self) -> None:
        self.right.verticalScrollBar().setValue(self.first_change)  # the other side follows
