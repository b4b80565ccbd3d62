"""Comments on review items and their assignment to a named operator (issue 30 d3).

A review item is a proposal, a fact or a conflict, named by its kind and its id as text. A
comment is a signed, append-only row (`review_comments`) written in the transaction of its audit
event (`review_comment`, which carries the text's hash, not the text); the review panels show
the comments in the item's history. An assignment (`review_assignments`, one per item) names the
operator who reviews it; the "mine" view of a panel lists the items assigned to `reviewer_name()`.

Who a comment or an assignment is from is `reviewer_name()`, the one function that decides it:
the OS login today; a named operator (Vault identity) can take its place there alone.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select

from lorekeeper.audit.rows import RowVerifier
from lorekeeper.errors import InvalidInputError
from lorekeeper.locations import os_login
from lorekeeper.store.models import ReviewAssignment, ReviewComment, utcnow

reviewer_name = os_login  # who acts without a Vault identity (one definition: locations.os_login)

KINDS = ("proposal", "fact", "conflict")
MAX_COMMENT = 4000
MAX_NAME = 128
EVENT_COMMENT = "review_comment"
EVENT_ASSIGNED = "review_assigned"


@dataclass(frozen=True)
class Comment:
    id: int
    kind: str
    item: str
    author: str
    text: str
    created_at: datetime

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "item": self.item,
            "author": self.author,
            "text": self.text,
            "created_at": self.created_at.isoformat(),
        }


@dataclass(frozen=True)
class Assignment:
    kind: str
    item: str
    assignee: str
    assigned_by: str
    assigned_at: datetime


def _kind(kind: str) -> str:
    if kind not in KINDS:
        raise InvalidInputError(f"unknown review item kind {kind!r}: one of {', '.join(KINDS)}")
    return kind


def _item(item: object) -> str:
    text = str(item).strip()
    if not text or len(text) > 160:
        raise InvalidInputError("a review item needs its id (at most 160 characters)")
    return text


class ReviewNotes:
    """Comments and assignments of the review queues, signed rows and signed events."""

    def __init__(self, store: Any, audit_log: Callable[[], Any], verifier: Callable[[], Any] | None = None) -> None:
        self.store = store
        self.audit_log = audit_log
        self.verifier = verifier  # the session's RowVerifier, on first use (it needs the key)

    def _verified(self, rows: list[Any], purpose: str) -> list[Any]:
        if not rows:
            return rows
        if self.verifier is not None:
            return list(self.verifier().filter(rows, purpose=purpose))
        log = self.audit_log()
        return list(RowVerifier(log.signer).filter(rows, purpose=purpose))

    # ------------------------------------------------------------------ comments
    def comment(self, kind: str, item: object, text: str, *, by: str | None = None) -> Comment:
        """Add a comment (validated first; the row and its event in one transaction)."""
        kind, item_id = _kind(kind), _item(item)
        body = (text or "").strip()
        if not body:
            raise InvalidInputError("a comment needs some text")
        if len(body) > MAX_COMMENT:
            raise InvalidInputError(f"a comment is at most {MAX_COMMENT} characters (this one has {len(body)})")
        author = (by or reviewer_name()).strip()[:MAX_NAME] or "operator"
        log = self.audit_log()  # fail closed before anything is written
        now = utcnow()
        data = {
            "kind": kind,
            "item": item_id,
            "by": author,
            "at": now.isoformat(),
            "text_sha256": hashlib.sha256(body.encode("utf-8")).hexdigest(),
            "chars": len(body),
        }
        with self.store.write() as s:
            sig = str(log.record_ref(EVENT_COMMENT, data))
            row = ReviewComment(kind=kind, item=item_id, author=author, text=body, created_at=now, event_sig=sig)
            s.add(row)
            s.flush()
            out = Comment(row.id, kind, item_id, author, body, now)
        return out

    def comments(self, kind: str, item: object) -> list[Comment]:
        """The item's comments, oldest first (a row whose signature fails is left out)."""
        kind, item_id = _kind(kind), _item(item)
        with self.store.session() as s:
            rows = list(
                s.scalars(
                    select(ReviewComment)
                    .where(ReviewComment.kind == kind, ReviewComment.item == item_id)
                    .order_by(ReviewComment.id)
                )
            )
            rows = self._verified(rows, "review comments")
            return [Comment(r.id, r.kind, r.item, r.author, r.text, r.created_at) for r in rows]

    # ------------------------------------------------------------------ assignment
    def assign(self, kind: str, item: object, to: str, *, by: str | None = None) -> Assignment | None:
        """Assign the item to operator `to` ("" unassigns it); returns the assignment (None when unassigned)."""
        kind, item_id = _kind(kind), _item(item)
        assignee = (to or "").strip()
        if len(assignee) > MAX_NAME or any(c in assignee for c in "\n\r\t"):
            raise InvalidInputError(f"an operator's name is one line of at most {MAX_NAME} characters")
        who = (by or reviewer_name()).strip()[:MAX_NAME] or "operator"
        log = self.audit_log()
        now = utcnow()
        with self.store.write() as s:
            row = s.get(ReviewAssignment, (kind, item_id))
            before = row.assignee if row is not None else ""
            if before == assignee:
                return self._assignment(row) if row is not None else None
            data = {"kind": kind, "item": item_id, "from": before, "to": assignee, "by": who, "at": now.isoformat()}
            sig = str(log.record_ref(EVENT_ASSIGNED, data))
            if not assignee:
                if row is not None:
                    s.delete(row)
                return None
            if row is None:
                row = ReviewAssignment(kind=kind, item=item_id)
                s.add(row)
            row.assignee, row.assigned_by, row.assigned_at, row.event_sig = assignee, who, now, sig
            return Assignment(kind, item_id, assignee, who, now)

    @staticmethod
    def _assignment(row: ReviewAssignment) -> Assignment:
        return Assignment(row.kind, row.item, row.assignee, row.assigned_by, row.assigned_at)

    def assignments(self, kind: str, items: Iterable[object] | None = None) -> dict[str, Assignment]:
        """item id -> its assignment, for the kind (only `items` when given)."""
        kind = _kind(kind)
        wanted = None if items is None else {str(i) for i in items}
        with self.store.session() as s:
            rows = list(s.scalars(select(ReviewAssignment).where(ReviewAssignment.kind == kind)))
            rows = self._verified(rows, "review assignments")
            return {r.item: self._assignment(r) for r in rows if wanted is None or r.item in wanted}

    def mine(self, kind: str, who: str | None = None) -> set[str]:
        """The ids of the items of `kind` assigned to `who` (default: the operator)."""
        me = who or reviewer_name()
        return {item for item, a in self.assignments(kind).items() if a.assignee == me}

    def operators(self) -> list[str]:
        """The names already used in assignments, then the operator (for the assign box)."""
        with self.store.session() as s:
            names = set(s.scalars(select(ReviewAssignment.assignee).distinct()))
        names.add(reviewer_name())
        return sorted(names, key=str.casefold)
