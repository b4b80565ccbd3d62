"""The Learnings panel: filters, add/edit, bulk archive/restore, import/export through its buttons."""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtWidgets import QFileDialog

DEMO_RULES = 12  # data/learnings.md
STOREFRONT_RULES = 3  # and the storefront project's (the React rules)
CITADEL_RULES = 5  # of them, the citadel-v2 project's (the Odoo rules; issue 17: demo learnings carry projects)


def select_rows(panel, rows):
    sm = panel.table.selectionModel()
    sm.clearSelection()
    for r in rows:
        sm.select(
            panel.model.index(r, 0), QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
        )


def test_the_demo_learnings_are_listed_newest_first(qtbot, window):
    panel = window.select_panel("learnings")
    qtbot.waitUntil(lambda: panel.model.total == DEMO_RULES)
    assert panel.count_label.text() == f"{DEMO_RULES} learnings"
    assert panel.model.rows[0].rule == "Cite file:line for every code review finding"
    assert panel.model.data(panel.model.index(0, panel.model.COL_SOURCE)) == "negative"


def test_filters_by_source_and_text(qtbot, window):
    panel = window.select_panel("learnings")
    panel.f_source.setCurrentIndex(panel.f_source.findData("negative"))
    qtbot.waitUntil(lambda: panel.model.total == 5)
    qtbot.keyClicks(panel.f_search, "Odoo")
    panel.search_debounce.flush()
    qtbot.waitUntil(lambda: panel.model.total == 1)
    assert "csrf=False" in panel.model.rows[0].rule
    panel.f_search.setText("no such words anywhere")
    panel.search_debounce.flush()
    qtbot.waitUntil(lambda: panel.empty.is_empty)
    assert "No learning matches" in panel.empty.message.text()


def test_add_edit_and_bulk_archive_restore(qtbot, window, demo_workspace):
    ws = demo_workspace
    panel = window.select_panel("learnings")
    panel.f_project.setCurrentIndex(panel.f_project.findData("citadel-v2"))
    qtbot.waitUntil(lambda: panel.model.total == CITADEL_RULES)

    qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
    dlg = panel.dialog
    assert dlg.chosen_project() == "citadel-v2"
    dlg.rule.setPlainText("Use t-out, never t-raw, in QWeb templates")
    dlg.tags.setText("qweb, security")
    dlg.scope.setCurrentIndex(dlg.scope.findData("domain"))
    qtbot.mouseClick(dlg.save_button, Qt.MouseButton.LeftButton)
    assert not dlg.isVisible()
    qtbot.waitUntil(lambda: panel.model.total == CITADEL_RULES + 1)
    row = panel.model.rows[0]
    assert (row.project, row.tags, row.scope, row.source) == ("citadel-v2", ("qweb", "security"), "domain", "manual")
    assert "Use t-out, never t-raw" in ws.prompts.build("review", "citadel-v2").text

    # an empty rule is refused in the dialog, nothing saved
    select_rows(panel, [0])
    qtbot.mouseClick(panel.edit_button, Qt.MouseButton.LeftButton)
    panel.dialog.rule.setPlainText("   ")
    qtbot.mouseClick(panel.dialog.save_button, Qt.MouseButton.LeftButton)
    assert panel.dialog.isVisible() and "ERR_INVALID_INPUT" in panel.dialog.message.text()
    panel.dialog.rule.setPlainText("Use t-out in QWeb templates; t-raw is removed")
    qtbot.mouseClick(panel.dialog.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(
        lambda: panel.model.rows and panel.model.rows[0].rule == "Use t-out in QWeb templates; t-raw is removed"
    )

    ws.learnings.add("Second citadel rule", project="citadel-v2")
    panel.reload()
    qtbot.waitUntil(lambda: panel.model.total == CITADEL_RULES + 2)
    select_rows(panel, [0, 1])
    assert panel.archive_button.text() == "Archive 2"
    qtbot.mouseClick(panel.archive_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.model.total == CITADEL_RULES)
    assert ws.learnings.count(project="citadel-v2") == CITADEL_RULES
    assert "Use t-out" not in ws.prompts.build("review", "citadel-v2").text

    panel.f_status.setCurrentIndex(panel.f_status.findData("archived"))
    qtbot.waitUntil(lambda: panel.model.total == 2)
    select_rows(panel, [0, 1])
    qtbot.mouseClick(panel.restore_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.model.total == 0)
    assert ws.learnings.count(project="citadel-v2") == CITADEL_RULES + 2


def test_import_and_export_buttons(qtbot, window, demo_workspace, tmp_path, monkeypatch):
    src = tmp_path / "in.md"
    text = "# Learnings\n\n## Rules\n\n- [2026-01-02T03:04:05Z] [fixit] Imported through the panel\n"
    src.write_text(text, encoding="utf-8")
    out = tmp_path / "out.md"
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(src), "")))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(out), "")))
    panel = window.select_panel("learnings")
    panel.f_project.setCurrentIndex(panel.f_project.findData("storefront"))
    qtbot.mouseClick(panel.import_button, Qt.MouseButton.LeftButton)
    assert "Imported 1 learning" in panel.message.text()
    qtbot.waitUntil(lambda: panel.model.total == STOREFRONT_RULES + 1)
    assert {r.project for r in panel.model.rows} == {"storefront"}
    qtbot.mouseClick(panel.export_button, Qt.MouseButton.LeftButton)
    # the project's file: the demo's storefront rules, then the imported one as written
    exported = out.read_text(encoding="utf-8")
    rules = [line for line in exported.splitlines() if line.startswith("- [")]
    assert rules[-1] == text.splitlines()[-1] and len(rules) == STOREFRONT_RULES + 1
    assert exported.startswith("# Learnings\n\n## Rules\n\n") and exported.endswith("\n")


def test_the_table_loads_pages_as_it_scrolls(qtbot, window, demo_workspace):
    from lorekeeper.learnings.service import LearningService
    from lorekeeper.store.models import Learning, utcnow
    from lorekeeper.ui.panels.learnings import PAGE_SIZE

    with demo_workspace.store.write() as s:
        now = utcnow()
        s.add_all(
            Learning(project="bulk", rule=f"bulk rule {i}", source="manual", created_at=now, updated_at=now)
            for i in range(450)
        )
    assert isinstance(demo_workspace.learnings, LearningService)
    panel = window.select_panel("learnings")
    panel.load_projects()
    panel.f_project.setCurrentIndex(panel.f_project.findData("bulk"))
    qtbot.waitUntil(lambda: panel.model.total == 450)
    # issue 17: the count is known at once (the table is 450 rows long), a page is read when shown
    assert panel.model.rowCount() == 450
    assert panel.model.is_loaded(PAGE_SIZE - 1) and not panel.model.is_loaded(PAGE_SIZE)
    panel.table.scrollToBottom()
    qtbot.waitUntil(lambda: panel.model.is_loaded(449))
    panel.table.scrollTo(panel.model.index(PAGE_SIZE + 10, 0))
    qtbot.waitUntil(lambda: all(panel.model.is_loaded(i) for i in range(450)))
    assert len({r.id for r in panel.model.rows}) == 450
