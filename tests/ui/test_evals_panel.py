from __future__ import annotations

from PySide6.QtCore import Qt


def test_run_shows_the_footnote_and_grows_the_history(qtbot, window, ui_workspace):
    panel = window.select_panel("evals")
    before = ui_workspace.evals.count()
    assert panel.history_model.total == before
    panel.skill.setCurrentIndex(panel.skill.findData("code-review"))
    assert not panel.run_button.isEnabled()  # nothing to check yet
    qtbot.keyClicks(panel.response, "ok")
    assert panel.run_button.isEnabled()
    qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)

    report = panel.last_report
    assert report is not None and report.results
    assert panel.footnote.isVisible()
    assert panel.footnote.text() == report.footnote
    assert panel.footnote.text().startswith("Eval: ")
    assert panel.results_model.rowCount() == len(report.results)
    assert ui_workspace.evals.count() == before + 1
    assert panel.history_model.total == before + 1
    newest = panel.history_model.rows[0]
    assert newest.source == "app" and newest.skill == "code-review" and newest.response == "ok"
    assert not panel.history_empty.is_empty


def test_history_filters_and_selection(qtbot, window, ui_workspace):
    panel = window.select_panel("evals")
    panel.skill.setCurrentIndex(panel.skill.findData("code-review"))
    panel.response.setPlainText("ok")
    qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
    panel.f_passed.setCurrentIndex(panel.f_passed.findData("passed"))
    assert all(r.passed for r in panel.history_model.rows)
    panel.f_passed.setCurrentIndex(panel.f_passed.findData("failed"))
    assert panel.history_model.rowCount() >= 1
    panel.f_passed.setCurrentIndex(0)
    qtbot.keyClicks(panel.f_search, "no-such-text-anywhere")
    qtbot.waitUntil(lambda: panel.history_empty.is_empty)
    assert "No eval run matches" in panel.history_empty.message.text()
    panel.f_search.clear()
    qtbot.waitUntil(lambda: not panel.history_empty.is_empty)
    panel.history_table.selectRow(0)
    run = panel.history_model.rows[0]
    assert panel.detail_response.toPlainText() == run.response
    assert panel.detail_results.rowCount() == len(run.results)
    assert f"#{run.id}" in panel.detail_title.text()


def test_empty_history_says_what_to_do(qtbot, tmp_path, sync_workers):
    from lorekeeper.ui.main_window import MainWindow
    from lorekeeper.workspace import Workspace

    ws = Workspace.init(tmp_path / "bare")
    try:
        win = MainWindow(ws)
        qtbot.addWidget(win)
        panel = win.select_panel("evals")
        assert panel.history_empty.is_empty
        assert "No eval runs yet" in panel.history_empty.message.text()
        win.close()
    finally:
        ws.close()


def test_history_loads_lazily_by_pages(qtbot, window, ui_workspace):
    from lorekeeper.evals.engine import EvalReport
    from lorekeeper.ui.models.history import PAGE_SIZE

    report = EvalReport(results=(), footnote="")
    for i in range(PAGE_SIZE + 25):
        ui_workspace.evals.record(report, f"r{i}", skill="code-review", project="", version=1, source="test")
    panel = window.select_panel("evals")
    panel.refresh()
    model = panel.history_model
    # The table has its whole length at once (the count is known), but only the first page is read;
    # scrolling to the end reads the last page alone (issue 17: jumpable history tables).
    total = ui_workspace.evals.count()
    assert model.rowCount() == model.total == total
    assert all(model.is_loaded(i) for i in range(PAGE_SIZE)) and not model.is_loaded(total - 1)
    model.PAGE_SIZE = 20  # smaller pages, so "the rows in between" are whole pages
    model.reload()
    panel.history_table.scrollToBottom()
    qtbot.waitUntil(lambda: model.is_loaded(total - 1))
    assert not model.is_loaded(total // 2)  # the rows in between were never read
    oldest = ui_workspace.evals.history(limit=1, order_by="created_at", descending=False)[0]
    assert model.row(total - 1).id == oldest.id
    loaded = [r.id for r in model.rows if r is not None]
    assert len(loaded) == len(set(loaded))
