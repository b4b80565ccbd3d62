"""How a review queue runs one decision: as a job (`ui.workers.run_task`, the GUI thread does no I/O),
the queue busy meanwhile; on success the decision joins the session's history (an undo leaves it and
counts back), the decided items leave a model that can drop them at once, `decided` is emitted; on
failure an undone decision stays undoable and the error is shown. The texts are the queue's."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication

from lorekeeper.ui.review_history import UNDO, Decision
from lorekeeper.ui.workers import run_task

if TYPE_CHECKING:
    from lorekeeper.ui.review_queue import ReviewQueue


def _job_name(kind: str, noun: str) -> str:
    names = {
        "approve": QCoreApplication.translate("ReviewQueue", "Approving: {noun}"),
        "reject": QCoreApplication.translate("ReviewQueue", "Rejecting: {noun}"),
        "bulk": QCoreApplication.translate("ReviewQueue", "Approving in bulk: {noun}"),
        "undo": QCoreApplication.translate("ReviewQueue", "Undoing: {noun}"),
    }
    return names.get(kind, f"{kind.capitalize()} {{noun}}").format(noun=noun)


def run_decision(
    queue: ReviewQueue,
    kind: str,
    ids: tuple[Hashable, ...],
    fn: Callable[..., Any],
    *args: Any,
    undoing: Decision | None = None,
) -> None:
    """Run `fn(*args)` on the items `ids` for `queue` (nothing while it is busy)."""
    if queue.busy:
        return
    queue.set_busy(True)
    queue.keeper.row = max(queue.current_row(), 0)
    queue.message.clear_message()
    restore = undoing

    def done(result: Any) -> None:
        if kind == UNDO:
            queue.reviewed = max(0, queue.reviewed - max(1, len(ids)))
            if restore is not None and restore.ids:
                queue.keeper.id = restore.ids[0]
        else:
            queue.history.append(Decision(kind, ids, result))
            queue.reviewed += len(ids)
            drop = getattr(queue.model, "drop_decided", None)
            if drop is not None:  # a model that can: the decided items leave now, not at the reload
                queue.keeper.row = max(queue.current_row(), 0)
                drop(ids, result)
        queue.refresh_progress()
        queue.decided.emit(kind, result)

    def failed(exc: BaseException) -> None:
        if restore is not None and restore.kind != "decided":
            queue.history.append(restore)  # it was not undone: it stays undoable
        queue.keeper.id = None
        queue.message.show_error(exc)

    def finished() -> None:
        queue.set_busy(False)
        queue.table.setFocus()

    run_task(fn, *args, name=_job_name(kind, queue.noun), on_result=done, on_error=failed, on_finished=finished)
