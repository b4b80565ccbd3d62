"""Small widgets and helpers shared by the panels."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QEvent, QMargins, QObject, QPoint, QRect, QSize, Qt, QTimer
from PySide6.QtGui import QFont, QFontDatabase, QPainter, QPaintEvent
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QLayout,
    QLayoutItem,
    QLineEdit,
    QMessageBox,
    QProgressBar,
    QSizePolicy,
    QSpacerItem,
    QStackedWidget,
    QStyle,
    QStyleOptionFrame,
    QTableView,
    QWidget,
)

from lorekeeper.ui.theme import GaugeColors, gauge_colors
from lorekeeper.ui.workers import error_text


def mono_font(point_size: float = 9.5) -> QFont:
    font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    font.setPointSizeF(point_size)
    return font


ELIDE_MIN_WIDTH = 48  # how narrow a one-line label may get (it then ends in "…", the tooltip has it all)


class ElidedLabel(QLabel):
    """A one-line label that never forces its layout wider than ELIDE_MIN_WIDTH: when there is
    less room than its text needs, it paints the text cut with "…" and its tooltip shows the
    whole text. `text()` is always the whole text (rich text is painted as usual, unelided)."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self._own_tip = False

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        if self.wordWrap() or (self.pixmap() is not None and not self.pixmap().isNull()):
            return hint
        return QSize(min(hint.width(), ELIDE_MIN_WIDTH), hint.height())

    def is_elided(self) -> bool:
        text = self.text()
        if not text or self.wordWrap() or self.textFormat() == Qt.TextFormat.RichText:
            return False
        if self.textFormat() == Qt.TextFormat.AutoText and "<" in text and ">" in text:
            return False  # probably rich text (Qt's own guess is not exposed to Python)
        return self.fontMetrics().horizontalAdvance(text) > self.contentsRect().width()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._sync_tip()

    def setText(self, text: str) -> None:
        super().setText(text)
        self._sync_tip()

    def _sync_tip(self) -> None:
        elided = self.is_elided()
        if elided and (self._own_tip or not self.toolTip()):
            self._own_tip = True
            super().setToolTip(self.text())
        elif not elided and self._own_tip:
            self._own_tip = False
            super().setToolTip("")

    def setToolTip(self, tip: str) -> None:
        self._own_tip = False
        super().setToolTip(tip)

    def paintEvent(self, event) -> None:
        if not self.is_elided():
            super().paintEvent(event)
            return
        painter = QPainter(self)
        rect = self.contentsRect()
        shown = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, rect.width())
        align = self.alignment() & ~Qt.AlignmentFlag.AlignRight & ~Qt.AlignmentFlag.AlignHCenter
        self.style().drawItemText(
            painter, rect, int(align), self.palette(), self.isEnabled(), shown, self.foregroundRole()
        )


class WrapBox(QWidget):
    """A container whose minimum height is what its layout needs at its current width, counting
    wrapped rows (a FlowLayout's, a wrapping label's). A splitter or a box layout asks only the
    width-free minimum, so wrapped rows would be squeezed under the next widget (issue 30 d2:
    the Proposals actions' third row hid under the diff at 1024x640)."""

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        lay = self.layout()
        if lay is None or not lay.hasHeightForWidth() or self.width() <= 0:
            return hint
        return QSize(hint.width(), max(hint.height(), lay.totalMinimumHeightForWidth(self.width())))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if event.oldSize().width() != event.size().width():
            self.updateGeometry()  # the rows may wrap differently: the minimum height changed


