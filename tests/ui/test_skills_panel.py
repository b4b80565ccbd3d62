from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

SKILL = "code-review"


def skills_panel(window):
    panel = window.select_panel("skills")
    assert panel.select_skill(SKILL)
    assert panel.detail is not None and panel.detail.info.name == SKILL
    return panel


def click(qtbot, widget) -> None:
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)


def test_search_filters_the_explorer(qtbot, window):
    panel = window.select_panel("skills")
    everything = panel.model.rowCount()
    assert everything >= 3
    qtbot.keyClicks(panel.search, "migration")
    qtbot.waitUntil(lambda: panel.model.rowCount() < everything)
    names = {r.name for r in panel.model.rows}
    assert "db-migrations" in names
    assert "code-review" not in names
    panel.search.clear()
    qtbot.keyClicks(panel.search, "zzz-no-such-skill")
    qtbot.waitUntil(lambda: panel.explorer.is_empty)
    assert "zzz-no-such-skill" in panel.explorer.message.text()


def test_forks_are_shown_distinctly(qtbot, window, ui_workspace):
    ui_workspace.skills.fork(SKILL, "ui-test-proj")
    panel = window.select_panel("skills")
    panel.refresh()
    labels = [panel.model.data(panel.model.index(i, 0)) for i in range(panel.model.rowCount())]
    assert any(label.startswith(SKILL) and "ui-test-proj" in label and label != SKILL for label in labels)
    assert panel.select_skill(SKILL, "ui-test-proj")
    assert panel.library.delete_fork_button.isEnabled() and not panel.library.fork_button.isEnabled()


def test_edit_and_save_creates_a_new_version(qtbot, window, ui_workspace):
    panel = skills_panel(window)
    tab = panel.content_tab
    before = len(ui_workspace.skills.versions(SKILL))
    click(qtbot, tab.edit_button)
    assert tab.stack.currentIndex() == 1
    tab.editor.moveCursor(tab.editor.textCursor().MoveOperation.End)
    qtbot.keyClick(tab.editor, Qt.Key.Key_Return)
    qtbot.keyClicks(tab.editor, "Always end with a one-line summary.")
    qtbot.keyClicks(tab.commit_message, "ask for a summary line")
    click(qtbot, tab.save_button)

    versions = ui_workspace.skills.versions(SKILL)
    assert len(versions) == before + 1
    assert versions[0].message == "ask for a summary line"
    assert "one-line summary" in versions[0].content
    assert tab.stack.currentIndex() == 0  # back to the rendered view
    assert "one-line summary" in tab.viewer.toPlainText()
    vt = panel.versions_tab
    assert vt.model.rowCount() == before + 1
    assert vt.model.rows[0].message == "ask for a summary line"
    assert vt.model.rows[0].current


def test_invalid_edit_shows_the_error_and_saves_nothing(qtbot, window, ui_workspace):
    panel = skills_panel(window)
    tab = panel.content_tab
    before = len(ui_workspace.skills.versions(SKILL))
    click(qtbot, tab.edit_button)
    broken = tab.editor.toPlainText().replace(f"name: {SKILL}", "name: Not A Valid Name", 1)
    assert broken != tab.editor.toPlainText()
    tab.editor.setPlainText(broken)
    click(qtbot, tab.save_button)

    assert tab.message.isVisible()
    assert "ERR_INVALID_SPEC" in tab.message.text()
    assert "name" in tab.message.text()
    assert tab.stack.currentIndex() == 1  # still editing: nothing lost
    assert len(ui_workspace.skills.versions(SKILL)) == before


def test_add_rule_then_try_a_response_shows_it_failing(qtbot, window, ui_workspace):
    panel = skills_panel(window)
    panel.tabs.setCurrentWidget(panel.rules_tab)
    tab = panel.rules_tab
    before_rules = tab.model.rowCount()
    click(qtbot, tab.add_button)
    dialog = tab.dialog
    assert dialog is not None and dialog.isVisible()
    qtbot.keyClicks(dialog.id_edit, "ui-001")
    qtbot.keyClicks(dialog.name_edit, "Mentions rollback")
    dialog.type_combo.setCurrentText("string_contains")
    dialog.severity_combo.setCurrentText("warning")
    qtbot.keyClicks(dialog.value_edit, "rollback")
    click(qtbot, dialog.buttons.button(QDialogButtonBox.StandardButton.Ok))

    assert not dialog.isVisible()
    rules = ui_workspace.skills.rules(SKILL)
    assert [r.id for r in rules.rules][-1] == "ui-001"
    assert tab.model.rowCount() == before_rules + 1

    qtbot.keyClicks(tab.trial, "Looks fine to me.")
    qtbot.waitUntil(lambda: tab.footnote.isVisible() and tab.last_report is not None)
    assert tab.model.outcome("ui-001") is False
    assert tab.footnote.text().startswith("Eval: ")
    assert "⚠️ Mentions rollback" in tab.footnote.text()

    tab.trial.setPlainText("We can rollback safely.")
    qtbot.waitUntil(lambda: tab.model.outcome("ui-001") is True)
    assert "Mentions rollback" not in tab.footnote.text()


