"""The keyboard-first review queue every review panel uses (Proposals, Facts review, Conflicts).

A `ReviewQueue` is the list half of a review panel: a table over a list model (a `RowsModel`, or a
`PagedRowsModel` for very large queues), the queue's progress ("12 of 40 reviewed"), the action
bar, the reject bar (a reason is required), the shortcut cheat-sheet and the message line. The
panel lays those widgets out where it likes and shows the current item's detail; the queue owns
the keyboard and the decision flow:

    A approve · R reject (type the reason, Enter) · E edit · J / ↓ next · K / ↑ previous ·
    Ctrl+Z undo the last decision (in place: the item comes back and is selected) ·
    Shift+A approve every open item of the current filter · ? the cheat-sheet (F1: the app's) · Esc cancel

Decisions are callbacks (`QueueActions`) that run as jobs (`ui.workers.run_task`): the GUI thread
never does I/O. The queue does not reload the list itself after a decision: the store's change
feed (`ui.changefeed`) tells the panel, which reloads its model; the queue then keeps the
selection in place (the same item if it is still listed, else the item that took its row), so a
reviewer presses A, A, R… down the queue without moving.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QCoreApplication, QModelIndex, Signal, Slot
from PySide6.QtGui import QShortcut
from PySide6.QtWidgets import QLabel, QPushButton, QTableView, QVBoxLayout, QWidget

from lorekeeper.ui import widgets
from lorekeeper.ui.models.paged import KEEPS_OWN_SELECTION
from lorekeeper.ui.review_actionbar import ActionBar
from lorekeeper.ui.review_bulk import approve_selection, open_selection, reject_selection
from lorekeeper.ui.review_decide import run_decision
from lorekeeper.ui.review_history import APPROVE, BULK, BULK_REJECT, REJECT, UNDO, Decision, DecisionHistory
from lorekeeper.ui.review_keys import ShortcutSheet, bind_queue_keys
from lorekeeper.ui.review_progress import ProgressLine
from lorekeeper.ui.review_reason import ReasonBar
from lorekeeper.ui.review_selection import SelectionKeeper
from lorekeeper.ui.widgets import EmptyState, MessageBox, setup_table
from lorekeeper.ui.workers import HoldGate, tracker

__all__ = ["APPROVE", "BULK", "BULK_REJECT", "REJECT", "UNDO", "Decision", "QueueActions", "ReviewQueue"]


@dataclass
class QueueActions:
    """What a panel plugs into the queue. Every callable except `edit` and `is_open` runs in a job.

    - `approve(item)`, `reject(item, reason)`: decide one item; return what `decided` hands on.
    - `undo(decision)`: revert a `Decision` (the last one of the session, or the current item's
      own decision when the current item is already decided: `Decision("decided", (id,))`).
    - `bulk_approve(ids)`: approve the open items of the panel's current filter. `bulk_ids()` (on
      the GUI thread) names them (default: the open items the model holds); `bulk_text(n)` is the
      confirmation question.
    - `approve_many(items)`, `reject_many(items, reason)`: decide the selected open items (a
      multi-selection: Shift/Ctrl+click, Shift+↓, Ctrl+A) at once; default: `approve` / `reject`
      of each in one job, returning the list of what they returned.
    - `edit(item)`: on the GUI thread, open the panel's editor for the item.
    - `is_open(item)`: the item still waits for a decision (approve/reject apply to it).
    - `describe(decision)`: the history's line for one of the panel's own decisions (a conflict's
      keep, merge, reject all); None: the queue's own wording.
    """

    approve: Callable[[Any], Any] | None = None
    reject: Callable[[Any, str], Any] | None = None
    undo: Callable[[Decision], Any] | None = None
    bulk_approve: Callable[[list[Any]], Any] | None = None
    approve_many: Callable[[list[Any]], Any] | None = None
    reject_many: Callable[[list[Any], str], Any] | None = None
    bulk_ids: Callable[[], list[Any]] | None = None
    bulk_text: Callable[[int], str] = lambda n: QCoreApplication.translate(
        "ReviewActions", "Approve {n} open item(s) of the current filter?"
    ).format(n=n)
    edit: Callable[[Any], None] | None = None
    is_open: Callable[[Any], bool] = lambda _item: True
    item_id: Callable[[Any], Hashable] = lambda item: item.id
    describe: Callable[[Decision], str | None] = lambda _decision: None
    hold_kind: str = ""  # the kind of `ui.workers` hold a job on an item declares: (hold_kind, item_id)


class ReviewQueue(QWidget):
    """The queue widget (progress line + table) and the decision controls its panel lays out.

    Attributes a panel places: `action_bar`, `reject_bar`, `cheatsheet`, `message`. Signals:
    `current_changed(item or None)` whenever the current item changes or is reloaded,
    `decided(kind, result)` after a decision succeeded (kind: approve, reject, bulk, undo),
    `busy_changed(bool)`.
    """

    current_changed = Signal(object)
    decided = Signal(str, object)
    busy_changed = Signal(bool)

    def __init__(
        self,
        model: QAbstractItemModel,
        actions: QueueActions,
        *,
        host: QWidget,
        noun: str = "item",
        next_keys: Sequence[str] = ("J",),
        previous_keys: Sequence[str] = ("K",),
        undo_keys: Sequence[str] = ("Ctrl+Z",),
        undo_text: str = "",
        bulk_in_bar: bool = True,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.model = model
        self.ops = actions
        self.host = host
        self.noun = noun
        self.busy = False
        self.reviewed = 0  # decisions made since the filter last changed (undo counts back)
        self.on_escape: Callable[[], bool] | None = None  # the panel's own Esc (an open editor): True if handled
        self._empty_text = self.tr("No {noun} to review.").format(noun=noun)

        # ------------------------------------------------------------ the list
        self.table = QTableView()
        self.table.setModel(model)
        setup_table(self.table)
        # several rows at once (Shift/Ctrl+click, Shift+↓/↑, Ctrl+A): A and R then decide them all
        self.table.setSelectionMode(QTableView.SelectionMode.ExtendedSelection)
        self.empty = EmptyState(self.table, self._empty_text)
        self.keeper = SelectionKeeper(
            model, lambda it: self.ops.item_id(it), self.current, self.current_row, self.item, self.select_row
        )
        self.progress_line = ProgressLine(noun)
        self.progress_label, self.progress_bar = self.progress_line.label, self.progress_line.bar
        self.position_label = self.progress_line.position
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(4)
        lay.addWidget(self.progress_line)
        lay.addWidget(self.empty, 1)

        # ------------------------------------------------------------ the controls
        self.action_bar = ActionBar(
            self,
            actions,
            next_keys=next_keys,
            previous_keys=previous_keys,
            undo_keys=undo_keys,
            bulk_in_bar=bulk_in_bar,
        )
        bar = self.action_bar
        self.approve_button, self.reject_button, self.edit_button = bar.approve, bar.reject, bar.edit
        self.undo_button, self.bulk_button, self.history_button = bar.undo, bar.bulk, bar.history
        self.prev_button, self.next_button, self.help_button = bar.prev, bar.next, bar.help
        # H: the session's decisions in a list under the queue; Enter undoes the chosen one, Esc closes
        self.history_frame = DecisionHistory(noun, actions.describe, self.undo_decision, self.table.setFocus)
        self.history_list = self.history_frame.list
        lay.addWidget(self.history_frame)

        self.message = MessageBox()
        # the reason bar (a rejection, a panel's own keep or merge, a comment): Enter confirms, Esc cancels
        self.reject_bar = ReasonBar(self.message, self.table.setFocus, lambda: self.busy)
        self.reason_edit = self.reject_bar.edit
        self.confirm_reject_button = self.reject_bar.confirm_button
        self.cancel_reject_button = self.reject_bar.cancel_button
        self.cheatsheet = ShortcutSheet(host)
        self.cheatsheet_text = self.cheatsheet.body

        # while a job holds the current item (its benchmark): why its decisions wait; the panel places it
        self.hold_label = QLabel("")
        self.gate = HoldGate(self, self.current_hold, self._update_actions, self.hold_label)

        # ------------------------------------------------------------ the keyboard
        bind_queue_keys(self, next_keys, previous_keys, undo_keys, undo_text)

        self.table.selectionModel().currentRowChanged.connect(self._on_current)
        self.table.selectionModel().selectionChanged.connect(lambda *_a: self._update_actions())
        self.table.setProperty(KEEPS_OWN_SELECTION, True)  # `_before_reset` / `_after_reset` keep it
        model.modelAboutToBeReset.connect(self._before_reset)
        model.modelReset.connect(self._after_reset)
        model.rowsInserted.connect(self._update_progress)
        self._update_actions()
        self._update_progress()

    # ------------------------------------------------------------------ building
    def sheet_rows(self) -> list[tuple[str, str]]:
        """(keys, what they do) of every shortcut the queue binds on its panel (for the F1 sheet)."""
        return self.cheatsheet.rows()

    def add_shortcut(
        self,
        keys: tuple[str, ...],
        text: str,
        slot: Callable[[], None],
        *,
        enabled: bool = True,
        label: str = "",
    ) -> None:
        """Bind `keys` on the host panel (while it or a child has the focus) and list them in the
        cheat-sheet. Panels add their own (B: run a benchmark, O: open the quote…)."""
        if enabled and keys:
            self.cheatsheet.add(keys, text, slot, shown=label)

    def add_action_button(self, button: QPushButton) -> None:
        """A panel's own button in the action bar, after the decisions (it never takes the focus)."""
        self.action_bar.add(button)

    @property
    def shortcuts(self) -> list[QShortcut]:
        return self.cheatsheet.shortcuts

    def set_empty_text(self, text: str) -> None:
        """What the queue says when it is empty (shown at the next reload that leaves it empty)."""
        self._empty_text = text
        self.empty.message.setText(text)

    # ------------------------------------------------------------------ the current item
    def current_row(self) -> int:
        idx = self.table.selectionModel().currentIndex()
        return idx.row() if idx.isValid() else -1

    def current(self) -> Any:
        return self.item(self.current_row())

    def item(self, row: int) -> Any:
        getter = getattr(self.model, "row", None)
        return getter(row) if getter is not None and row >= 0 else None

    def total(self) -> int:
        """How many items the filter holds (a paged model knows more than it has loaded)."""
        total = getattr(self.model, "total", None)
        return int(total) if isinstance(total, int) else self.model.rowCount()

    def select_row(self, row: int) -> None:
        if 0 <= row < self.model.rowCount():
            self.table.selectRow(row)
            self.table.scrollTo(self.model.index(row, 0))

    def select_id(self, item_id: Hashable) -> bool:
        for row in range(self.model.rowCount()):
            it = self.item(row)
            if it is not None and self.ops.item_id(it) == item_id:
                self.select_row(row)
                return True
        return False

    def selected_items(self) -> list[Any]:
        """The items of the selected rows, in the list's order (the current one alone, usually)."""
        rows = sorted({i.row() for i in self.table.selectionModel().selectedRows()})
        return [it for it in (self.item(r) for r in rows) if it is not None]

    def multi(self) -> list[Any]:
        """The selected items when more than one row is selected (A and R decide them all), else []."""
        items = self.selected_items()
        return items if len(items) > 1 else []

    def keep(self, item_id: Hashable | None) -> None:
        """Select `item_id` after the next reload (an undone item coming back)."""
        self.keeper.id = item_id

    def reset_progress(self) -> None:
        """The filter changed: a new queue, the count starts again."""
        self.reviewed = 0
        self._update_progress()

    @Slot()
    def _on_current(self, *_args: object) -> None:
        if self.keeper.restoring:
            return
        self.cancel_reject()
        self._update_actions()
        self._update_progress()
        self.current_changed.emit(self.current())

    @Slot()
    def _before_reset(self) -> None:
        self.keeper.before_reset()

    @Slot()
    def _after_reset(self) -> None:
        self.keeper.after_reset()
        self.empty.set_empty(self.model.rowCount() == 0, self._empty_text)
        self._on_current()

    # ------------------------------------------------------------------ state of the controls
    def set_busy(self, busy: bool) -> None:
        """Block the decisions while the panel runs a job of its own on the current item."""
        self.busy = busy
        self._update_actions()
        self.busy_changed.emit(busy)

    def current_hold(self) -> tuple[str, Hashable] | None:
        """The current item as a job would hold it (None without a `hold_kind` or an item)."""
        cur = self.current()
        if cur is None or not self.ops.hold_kind:
            return None
        return (self.ops.hold_kind, self.ops.item_id(cur))

    def held_reason(self) -> str:
        """Why the current item's decisions wait ("" when they need not)."""
        return tracker().hold_reason(self.current_hold())

    def _say_held(self) -> bool:
        """A decision key on a held item: say why in the status bar (True), never silently ignore it."""
        reason = self.held_reason()
        if reason:
            ctx = getattr(self.host, "ctx", None)
            if ctx is not None:
                ctx.status(reason)
            self.gate.show_reason(reason)
        return bool(reason)

    def _update_actions(self) -> None:
        cur = self.current()
        open_ = cur is not None and self.ops.is_open(cur) and not self.busy
        many = self.multi()
        n = sum(1 for it in many if self.ops.is_open(it)) if many else None
        if n is not None:  # a multi-selection: the decisions apply to its open items
            open_ = n > 0 and not self.busy
        self.action_bar.show_count(n)
        self.gate.enable(self.approve_button, open_ and self.ops.approve is not None)
        self.gate.enable(self.reject_button, open_ and self.ops.reject is not None)
        self.history_button.setEnabled(not self.busy and bool(self.history))
        self.gate.enable(self.edit_button, cur is not None and not self.busy)
        self.undo_button.setEnabled(not self.busy and (bool(self.history) or (cur is not None and not open_)))
        self.bulk_button.setEnabled(not self.busy and self.model.rowCount() > 0)
        row = self.current_row()
        self.prev_button.setEnabled(row > 0)
        self.next_button.setEnabled(0 <= row < self.model.rowCount() - 1)

    @Slot()
    def _update_progress(self, *_args: object) -> None:
        self.progress_line.show_state(self.reviewed, self.total(), self.current_row())

    def refresh_progress(self) -> None:
        """Show the progress again (after a decision changed `reviewed`)."""
        self._update_progress()

    # ------------------------------------------------------------------ navigation
    @Slot()
    def next(self) -> None:
        self._move(1)

    @Slot()
    def previous(self) -> None:
        self._move(-1)

    def _move(self, step: int) -> None:
        if self.reject_bar.isVisible():
            return
        row = self.current_row() + step
        if row >= self.model.rowCount() and self.model.canFetchMore(QModelIndex()):
            self.model.fetchMore(QModelIndex())  # a paged queue loads its next page
        if 0 <= row < self.model.rowCount():
            self.select_row(row)
            self.table.setFocus()

    @Slot()
    def toggle_cheatsheet(self) -> None:
        self.cheatsheet.toggle()

    @Slot()
    def escape(self) -> None:
        if self.reject_bar.isVisible():
            self.cancel_reject()
        elif self.history_frame.isVisible():
            self.hide_history()
        elif self.on_escape is not None and self.on_escape():
            pass
        elif self.cheatsheet.isVisible():
            self.cheatsheet.hide()
        elif self.held_reason():  # the job holding the current item: Esc cancels it
            tracker().cancel_holders(self.current_hold())
            ctx = getattr(self.host, "ctx", None)
            if ctx is not None:
                ctx.status(self.tr("Cancelling the job on this {noun}…").format(noun=self.noun))

    # ------------------------------------------------------------------ decisions
    def _open_current(self) -> Any:
        cur = self.current()
        if cur is None or self.busy or not self.ops.is_open(cur) or self.reject_bar.isVisible():
            return None
        if self._say_held():
            return None
        return cur

    @Slot()
    def approve(self) -> None:
        selection = open_selection(self)
        if selection is not None:
            approve_selection(self, selection)
            return
        cur = self._open_current()
        if cur is None or self.ops.approve is None:
            return
        self.decide(APPROVE, (self.ops.item_id(cur),), self.ops.approve, cur)

    @Slot()
    def start_reject(self) -> None:
        selection = open_selection(self)
        if selection is not None:
            reject_selection(self, selection)
            return
        cur = self._open_current()
        if cur is None or self.ops.reject is None:
            return
        item_id = self.ops.item_id(cur)
        reject = self.ops.reject

        def then(why: str) -> None:
            item = self.current()
            if item is not None and self.ops.item_id(item) == item_id:
                self.decide(REJECT, (item_id,), reject, item, why)

        self.ask_reason(
            self.tr("Why is it rejected? (Enter to reject, Esc to cancel)"),
            self.tr("Reject"),
            then,
            missing=self.tr("A rejection needs a reason"),
        )

    def ask_reason(
        self,
        prompt: str,
        button: str,
        then: Callable[[str], None],
        *,
        missing: str = "",
        text: str = "",
        allow_empty: bool = False,
    ) -> None:
        """Open the reason bar (it takes the keyboard); Enter calls `then(reason)` once a reason is typed
        (or at once with `allow_empty`). A panel uses it for its own decisions (keep A, merge…), the
        notes for a comment or an assignee (`text`: what the field starts with, selected)."""
        if not self.busy:
            self.reject_bar.ask(prompt, button, then, missing=missing, text=text, allow_empty=allow_empty)

    @Slot()
    def confirm_reject(self) -> None:
        self.reject_bar.confirm()

    @Slot()
    def cancel_reject(self) -> None:
        self.reject_bar.cancel()

    @Slot()
    def edit(self) -> None:
        cur = self.current()
        if cur is None or self.busy or self.ops.edit is None or self.reject_bar.isVisible():
            return
        if self._say_held():
            return
        self.ops.edit(cur)

    @Slot()
    def bulk_approve(self) -> None:
        if self.busy or self.ops.bulk_approve is None or self.reject_bar.isVisible():
            return
        if self.ops.bulk_ids is not None:
            ids = list(self.ops.bulk_ids())
        else:
            items = (self.item(r) for r in range(self.model.rowCount()))
            ids = [self.ops.item_id(it) for it in items if it is not None and self.ops.is_open(it)]
        if not ids:
            self.message.show_ok(self.tr("No open {noun} in this filter.").format(noun=self.noun))
            return
        if not widgets.confirm(self.host, self.tr("Approve all"), self.ops.bulk_text(len(ids))):
            return
        self.decide(BULK, tuple(ids), self.ops.bulk_approve, ids)

    @Slot()
    def undo(self) -> None:
        """Undo the current item's decision when it is decided, else the session's last decision;
        the item comes back where it was and is selected."""
        if self.busy or self.ops.undo is None or self.reject_bar.isVisible():
            return
        cur = self.current()
        if cur is not None and not self.ops.is_open(cur):
            decision = Decision("decided", (self.ops.item_id(cur),))
            self.history = [d for d in self.history if decision.ids[0] not in d.ids]
        elif self.history:
            decision = self.history.pop()
        else:
            self.message.show_ok(self.tr("Nothing to undo."))
            return
        self.keeper.id = decision.ids[0] if decision.ids else None
        self.decide(UNDO, decision.ids, self.ops.undo, decision, undoing=decision)

    @property
    def history(self) -> list[Decision]:
        """This session's decisions, newest last (Ctrl+Z pops)."""
        return self.history_frame.decisions

    @history.setter
    def history(self, decisions: list[Decision]) -> None:
        self.history_frame.decisions = decisions

    @Slot()
    def show_history(self) -> None:
        """H: this session's decisions, newest first; picking one undoes it (any of them, not only
        the last: each names its items, so an older decision is undone on its own items)."""
        if self.ops.undo is None or self.busy:
            return
        if not self.history:
            self.message.show_ok(self.tr("No decision yet in this session: nothing to undo."))
            return
        self.history_frame.toggle()

    def hide_history(self) -> None:
        self.history_frame.close_list()

    def decision_text(self, decision: Decision) -> str:
        return self.history_frame.text(decision)

    def undo_decision(self, decision: Decision) -> None:
        """Undo one decision of the session's history (whichever; it leaves the history)."""
        if self.busy or self.ops.undo is None or decision not in self.history:
            return
        self.history.remove(decision)
        self.keeper.id = decision.ids[0] if decision.ids else None
        self.decide(UNDO, decision.ids, self.ops.undo, decision, undoing=decision)

    def decide(
        self, kind: str, ids: tuple[Hashable, ...], fn: Callable[..., Any], *args: Any, undoing: Decision | None = None
    ) -> None:
        """Run the decision `fn(*args)` as a job on the items `ids`; on success it joins the
        session's history (Ctrl+Z) and `decided(kind, result)` is emitted. Panels call it for their
        own decisions (a conflict's keep A, merge, reject all)."""
        run_decision(self, kind, ids, fn, *args, undoing=undoing)
