"""The diff viewer (ui/diffview.py over lorekeeper/diffs.py): word highlights, the two views and
their remembered toggle, one scroll for both sides, change navigation, wrap, folds, big diffs in a
job. Each test shows a standalone DiffView at a laptop-sized width."""

from __future__ import annotations

import threading

import pytest
import shiboken6
from PySide6.QtCore import QPoint, QPointF, QSettings, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication

from lorekeeper import diffs
from lorekeeper.diffs import Fold, Row
from lorekeeper.ui import diffview
from lorekeeper.ui.diffview import PENDING_TEXT, SPLIT, UNIFIED, DiffView, Line

PARAGRAPH = (
    "When you review a pull request, read the description first, then the tests, and only then the "
    "code; the quick reader who starts with the code misses what the change was meant to do, and "
    "ends up reviewing the style of the diff instead of its behaviour. "
) * 8  # one markdown paragraph: a single line of some 1,600 characters


@pytest.fixture(autouse=True)
def remembered(tmp_path, monkeypatch):
    """The view choice goes to a settings file of the test's own."""
    path = str(tmp_path / "diff.ini")
    monkeypatch.setattr(diffview, "settings", lambda: QSettings(path, QSettings.Format.IniFormat))
    return path


@pytest.fixture
def view(qtbot):
    v = DiffView("Current", "Proposed")
    qtbot.addWidget(v)
    v.resize(640, 420)
    v.show()
    qtbot.waitExposed(v)
    return v


def numbered(n: int, prefix: str = "line") -> list[str]:
    return [f"{prefix} {i}" for i in range(1, n + 1)]


def row_index(v: DiffView, kind: str) -> int:
    return next(i for i, it in enumerate(v.canvas.items) if isinstance(it, Row) and it.kind == kind)


def test_a_changed_word_in_a_long_paragraph_is_highlighted_as_a_word(view):
    before = f"# Review\n\n{PARAGRAPH}\n\nEnd.\n"
    after = before.replace("the quick reader", "the hasty reader", 1)
    view.show_diff(before, after)
    assert view.summary.text().startswith("1 change, +1 \u22121 lines")
    i = row_index(view, "change")
    assert view.canvas.highlighted_words(i, 0) == ["quick"]  # what is painted marked on the left
    assert view.canvas.highlighted_words(i, 1) == ["hasty"]
    view.toggle_mode()  # unified: the removed line, then the added one, each with its word
    lines = [(n, it) for n, it in enumerate(view.canvas.items) if isinstance(it, Line) and it.kind != "equal"]
    assert [it.kind for _, it in lines] == ["delete", "insert"]
    assert view.canvas.highlighted_words(lines[0][0], 0) == ["quick"]
    assert view.canvas.highlighted_words(lines[1][0], 0) == ["hasty"]


def test_word_spans_join_neighbouring_words_and_skip_unrelated_lines():
    (a,), (b,) = diffs.word_spans("the quick brown fox", "the slow red fox")
    assert ("the quick brown fox"[a[0] : a[1]], "the slow red fox"[b[0] : b[1]]) == ("quick brown", "slow red")
    assert diffs.word_spans("completely different", "nothing alike here at all") == ((), ())


def test_the_toggle_switches_views_and_is_remembered(qtbot, view, remembered):
    gone = DiffView()  # a view whose window was closed while Python still holds its wrapper
    shiboken6.delete(gone)
    view.show_diff("a\nb\nc\n", "a\nB\nc\nd\n")
    assert view.mode == SPLIT and all(isinstance(it, Row) for it in view.canvas.items)
    assert view.mode_button.text() == "Unified"
    qtbot.mouseClick(view.mode_button, Qt.MouseButton.LeftButton)
    assert view.mode == UNIFIED and view.canvas.mode == UNIFIED
    assert [(it.kind, it.old, it.new) for it in view.canvas.items if isinstance(it, Line)] == [
        ("equal", 1, 1),
        ("delete", 2, None),
        ("insert", None, 2),
        ("equal", 3, 3),
        ("insert", None, 4),
    ]
    assert view.mode_button.text() == "Split"
    assert QSettings(remembered, QSettings.Format.IniFormat).value("diff/mode") == UNIFIED
    later = DiffView()  # a view opened later (or after a restart) starts in the chosen mode
    qtbot.addWidget(later)
    assert later.mode == UNIFIED
    view.activateWindow()
    view.canvas.setFocus()
    qtbot.keyClick(view.canvas, Qt.Key.Key_V, Qt.KeyboardModifier.AltModifier)  # the shortcut
    assert view.mode == SPLIT and later.mode == SPLIT  # open views follow the choice
    assert QSettings(remembered, QSettings.Format.IniFormat).value("diff/mode") == SPLIT


