"""Typed change sets: what kinds of rows a committed write transaction touched, and which ids.

Qt-free. The store (`lorekeeper.store.feed`) builds a `ChangeSet` from each `Store.write()`
transaction and publishes it after commit to in-process subscribers; other processes' changes
are read back from the store's `store_changes` table by `ChangeFeed.poll()`. The GUI turns the
kinds into bus topics in one place (`lorekeeper.ui.changefeed`).

A kind maps to a frozenset of ids (skill names, proposal ids, ...). An empty id set means "rows
of this kind changed, which ones is unknown" (a bulk statement, another process's change, or a
pruned history: `ChangeSet.everything()`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

#: every kind a change set can name (the GUI has a topic for each)
KINDS: tuple[str, ...] = (
    "projects",
    "skills",
    "evals",
    "learnings",
    "quality",
    "audit",
    "proposals",
    "benchmarks",
    "facts",
    "fact_conflicts",
    "market",
    "memory",
    "purge",
)

__all__ = ["KINDS", "ChangeSet", "Subscribers"]


@dataclass(frozen=True)
class ChangeSet:
    """kind -> ids changed; `revision` is the store revision the transaction committed (0: unknown)."""

    kinds: Mapping[str, frozenset[str]] = field(default_factory=dict)
    revision: int = 0

    @classmethod
    def of(cls, revision: int = 0, **kinds: Iterable[object]) -> ChangeSet:
        """`ChangeSet.of(skills=["plan"], proposals=[3])`: ids become strings."""
        return cls({k: frozenset(str(i) for i in ids) for k, ids in kinds.items()}, revision)

    @classmethod
    def everything(cls, revision: int = 0) -> ChangeSet:
        """Every kind, ids unknown (the history between two revisions was pruned)."""
        return cls({k: frozenset() for k in KINDS}, revision)

    def __bool__(self) -> bool:
        return bool(self.kinds)

    def __contains__(self, kind: object) -> bool:
        return kind in self.kinds

    def ids(self, kind: str) -> frozenset[str]:
        return self.kinds.get(kind, frozenset())

    @property
    def names(self) -> frozenset[str]:
        """The kinds that changed."""
        return frozenset(self.kinds)

    def union(self, other: ChangeSet) -> ChangeSet:
        merged: dict[str, frozenset[str]] = dict(self.kinds)
        for kind, ids in other.kinds.items():
            merged[kind] = merged.get(kind, frozenset()) | ids
        return ChangeSet(merged, max(self.revision, other.revision))

    __or__ = union

    def to_json(self) -> dict[str, list[str]]:
        return {k: sorted(v) for k, v in sorted(self.kinds.items())}

    @classmethod
    def from_json(cls, data: object, revision: int = 0) -> ChangeSet:
        """From `to_json()`; anything unreadable is "everything" (never miss a change)."""
        if not isinstance(data, dict):
            return cls.everything(revision)
        kinds: dict[str, frozenset[str]] = {}
        for k, ids in data.items():
            if not isinstance(k, str) or not isinstance(ids, list):
                return cls.everything(revision)
            kinds[k] = frozenset(str(i) for i in ids)
        return cls(kinds, revision)

    def __repr__(self) -> str:
        return f"ChangeSet({self.to_json()!r}, revision={self.revision})"


Callback = Callable[[ChangeSet], None]


class Subscribers:
    """Thread-safe callbacks: `subscribe` returns an unsubscribe function; `publish` calls every
    callback on the publishing thread (a failing callback is logged, never breaks the writer).

    A callback runs on the committing thread, possibly while the writer still holds its own
    locks (an audit append commits its checkpoint under the log's lock): hand the change set over
    to your own thread or event loop instead of reading the store or the log inside it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._callbacks: list[Callback] = []

    def subscribe(self, callback: Callback) -> Callable[[], None]:
        with self._lock:
            self._callbacks.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._callbacks:
                    self._callbacks.remove(callback)

        return unsubscribe

    def publish(self, changes: ChangeSet) -> None:
        with self._lock:
            callbacks = list(self._callbacks)
        for cb in callbacks:
            try:
                cb(changes)
            except Exception:  # a subscriber's bug must not fail a committed write
                log.exception("change feed subscriber %r failed", cb)
