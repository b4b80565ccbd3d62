"""Playground: talk to the configured model through Lorekeeper and teach it.

Pick a project, type a message: the routed skills and the assembled prompt (collapsible) follow
as you type. Send streams the answer, then its eval footnote. Under the answer: Fix It (the
correction becomes a learning and the fix request goes out at once), thumbs up, thumbs down (an
optional reason; a learning and negative feedback). The next prompt carries the new learning:
the preview shows it.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass

from PySide6.QtCore import Qt, Slot
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from lorekeeper.evals.engine import RuleResult, evaluate
from lorekeeper.evals.footnote import footnote as make_footnote
from lorekeeper.learnings.service import LearningInfo
from lorekeeper.llm.base import LLMUnavailableError, ProviderStatus
from lorekeeper.prompt import AssembledPrompt
from lorekeeper.reflect import Answer, fixit_rule
from lorekeeper.ui.i18n import QT_TRANSLATE_NOOP, tr_const
from lorekeeper.ui.panels.base import AppContext, Panel
from lorekeeper.ui.panels.llm_settings import LLMSettingsDialog
from lorekeeper.ui.widgets import Debouncer, MessageBox, label, mono_font
from lorekeeper.ui.workers import Worker, run_task

NO_PROJECT = QT_TRANSLATE_NOOP("playground", "No project")
TRUNCATED_LABEL = QT_TRANSLATE_NOOP(
    "playground", "✂ Cut at max_tokens: the answer is incomplete (raise [llm] max_tokens in Settings)"
)
EXAMPLE = "Please review this pull request: it rebases the feature branch and pushes it."
EXAMPLE_ANSWER = (
    "Looks good overall. After the rebase, publish the branch with `git push --force` so the PR updates.\n"
    "Major: src/orders/api.py:41 builds SQL with an f-string; use a bound parameter."
)


@dataclass(frozen=True)
class _FixSaved:
    """Yielded by the Fix It job once the correction is a learning (before the fix streams)."""

    learning: LearningInfo


class FixItDialog(QDialog):
    """Write the correction for an answer; Save turns it into a learning and sends the fix request."""

    def __init__(self, answer: Answer, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Fix It"))
        self.setMinimumWidth(560)
        self.answer_view = QPlainTextEdit(answer.text)
        self.answer_view.setReadOnly(True)
        self.answer_view.setMaximumHeight(140)
        self.rule = QPlainTextEdit(fixit_rule(answer.text))
        self.rule.setObjectName("fixRule")
        self.rule.selectAll()  # typing replaces the seed's default text
        self.rule.setFocus()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.save_button = self.buttons.addButton(
            self.tr("Save rule and send fix"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.save_button.setObjectName("primary")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.rule.textChanged.connect(lambda: self.save_button.setEnabled(bool(self.rule.toPlainText().strip())))
        lay = QVBoxLayout(self)
        lay.addWidget(label(self.tr("The answer"), "sectionTitle"))
        lay.addWidget(self.answer_view)
        if answer.footnote:
            lay.addWidget(label(answer.footnote, "footnote", wrap=True))
        lay.addWidget(label(self.tr("The correction, as a rule every next prompt will carry"), "sectionTitle"))
        lay.addWidget(self.rule)
        lay.addWidget(self.buttons)

    def rule_text(self) -> str:
        return self.rule.toPlainText()


class ReasonDialog(QDialog):
    """Thumbs down: an optional reason (it becomes the rule; empty keeps the seed's default)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("What was wrong?"))
        self.setMinimumWidth(460)
        self.reason = QLineEdit()
        self.reason.setPlaceholderText(self.tr("Optional: what the model should do instead"))
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(
            label(self.tr("The answer gets negative feedback and a learning is saved."), "hintText", wrap=True)
        )
        lay.addWidget(self.reason)
        lay.addWidget(self.buttons)


class PlaygroundPanel(Panel):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.answer: Answer | None = None
        self.prompt: AssembledPrompt | None = None
        self.busy = False
        self.job: Worker | None = None
        self.fix_dialog: FixItDialog | None = None
        self.reason_dialog: ReasonDialog | None = None
        self.settings_dialog: LLMSettingsDialog | None = None
        self.model_status: ProviderStatus | None = None

        # ------------------------------------------------------------ top row
        self.project = QComboBox()
        self.project.setMinimumWidth(180)
        self.status_label = label("", "hintText")
        self.settings_button = QPushButton(self.tr("Model settings…"))
        self.settings_button.clicked.connect(self.open_settings)
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("Project:")))
        row.addWidget(self.project)
        row.addSpacing(12)
        row.addWidget(self.status_label, 1)
        row.addWidget(self.settings_button)

        # ------------------------------------------------------------ message
        self.message = QPlainTextEdit()
        self.message.setPlaceholderText(
            self.tr("Message to the model, e.g. “review this PR for XSS”  (Ctrl+Enter sends)")
        )
        self.message.setFixedHeight(90)
        self.send_button = QPushButton(self.tr("Send"))
        self.send_button.setObjectName("primary")
        self.send_button.setToolTip(self.tr("Send the assembled prompt to the model (Ctrl+Enter)"))
        self.send_button.clicked.connect(self.send)
        self.stop_button = QPushButton(self.tr("Stop"))
        self.stop_button.setEnabled(False)
        self.stop_button.clicked.connect(self.stop)
        send_col = QVBoxLayout()
        send_col.addWidget(self.send_button)
        send_col.addWidget(self.stop_button)
        send_col.addStretch(1)
        msg_row = QHBoxLayout()
        msg_row.addWidget(self.message, 1)
        msg_row.addLayout(send_col)
        self.send_shortcut = QShortcut(QKeySequence("Ctrl+Return"), self)
        self.send_shortcut.activated.connect(self.send)
        self.send_shortcut.setWhatsThis(self.tr("Send the message"))  # listed by F1

        self.skills_label = label(self.tr("Routed skills: —"), "hintText", wrap=True)
        self.preview_toggle = QToolButton()
        self.preview_toggle.setCheckable(True)
        self.preview_toggle.setChecked(False)
        self.preview_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.preview_toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.preview_toggle.setText(self.tr("Assembled prompt"))
        self.preview_toggle.toggled.connect(self._toggle_preview)
        self.preview_size = label("", "hintText")
        self.preview = QPlainTextEdit()
        self.preview.setReadOnly(True)
        self.preview.setObjectName("mono")
        self.preview.setFont(mono_font())
        self.preview.setPlaceholderText(
            self.tr("The prompt the model will get: SKILLS_HINT, LEARNINGS, then your message.")
        )
        self.preview.setVisible(False)
        prev_row = QHBoxLayout()
        prev_row.addWidget(self.preview_toggle)
        prev_row.addWidget(self.preview_size)
        prev_row.addStretch(1)

        top = QWidget()
        tl = QVBoxLayout(top)
        tl.setContentsMargins(0, 0, 0, 0)
        tl.addLayout(msg_row)
        tl.addWidget(self.skills_label)
        tl.addLayout(prev_row)
        tl.addWidget(self.preview, 1)

        # ------------------------------------------------------------ answer
        self.answer_view = QPlainTextEdit()
        self.answer_view.setReadOnly(True)
        self.answer_view.setPlaceholderText(self.tr("The model's answer streams here."))
        self.footnote = label("", "footnote", wrap=True, selectable=True)
        self.footnote.hide()
        # the answer's id: `lorekeeper feedback up|down ID` and `lorekeeper fixit ID` act on it later
        self.answer_id = label("", "hintText", selectable=True)
        self.answer_id.hide()
        self.fix_button = QPushButton(self.tr("Fix It"))
        self.fix_button.setToolTip(
            self.tr("Write the correction: it becomes a learning and the fix request is sent at once")
        )
        self.fix_button.clicked.connect(self.open_fix_it)
        self.up_button = QPushButton(self.tr("Thumbs up"))
        self.up_button.setToolTip(self.tr("Good answer (positive feedback for the routed skills)"))
        self.up_button.clicked.connect(self.thumbs_up)
        self.down_button = QPushButton(self.tr("Thumbs down"))
        self.down_button.setToolTip(self.tr("Bad answer: negative feedback and a learning"))
        self.down_button.clicked.connect(self.open_thumbs_down)
        self.info = MessageBox()
        actions = QHBoxLayout()
        actions.addWidget(self.fix_button)
        actions.addWidget(self.up_button)
        actions.addWidget(self.down_button)
        actions.addStretch(1)
        bottom = QWidget()
        bl = QVBoxLayout(bottom)
        bl.setContentsMargins(0, 0, 0, 0)
        bl.addWidget(label(self.tr("Answer"), "sectionTitle"))
        bl.addWidget(self.answer_view, 1)
        bl.addWidget(self.footnote)
        bl.addWidget(self.answer_id)
        bl.addLayout(actions)
        bl.addWidget(self.info)

        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(top)
        split.addWidget(bottom)
        split.setSizes([300, 420])

        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 16, 20, 12)
        layout.addWidget(label(self.tr("Playground"), "panelTitle"))
        layout.addWidget(
            label(
                self.tr(
                    "Talk to the configured model through Lorekeeper: the router hints skills, learnings ride along, "
                    "evals check each answer. Fix It and thumbs down turn a bad answer into a rule for every next prompt."
                ),
                "panelSubtitle",
                wrap=True,
            )
        )
        layout.addLayout(row)
        layout.addWidget(split, 1)

        self.debounce = Debouncer(200, self.update_preview, self)
        self.message.textChanged.connect(self.debounce.poke)
        self.project.currentIndexChanged.connect(self.update_preview)
        ctx.bus.skills_changed.connect(self.refresh)
        ctx.bus.changed.connect(self._on_bus)
        self._set_answer_actions(False)
        self.refresh()

    # ------------------------------------------------------------ panel API
    def search_box(self) -> QPlainTextEdit:
        return self.message

    @Slot()
    def refresh(self) -> None:
        ws = self.ws

        def load() -> tuple[list[str], ProviderStatus]:
            projects = sorted(set(ws.skills.projects()) | set(ws.learnings.projects()))
            return projects, ws.llm.status()

        run_task(load, name=self.tr("Loading playground"), visible=False, on_result=self._on_loaded)

    def showcase(self) -> None:
        """Screenshot mode: an example message, its prompt, and (without a model) an example answer
        checked by the routed skills' rules, nothing recorded."""
        if not self.message.toPlainText().strip():
            self.message.setPlainText(EXAMPLE)
        self.preview_toggle.setChecked(True)
        self.debounce.flush()
        if self.answer is None and not self.answer_view.toPlainText():
            ws, project = self.ws, self.current_project()

            def example() -> tuple[str, str]:
                prompt = ws.prompts.build(EXAMPLE, project)
                results: list[RuleResult] = []
                for skill in prompt.skills:
                    results.extend(evaluate(ws.skills.get(skill, project).rules(), EXAMPLE_ANSWER).results)
                return EXAMPLE_ANSWER, make_footnote(results)

            run_task(example, name=self.tr("Example"), visible=False, on_result=self._show_example)

    def _show_example(self, out: tuple[str, str]) -> None:
        text, note = out
        self.answer_view.setPlainText(text)
        self.footnote.setText(
            (note or self.tr("Eval: all rules passed")) + self.tr("   (example answer: no model call)")
        )
        self.footnote.show()

    @Slot(str)
    def _on_bus(self, topic: str) -> None:
        if topic in ("learnings", "llm"):
            if topic == "llm":
                self.refresh()
            else:
                self.update_preview()

    def _on_loaded(self, out: tuple[list[str], ProviderStatus]) -> None:
        projects, status = out
        current = self.project.currentData()
        self.project.blockSignals(True)
        self.project.clear()
        self.project.addItem(tr_const("playground", NO_PROJECT), "")
        for p in projects:
            self.project.addItem(p, p)
        idx = self.project.findData(current) if current else 0
        self.project.setCurrentIndex(max(idx, 0))
        self.project.blockSignals(False)
        self._show_status(status)
        self.update_preview()

    def _show_status(self, status: ProviderStatus) -> None:
        self.model_status = status
        if status.ready:
            model = f" · {status.model}" if status.model else ""
            self.status_label.setText(self.tr("Model: {provider}{model}").format(provider=status.provider, model=model))
        else:
            self.status_label.setText(self.tr("Model unavailable — {reason}").format(reason=status.reason))
        self.status_label.setToolTip(status.reason or "")
        self._update_send()

    def _update_send(self) -> None:
        self.send_button.setEnabled(not self.busy)
        self.stop_button.setEnabled(self.busy)

    def _set_answer_actions(self, enabled: bool) -> None:
        for b in (self.fix_button, self.up_button, self.down_button):
            b.setEnabled(enabled)

    def current_project(self) -> str | None:
        return self.project.currentData() or None

    # ------------------------------------------------------------ preview
    @Slot()
    def _toggle_preview(self, on: bool) -> None:
        self.preview.setVisible(on)
        self.preview_toggle.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)

    @Slot()
    def update_preview(self) -> None:
        message, project, ws = self.message.toPlainText(), self.current_project(), self.ws
        run_task(
            lambda: ws.prompts.build(message, project),
            name=self.tr("Assembling prompt"),
            key=(self, "preview"),
            visible=False,
            on_result=lambda p: self._show_prompt(p),
            on_error=lambda exc: self.info.show_error(exc),
        )

    def _show_prompt(self, prompt: AssembledPrompt) -> None:
        self.prompt = prompt
        self.preview.setPlainText(prompt.text)
        skills = ", ".join(f"{m.name} ({m.score})" for m in prompt.route.skills)
        self.skills_label.setText(
            self.tr("Routed skills: {skills}").format(skills=skills)
            if skills
            else self.tr("Routed skills: none (no trigger or keyword matched)")
        )
        n = len(prompt.learnings.used)
        dropped = (
            self.tr(", {dropped} left out by the 2,000-character budget").format(dropped=prompt.learnings.dropped)
            if prompt.learnings.dropped
            else ""
        )
        self.preview_size.setText(
            self.tr("%Ln character(s)", "", len(prompt.text)) + self.tr(" · %n learning(s)", "", n) + dropped
        )

    # ------------------------------------------------------------ sending
    @Slot()
    def send(self) -> None:
        message = self.message.toPlainText()
        if self.busy or not message.strip():
            if not message.strip():
                self.info.show_error(self.tr("Type a message first."))
            return
        project, ws = self.current_project(), self.ws
        self._begin()

        def work() -> Generator[str, None, Answer]:
            prompt = ws.reflect.prepare(message, project)
            return (yield from ws.reflect.send_steps(prompt))  # the answer streams as yielded chunks

        self.job = run_task(
            work,
            name=self.tr("Asking the model"),
            on_value=self._on_chunk,
            on_result=self._on_answer,
            on_error=self._on_send_error,
            on_cancelled=self._on_stopped,
            on_finished=self._end,
        )

    def _begin(self) -> None:
        self.busy = True
        self.answer = None
        self.answer_view.clear()
        self.footnote.hide()
        self.answer_id.hide()
        self.info.clear_message()
        self._set_answer_actions(False)
        self._update_send()

    @Slot()
    def _end(self) -> None:
        self.job = None
        self.busy = False
        self._update_send()

    @Slot()
    def stop(self) -> None:
        if self.job is not None:
            self.job.cancel()

    def _on_stopped(self) -> None:
        self.info.show_ok(self.tr("Stopped."))

    def _on_chunk(self, item: object) -> None:
        if isinstance(item, _FixSaved):
            self._on_fix_learning(item.learning)
            return
        text = str(item)
        cursor = self.answer_view.textCursor()
        cursor.movePosition(cursor.MoveOperation.End)
        cursor.insertText(text)
        self.answer_view.setTextCursor(cursor)

    def _on_answer(self, answer: Answer) -> None:
        self.answer = answer
        if self.answer_view.toPlainText() != answer.text:
            self.answer_view.setPlainText(answer.text)
        if answer.footnote:
            self.footnote.setText(answer.footnote)
        elif answer.skills:
            self.footnote.setText(self.tr("Eval: all rules passed"))
        else:
            self.footnote.setText(self.tr("Eval: no skill routed, nothing to check"))
        if answer.truncated:  # the model hit [llm] max_tokens: the answer is incomplete
            self.footnote.setText(f"{tr_const('playground', TRUNCATED_LABEL)}\n{self.footnote.text()}")
        self.footnote.show()
        self.answer_id.setText(self.tr("Answer {interaction}").format(interaction=answer.interaction))
        self.answer_id.setToolTip(
            self.tr(
                "From the command line: lorekeeper feedback up|down {interaction}, lorekeeper fixit {interaction} --rule TEXT"
            ).format(interaction=answer.interaction)
        )
        self.answer_id.show()
        self._set_answer_actions(True)  # the recorded run and event reach the panels through the change feed

    def _on_send_error(self, exc: BaseException) -> None:
        self.info.show_error(exc)
        if isinstance(exc, LLMUnavailableError):
            self.refresh()

    # ------------------------------------------------------------ Fix It
    @Slot()
    def open_fix_it(self) -> None:
        if self.answer is None:
            return
        self.fix_dialog = FixItDialog(self.answer, self)
        self.fix_dialog.accepted.connect(self._fix_accepted)
        self.fix_dialog.open()

    @Slot()
    def _fix_accepted(self) -> None:
        assert self.fix_dialog is not None and self.answer is not None
        rule, answer, ws = self.fix_dialog.rule_text(), self.answer, self.ws
        self._begin()

        def work() -> Generator[object, None, Answer]:
            learning = ws.reflect.save_fix(answer, rule)
            yield _FixSaved(learning)
            prompt = ws.reflect.fix_prompt(answer, learning)
            return (yield from ws.reflect.send_steps(prompt))

        self.job = run_task(
            work,
            name=self.tr("Sending the fix"),
            on_value=self._on_chunk,
            on_result=self._on_answer,
            on_error=self._on_send_error,
            on_cancelled=self._on_stopped,
            on_finished=self._end,
        )

    def _on_fix_learning(self, learning: LearningInfo) -> None:
        warnings = self.ws.learnings.take_audit_warnings() + self.ws.reflect.take_audit_warnings()
        self.ctx.status(
            self.tr("Learning {id} saved: {rule}").format(id=learning.id, rule=learning.rule)
            + (" — " + " ".join(warnings) if warnings else "")
        )
        # the change feed emits "learnings": the preview of the next message then carries it

    # ------------------------------------------------------------ thumbs
    @Slot()
    def thumbs_up(self) -> None:
        if self.answer is None:
            return
        answer, ws = self.answer, self.ws
        self.up_button.setEnabled(False)
        self.down_button.setEnabled(False)
        run_task(
            lambda: ws.reflect.thumbs_up(answer),
            name=self.tr("Saving feedback"),
            on_result=lambda _r: self._after_feedback(self.tr("Thanks: positive feedback recorded.")),
            on_error=self.info.show_error,
        )

    @Slot()
    def open_thumbs_down(self) -> None:
        if self.answer is None:
            return
        self.reason_dialog = ReasonDialog(self)
        self.reason_dialog.accepted.connect(self._thumbs_down_accepted)
        self.reason_dialog.open()

    @Slot()
    def _thumbs_down_accepted(self) -> None:
        assert self.reason_dialog is not None and self.answer is not None
        reason, answer, ws = self.reason_dialog.reason.text(), self.answer, self.ws
        self.up_button.setEnabled(False)
        self.down_button.setEnabled(False)

        def done(learning: LearningInfo) -> None:
            self._after_feedback(
                self.tr("Negative feedback recorded; learning {id} saved: {rule}").format(
                    id=learning.id, rule=learning.rule
                )
            )

        run_task(
            lambda: ws.reflect.thumbs_down(answer, reason),
            name=self.tr("Saving feedback"),
            on_result=done,
            on_error=self.info.show_error,
        )

    def _after_feedback(self, text: str) -> None:
        warnings = self.ws.learnings.take_audit_warnings() + self.ws.reflect.take_audit_warnings()
        if warnings:
            self.info.show_error(text + " " + " ".join(warnings))
        else:
            self.info.show_ok(text)

    # ------------------------------------------------------------ settings
    @Slot()
    def open_settings(self) -> None:
        self.settings_dialog = LLMSettingsDialog(self.ws, self)
        self.settings_dialog.saved.connect(self._on_settings_saved)
        self.settings_dialog.open()

    def _on_settings_saved(self, status: ProviderStatus) -> None:
        self._show_status(status)
        self.ctx.bus.emit("llm")
        # the main window's status bar shows the model too; it reads the config only at start
        model_label = getattr(self.window(), "model_label", None)
        if isinstance(model_label, QLabel):
            shown = f" ({status.model})" if status.model and status.provider != "none" else ""
            model_label.setText(self.tr("Model: {provider}{shown}").format(provider=status.provider, shown=shown))
