"""The Skills panel's detail tabs: Content (view/edit), Evals (rules + live trial), Versions (diff/restore)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt, QTimer, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTableView,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from lorekeeper.errors import LorekeeperError
from lorekeeper.evals.engine import EvalReport, evaluate
from lorekeeper.evals.rules import Rule, RuleSet
from lorekeeper.skills.files import is_text
from lorekeeper.skills.spec import parse_skill_md
from lorekeeper.ui import widgets
from lorekeeper.ui.diffview import DiffView
from lorekeeper.ui.models.rules import RulesTableModel
from lorekeeper.ui.models.skills import VersionTableModel
from lorekeeper.ui.rule_dialog import RuleDialog, rule_to_dict
from lorekeeper.ui.widgets import Debouncer, EmptyState, MessageBox, label, mono_font, setup_table
from lorekeeper.ui.workers import cancel_key, run_task

if TYPE_CHECKING:
    from lorekeeper.ui.panels.skills import SkillDetail, SkillsPanel

LARGE_RESPONSE = 100_000  # characters; above this the trial evaluation runs in a worker


# ====================================================================== Content
class ContentTab(QWidget):
    def __init__(self, panel: SkillsPanel) -> None:
        super().__init__(panel)
        self.panel = panel
        self.detail: SkillDetail | None = None
        self.saving = False

        self.edit_button = QPushButton(self.tr("Edit"))
        self.edit_button.setCheckable(True)
        self.edit_button.setToolTip(self.tr("Edit the whole SKILL.md (front matter included)"))
        self.edit_button.toggled.connect(self.set_editing)
        self.viewer = QTextBrowser()
        self.viewer.setOpenExternalLinks(True)
        self.editor = QPlainTextEdit()
        self.editor.setObjectName("mono")
        self.editor.setFont(mono_font())
        self.editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.commit_message = QLineEdit()
        self.commit_message.setPlaceholderText(self.tr("Commit message: what changed and why"))
        self.save_button = QPushButton(self.tr("Save as new version"))
        self.save_button.setObjectName("primary")
        self.save_button.setShortcut("Ctrl+S")
        self.save_button.clicked.connect(lambda: self.save())  # not `checked` as `then`
        self.cancel_button = QPushButton(self.tr("Discard"))
        self.cancel_button.clicked.connect(lambda: self.edit_button.setChecked(False))
        self.message = MessageBox()

        editor_box = QWidget()
        el = QVBoxLayout(editor_box)
        el.setContentsMargins(0, 0, 0, 0)
        el.addWidget(self.editor, 1)
        # the commit message on its own line: beside the two buttons it made the Skills panel
        # wider than a 1024x640 window in French (a sideways scroll bar, issue 30 d2)
        el.addWidget(self.commit_message)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.cancel_button)
        row.addWidget(self.save_button)
        el.addLayout(row)

        self.stack = QStackedWidget()
        self.stack.addWidget(self.viewer)
        self.stack.addWidget(editor_box)
        top = QHBoxLayout()
        self.source_label = label("", "hintText")
        top.addWidget(self.source_label, 1)
        top.addWidget(self.edit_button)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.message)
        layout.addWidget(self.stack, 1)

    def show_skill(self, detail: SkillDetail) -> None:
        same = self.detail is not None and (self.detail.info.name, self.detail.info.project) == (
            detail.info.name,
            detail.info.project,
        )
        self.detail = detail
        cur = detail.current
        self.source_label.setText(
            self.tr("SKILL.md · v{version} · {author} · {message}").format(
                version=cur.version, author=cur.author, message=cur.message
            )
        )
        try:
            body = parse_skill_md(cur.content).body
        except LorekeeperError:
            body = cur.content
        self.viewer.setMarkdown(body)
        if not same:
            self.message.clear_message()
            self.edit_button.setChecked(False)
        if not self.edit_button.isChecked():
            self.editor.setPlainText(cur.content)
        self.update_buttons()

    def update_buttons(self) -> None:
        """Edit and Save wait (disabled, saying why) while a job holds the skill (Sage)."""
        gate = self.panel.skill_gate
        gate.enable(self.edit_button, self.detail is not None)
        gate.enable(self.save_button, self.detail is not None and not self.saving)

    @Slot(bool)
    def set_editing(self, on: bool) -> None:
        if on and self.detail is not None:
            self.editor.setPlainText(self.detail.current.content)
            self.commit_message.clear()
            self.message.clear_message()
        self.edit_button.setText(self.tr("Editing…") if on else self.tr("Edit"))
        self.stack.setCurrentIndex(1 if on else 0)
        if on:
            self.editor.setFocus()

    def has_unsaved(self) -> bool:
        """Editing, with a text that differs from the current version's."""
        return (
            self.edit_button.isChecked()
            and self.detail is not None
            and self.editor.toPlainText() != self.detail.current.content
        )

    def resolve_unsaved(self, proceed: Callable[[], object]) -> bool:
        """Before the edit would be lost: Save (then `proceed`, from the event loop, once saved),
        Discard (True: go on) or Cancel (False: the edit and the selection stay)."""
        if not self.has_unsaved() or self.detail is None:
            return True
        info = self.detail.info
        where = self.tr(" (fork for {project})").format(project=info.project) if info.project else ""
        answer = widgets.ask_unsaved(
            self,
            self.tr("Unsaved changes"),
            self.tr("SKILL.md of {name}{where} has unsaved changes. Save them as a new version?").format(
                name=info.name, where=where
            ),
        )
        if answer == widgets.DISCARD:
            self.edit_button.setChecked(False)
            return True
        if answer == widgets.SAVE:
            self.save(then=proceed)
        return False

    def save(self, then: Callable[[], object] | None = None) -> None:
        """Save the editor as a new version; `then` (the operator was leaving) runs once it is saved."""
        if self.detail is None:
            return
        info = self.detail.info
        text = self.editor.toPlainText()
        message = self.commit_message.text().strip() or self.tr("edited in the app")
        reason = self.panel.skill_gate.reason()
        if reason:  # Ctrl+S while Sage holds the skill: the edit stays, the reason is said
            self.panel.ctx.status(reason)
            return
        lib = self.panel.ws.skills
        self.saving = True
        self.update_buttons()

        def finished() -> None:
            self.saving = False
            self.update_buttons()

        run_task(
            lambda: lib.save(info.name, info.project or None, text, None, message),
            name=self.tr("Saving {name}").format(name=info.name),
            on_result=lambda v: self._on_saved(v, then),
            on_error=self.message.show_error,  # the edit stays, and so does the operator
            on_finished=finished,
        )

    def _on_saved(self, version, then: Callable[[], object] | None = None) -> None:
        previous = self.detail.current.version if self.detail else None
        self.edit_button.setChecked(False)
        if version.version == previous:
            self.message.show_ok(self.tr("No change: the content is identical to the current version."))
        else:
            self.message.show_ok(self.tr("Saved as v{version}.").format(version=version.version))
        text = self.tr("Saved {name} v{version}").format(name=version.name, version=version.version)
        if then is None:
            self.panel.changed(text, (version.name, version.project))
        else:  # the operator moves on: do not bring the saved skill back on the next reload
            self.panel.changed(text)
            QTimer.singleShot(0, self, then)


