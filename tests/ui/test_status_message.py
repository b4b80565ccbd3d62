"""The status bar's message is cut with "…" where the permanent widgets begin (issue 30's walk
under X at 1024x640: Qt clipped it mid-word under "Idle", with no sign that text was missing)."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication


def test_a_long_status_message_ends_with_an_ellipsis_before_the_permanent_widgets(window):
    window.resize(1024, 640)
    QApplication.processEvents()
    long = "Conflict #1 resolved: Kept one fact — " + "“Deploy only Tuesday to Thursday, never on a Friday” " * 4
    window.show_message(long)
    bar = window.statusBar()
    shown = bar.currentMessage()
    assert shown.endswith("…") and long.startswith(shown[:-1])
    assert bar.toolTip() == long and window.full_message == long  # the whole text a hover away
    first_permanent = min(w.x() for w in (window.jobs_label, window.model_label, window.keys_label) if w.isVisible())
    assert bar.fontMetrics().horizontalAdvance(shown) < first_permanent
    window.show_message("Approved proposal #1")
    assert bar.currentMessage() == "Approved proposal #1"  # a short one is whole
    assert bar.toolTip() == ""
