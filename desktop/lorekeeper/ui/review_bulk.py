"""A review queue's decisions on a multi-selection (Shift/Ctrl+click, Shift+↓, Ctrl+A): A approves
its open items in one job, R rejects them with one reason. None is decided while one of them is
held by a job (its benchmark): the queue says why. The texts are the queue's (ReviewQueue context)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication

from lorekeeper.ui.review_history import BULK, BULK_REJECT
from lorekeeper.ui.workers import tracker

if TYPE_CHECKING:
    from lorekeeper.ui.review_queue import ReviewQueue


def open_selection(queue: ReviewQueue) -> list[Any] | None:
    """The open items of a multi-selection (None: no multi-selection; [] with a message: none is open)."""
    many = queue.multi()
    if not many:
        return None
    if queue.busy or queue.reject_bar.isVisible():
        return []
    ops = queue.ops
    open_items = [it for it in many if ops.is_open(it)]
    if not open_items:
        queue.message.show_ok(
            QCoreApplication.translate("ReviewQueue", "None of the {0} selected is waiting for a decision.").format(
                len(many)
            )
        )
        return []
    for it in open_items:  # one of them held by a job (its benchmark): say why, decide none
        reason = tracker().hold_reason((ops.hold_kind, ops.item_id(it))) if ops.hold_kind else ""
        if reason:
            queue.gate.show_reason(reason)
            return []
    return open_items


def _each(one: Callable[..., Any] | None, many: Callable[..., Any] | None) -> Callable[..., Any]:
    """`many` when the panel has one, else `one` on each item in the same job."""
    if many is not None:
        return many
    assert one is not None

    def each(chosen: list[Any], *args: Any) -> list[Any]:
        return [one(it, *args) for it in chosen]

    return each


def approve_selection(queue: ReviewQueue, selection: list[Any]) -> None:
    ops = queue.ops
    if selection and ops.approve is not None:
        ids = tuple(ops.item_id(it) for it in selection)
        queue.decide(BULK, ids, _each(ops.approve, ops.approve_many), selection)


def reject_selection(queue: ReviewQueue, selection: list[Any]) -> None:
    """Ask the one reason, then reject the selection's open items with it."""
    ops = queue.ops
    if not selection or ops.reject is None:
        return
    ids = tuple(ops.item_id(it) for it in selection)
    fn = _each(ops.reject, ops.reject_many)
    queue.ask_reason(
        QCoreApplication.translate(
            "ReviewQueue", "Why are the {0} selected rejected? One reason for all (Enter to reject, Esc to cancel)"
        ).format(len(ids)),
        QCoreApplication.translate("ReviewQueue", "Reject {0}").format(len(ids)),
        lambda why: queue.decide(BULK_REJECT, ids, fn, selection, why),
        missing=QCoreApplication.translate("ReviewQueue", "A rejection needs a reason"),
    )