# ====================================================================== Evals (rules)
class RulesTab(QWidget):
    def __init__(self, panel: SkillsPanel) -> None:
        super().__init__(panel)
        self.panel = panel
        self.detail: SkillDetail | None = None
        self.ruleset = RuleSet(rules=())
        self.dialog: RuleDialog | None = None
        self._then: Callable[[], object] | None = None  # after a save asked by the unsaved-edit guard
        self.last_report: EvalReport | None = None

        self.model = RulesTableModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        setup_table(self.table)
        hh = self.table.horizontalHeader()
        hh.setStretchLastSection(True)
        for col, width in ((0, 70), (1, 70), (2, 210), (3, 140), (4, 90)):
            self.table.setColumnWidth(col, width)
        self.table.doubleClicked.connect(lambda _i: self.edit_rule())
        self.table.selectionModel().currentRowChanged.connect(lambda *_: self._update_buttons())
        self.rules_state = EmptyState(self.table, self.tr("No eval rules yet — add one with Add rule…"))

        self.add_button = QPushButton(self.tr("Add rule…"))
        self.add_button.clicked.connect(self.add_rule)
        self.edit_button = QPushButton(self.tr("Edit…"))
        self.edit_button.clicked.connect(self.edit_rule)
        self.delete_button = QPushButton(self.tr("Delete"))
        self.delete_button.clicked.connect(self.delete_rule)
        self.message = MessageBox()

        self.trial = QPlainTextEdit()
        self.trial.setPlaceholderText(
            self.tr("Try a response: paste an answer here and each rule above shows pass or fail.")
        )
        self.footnote = label("", "footnote", wrap=True, selectable=True)
        self.footnote.hide()
        self.debounce = Debouncer(150, self.evaluate_trial, self)
        self.trial.textChanged.connect(self.debounce.poke)

        buttons = QHBoxLayout()
        buttons.addWidget(label(self.tr("Rules"), "sectionTitle"))
        buttons.addStretch(1)
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.edit_button)
        buttons.addWidget(self.delete_button)
        upper = QWidget()
        ul = QVBoxLayout(upper)
        ul.setContentsMargins(0, 0, 0, 0)
        ul.addLayout(buttons)
        ul.addWidget(self.message)
        ul.addWidget(self.rules_state, 1)
        lower = QWidget()
        lo = QVBoxLayout(lower)
        lo.setContentsMargins(0, 0, 0, 0)
        lo.addWidget(label(self.tr("Try a response"), "sectionTitle"))
        lo.addWidget(self.trial, 1)
        lo.addWidget(self.footnote)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(upper)
        split.addWidget(lower)
        split.setSizes([330, 240])
        layout = QVBoxLayout(self)
        layout.addWidget(split)
        self._update_buttons()

    def show_skill(self, detail: SkillDetail) -> None:
        if self.detail is None or (self.detail.info.name, self.detail.info.project) != (
            detail.info.name,
            detail.info.project,
        ):
            self.message.clear_message()
        self.detail = detail
        try:
            self.ruleset = detail.current.rules()
        except LorekeeperError as exc:
            self.ruleset = RuleSet(rules=())
            self.message.show_error(exc)
        self.model.set_rows(list(self.ruleset.rules))
        self.rules_state.set_empty(not self.ruleset.rules)
        self._update_buttons()
        self.evaluate_trial()

    def resolve_unsaved(self, proceed: Callable[[], object]) -> bool:
        """The rule dialog open with changes (Ctrl+Q works over it): Save (its OK: validated, then
        saved as a new version and `proceed`), Discard (closes it) or Cancel."""
        dialog = self.dialog
        if dialog is None or not dialog.isVisible() or not dialog.has_changes():
            return True
        answer = widgets.ask_unsaved(
            dialog,
            self.tr("Unsaved changes"),
            self.tr("The rule being edited has unsaved changes. Save them as a new version?"),
        )
        if answer == widgets.DISCARD:
            dialog.reject()
            return True
        if answer == widgets.SAVE:
            self._then = proceed
            dialog.try_accept()  # an invalid rule keeps the dialog open with its error
        return False

    def selected_rule(self) -> Rule | None:
        return self.model.row(self.table.currentIndex().row())

    def _update_buttons(self) -> None:
        has = self.selected_rule() is not None
        gate = self.panel.skill_gate
        gate.enable(self.add_button, self.detail is not None)
        gate.enable(self.edit_button, has)
        gate.enable(self.delete_button, has)

    # ------------------------------------------------------------------ trial
    @Slot()
    def evaluate_trial(self) -> None:
        text = self.trial.toPlainText()
        cancel_key((self, "trial"))  # a slower check of an older text must not replace this one
        if not text:
            self.last_report = None
            self.model.set_outcomes(None)
            self.footnote.hide()
            return
        rules = self.ruleset
        if len(text) > LARGE_RESPONSE:
            run_task(
                lambda: evaluate(rules, text),
                name=self.tr("Checking the response"),
                key=(self, "trial"),
                on_result=lambda r: self._show_report(r),
            )
        else:
            self._show_report(evaluate(rules, text))

    def _show_report(self, report: EvalReport) -> None:
        self.last_report = report
        self.model.set_outcomes(report.results)
        self.footnote.setObjectName("footnote" if report.footnote else "footnoteOk")
        if report.footnote:
            self.footnote.setText(report.footnote)
        else:
            self.footnote.setText(
                self.tr("Every rule passed — no footnote.") if report.results else self.tr("No rules to check.")
            )
        self.footnote.style().unpolish(self.footnote)
        self.footnote.style().polish(self.footnote)
        self.footnote.show()

    # ------------------------------------------------------------------ edit rules
    def _open_dialog(self, rule: Rule | None) -> None:
        taken = {r.id for r in self.ruleset.rules}
        self.dialog = RuleDialog(self, rule, taken)
        self.dialog.accepted.connect(lambda old=rule: self._on_dialog_accepted(old))
        self.dialog.rejected.connect(self._on_dialog_rejected)
        self.dialog.open()

    @Slot()
    def add_rule(self) -> None:
        if self.detail is not None:
            self._open_dialog(None)

    @Slot()
    def edit_rule(self) -> None:
        rule = self.selected_rule()
        if rule is not None:
            self._open_dialog(rule)

    def _on_dialog_rejected(self) -> None:
        self.dialog = None
        self._then = None

    def _on_dialog_accepted(self, old: Rule | None) -> None:
        assert self.dialog is not None
        new = self.dialog.result_rule
        self.dialog = None
        if new is None:
            return
        rules = list(self.ruleset.rules)
        if old is None:
            rules.append(new)
            what = self.tr("added rule {id}").format(id=new.id)
        else:
            rules = [new if r.id == old.id else r for r in rules]
            what = self.tr("edited rule {id}").format(id=new.id)
        self._write(rules, what)

    @Slot()
    def delete_rule(self) -> None:
        rule = self.selected_rule()
        if rule is None:
            return
        if not widgets.confirm(
            self,
            self.tr("Delete rule"),
            self.tr("Delete rule {id} ({label})? A new version is saved.").format(id=rule.id, label=rule.label),
        ):
            return
        self._write([r for r in self.ruleset.rules if r.id != rule.id], self.tr("deleted rule {id}").format(id=rule.id))

    def _write(self, rules: list[Rule], message: str) -> None:
        if self.detail is None:
            return
        reason = self.panel.skill_gate.reason()
        if reason:  # a rule dialog confirmed after Sage took the skill: nothing is written, the reason is said
            self.message.show_error(reason)
            self._then = None
            return
        info = self.detail.info
        lib = self.panel.ws.skills
        raw = [rule_to_dict(r) for r in rules]
        self.message.clear_message()
        then, self._then = self._then, None

        def saved(v) -> None:
            text = f"{info.name}: {message} (v{v.version})"
            if then is None:
                self.panel.changed(text, (v.name, v.project))
            else:  # the operator was leaving: go on now that it is saved
                self.panel.changed(text)
                QTimer.singleShot(0, self, then)

        run_task(
            lambda: lib.set_rules(info.name, info.project or None, raw, message),
            name=self.tr("Saving rules of {name}").format(name=info.name),
            on_result=saved,
            on_error=self.message.show_error,
        )