def test_scrolling_the_left_side_moves_the_right_one_to_the_matching_line(qtbot, view):
    old = numbered(120)
    new = old[:10] + numbered(30, "inserted") + old[10:]
    new[40 + 69] = "line 80, edited"  # old line 80 changed, now line 110
    view.show_diff("\n".join(old) + "\n", "\n".join(new) + "\n")
    view.expand_all()
    canvas = view.canvas
    bar = canvas.verticalScrollBar()
    below = next(n for n, it in enumerate(canvas.items) if isinstance(it, Row) and it.left and it.left.number == 41)
    canvas.scroll_to_item(below, above=0)  # just below the insertion
    start, value = canvas.top_item(), bar.value()
    x = canvas.viewport().width() // 4  # over the left half
    for _ in range(4):
        wheel = QWheelEvent(
            QPointF(x, 50),
            QPointF(canvas.viewport().mapToGlobal(QPoint(x, 50))),
            QPoint(0, 0),
            QPoint(0, -120),
            Qt.MouseButton.NoButton,
            Qt.KeyboardModifier.NoModifier,
            Qt.ScrollPhase.NoScrollPhase,
            False,
        )
        QApplication.sendEvent(canvas.viewport(), wheel)
    assert bar.value() > value
    top = canvas.items[canvas.top_item()]
    assert canvas.top_item() > start and isinstance(top, Row)
    # the row at the top of both halves is one line and its match: numbers differ by the 30 inserted
    assert top.left is not None and top.right is not None
    assert top.right.number == top.left.number + 30 and top.left.text == top.right.text
    # and below the insertion, left line 60 faces right line 90 wherever it is scrolled to
    i = next(n for n, it in enumerate(canvas.items) if isinstance(it, Row) and it.left and it.left.number == 60)
    canvas.scroll_to_item(i, above=0)
    row = canvas.items[canvas.top_item()]
    assert isinstance(row, Row) and (row.left.number, row.right.number) == (60, 90)


def test_next_change_moves_to_the_second_hunk(qtbot, view):
    old = numbered(200)
    new = list(old)
    new[4] = "line 5, edited"
    new[159] = "line 160, edited"
    view.show_diff("\n".join(old) + "\n", "\n".join(new) + "\n")
    canvas = view.canvas
    assert canvas.current_hunk == 0 and not view.prev_button.isEnabled()
    assert any(isinstance(it, Fold) for it in canvas.items)
    qtbot.mouseClick(view.next_button, Qt.MouseButton.LeftButton)
    assert canvas.current_hunk == 1
    first = canvas.hunk_items()[1]
    item = canvas.items[first]
    assert isinstance(item, Row) and item.left.number == 160
    top = canvas.item_top(first) - canvas.verticalScrollBar().value()
    assert canvas.header_h <= top < canvas.viewport().height()  # on screen, under the titles
    assert view.summary.text() == "2 changes, +2 \u22122 lines \u00b7 change 2 of 2"
    assert not view.next_button.isEnabled()
    view.activateWindow()
    view.canvas.setFocus()
    qtbot.keyClick(view.canvas, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier)
    assert canvas.current_hunk == 0


def test_long_lines_wrap_and_keep_the_other_side_aligned(qtbot, view):
    long_line = "x" * 2000  # no space to break at: wrapped anywhere
    view.show_diff(f"a\n{long_line}\nb\nc\n", f"a\n{PARAGRAPH}\nb\nC\n")
    canvas = view.canvas
    qtbot.waitUntil(lambda: canvas.viewport().width() > 0)
    assert not canvas.horizontalScrollBar().isVisible() and canvas.horizontalScrollBar().maximum() == 0
    i = row_index(view, "change")
    lay = canvas._layout((i, 0, canvas._width), long_line, canvas.columns()[0][1] - 2 * canvas.PAD)
    assert lay.lineCount() > 10 and lay.boundingRect().width() <= canvas.columns()[0][1]
    canvas.scroll_to_item(0, above=0)
    canvas.viewport().repaint()  # rows on screen get their real heights
    height = canvas.item_top(i + 1) - canvas.item_top(i)
    assert height >= lay.boundingRect().height()  # the row is as tall as the wrapped left side
    nxt = canvas.items[i + 1]
    assert isinstance(nxt, Row) and (nxt.left.text, nxt.right.text) == ("b", "b")  # one band: aligned


def test_unchanged_stretches_fold_and_expand_on_click(qtbot, view):
    old = numbered(100)
    new = list(old)
    new[0] = "line 1, edited"
    new[99] = "line 100, edited"
    view.show_diff("\n".join(old) + "\n", "\n".join(new) + "\n")
    canvas = view.canvas
    folds = [(n, it) for n, it in enumerate(canvas.items) if isinstance(it, Fold)]
    assert [f.count for _, f in folds] == [92]  # 98 unchanged lines less 3 of context each side
    n, _fold = folds[0]
    canvas.scroll_to_item(n, above=0)
    y = int(canvas.item_top(n) - canvas.verticalScrollBar().value() + 3)
    qtbot.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(100, y))
    assert not any(isinstance(it, Fold) for it in canvas.items)
    assert len(canvas.items) == 100


