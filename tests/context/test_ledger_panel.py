"""The Compression ledger panel, driven through its real buttons (pytest-qt, offscreen)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt


@pytest.fixture
def panel(qtbot, workspace):
    from lorekeeper.ui.bus import ChangeBus
    from lorekeeper.ui.panels.base import AppContext
    from lorekeeper.ui.panels.ledger import LedgerPanel

    p = LedgerPanel(AppContext(workspace, ChangeBus()))
    qtbot.addWidget(p)
    p.resize(1300, 900)
    p.show()
    return p


@pytest.fixture
def sync():
    from lorekeeper.ui import workers

    workers.set_synchronous(True)
    yield
    workers.set_synchronous(False)


def test_pack_fills_the_ledger_and_the_side_by_side_view(qtbot, panel, sample_tree: Path, sync) -> None:
    panel.folder_edit.setText(str(sample_tree))
    panel.task_edit.setText("fix the token validation")
    panel.budget_spin.setValue(1500)
    qtbot.mouseClick(panel.pack_button, Qt.MouseButton.LeftButton)
    snap = panel.snapshot
    assert snap is not None and snap.result.output_tokens <= 1500
    assert panel.model.rowCount() == len(snap.result.entries) == 15  # logo.png is skipped as binary
    assert panel.proxy.index(0, 0).data() == "app/auth.py"  # sorted by relevance
    assert panel.gauge.value() > 0 and "of 128,000 tokens" in panel.gauge.format()
    assert "Pressure: none" in panel.pressure_label.text()
    assert len(panel.chart.bars) >= 2
    assert "done in" in panel.progress.format()
    panel.table.selectRow(0)
    assert panel.sent_view.toPlainText().startswith("=== app/auth.py [")
    assert panel.original_view.toPlainText() == (sample_tree / "app/auth.py").read_text()
    assert panel.pack_button.isEnabled() and not panel.cancel_button.isEnabled()


def test_small_window_shows_eviction_pressure_and_a_plan(qtbot, panel, click_tree: Path, sync) -> None:
    panel.folder_edit.setText(str(click_tree))
    panel.task_edit.setText("prompt ignores the default when hide_input is set")
    panel.budget_spin.setValue(8000)
    panel.window_spin.setValue(8000)
    qtbot.mouseClick(panel.pack_button, Qt.MouseButton.LeftButton)
    assert panel.snapshot is not None and panel.snapshot.pressure == "evict"
    assert "Pressure: evict" in panel.pressure_label.text()
    plan = panel.plan_box.toPlainText()
    assert "→ evict" in plan or "→ signatures" in plan or "→ reference" in plan


def test_cancel_stops_a_running_pack(qtbot, panel, click_tree: Path) -> None:
    panel.folder_edit.setText(str(click_tree))
    panel.mode_combo.setCurrentText("auto")
    qtbot.mouseClick(panel.pack_button, Qt.MouseButton.LeftButton)
    assert panel.cancel_button.isEnabled()
    qtbot.mouseClick(panel.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.worker is None, timeout=30000)
    assert panel.progress.format() == "cancelled"
    assert panel.snapshot is None and panel.model.rowCount() == 0
    assert panel.pack_button.isEnabled()


def test_errors_are_shown_not_raised(qtbot, panel, tmp_path: Path, sync) -> None:
    # no folder: Pack can do nothing, so it is disabled and says why (issue 30 d2); Enter says it too
    assert not panel.pack_button.isEnabled() and "Choose a folder" in panel.pack_button.toolTip()
    qtbot.keyClick(panel.folder_edit, Qt.Key.Key_Return)
    assert "Choose a folder" in panel.message.text()
    panel.folder_edit.setText(str(tmp_path / "missing"))
    assert panel.pack_button.isEnabled()
    qtbot.mouseClick(panel.pack_button, Qt.MouseButton.LeftButton)
    assert "ERR_INVALID_INPUT" in panel.message.text()
    assert panel.progress.format() == "failed"


def test_enter_in_the_folder_field_packs(qtbot, panel, sample_tree: Path, sync) -> None:
    panel.folder_edit.setText(str(sample_tree))
    qtbot.keyClick(panel.folder_edit, Qt.Key.Key_Return)  # a single-field form: Enter submits it
    assert panel.snapshot is not None and panel.model.rowCount() > 0


def test_mode_names_are_shown_in_french_and_stay_english_in_the_data(qtbot, workspace, sample_tree: Path, sync) -> None:
    from PySide6.QtCore import QLocale

    from lorekeeper.ui import i18n
    from lorekeeper.ui.bus import ChangeBus
    from lorekeeper.ui.models.ledger import LedgerFilesModel
    from lorekeeper.ui.panels.base import AppContext
    from lorekeeper.ui.panels.ledger import LedgerPanel

    assert i18n.install("fr") == "fr"
    try:
        p = LedgerPanel(AppContext(workspace, ChangeBus()))
        qtbot.addWidget(p)
        assert p.mode_combo.itemText(0) == "auto" and p.mode_combo.currentData() == "auto"
        p.folder_edit.setText(str(sample_tree))
        p.budget_spin.setValue(300)  # small: some files are sent as references
        qtbot.mouseClick(p.pack_button, Qt.MouseButton.LeftButton)
        col = LedgerFilesModel.COL_MODE
        stored = {p.proxy.index(r, col).data() for r in range(p.proxy.rowCount())}
        shown = {
            p.table.itemDelegateForColumn(col).displayText(p.proxy.index(r, col).data(), QLocale())
            for r in range(p.proxy.rowCount())
        }
        assert "reference" in stored and "référence" in shown and "reference" not in shown  # the data stay English
        assert "référence" in p.chart.legend.text()
    finally:
        i18n.install("en")