# ====================================================================== Versions
def version_text(v) -> str:
    """What a version holds, as compared: SKILL.md, then the rules file."""
    evals = v.evals.strip()
    return (
        v.content.rstrip("\n")
        + (QCoreApplication.translate("skill_tabs", "\n\n# ---- evals.json ----\n") + evals if evals else "")
        + "\n"
    )


def file_text(f, blobs: dict[str, bytes]) -> str:
    """A folder file as the diff shows it: its text, or a line saying what binary file it is."""
    if f is None:
        return ""
    data = blobs.get(f.sha256, b"")
    mode = QCoreApplication.translate("skill_tabs", "(mode {mode:o})\n").format(mode=f.mode)
    if is_text(data):
        return mode + data.decode("utf-8")
    return mode + QCoreApplication.translate("skill_tabs", "binary file, {size} bytes, sha256 {0}\n").format(
        f.sha256[:16], size=f.size
    )


class VersionsTab(QWidget):
    def __init__(self, panel: SkillsPanel) -> None:
        super().__init__(panel)
        self.panel = panel
        self.detail: SkillDetail | None = None

        self.model = VersionTableModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        setup_table(self.table)
        self.table.horizontalHeader().setStretchLastSection(True)
        for col, width in ((0, 110), (1, 130), (2, 100)):
            self.table.setColumnWidth(col, width)
        self.table.setMaximumHeight(170)
        self.table.selectionModel().currentRowChanged.connect(self._on_version_selected)

        self.left_combo = QComboBox()
        self.right_combo = QComboBox()
        self.left_combo.currentIndexChanged.connect(self._versions_changed)
        self.right_combo.currentIndexChanged.connect(self._versions_changed)
        self.file_combo = QComboBox()  # SKILL.md + rules, or one other file of the skill's folder
        # combos sized by a few characters, not by their longest entry (a long file path or version
        # label would force the whole panel wider than a laptop window); the popup shows them whole
        for combo, chars in ((self.left_combo, 6), (self.right_combo, 6), (self.file_combo, 12)):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(chars)
        self.file_combo.currentIndexChanged.connect(self.update_diff)
        self.restore_button = QPushButton(self.tr("Restore selected version…"))
        self.restore_button.clicked.connect(self.restore_selected)
        self.summary = label("", "hintText")
        self.message = MessageBox()

        self.diff = DiffView()
        self.diff.install_shortcuts(self)  # Alt+Down/Up, Alt+V while the focus is in the tab
        self.diff.summary.hide()  # the tab's own summary line says it (and what "no difference" means)
        self.diff.ready.connect(self._diff_ready)
        self._same_text = ""  # what the summary says when the diff shows no difference

        compare = QHBoxLayout()  # two rows (versions, then file): one row forced the panel wider than a laptop's
        compare.addWidget(label(self.tr("Compare"), "sectionTitle"))
        compare.addWidget(self.left_combo)
        compare.addWidget(label("with"))
        compare.addWidget(self.right_combo)
        compare.addStretch(1)
        which = QHBoxLayout()
        which.addWidget(label(self.tr("File")))
        which.addWidget(self.file_combo, 1)
        which.addWidget(self.diff.bar)  # previous/next change, split/unified, own window
        self.summary.hide()  # said in the diff's title row, where it has room at 1024 px
        history = QHBoxLayout()  # Restore sits by the history it acts on: the compare row stays narrow
        history.addWidget(label(self.tr("History (newest first)"), "sectionTitle"), 1)
        history.addWidget(self.restore_button)

        layout = QVBoxLayout(self)
        layout.addLayout(history)
        layout.addWidget(self.table)
        layout.addWidget(self.message)
        layout.addLayout(compare)
        layout.addLayout(which)
        layout.addWidget(self.diff, 1)

    def show_skill(self, detail: SkillDetail) -> None:
        same = self.detail is not None and (self.detail.info.name, self.detail.info.project) == (
            detail.info.name,
            detail.info.project,
        )
        if not same:
            self.message.clear_message()
        self.detail = detail
        self.model.set_rows(detail.versions)
        for combo in (self.left_combo, self.right_combo):
            combo.blockSignals(True)
            combo.clear()
            for v in detail.versions:
                combo.addItem(f"v{v.version}" + (self.tr(" (current)") if v.current else ""), v.version)
            combo.blockSignals(False)
        self.table.selectionModel().blockSignals(True)
        self.table.selectRow(0)
        self.table.selectionModel().blockSignals(False)
        self._on_version_selected()

    def update_restore(self) -> None:
        """Restore: a past version selected, and no job holding the skill (Sage: it waits, saying why)."""
        v = self.selected_version()
        self.panel.skill_gate.enable(self.restore_button, v is not None and self.detail is not None and not v.current)

    def version(self, number: int | None):
        if self.detail is None or number is None:
            return None
        return next((v for v in self.detail.versions if v.version == number), None)

    def selected_version(self):
        return self.model.row(self.table.currentIndex().row())

    @Slot()
    def _on_version_selected(self, *_args: object) -> None:
        v = self.selected_version()
        if v is None or self.detail is None:
            self.update_restore()
            return
        versions = self.detail.versions  # newest first
        if v.current:  # what the latest change did
            idx = versions.index(v)
            left, right = (versions[idx + 1] if idx + 1 < len(versions) else v), v
        else:  # what restoring it would change
            left, right = v, next((x for x in versions if x.current), versions[0])
        self.left_combo.blockSignals(True)
        self.right_combo.blockSignals(True)
        self.left_combo.setCurrentIndex(self.left_combo.findData(left.version))
        self.right_combo.setCurrentIndex(self.right_combo.findData(right.version))
        self.left_combo.blockSignals(False)
        self.right_combo.blockSignals(False)
        self.update_restore()
        self.restore_button.setText(
            self.tr("Restore v{version}…").format(version=v.version)
            if not v.current
            else self.tr("Restore selected version…")
        )
        self._versions_changed()

    @Slot()
    def _versions_changed(self, *_args: object) -> None:
        """List the files of both versions (changed ones marked), keeping the chosen file if it is there."""
        a = self.version(self.left_combo.currentData())
        b = self.version(self.right_combo.currentData())
        keep = self.file_combo.currentData()
        self.file_combo.blockSignals(True)
        self.file_combo.clear()
        self.file_combo.addItem(self.tr("SKILL.md + rules"), None)
        if a is not None and b is not None:
            fa = {f.path: f for f in a.files}
            fb = {f.path: f for f in b.files}
            for path in sorted(set(fa) | set(fb)):
                x, y = fa.get(path), fb.get(path)
                changed = x is None or y is None or (x.sha256, x.mode) != (y.sha256, y.mode)
                self.file_combo.addItem(("• " if changed else "") + path, path)
        idx = self.file_combo.findData(keep) if keep is not None else 0
        self.file_combo.setCurrentIndex(max(idx, 0))
        self.file_combo.blockSignals(False)
        self.update_diff()

    @Slot()
    def update_diff(self) -> None:
        a = self.version(self.left_combo.currentData())
        b = self.version(self.right_combo.currentData())
        if a is None or b is None or self.detail is None:
            self.diff.clear()
            self._say("")
            return
        path = self.file_combo.currentData()
        if path is not None:
            self._show_file_diff(a, b, path)
            return
        self.diff.set_titles(self._title(a.version), self._title(b.version))
        if a.version == b.version:
            self._same_text = (
                self.tr("Only one version: nothing to compare yet.")
                if len(self.detail.versions) == 1
                else self.tr("Same version on both sides.")
            )
        else:
            self._same_text = self.tr("No difference.")
            lo, hi = sorted((a.version, b.version))
            if self.model.restores.get(hi) is not None and self.model.restores[hi] <= lo:
                # v3 against v5 that restores it: the versions between changed nothing in the end
                self._same_text = self.tr("No net change: v{0} restores v{1}.").format(hi, self.model.restores[hi])
        self.diff.show_diff(version_text(a), version_text(b))  # a big one in a job: "computing diff…"
        if self.diff.pending:
            self._say(self.tr("computing diff…"))

    def _title(self, version: int) -> str:
        """ "v5 (restores v3)" in the diff's titles for a version that brings an earlier one back."""
        restored = self.model.restores.get(version)
        return f"v{version}" + (self.tr(" (restores v{0})").format(restored) if restored is not None else "")

    def _diff_ready(self, diff) -> None:
        self._say(diff.summary if diff.hunks else self._same_text)

    def _say(self, text: str) -> None:
        self.summary.setText(text)
        self.diff.canvas.set_note(text)

    def _show_file_diff(self, a, b, path: str) -> None:
        """One file of the folder in both versions: its bytes come from the store in a worker."""
        fa = next((f for f in a.files if f.path == path), None)
        fb = next((f for f in b.files if f.path == path), None)
        lib = self.panel.ws.skills

        def load() -> tuple[str, str]:
            blobs = lib.blobs([f.sha256 for f in (fa, fb) if f is not None])
            return file_text(fa, blobs), file_text(fb, blobs)

        def show(texts: tuple[str, str]) -> None:
            self.diff.set_titles(f"v{a.version}: {path}", f"v{b.version}: {path}")
            self._same_text = self.tr("{path}: no difference.").format(path=path)
            self.diff.show_diff(*texts)

        run_task(
            load,
            key=(id(self), "file-diff"),
            name=self.tr("Loading {path}").format(path=path),
            visible=False,
            on_result=show,
        )

    @Slot()
    def restore_selected(self) -> None:
        v = self.selected_version()
        if v is None or v.current or self.detail is None:
            return
        info = self.detail.info
        if not widgets.confirm(
            self,
            self.tr("Restore version"),
            self.tr("Restore {name} v{version}? It becomes a new version; history is kept.").format(
                name=info.name, version=v.version
            ),
        ):
            return
        lib = self.panel.ws.skills
        run_task(
            lambda: lib.restore(info.name, info.project or None, v.version),
            name=self.tr("Restoring {name} v{version}").format(name=info.name, version=v.version),
            on_result=lambda nv: self._on_restored(nv, v.version),
            on_error=self.message.show_error,
        )

    def _on_restored(self, nv, old: int) -> None:
        self.message.show_ok(self.tr("Restored v{old} as v{version}.").format(old=old, version=nv.version))
        self.panel.changed(
            self.tr("Restored {name} v{old} as v{version}").format(name=nv.name, old=old, version=nv.version),
            (nv.name, nv.project),
        )