class FlowLayout(QLayout):
    """A row of widgets (buttons, filters) that wraps onto more lines when the room is narrower
    than the row (Qt's flow layout example), so a bar fits a 1024-pixel window instead of widening
    it: never wider than its widest item, an item wider than the room is narrowed to it. `addStretch()` takes a line's spare room, like a box
    layout's stretch (so right-aligned groups stay right on a wide window)."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 6) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._stretches: set[int] = set()
        self.setSpacing(spacing)
        self.setContentsMargins(0, 0, 0, 0)  # a bar inside a panel's layout: its margins are the panel's

    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)

    def addStretch(self, _stretch: int = 1) -> None:
        self._stretches.add(id(self._add_spacer()))

    def _add_spacer(self) -> QSpacerItem:
        spacer = QSpacerItem(0, 0, QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Minimum)
        self.addItem(spacer)
        return spacer

    def insertWidget(self, index: int, widget: QWidget) -> None:
        self.addWidget(widget)  # appended by Qt: move it where it belongs
        self._items.insert(index, self._items.pop())
        self.invalidate()

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        if 0 <= index < len(self._items):
            item = self._items.pop(index)
            self._stretches.discard(id(item))
            return item
        return None

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._do_layout(QRect(0, 0, width, 0), apply=False)

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._do_layout(rect, apply=True)

    def sizeHint(self) -> QSize:
        w = h = 0
        for item in self._visible():
            hint = item.sizeHint()
            w += hint.width() + self.spacing()
            h = max(h, hint.height())
        m = self.contentsMargins()
        return QSize(max(w - self.spacing(), 0) + m.left() + m.right(), h + m.top() + m.bottom())

    def minimumSize(self) -> QSize:
        size = QSize()
        for item in self._visible():
            size = size.expandedTo(item.minimumSize())
        m = self.contentsMargins()
        return size + QSize(m.left() + m.right(), m.top() + m.bottom())

    def _visible(self) -> list[QLayoutItem]:
        return [i for i in self._items if not i.isEmpty() or id(i) in self._stretches]

    def _do_layout(self, rect: QRect, *, apply: bool) -> int:
        m: QMargins = self.contentsMargins()
        area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        space = max(self.spacing(), 0)
        lines: list[list[QLayoutItem]] = [[]]
        used = 0
        for item in self._visible():
            w = 0 if id(item) in self._stretches else item.sizeHint().width()
            if lines[-1] and used + space + w > area.width():
                lines.append([])
                used = 0
            used += (space if lines[-1] else 0) + w
            lines[-1].append(item)
        y = area.y()
        for line in lines:
            items = [i for i in line if id(i) not in self._stretches]
            if not items:
                continue
            widths = [min(i.sizeHint().width(), area.width()) for i in items]
            height = max(i.sizeHint().height() for i in items)
            spare = area.width() - sum(widths) - space * (len(items) - 1)
            stretches = [k for k, i in enumerate(line) if id(i) in self._stretches and 0 < k < len(line) - 1]
            x = area.x()
            k_item = 0
            for k, item in enumerate(line):
                if id(item) in self._stretches:
                    if k in stretches and spare > 0:
                        x += spare // len(stretches)
                    continue
                if apply:
                    item.setGeometry(QRect(QPoint(x, y), QSize(widths[k_item], height)))
                x += widths[k_item] + space
                k_item += 1
            y += height + space
        return y - space - area.y() + m.top() + m.bottom() if y > area.y() else m.top() + m.bottom()


def label(text: str = "", name: str = "", *, wrap: bool = False, selectable: bool = False) -> QLabel:
    """A label in the house style: one-line labels elide (see ElidedLabel), `wrap` ones wrap."""
    lab = ElidedLabel(text)
    if name:
        lab.setObjectName(name)
    lab.setWordWrap(wrap)
    if selectable:
        lab.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return lab


class MessageBox(QLabel):
    """An inline message (error or success) that stays hidden until there is something to say."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.hide()

    def show_error(self, exc: BaseException | str) -> None:
        self.setObjectName("errorBox")
        self.setText(exc if isinstance(exc, str) else describe_error(exc))
        self._restyle()

    def show_ok(self, text: str) -> None:
        self.setObjectName("okBox")
        self.setText(text)
        self._restyle()

    def clear_message(self) -> None:
        self.setText("")
        self.hide()

    def _restyle(self) -> None:
        self.style().unpolish(self)
        self.style().polish(self)
        self.show()


def describe_error(exc: BaseException) -> str:
    """`ERR_CODE — field 'x': message`, so the user sees the code and where to look."""
    text = error_text(exc)
    field = getattr(exc, "field", None)
    rule_id = getattr(exc, "rule_id", None)
    code = getattr(exc, "code", None)
    if code and (field or rule_id):
        where = (
            QCoreApplication.translate("widgets", "field '{field}'").format(field=field)
            if field
            else QCoreApplication.translate("widgets", "rule {rule_id}").format(rule_id=rule_id)
        )
        return f"{code} ({where}): {getattr(exc, 'message', str(exc))}"
    return text


