"""The store's change feed: change sets of this process's commits, and of other processes' too.

- `collect(session)` hooks a write session: an `after_flush` event records every new, changed and
  deleted ORM object by kind (the model's table, `TABLE_KINDS`) and id; `do_orm_execute` records
  the kind of a bulk UPDATE/DELETE/INSERT (ids unknown). `Store.write()` turns the collection into
  a `ChangeSet`, writes it to `store_changes` in the same transaction (so other processes can read
  it) and, after commit, publishes it to `store.feed`'s subscribers.
- `ChangeFeed.poll()` compares the store revision with the last one it saw and returns the union
  of what *other* processes (or other `Store` objects) committed since; when rows between the two
  revisions are missing (pruned, or written before this feature) it returns "everything".
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, event, insert, select, text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import ORMExecuteState, Session

from lorekeeper.changes import ChangeSet, Subscribers
from lorekeeper.store.models import StoreChange, utcnow

if TYPE_CHECKING:
    from lorekeeper.store.engine import Store

CHANGES_KEPT = 1000  # rows of `store_changes` kept; a poller further behind than this refreshes everything
OWN_KEPT = 4096  # revisions this process committed, remembered so `poll()` skips them

#: table -> change kind; tables not named here (the revision counter, the feed itself) are ignored
TABLE_KINDS: dict[str, str] = {
    "projects": "projects",
    "skills": "skills",
    "skill_versions": "skills",
    "eval_runs": "evals",
    "learnings": "learnings",
    "learning_files": "learnings",
    "quality_events": "quality",
    "answers": "quality",  # the answers that feedback and Fix It refer to
    "audit_checkpoints": "audit",
    "audit_heads": "audit",  # issue 18: the log's signed head
    "audit_outbox": "audit",
    "row_ledger": "audit",  # issue 24: the row ledger, its signed heads and their anchor
    "row_ledger_heads": "audit",
    "row_anchors": "audit",  # issue 18: events committed with their change, waiting for the day file
    "improvement_runs": "proposals",
    "proposals": "proposals",
    "benchmark_scenarios": "benchmarks",
    "benchmark_runs": "benchmarks",
    "benchmark_results": "benchmarks",
    "market_sources": "market",  # issue 10: marketplaces
    "skill_blobs": "skills",
    "skill_version_files": "skills",
    "skill_generations": "proposals",  # a generated skill's rules and passages belong to its proposal
    # memory (issue 12)
    "stories": "memory",
    "research_notes": "memory",
    "clarifications": "memory",
    "memory_injections": "memory",
    "learning_scores": "learnings",
    "purge_runs": "purge",  # GDPR purge runs and their journal (issue 13)
    "purge_steps": "purge",
    "fact_documents": "facts",  # issue 11: documents, facts and extraction runs
    "facts": "facts",
    "fact_runs": "facts",
    "fact_conflicts": "fact_conflicts",
}
_KEY = "lorekeeper_changes"  # Session.info key of the collection

__all__ = ["CHANGES_KEPT", "TABLE_KINDS", "ChangeFeed", "collect", "collected", "note", "record"]


def _object_id(table: str, obj: Any) -> str | None:
    """The id a subscriber understands: a skill's name, a project's name, a log file, else the key."""
    if table == "skills":
        return str(obj.name)
    if table == "skill_versions":
        skill = obj.__dict__.get("skill")  # never lazy-load inside a flush
        return str(skill.name) if skill is not None else None
    if table == "projects":
        return str(obj.name)
    if table == "audit_checkpoints":
        return str(obj.file)
    ident = getattr(obj, "id", None)
    return None if ident is None else str(ident)


def _after_flush(session: Session, _ctx: Any) -> None:
    found: dict[str, set[str]] | None = session.info.get(_KEY)
    if found is None:
        return
    dirty = [o for o in session.dirty if session.is_modified(o, include_collections=False)]
    for obj in (*session.new, *dirty, *session.deleted):
        table = getattr(getattr(obj, "__table__", None), "name", "")
        kind = TABLE_KINDS.get(table)
        if kind is None:
            continue
        ids = found.setdefault(kind, set())
        ident = _object_id(table, obj)
        if ident is not None:
            ids.add(ident)


def _on_execute(state: ORMExecuteState) -> None:
    found: dict[str, set[str]] | None = state.session.info.get(_KEY)
    if found is None or state.is_select:
        return
    table = getattr(getattr(state.statement, "table", None), "name", "")
    kind = TABLE_KINDS.get(table)
    if kind is not None:
        found.setdefault(kind, set())  # a bulk statement: the kind is known, the ids are not


def note(session: Session, table: str, ids: Iterable[object]) -> None:
    """The ids of rows of `table` a Core statement wrote (`after_flush` sees only ORM objects)."""
    found: dict[str, set[str]] | None = session.info.get(_KEY)
    kind = TABLE_KINDS.get(table)
    if found is None or kind is None:
        return
    found.setdefault(kind, set()).update(str(i) for i in ids)


def install(factory: Any) -> None:
    """Listen on a sessionmaker's sessions (once, when the store is built)."""
    event.listen(factory, "after_flush", _after_flush)
    event.listen(factory, "do_orm_execute", _on_execute)


