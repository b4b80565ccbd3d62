"""History tables sorted by the store (issue 17, deliverable 5): a header click orders every row
in SQL, the count is shown, Ctrl+Home / Ctrl+End reach the first / last row of that order."""

from __future__ import annotations

from datetime import timedelta

import pytest
from PySide6.QtCore import QPoint, Qt

from lorekeeper.errors import InvalidInputError

RUNS = 3000


def _click_header(qtbot, table, column: int) -> None:
    header = table.horizontalHeader()
    x = header.sectionViewportPosition(column) + header.sectionSize(column) // 2
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, header.height() // 2))


def _bulk_runs(ws, n: int = RUNS) -> None:
    from lorekeeper.store.models import EvalRun, utcnow

    now = utcnow()
    with ws.store.write() as s:
        s.add_all(
            EvalRun(
                skill=f"bulk-{i % 7}",
                project="",
                source="bulk",
                response=f"response {i}",
                passed=i % 3 != 0,
                rules_total=12,
                rules_failed=(i * 7919) % 11,  # 0..10, scattered over the ids
                created_at=now - timedelta(minutes=i),
            )
            for i in range(n)
        )


def test_a_header_click_sorts_the_whole_history_and_ctrl_end_reaches_its_last_row(qtbot, window):
    ws = window.ws
    _bulk_runs(ws)
    panel = window.select_panel("evals")
    panel.refresh()
    model, table = panel.history_model, panel.history_table
    total = ws.evals.count()
    assert total > RUNS and model.rowCount() == total
    assert panel.history_count.text() == f"{total:,} runs"  # "3,023 runs"
    header = table.horizontalHeader()
    assert header.isSortIndicatorShown() and header.sortIndicatorSection() == model.COL_TIME

    _click_header(qtbot, table, model.COL_FAILED)
    assert header.sortIndicatorSection() == model.COL_FAILED
    descending = header.sortIndicatorOrder() == Qt.SortOrder.DescendingOrder
    extremes = (0, 10) if not descending else (10, 0)
    assert model.row(0).rules_failed == extremes[0]
    assert table.currentIndex().row() <= 0  # the page reset to the top
    table.setFocus()
    qtbot.keyClick(table, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: table.currentIndex().row() == total - 1)
    last = model.row(total - 1)
    assert last.rules_failed == extremes[1]
    # the last row is the store's last in this order (ties by id), and the middle was never read
    expected = ws.evals.history(limit=1, order_by="rules_failed", descending=not descending)[0]
    assert last.id == expected.id
    assert sum(r is not None for r in model.rows) <= 2 * model.PAGE_SIZE
    assert panel.detail_title.text() != "Selected run"  # the detail shows the selected (loaded) run

    _click_header(qtbot, table, model.COL_FAILED)  # again: the other way round
    assert header.sortIndicatorOrder() != (Qt.SortOrder.DescendingOrder if descending else Qt.SortOrder.AscendingOrder)
    assert model.row(0).rules_failed == extremes[1]
    qtbot.keyClick(table, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: table.currentIndex().row() == total - 1)
    assert model.row(total - 1).rules_failed == extremes[0]
    qtbot.keyClick(table, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    assert table.currentIndex().row() == 0 and model.row(0).rules_failed == extremes[1]
    assert panel.history_count.text() == f"{total:,} runs"


def test_the_learnings_table_sorts_by_rule_in_the_store(qtbot, window):
    from lorekeeper.store.models import Learning, utcnow

    with window.ws.store.write() as s:
        now = utcnow()
        s.add_all(
            Learning(
                project="bulk", rule=f"rule {(i * 37) % 1500:04d}", source="manual", created_at=now, updated_at=now
            )
            for i in range(1500)
        )
    panel = window.select_panel("learnings")
    panel.load_projects()
    panel.f_project.setCurrentIndex(panel.f_project.findData("bulk"))
    qtbot.waitUntil(lambda: panel.model.total == 1500)
    assert panel.count_label.text() == "1,500 learnings"
    _click_header(qtbot, panel.table, panel.model.COL_RULE)
    order = panel.table.horizontalHeader().sortIndicatorOrder()
    first, last = ("rule 0000", "rule 1499") if order == Qt.SortOrder.AscendingOrder else ("rule 1499", "rule 0000")
    assert panel.model.row(0).rule == first
    panel.table.setFocus()
    qtbot.keyClick(panel.table, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: panel.table.currentIndex().row() == 1499)
    assert panel.model.row(1499).rule == last
    assert panel.edit_button.isEnabled()  # the selected row is a loaded learning


def test_sort_columns_are_a_whitelist(ui_workspace):
    with pytest.raises(InvalidInputError, match="cannot sort by"):
        ui_workspace.evals.history(order_by="response; DROP TABLE eval_runs")
    with pytest.raises(InvalidInputError, match="cannot sort by"):
        ui_workspace.learnings.list(order_by="id desc")
    forward = [r.id for r in ui_workspace.evals.history(order_by="skill", descending=False, limit=1000)]
    backward = [r.id for r in ui_workspace.evals.history(order_by="skill", descending=True, limit=1000)]
    assert forward == backward[::-1]  # ties broken by id both ways: the reverse order is exact


def test_in_memory_tables_sort_on_a_header_click_and_keep_the_order_on_reload(qtbot, window):
    panel = window.select_panel("quality")
    model, table = panel.model, panel.table
    assert len(model.rows) > 2
    header = table.horizontalHeader()
    assert header.sortIndicatorSection() == -1  # the service's order until a click
    _click_header(qtbot, table, model.COL_SUCCESS)
    descending = header.sortIndicatorOrder() == Qt.SortOrder.DescendingOrder
    rates = [m.success_rate for m in model.rows]
    known = [r for r in rates if r is not None]
    assert known == sorted(known, reverse=descending)
    assert rates[: len(known)] == known  # skills without a rate come last, whichever the direction
    table.selectRow(len(model.rows) - 1)
    chosen = model.rows[-1].skill
    _click_header(qtbot, table, model.COL_SUCCESS)
    assert [m.success_rate for m in model.rows if m.success_rate is not None] == sorted(known, reverse=not descending)
    assert model.row(table.currentIndex().row()).skill == chosen  # the selection follows its row
    panel.reload()
    assert [m.success_rate for m in model.rows if m.success_rate is not None] == sorted(known, reverse=not descending)


def test_the_facts_queue_sorts_by_confidence(qtbot, window):
    panel = window.select_panel("facts")
    model, table = panel.model, panel.table
    qtbot.waitUntil(lambda: model.total is not None and model.total > 3)
    before = [f.id for f in model.rows]
    _click_header(qtbot, table, model.COL_CONF)
    descending = table.horizontalHeader().sortIndicatorOrder() == Qt.SortOrder.DescendingOrder
    confidences = [f.confidence for f in model.rows]
    assert confidences == sorted(confidences, reverse=descending)
    assert sorted(f.id for f in model.rows) == sorted(before)  # the same queue, reordered
    assert table.horizontalHeader().sortIndicatorSection() == model.COL_CONF


def test_archiving_a_selection_of_rows_not_shown_yet_archives_them_all(qtbot, window):
    from lorekeeper.store.models import Learning, utcnow

    with window.ws.store.write() as s:
        now = utcnow()
        s.add_all(
            Learning(project="bulk", rule=f"bulk rule {i}", source="manual", created_at=now, updated_at=now)
            for i in range(120)
        )
    panel = window.select_panel("learnings")
    panel.model.PAGE_SIZE = 25  # several pages, most not read yet
    panel.load_projects()
    panel.f_project.setCurrentIndex(panel.f_project.findData("bulk"))
    qtbot.waitUntil(lambda: panel.model.total == 120)
    assert not panel.model.is_loaded(119)
    panel.table.selectAll()
    qtbot.mouseClick(panel.archive_button, Qt.MouseButton.LeftButton)
    assert window.ws.learnings.count(project="bulk", status="archived") == 120
