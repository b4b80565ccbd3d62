"""Comments, assignment and the "mine" view of a review queue (issue 30 d3).

`QueueNotes` plugs into a `ReviewQueue` (Proposals, Facts review, Conflicts):

    C comment on the selected item (one line, Enter) · G assign it to an operator (the name,
    Enter; empty: unassign; a multi-selection: each selected) · Ctrl+M the "mine" view

The current item's assignment and comments (author, date, text) are shown in `history_label`,
which the panel lays out under its card: the item's history. Every write is `ws.review` in a job
(signed rows, signed events); the GUI thread reads nothing. The "mine" view asks the store which
items are assigned to `reviewer_name()` and hands the ids to the panel (`on_mine`), which filters
its list with them (None: the view is off).
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
from PySide6.QtWidgets import QCheckBox, QLabel, QPushButton, QWidget

from lorekeeper.review import Assignment, Comment, reviewer_name
from lorekeeper.ui.review_queue import ReviewQueue
from lorekeeper.ui.theme import color
from lorekeeper.ui.workers import run_task


def notes_html(assignment: Assignment | None, comments: list[Comment]) -> str:
    e = html.escape
    parts: list[str] = []
    if assignment is not None:
        when = assignment.assigned_at.strftime("%Y-%m-%d %H:%M")
        parts.append(
            "<p><b>"
            + e(QCoreApplication.translate("QueueNotes", "Assigned to"))
            + f"</b> {e(assignment.assignee)} "
            + f"<span style='color:{color('muted').name()}'>"
            + e(QCoreApplication.translate("QueueNotes", "by {0} · {1} UTC").format(assignment.assigned_by, when))
            + "</span></p>"
        )
    if comments:
        parts.append(
            "<p><b>" + e(QCoreApplication.translate("QueueNotes", "Comments ({0})").format(len(comments))) + "</b></p>"
        )
        for c in comments:
            when = c.created_at.strftime("%Y-%m-%d %H:%M")
            parts.append(
                f"<p style='margin-left:6px'><b>{e(c.author)}</b> "
                f"<span style='color:{color('muted').name()}'>{when} UTC</span><br>{e(c.text)}</p>"
            )
    return "".join(parts)


class QueueNotes(QObject):
    """The comment / assign / mine controls of one review queue (see the module docstring)."""

    changed = Signal()  # a comment or an assignment was written

    def __init__(
        self,
        queue: ReviewQueue,
        kind: str,
        ws: Callable[[], Any],
        on_mine: Callable[[set[str] | None], None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent or queue)
        self.queue, self.kind, self.ws, self.on_mine = queue, kind, ws, on_mine
        self.mine_ids: set[str] | None = None
        self.comment_button = QPushButton(self.tr("Comment (C)"))
        self.comment_button.setToolTip(self.tr("Add a comment to the selected item (signed, shown in its history)"))
        self.assign_button = QPushButton(self.tr("Assign (G)"))
        self.assign_button.setToolTip(self.tr("Assign the selected item(s) to an operator (empty name: unassign)"))
        for b, slot in ((self.comment_button, self.start_comment), (self.assign_button, self.start_assign)):
            b.clicked.connect(slot)
            queue.add_action_button(b)
        self.mine_box = QCheckBox(self.tr("Mine only (Ctrl+M)"))
        self.mine_box.setToolTip(self.tr("Show only the items assigned to you ({0})").format(reviewer_name()))
        self.mine_box.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.mine_box.toggled.connect(self._mine_toggled)
        self.history_label = QLabel("")
        self.history_label.setObjectName("reviewNotes")
        self.history_label.setWordWrap(True)
        self.history_label.setTextFormat(Qt.TextFormat.RichText)
        self.history_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        queue.add_shortcut(("C",), self.tr("Comment on the selected item (Enter adds it)"), self.start_comment)
        queue.add_shortcut(
            ("G",), self.tr("Assign the selected item(s) to an operator (Enter; empty: unassign)"), self.start_assign
        )
        queue.add_shortcut(("Ctrl+M",), self.tr("Mine only: the items assigned to you"), self.mine_box.toggle)
        queue.current_changed.connect(self.load_current)
        self._update_buttons()
        queue.current_changed.connect(lambda _i: self._update_buttons())
        queue.busy_changed.connect(lambda _b: self._update_buttons())

    def _update_buttons(self) -> None:
        has = self.queue.current() is not None and not self.queue.busy
        self.comment_button.setEnabled(has)
        self.assign_button.setEnabled(has)
        why = "" if has else self.tr("Select an item first")
        self.comment_button.setToolTip(
            why or self.tr("Add a comment to the selected item (signed, shown in its history)")
        )

    def _item_id(self, item: Any) -> str:
        return str(self.queue.ops.item_id(item))

    # ------------------------------------------------------------------ the current item's notes
    def load_current(self, item: Any = None) -> None:
        item = self.queue.current() if item is None else item
        if item is None:
            self.history_label.setText("")
            return
        review, kind, item_id = self.ws().review, self.kind, self._item_id(item)

        def load() -> tuple[Assignment | None, list[Comment]]:
            return review.assignments(kind, [item_id]).get(item_id), review.comments(kind, item_id)

        def show(result: tuple[Assignment | None, list[Comment]]) -> None:
            cur = self.queue.current()
            if cur is not None and self._item_id(cur) == item_id:
                self.history_label.setText(notes_html(*result))

        run_task(
            load,
            name="Loading comments",
            key=(self, "notes"),
            visible=False,
            on_result=show,
            on_error=self.queue.message.show_error,
        )

    # ------------------------------------------------------------------ comment
    def start_comment(self) -> None:
        item = self.queue.current()
        if item is None or self.queue.busy or self.queue.reject_bar.isVisible():
            return
        item_id = self._item_id(item)
        self.queue.ask_reason(
            self.tr("Comment on {0} #{1} (Enter to add, Esc to cancel)").format(self.queue.noun, item_id),
            self.tr("Comment"),
            lambda text: self._write(
                lambda review: review.comment(self.kind, item_id, text),
                self.tr("Comment added to {0} #{1}").format(self.queue.noun, item_id),
            ),
            missing=self.tr("A comment needs some text"),
        )

    # ------------------------------------------------------------------ assign
    def start_assign(self) -> None:
        item = self.queue.current()
        if item is None or self.queue.busy or self.queue.reject_bar.isVisible():
            return
        items = self.queue.multi() or [item]
        ids = [self._item_id(it) for it in items]
        what = (
            self.tr("{0} #{1}").format(self.queue.noun, ids[0])
            if len(ids) == 1
            else self.tr("the {0} selected").format(len(ids))
        )
        kind = self.kind

        def assign(name: str) -> None:
            done = self.tr("Assigned {0} to {1}").format(what, name) if name else self.tr("Unassigned {0}").format(what)
            self._write(lambda review: [review.assign(kind, i, name) for i in ids], done)

        self.queue.ask_reason(
            self.tr("Assign {0} to (an operator's name; empty: unassign; Enter)").format(what),
            self.tr("Assign"),
            assign,
            text=reviewer_name(),
            allow_empty=True,
        )

    def _write(self, fn: Callable[[Any], Any], done_text: str) -> None:
        review = self.ws().review

        def ok(_result: Any) -> None:
            self.queue.message.show_ok(done_text)
            self.changed.emit()
            self.load_current()
            if self.mine_ids is not None:
                self._mine_toggled(True)

        run_task(lambda: fn(review), name="Saving a review note", on_result=ok, on_error=self.queue.message.show_error)

    # ------------------------------------------------------------------ mine
    def _mine_toggled(self, on: bool) -> None:
        if not on:
            self.mine_ids = None
            self.on_mine(None)
            return
        review, kind = self.ws().review, self.kind

        def got(ids: set[str]) -> None:
            if self.mine_box.isChecked():
                self.mine_ids = ids
                self.on_mine(ids)

        run_task(
            lambda: review.mine(kind),
            name="Loading my items",
            key=(self, "mine"),
            visible=False,
            on_result=got,
            on_error=self.queue.message.show_error,
        )

    def keeps(self, item: Any) -> bool:
        """The item is shown under the current view (always, with "mine" off)."""
        return self.mine_ids is None or self._item_id(item) in self.mine_ids