class EmptyState(QStackedWidget):
    """Shows `content`, or a sentence saying why it is empty and what to do."""

    def __init__(self, content: QWidget, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.content = content
        self.message = label(text, "emptyState", wrap=True)
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.addWidget(content)
        self.addWidget(self.message)

    def set_empty(self, empty: bool, text: str | None = None) -> None:
        if text is not None:
            self.message.setText(text)
        self.setCurrentWidget(self.message if empty else self.content)

    @property
    def is_empty(self) -> bool:
        return self.currentWidget() is self.message


def search_box(placeholder: str, tooltip: str = "") -> QLineEdit:
    """A search field never narrower than its placeholder (issue 30 d2: "Story (e.g. PD-…" and
    "Chercher dans les…" were cut at 1024x640): keep the placeholder short, say the rest in
    `tooltip`."""
    box = QLineEdit()
    box.setPlaceholderText(placeholder)
    box.setClearButtonEnabled(True)
    box.setObjectName("search")
    if tooltip:
        box.setToolTip(tooltip)
    box.setMinimumWidth(placeholder_width(box))
    return box


def placeholder_width(edit: QLineEdit) -> int:
    """The width a line edit needs to show its whole placeholder (with its frame, margins and the
    clear button)."""
    opt = QStyleOptionFrame()
    edit.initStyleOption(opt)
    frame = edit.style().pixelMetric(QStyle.PixelMetric.PM_DefaultFrameWidth, opt, edit)
    clear = (
        edit.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize, opt, edit) + 8
        if edit.isClearButtonEnabled()
        else 0
    )
    m = edit.textMargins()
    return edit.fontMetrics().horizontalAdvance(edit.placeholderText()) + 2 * frame + m.left() + m.right() + clear + 12


def set_progress(bar: QProgressBar, done: int, total: int, fmt: str | None = None) -> None:
    """Update a progress bar with one deferred repaint. `QProgressBar` repaints at once, on the
    GUI thread, in every `setValue` and `setRange` (a few ms each on a loaded machine); with its
    updates held it only marks itself dirty and is painted with the rest of the frame.

    `total <= 0` (how much is left is not known yet): an empty bar, not Qt's busy indicator. The
    Fusion style animates that one at 30 frames a second with antialiased stripes across the
    bar's width: sampled while a job ran, painting it was most of the GUI thread's time."""
    if total <= 0:
        done, total = 0, 1
    bar.setUpdatesEnabled(False)
    try:
        if bar.minimum() != 0 or bar.maximum() != total:
            bar.setRange(0, total)
        if bar.value() != done:
            bar.setValue(done)
        if fmt is not None and bar.format() != fmt:
            bar.setFormat(fmt)
    finally:
        bar.setUpdatesEnabled(True)


class Gauge(QProgressBar):
    """A bar whose fill says a level (`set_level("trigger")`: a semantic colour of ui.theme) and
    whose text reads in both themes: it paints itself, the text over the fill in black or white by
    the fill's luminance and the text over the groove in the theme's text colour (a style-sheet
    chunk colour would leave one text colour over both, dark on brown or light on amber)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._level = "info"
        self.setTextVisible(True)

    def level(self) -> str:
        return self._level

    def set_level(self, level: str) -> None:
        if level != self._level:
            self._level = level
            self.update()

    def colors(self) -> GaugeColors:
        """The colours it paints with now (the current theme's)."""
        return gauge_colors(self._level)

    def fill_width(self) -> int:
        span = self.maximum() - self.minimum()
        frac = (self.value() - self.minimum()) / span if span > 0 else 0.0
        return round((self.width() - 2) * min(max(frac, 0.0), 1.0))

    def paintEvent(self, _event: QPaintEvent) -> None:
        c = self.colors()
        p = QPainter(self)
        try:
            outer = self.rect().adjusted(0, 0, -1, -1)
            p.setPen(c.border)
            p.setBrush(c.groove)
            p.drawRect(outer)
            inner = self.rect().adjusted(1, 1, -1, -1)
            chunk = QRect(inner.x(), inner.y(), self.fill_width(), inner.height())
            p.fillRect(chunk, c.chunk)
            if not self.isTextVisible():
                return
            text = p.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, max(inner.width() - 8, 0))
            rest = QRect(chunk.right() + 1, inner.y(), inner.right() - chunk.right(), inner.height())
            for part, ink in ((chunk, c.text_on_chunk), (rest, c.text_on_groove)):
                if part.width() <= 0:
                    continue
                p.setClipRect(part)
                p.setPen(ink)
                p.drawText(inner, int(Qt.AlignmentFlag.AlignCenter), text)
        finally:
            p.end()


