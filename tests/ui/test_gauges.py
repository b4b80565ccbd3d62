"""Gauges read in both themes (issue 17, deliverable 5): the text over a gauge's fill and over its
groove has a WCAG contrast of at least 4.5:1 for every pressure level, light and dark."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from lorekeeper.ui.theme import (
    DARK,
    LIGHT,
    PRESSURE_LEVELS,
    _palette,
    apply_theme,
    contrast_ratio,
    current_mode,
    gauge_colors,
)

MODES = (LIGHT, DARK)


@pytest.fixture
def themed(qapp):
    before = current_mode()
    yield lambda mode: apply_theme(QApplication.instance(), mode)
    apply_theme(QApplication.instance(), before)


def test_the_contrast_ratio_is_wcags():
    assert contrast_ratio(QColor("#000000"), QColor("#ffffff")) == pytest.approx(21.0)
    assert contrast_ratio(QColor("#777777"), QColor("#ffffff")) == pytest.approx(4.48, abs=0.01)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("pressure", sorted(PRESSURE_LEVELS))
def test_gauge_text_reads_on_its_fill_and_on_its_groove(mode, pressure):
    c = gauge_colors(PRESSURE_LEVELS[pressure], mode)
    assert contrast_ratio(c.text_on_chunk, c.chunk) >= 4.5, (mode, pressure, c.chunk.name(), c.text_on_chunk.name())
    assert contrast_ratio(c.text_on_groove, c.groove) >= 4.5, (mode, pressure, c.groove.name())


@pytest.mark.parametrize("mode", MODES)
def test_plain_progress_bars_read_in_both_themes(mode):
    """The status bar's, Purge's and the review queue's bars are Fusion's: HighlightedText over
    the Highlight fill, Text over the Base groove."""
    p = _palette(mode)
    assert contrast_ratio(p.color(QPalette.ColorRole.HighlightedText), p.color(QPalette.ColorRole.Highlight)) >= 4.5
    assert contrast_ratio(p.color(QPalette.ColorRole.Text), p.color(QPalette.ColorRole.Base)) >= 4.5


def _near(a: QColor, b: QColor, tol: int = 24) -> bool:
    return max(abs(a.red() - b.red()), abs(a.green() - b.green()), abs(a.blue() - b.blue())) <= tol


@pytest.mark.parametrize("mode", MODES)
def test_the_ledger_gauge_paints_those_colours(qtbot, themed, mode):
    from lorekeeper.ui.widgets import Gauge

    themed(mode)
    for pressure, level in PRESSURE_LEVELS.items():
        gauge = Gauge()
        qtbot.addWidget(gauge)
        gauge.resize(320, 22)
        gauge.setRange(0, 1000)
        gauge.setValue(500)
        gauge.setFormat("9,000 of 12,000 tokens (75.0%)")
        gauge.set_level(level)
        c = gauge.colors()
        assert c == gauge_colors(level, mode)
        image = gauge.grab().toImage()
        scale = image.width() / gauge.width()
        fill_end = int(gauge.fill_width() * scale)
        mid = image.height() // 2
        assert image.pixelColor(int(3 * scale), int(3 * scale)) == c.chunk, pressure
        assert image.pixelColor(image.width() - int(4 * scale), int(3 * scale)) == c.groove, pressure
        # the text is drawn in the readable colour on each side of the fill's edge
        left = [
            image.pixelColor(x, y) for x in range(int(20 * scale), fill_end - 2) for y in range(2, image.height() - 2)
        ]
        right = [
            image.pixelColor(x, y)
            for x in range(fill_end + 2, image.width() - 20)
            for y in range(2, image.height() - 2)
        ]
        assert any(_near(px, c.text_on_chunk) for px in left), pressure
        assert any(_near(px, c.text_on_groove) for px in right), pressure
        assert image.pixelColor(fill_end - 1, mid) != c.groove


def test_the_ledger_uses_the_readable_gauge(window):
    from lorekeeper.ui.widgets import Gauge

    panel = window.select_panel("ledger")
    assert isinstance(panel.gauge, Gauge) and not panel.gauge.styleSheet()
