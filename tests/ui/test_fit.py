"""Every registered panel fits a laptop window: at 1024x640 and 1280x800 logical pixels the
window is not forced wider or taller, no panel needs to scroll, and no visible widget lies outside
the window. The loop runs over PANELS, so a panel added later is held to the same rule."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QApplication,
    QComboBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QStyle,
    QStyleOptionComboBox,
    QStyleOptionFrame,
    QWidget,
)

from lorekeeper.ui.main_window import MIN_SIZE, PanelFrame, initial_size
from lorekeeper.ui.panels import PANELS
from lorekeeper.ui.theme import DARK, LIGHT, apply_theme, current_mode
from lorekeeper.ui.widgets import ElidedLabel, header_text_width

SIZES = [QSize(1024, 640), QSize(1280, 800)]


def _inside_scrolled_content(widget: QWidget, window: QWidget) -> bool:
    """A widget inside a scroll area's viewport (a table's editor, a scrolled form) may be
    scrolled away legitimately: what must fit is the scroll area itself."""
    parent = widget.parentWidget()
    while parent is not None and parent is not window:
        grand = parent.parentWidget()
        if isinstance(grand, QAbstractScrollArea) and parent is grand.viewport() and not isinstance(grand, PanelFrame):
            return True
        parent = grand
    return False


def outside_widgets(window: QWidget) -> list[str]:
    bounds = window.rect()
    bad = []
    for child in window.findChildren(QWidget):
        if not child.isVisible() or child.isWindow() or _inside_scrolled_content(child, window):
            continue
        rect = QRect(child.mapTo(window, QPoint(0, 0)), child.size())
        if not bounds.contains(rect):
            bad.append(f"{type(child).__name__}#{child.objectName()} at {rect.getRect()} (window {bounds.getRect()})")
    return bad


def clipped_labels(root: QWidget) -> list[str]:
    """Visible labels whose text does not fit their box (issue 30 d2: the Audit key box's wrapped
    "Where:" and "Session log" values were cut and overlapped the next row at 1024x640): a
    wrapping label shorter than its text needs at its width, a one-line label shorter than a
    line, a plain label narrower than its text, or an elided label whose tooltip does not give
    the whole text."""
    bad = []
    for lab in root.findChildren(QLabel):
        if not lab.isVisible() or not lab.text() or (lab.pixmap() is not None and not lab.pixmap().isNull()):
            continue
        name = f"{type(lab).__name__} {lab.text()[:50]!r}"
        if lab.wordWrap():
            need = lab.heightForWidth(lab.width())
            if need > lab.height():
                bad.append(f"{name}: wraps to {need} px high in {lab.height()} px")
        elif lab.sizeHint().height() > lab.height():
            bad.append(f"{name}: {lab.sizeHint().height()} px high in {lab.height()} px")
        elif isinstance(lab, ElidedLabel):
            if lab.is_elided() and not lab.toolTip():
                bad.append(f"{name}: cut with no tooltip")
        elif lab.sizeHint().width() > lab.width():
            bad.append(f"{name}: {lab.sizeHint().width()} px wide in {lab.width()} px")
    return bad


def cut_sideways(root: QWidget) -> list[str]:
    """Scroll areas without a horizontal bar whose content is wider than the view: its side is
    cut off with no way to reach it."""
    bad = []
    for area in root.findChildren(QAbstractScrollArea):
        if not area.isVisible() or area.horizontalScrollBarPolicy() != Qt.ScrollBarPolicy.ScrollBarAlwaysOff:
            continue
        content = area.widget() if isinstance(area, QScrollArea) else None
        if content is not None and content.width() > area.viewport().width():
            bad.append(f"{type(area).__name__}: content {content.width()} px wide in {area.viewport().width()} px")
    return bad


def cut_combos(root: QWidget) -> list[str]:
    """Visible combo boxes whose shown text is wider than their text field (Qt cuts it with no
    tooltip; issue 30 d2: "Vues enregistrées (0)" at 1024x640)."""
    bad = []
    for combo in root.findChildren(QComboBox):
        if not combo.isVisible() or combo.isEditable() or not combo.currentText():
            continue
        opt = QStyleOptionComboBox()
        combo.initStyleOption(opt)
        field = combo.style().subControlRect(
            QStyle.ComplexControl.CC_ComboBox, opt, QStyle.SubControl.SC_ComboBoxEditField, combo
        )
        need = combo.fontMetrics().horizontalAdvance(combo.currentText())
        if need > field.width():
            bad.append(f"QComboBox#{combo.objectName()} {combo.currentText()!r}: {need} px in {field.width()} px")
    return bad


def cut_placeholders(root: QWidget) -> list[str]:
    """Visible empty line edits whose placeholder is wider than their text field (issue 30 d2:
    "Story (e.g. PD-…" in Audit, "Search responses an…" in Evals at 1024x640)."""
    bad = []
    for edit in root.findChildren(QLineEdit):
        if not edit.isVisible() or edit.text() or not edit.placeholderText():
            continue
        opt = QStyleOptionFrame()
        edit.initStyleOption(opt)
        field = edit.style().subElementRect(QStyle.SubElement.SE_LineEditContents, opt, edit)
        margins = edit.textMargins()
        room = field.width() - margins.left() - margins.right() - 4  # QLineEdit's own side margins
        if edit.isClearButtonEnabled():
            room -= edit.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize, opt, edit)
        need = edit.fontMetrics().horizontalAdvance(edit.placeholderText())
        if need > room:
            bad.append(f"QLineEdit {edit.placeholderText()[:40]!r}: {need} px in {room} px")
    return bad


def cut_headers(root: QWidget) -> list[str]:
    """Visible table columns narrower than their title (issue 30 d2: "Why they conflict" in the
    Conflicts list, "Relevance" in the ledger)."""
    bad = []
    for header in root.findChildren(QHeaderView):
        if not header.isVisible() or header.orientation() != Qt.Orientation.Horizontal or header.model() is None:
            continue
        for section in range(header.count()):
            size = header.sectionSize(section)
            title = header.model().headerData(section, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole)
            if header.isSectionHidden(section) or not size or not title:
                continue
            need = header_text_width(header, section)
            if need > size:
                bad.append(f"column {title!r}: {need} px in {size} px")
    return bad


def settle() -> None:
    for _ in range(4):
        QApplication.processEvents()


def test_every_panel_fits_the_window(window):
    assert [s.panel_id for s in PANELS] == window.panel_ids
    for panel_id in window.panel_ids:  # each panel with its showcase content, built once
        window.select_panel(panel_id).showcase()
    for size in SIZES:
        check_panels_fit(window, size)
    # and in the other theme (issue 30 d2): its style sheet has its own paddings and borders
    app = QApplication.instance()
    before = current_mode()
    try:
        apply_theme(app, DARK if before == LIGHT else LIGHT)
        settle()
        check_panels_fit(window, SIZES[0])
    finally:
        apply_theme(app, before)


def check_panels_fit(window, size: QSize) -> None:
    window.resize(size)
    settle()
    for panel_id in window.panel_ids:
        panel = window.select_panel(panel_id)
        settle()
        hint = window.minimumSizeHint()
        assert hint.width() <= size.width() and hint.height() <= size.height(), (panel_id, hint)
        assert window.size() == size, panel_id  # nothing forced the window larger
        frame = window.stack.currentWidget()
        assert isinstance(frame, PanelFrame) and frame.panel is panel
        need, room = frame.panel_minimum(), frame.maximumViewportSize()
        assert need.width() <= room.width() and need.height() <= room.height(), (panel_id, need, room)
        assert not frame.horizontalScrollBar().isVisible() and not frame.verticalScrollBar().isVisible(), panel_id
        assert outside_widgets(window) == [], panel_id
        assert clipped_labels(panel) == [], panel_id
        assert cut_sideways(panel) == [], panel_id
        assert cut_combos(panel) == [], panel_id
        assert cut_placeholders(panel) == [], panel_id
        assert cut_headers(panel) == [], panel_id


def test_every_panel_fits_in_french(qtbot, ui_workspace, sync_workers):
    """The same checks at 1024x640 in French (longer words: the cut titles, placeholders and
    combos of issue 30 d2 were French first)."""
    from lorekeeper.ui import i18n
    from lorekeeper.ui.main_window import MainWindow

    assert i18n.install("fr") == "fr"
    try:
        win = MainWindow(ui_workspace)
        qtbot.addWidget(win)
        win.show()
        for panel_id in win.panel_ids:
            win.select_panel(panel_id).showcase()
        check_panels_fit(win, SIZES[0])
        win.close()
    finally:
        i18n.install("en")


def test_the_eval_result_tables_show_several_rows(qtbot, ui_workspace, sync_workers):
    """At 1024x640 the Result table showed about one rule (the 150 px pass-rate chart made the
    history the taller half): it shows four in English and in French; the chart and the selected
    run share a splitter."""
    from lorekeeper.ui import i18n
    from lorekeeper.ui.main_window import MainWindow

    for lang in ("en", "fr"):
        assert i18n.install(lang) == lang
        try:
            win = MainWindow(ui_workspace)
            qtbot.addWidget(win)
            win.show()
            win.resize(1024, 640)
            panel = win.select_panel("evals")
            panel.showcase()
            settle()
            table = panel.results_table
            rows = table.viewport().height() / table.verticalHeader().defaultSectionSize()
            assert panel.results_model.rowCount() >= 4 and rows >= 4, (lang, rows)
            side = panel.chart.parentWidget().parentWidget()
            assert isinstance(side, QSplitter) and side.orientation() == Qt.Orientation.Vertical
            win.close()
        finally:
            i18n.install("en")


def test_a_panel_too_big_for_the_window_scrolls_instead_of_widening_it(window):
    window.resize(1024, 640)
    panel = window.select_panel(window.panel_ids[0])
    panel.setMinimumSize(1500, 1000)  # a future panel that does not fit
    settle()
    assert window.size() == QSize(1024, 640)
    frame = window.stack.currentWidget()
    assert frame.horizontalScrollBar().isVisible() and frame.verticalScrollBar().isVisible()
    assert panel.size() == QSize(1500, 1000)


def test_the_window_opens_at_a_share_of_the_screen():
    assert initial_size(QSize(1920, 1080)) == QSize(1600, 918)  # 85%, width capped
    assert initial_size(QSize(1366, 728)) == QSize(1161, 640)  # never below MIN_SIZE's height
    assert initial_size(QSize(1280, 800)) == QSize(1088, 680)
    assert initial_size(QSize(1000, 600)) == QSize(1000, 600)  # a small screen: all of it
    assert initial_size(QSize(3840, 2160)) == QSize(1600, 1000)
    assert QSize(1024, 640) == MIN_SIZE


def test_the_audit_key_box_shows_every_value_whole_also_after_a_rotation(window, monkeypatch):
    """The key box at 1024x640: each value is one line (cut with "…" and a tooltip, never
    wrapped into the next row); after a rotation its long message scrolls inside the box."""
    from lorekeeper.ui import widgets

    monkeypatch.setattr(widgets, "confirm", lambda *_args: True)
    window.resize(1024, 640)
    panel = window.select_panel("audit")
    panel.showcase()
    settle()
    assert clipped_labels(panel) == []
    assert cut_sideways(panel) == []
    where = panel.location_value
    assert where.text().startswith("OS keyring") and where.is_elided() and where.toolTip() == where.text()
    assert panel.folder_value.text().endswith("sessions")
    # the operator drags the splitter to give the verification all the room: the key box stops
    # at the width its buttons and rows need, nothing slides out of view on its side
    top = panel.verify_button.parentWidget()
    while not isinstance(top, QSplitter):
        top = top.parentWidget()
    top.setSizes([0, 2000])
    settle()
    assert cut_sideways(panel) == []
    assert clipped_labels(panel) == []
    panel.rotate_button.click()
    settle()
    assert "v1 → v2" in panel.key_message.text()
    assert panel.version_value.text() == "v2"
    assert clipped_labels(panel) == []
    assert cut_sideways(panel) == []
    assert outside_widgets(window) == []


def test_the_proposal_diff_gets_the_room_and_no_action_hides_under_it(window):
    """At 1024x640 the card above the actions keeps a quarter of the detail's height: the diff
    shows at least 12 lines (3 to 7 before), and every action button lies above the diff."""
    window.resize(1024, 640)
    panel = window.select_panel("proposals")
    panel.showcase()
    settle()
    viewport = panel.diff.canvas.viewport()
    lines = viewport.height() // panel.diff.canvas.fontMetrics().lineSpacing()
    assert lines >= 12, lines  # 7 before (the card took the room)
    diff_top = panel.diff.mapTo(window, QPoint(0, 0)).y()
    for button in panel.queue.action_bar.findChildren(QPushButton):
        if button.isVisible():
            bottom = button.mapTo(window, QPoint(0, button.height())).y()
            assert bottom <= diff_top, (button.text(), bottom, diff_top)
    assert panel.card_area.height() >= 80  # the card still shows its first rows


def test_the_eval_result_box_keeps_room_beside_the_run_box(qtbot, ui_workspace, sync_workers):
    """In French at 1024x640 the run box's pickers left the Result box about 115 px (its table
    and its message cut): the pickers give way, the Result box keeps a quarter of the row."""
    from lorekeeper.ui import i18n
    from lorekeeper.ui.main_window import MainWindow

    assert i18n.install("fr") == "fr"
    try:
        win = MainWindow(ui_workspace)
        qtbot.addWidget(win)
        win.show()
        win.resize(1024, 640)
        panel = win.select_panel("evals")
        panel.showcase()
        settle()
        result_box = panel.results_empty.parentWidget()
        top = result_box.parentWidget()
        assert isinstance(top, QSplitter)
        assert result_box.width() >= top.width() // 4, (result_box.width(), top.width())
        assert clipped_labels(panel) == [] and cut_combos(panel) == []
        win.close()
    finally:
        i18n.install("en")


def test_the_skill_viewer_keeps_the_room_under_a_long_description(window):
    """At 1024x640 a long description and its triggers scroll in a few lines: the SKILL.md viewer
    below gets most of the height (it had about 150 px under api-design's 12 lines)."""
    window.resize(1024, 640)
    panel = window.select_panel("skills")
    panel.showcase()
    settle()
    assert panel.description.text().startswith("Design or extend HTTP APIs")
    viewer = panel.content_tab.viewer
    assert viewer.isVisible() and viewer.height() >= 250, viewer.height()
    assert clipped_labels(panel) == []


def test_the_skill_editor_commit_message_has_a_line_of_its_own(qtbot, ui_workspace, sync_workers):
    """In French the commit message beside Abandonner and Enregistrer comme nouvelle version
    was 28 px wide (tests) and, with the theme's paddings, made the Skills panel wider than a
    1024x640 window (a sideways scroll bar): it now has its own line, the buttons under it."""
    from lorekeeper.ui import i18n
    from lorekeeper.ui.main_window import MainWindow

    assert i18n.install("fr") == "fr"
    try:
        win = MainWindow(ui_workspace)
        qtbot.addWidget(win)
        win.show()
        win.resize(1024, 640)
        panel = win.select_panel("skills")
        panel.showcase()
        tab = panel.content_tab
        tab.edit_button.click()
        settle()
        assert tab.commit_message.isVisible() and tab.save_button.isVisible()
        assert tab.commit_message.width() >= tab.stack.width() - 2
        assert tab.commit_message.geometry().bottom() < tab.save_button.geometry().top()
        tab.edit_button.click()
        win.close()
    finally:
        i18n.install("en")