def setup_table(view: QTableView) -> None:
    view.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QTableView.SelectionMode.SingleSelection)
    view.setAlternatingRowColors(True)
    view.verticalHeader().hide()
    view.verticalHeader().setDefaultSectionSize(26)
    view.horizontalHeader().setHighlightSections(False)
    view.setWordWrap(False)
    view.setShowGrid(False)
    header = view.horizontalHeader()
    header.sectionResized.connect(lambda i, _old, new: _keep_header_text(header, i, new))
    header.sectionCountChanged.connect(lambda *_a: _keep_header_texts(header))
    header.sortIndicatorChanged.connect(
        lambda section, _order: _keep_header_text(header, section, header.sectionSize(section))
    )
    header.installEventFilter(_HeaderTitles(header))  # again once styled: the theme's bold titles
    _keep_header_texts(header)


class _HeaderTitles(QObject):
    """Re-measures a header's titles when it is shown or restyled (a theme switch, a font)."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if isinstance(watched, QHeaderView) and event.type() in (
            QEvent.Type.Show,
            QEvent.Type.StyleChange,
            QEvent.Type.FontChange,
            QEvent.Type.Polish,
        ):
            _keep_header_texts(watched)
        return False


def _keep_header_texts(header: QHeaderView) -> None:
    for section in range(header.count()):
        _keep_header_text(header, section, header.sectionSize(section))


def _keep_header_text(header: QHeaderView, section: int, size: int) -> None:
    """A column set (or dragged) narrower than its title widens back to it (issue 30 d2: "Why they
    conflict", "Relevance", "Pertinence" were cut at 1024x640); a stretched column takes what is
    left, so its title is kept short instead. The stretched last column is held to its title too:
    when the others fill the view, Qt gives it its own last size."""
    if size <= 0 or header.isSectionHidden(section):
        return
    if header.sectionResizeMode(section) != QHeaderView.ResizeMode.Interactive:
        return
    need = header_text_width(header, section)
    if size < need:
        header.resizeSection(section, need)


def header_text_width(header: QHeaderView, section: int) -> int:
    """The width a horizontal header section needs to show its title whole (its style sheet's
    font and padding; the sort arrow's room only on the sorted column)."""
    shown = header.isSortIndicatorShown()
    header.blockSignals(True)
    try:
        header.setSortIndicatorShown(shown and header.sortIndicatorSection() == section)
        need = header.sectionSizeFromContents(section).width()
        header.setSortIndicatorShown(shown)
    finally:
        header.blockSignals(False)
    return need


def confirm(parent: QWidget, title: str, text: str) -> bool:
    """Ask yes/no. Tests replace this function (a modal box would block them)."""
    answer = QMessageBox.question(
        parent,
        title,
        text,
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        QMessageBox.StandardButton.No,
    )
    return answer == QMessageBox.StandardButton.Yes


SAVE, DISCARD, CANCEL = "save", "discard", "cancel"


def ask_unsaved(parent: QWidget, title: str, text: str) -> str:
    """Save / Discard / Cancel for unsaved edits (SAVE, DISCARD or CANCEL; Escape is Cancel).
    Tests replace this function (a modal box would block them)."""
    buttons = QMessageBox.StandardButton
    answer = QMessageBox.warning(parent, title, text, buttons.Save | buttons.Discard | buttons.Cancel, buttons.Save)
    return {buttons.Save: SAVE, buttons.Discard: DISCARD}.get(answer, CANCEL)


class Debouncer(QObject):
    """Calls `fn` once, `ms` after the last `poke()` (live views that follow typing)."""

    def __init__(self, ms: int, fn: Callable[[], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(ms)
        self.timer.timeout.connect(fn)

    def poke(self) -> None:
        self.timer.start()

    def flush(self) -> None:
        """Run now if a call is pending (tests, explicit actions)."""
        if self.timer.isActive():
            self.timer.stop()
            self.timer.timeout.emit()