def collect(session: Session) -> None:
    """Start collecting what `session` changes."""
    session.info[_KEY] = {}


def collected(session: Session, revision: int) -> ChangeSet:
    """What the session changed so far (flush it first)."""
    found: dict[str, set[str]] = session.info.get(_KEY) or {}
    return ChangeSet({k: frozenset(v) for k, v in found.items()}, revision)


def record(session: Session, changes: ChangeSet) -> None:
    """Write the transaction's row of `store_changes` and prune the old ones (same transaction)."""
    session.execute(
        insert(StoreChange).values(
            revision=changes.revision, kinds=json.dumps(changes.to_json(), sort_keys=True), at=utcnow()
        )
    )
    if changes.revision % 50 == 0:  # prune now and then: the delete is cheap but not free
        session.execute(delete(StoreChange).where(StoreChange.revision <= changes.revision - CHANGES_KEPT))


class ChangeFeed:
    """`store.feed`: subscribe to this process's committed change sets; poll for everyone else's."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._subscribers = Subscribers()
        self._lock = threading.Lock()
        self._own: deque[int] = deque(maxlen=OWN_KEPT)
        self._own_set: set[int] = set()
        self.last_seen: int | None = None  # the revision `poll()` last saw (None: not polled yet)

    # ------------------------------------------------------------------ in-process
    def subscribe(self, callback: Callable[[ChangeSet], None]) -> Callable[[], None]:
        """`callback(changes)` after every commit of this `Store` (on the committing thread);
        returns the function that unsubscribes."""
        return self._subscribers.subscribe(callback)

    def publish(self, changes: ChangeSet) -> None:
        self._subscribers.publish(changes)

    def mark_own(self, revision: int) -> None:
        """A revision this store is committing: `poll()` does not report it a second time."""
        with self._lock:
            if len(self._own) == self._own.maxlen:
                self._own_set.discard(self._own[0])
            self._own.append(revision)
            self._own_set.add(revision)

    def unmark_own(self, revision: int) -> None:
        with self._lock:
            self._own_set.discard(revision)

    # ------------------------------------------------------------------ other processes
    def changes_since(self, since: int) -> tuple[int, ChangeSet]:
        """(current revision, what others committed after `since`), read in one transaction."""
        try:
            with self._store.engine.connect() as conn:
                current = int(conn.execute(text("SELECT value FROM store_revision WHERE id = 1")).scalar() or 0)
                if current <= since:
                    conn.rollback()
                    return current, ChangeSet(revision=current)
                rows = conn.execute(
                    select(StoreChange.revision, StoreChange.kinds).where(
                        StoreChange.revision > since, StoreChange.revision <= current
                    )
                ).all()
                conn.rollback()
        except SQLAlchemyError:
            return since, ChangeSet(revision=since)
        with self._lock:
            own = set(self._own_set)
        seen = {int(r) for r, _ in rows}
        if len(seen) < current - since:  # pruned, or from before the feed: assume everything
            missing = set(range(since + 1, current + 1)) - seen - own
            if missing:
                return current, ChangeSet.everything(current)
        out = ChangeSet(revision=current)
        for rev, kinds in rows:
            if int(rev) in own:
                continue
            try:
                data = json.loads(kinds)
            except ValueError:
                data = None
            out = out | ChangeSet.from_json(data, int(rev))
        return current, ChangeSet(out.kinds, current)

    def poll(self) -> ChangeSet:
        """What other processes committed since the last poll (empty on the first call, which
        only notes the current revision). Thread-safe; reads the store, so call it off the GUI thread."""
        with self._lock:
            since = self.last_seen
        if since is None:
            current = self._store.revision()
            with self._lock:
                self.last_seen = current if self.last_seen is None else self.last_seen
            return ChangeSet(revision=current)
        current, changes = self.changes_since(since)
        with self._lock:
            if self.last_seen is None or current > self.last_seen:
                self.last_seen = current
        return changes