def test_a_big_diff_is_computed_off_the_gui_thread(qtbot, view, monkeypatch):
    threads: list[threading.Thread] = []
    real = diffview.compute_diff

    def compute(a: str, b: str):
        threads.append(threading.current_thread())
        return real(a, b)

    monkeypatch.setattr(diffview, "compute_diff", compute)
    old = numbered(1500)
    new = list(old)
    new[700] = "line 701, edited"
    view.show_diff("\n".join(old) + "\n", "\n".join(new) + "\n")
    assert view.pending and view.summary.text() == PENDING_TEXT and view.canvas.message == PENDING_TEXT
    qtbot.waitUntil(lambda: not view.pending, timeout=10000)
    assert threads and threads[0] is not threading.main_thread()
    assert view.summary.text().startswith("1 change, +1 \u22121 lines")
    assert view.canvas.current_hunk == 0 and view.canvas.message == ""
    small = DiffView()  # a small diff is shown at once
    qtbot.addWidget(small)
    small.show_diff("a\n", "b\n")
    assert not small.pending and threads[-1] is threading.main_thread()


def test_the_diff_opens_in_a_window_of_its_own(qtbot, view):
    view.show_diff("a\nb\n", "a\nB\n")
    qtbot.mouseClick(view.window_button, Qt.MouseButton.LeftButton)
    pop = view.popout
    assert pop is not None and pop.isVisible()
    qtbot.addWidget(pop)
    inner = pop.findChild(DiffView)
    assert inner.diff is view.diff and inner.summary.text().startswith("1 change, +1 \u22121 lines")
    pop.close()


def test_the_versions_tab_computes_a_big_diff_in_a_job(qtbot, ui_workspace, monkeypatch):
    """With real worker threads: the tab shows "computing diff…", the GUI thread goes on, then the
    count of the big diff arrives."""
    from lorekeeper.ui.main_window import MainWindow

    threads: list[threading.Thread] = []
    real = diffview.compute_diff

    def compute(a: str, b: str):
        if a.count("\n") > 1000:  # the big one (other skills' small diffs are shown at once)
            threads.append(threading.current_thread())
        return real(a, b)

    monkeypatch.setattr(diffview, "compute_diff", compute)
    skill = ui_workspace.skills.get("code-review")
    body = "\n".join(f"Step {i}: check the change against the rule number {i}." for i in range(1, 1020))
    ui_workspace.skills.save("code-review", None, skill.content + body + "\n", None, "long")
    ui_workspace.skills.save(
        "code-review", None, skill.content + body.replace("Step 700:", "Step 700 (edited):") + "\n", None, "edit"
    )
    win = MainWindow(ui_workspace)
    qtbot.addWidget(win)
    win.show()
    panel = win.select_panel("skills")
    qtbot.waitUntil(lambda: panel.select_skill("code-review"), timeout=10000)
    tab = panel.versions_tab
    qtbot.waitUntil(lambda: tab.detail is not None and tab.detail.info.name == "code-review", timeout=10000)
    panel.tabs.setCurrentWidget(tab)
    tab.table.selectRow(0)  # v3 (current) against v2: over 2,000 lines
    qtbot.waitUntil(lambda: tab.diff.pending or tab.diff.diff is not None, timeout=10000)
    if tab.diff.diff is None:
        assert tab.summary.text() == PENDING_TEXT and tab.diff.canvas.message == PENDING_TEXT
    qtbot.waitUntil(lambda: tab.summary.text().startswith("1 change, +1 \u22121 lines"), timeout=10000)
    assert threads and all(t is not threading.main_thread() for t in threads)
    win.close()


def _luminance(c) -> float:
    def channel(v: float) -> float:
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF())


@pytest.mark.parametrize("mode", ["light", "dark"])
def test_text_on_every_diff_colour_is_readable_in_both_themes(qapp, mode):
    from lorekeeper.ui import theme

    before_mode, before_palette = qapp.property("lorekeeperTheme"), qapp.palette()
    qapp.setProperty("lorekeeperTheme", mode)  # as apply_theme, without the app-wide style sheet
    qapp.setPalette(theme._palette(mode))
    try:
        text = qapp.palette().text().color()
        pal = diffview.palette()
        for name in ("del_line", "add_line", "del_word", "add_word", "filler", "gutter", "fold"):
            hi, lo = sorted((_luminance(text), _luminance(pal[name])), reverse=True)
            assert (hi + 0.05) / (lo + 0.05) >= 4.5, (mode, name)  # WCAG AA for body text
        assert pal["del_word"] != pal["del_line"] and pal["add_word"] != pal["add_line"]
    finally:
        qapp.setProperty("lorekeeperTheme", before_mode)
        qapp.setPalette(before_palette)