def test_invalid_rule_is_refused_by_the_dialog(qtbot, window, ui_workspace):
    panel = skills_panel(window)
    tab = panel.rules_tab
    before = len(ui_workspace.skills.versions(SKILL))
    click(qtbot, tab.add_button)
    dialog = tab.dialog
    qtbot.keyClicks(dialog.id_edit, "bad-1")
    dialog.type_combo.setCurrentText("regex_match")
    qtbot.keyClicks(dialog.pattern_edit, "(unclosed")
    click(qtbot, dialog.buttons.button(QDialogButtonBox.StandardButton.Ok))
    assert dialog.isVisible()
    assert "ERR_INVALID_SPEC" in dialog.error.text() and "bad-1" in dialog.error.text()
    dialog.reject()
    assert len(ui_workspace.skills.versions(SKILL)) == before


def test_delete_rule_writes_a_version(qtbot, window, ui_workspace, confirm_yes):
    panel = skills_panel(window)
    tab = panel.rules_tab
    count = tab.model.rowCount()
    assert count > 0
    first = tab.model.rows[0].id
    tab.table.selectRow(0)
    click(qtbot, tab.delete_button)
    assert confirm_yes == ["Delete rule"]
    assert first not in [r.id for r in ui_workspace.skills.rules(SKILL).rules]
    assert tab.model.rowCount() == count - 1


def test_restore_an_old_version(qtbot, window, ui_workspace, confirm_yes):
    original = ui_workspace.skills.get(SKILL).content
    ui_workspace.skills.save(SKILL, None, original + "\nA later paragraph.\n", None, "later edit")
    panel = window.select_panel("skills")
    panel.refresh()
    assert panel.select_skill(SKILL)
    vt = panel.versions_tab
    panel.tabs.setCurrentWidget(vt)
    assert vt.model.rowCount() == 2
    vt.table.selectRow(1)  # v1
    assert vt.restore_button.isEnabled()
    assert "1 change, +" in vt.summary.text()
    assert "A later paragraph." not in vt.diff.left_text()
    assert "A later paragraph." in vt.diff.right_text()  # selected v1 against the current v2
    click(qtbot, vt.restore_button)

    assert confirm_yes == ["Restore version"]
    current = ui_workspace.skills.get(SKILL)
    assert current.version == 3
    assert current.content == original
    assert vt.model.rowCount() == 3
    assert vt.model.rows[0].message == "restored v1"


def test_import_a_skill_folder(qtbot, window, ui_workspace, tmp_path):
    folder = tmp_path / "imports" / "ui-import-demo"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        "---\nname: ui-import-demo\ndescription: A skill imported from the app.\n"
        'metadata:\n  triggers: "import demo"\n---\n# Demo\n',
        encoding="utf-8",
    )
    panel = window.select_panel("skills")
    panel.import_path(folder)
    assert ui_workspace.skills.exists("ui-import-demo")
    assert "ui-import-demo" in {r.name for r in panel.model.rows}
    assert "1 created" in panel.explorer_message.text()


def test_import_asks_with_a_diff_when_the_name_exists(qtbot, window, ui_workspace, tmp_path):
    folder = tmp_path / "imports" / "code-review"
    (folder / "scripts").mkdir(parents=True)
    (folder / "SKILL.md").write_text("---\nname: code-review\ndescription: Another review.\n---\n# Other\n")
    (folder / "scripts" / "run.sh").write_text("#!/bin/sh\necho hi\n")
    before = ui_workspace.skills.get("code-review")
    panel = window.select_panel("skills")
    panel.import_path(folder)
    dialog = panel.library.conflict_dialog
    assert dialog is not None and "+# Other" in dialog.diff.toPlainText()
    assert "scripts/run.sh" in dialog.diff.toPlainText()
    assert ui_workspace.skills.get("code-review").version == before.version  # nothing replaced yet
    dialog.new_name.setText("other-review")
    qtbot.mouseClick(dialog.rename_button, Qt.MouseButton.LeftButton)
    assert panel.library.conflict_dialog is None
    assert ui_workspace.skills.get("code-review").content == before.content
    renamed = ui_workspace.skills.get("other-review")
    assert [f.path for f in renamed.files] == ["scripts/run.sh"]
    assert "1 renamed" in panel.explorer_message.text()


def test_versions_tab_diffs_each_file(qtbot, window, ui_workspace, tmp_path):
    src = tmp_path / "imports" / "filed"
    (src / "scripts").mkdir(parents=True)
    (src / "SKILL.md").write_text("---\nname: filed\ndescription: Has files.\n---\n# Filed\n")
    (src / "scripts" / "run.sh").write_text("#!/bin/sh\necho one\n")
    ui_workspace.skills.import_path(src.parent)
    (src / "scripts" / "run.sh").write_text("#!/bin/sh\necho two\n")
    ui_workspace.skills.import_path(src.parent)
    panel = window.select_panel("skills")
    qtbot.waitUntil(lambda: panel.select_skill("filed", ""))
    tab = panel.versions_tab
    qtbot.waitUntil(lambda: tab.file_combo.count() == 2)
    items = [tab.file_combo.itemText(i) for i in range(tab.file_combo.count())]
    assert items == ["SKILL.md + rules", "• scripts/run.sh"]
    tab.file_combo.setCurrentIndex(1)
    assert "echo one" in tab.diff.left_text() and "echo two" in tab.diff.right_text()
