"""The Facts review queue's table: one query per filter, rows handed to the view a page at a time.

`ws.facts.list(...)` answers a filter in one call (in a worker: the rows are read and their
signatures checked off the GUI thread); the confidence band and the scope filter apply there too.
The model keeps that answer as a snapshot, sorted in the worker by the clicked header (the answer
is whole, so sorting it there is the same as sorting in SQL), and shows it whole: the view only
asks for the rows on screen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from PySide6.QtCore import QCoreApplication, Qt

from lorekeeper.facts.model import FactInfo
from lorekeeper.ui.i18n import QT_TRANSLATE_NOOP, class_text, fmt_float, value_text
from lorekeeper.ui.models.paged import PagedRowsModel
from lorekeeper.ui.theme import color
from lorekeeper.ui.workers import run_task

#: (label, (min, max)) — the seed's confidence bands
BANDS: tuple[tuple[str, tuple[float, float]], ...] = (
    (QT_TRANSLATE_NOOP("facts", "Any confidence"), (0.0, 1.0)),
    (QT_TRANSLATE_NOOP("facts", "0.9+ stated"), (0.9, 1.0)),
    (QT_TRANSLATE_NOOP("facts", "0.6–0.89 deduced"), (0.6, 0.8999)),
    (QT_TRANSLATE_NOOP("facts", "below 0.6 fragile"), (0.0, 0.5999)),
)
UNIVERSAL = "\x00universal"  # the scope filter's "no scope (everywhere)"
SCOPED = "\x00scoped"  # "any scope"


def band_of(confidence: float) -> str:
    if confidence >= 0.9:
        return QCoreApplication.translate("facts", "stated explicitly")
    if confidence >= 0.6:
        return QCoreApplication.translate("facts", "deduced from an example")
    return QCoreApplication.translate("facts", "fragile inference")


@dataclass(frozen=True)
class FactQuery:
    project: str | None = None
    status: str | None = "candidate"
    type: str | None = None
    document: str | None = None
    band: tuple[float, float] = (0.0, 1.0)
    scope: str | None = None  # None: any; UNIVERSAL; SCOPED; else one glob
    only: frozenset[str] | None = None  # the "mine" view: the ids assigned to the operator

    def keeps(self, f: FactInfo) -> bool:
        if self.only is not None and f.id not in self.only:
            return False
        lo, hi = self.band
        if not lo <= f.confidence <= hi:
            return False
        if self.scope == UNIVERSAL:
            return not f.scope
        if self.scope == SCOPED:
            return bool(f.scope)
        if self.scope:
            return self.scope in f.scope
        return True


def query_facts(service: Any, q: FactQuery) -> list[FactInfo]:
    """The facts a query selects, in the service's order (creation order). Runs in a worker."""
    rows = service.list(q.project or None, status=q.status or None, type=q.type or None, document=q.document or None)
    return [f for f in rows if q.keeps(f)]


def sort_facts(facts: list[FactInfo], column: int, descending: bool) -> list[FactInfo]:
    """`facts` ordered by a column of the table (ties in creation order); -1 keeps their order."""
    key = FactsModel.SORT_KEYS.get(column)
    if key is None:
        return facts
    return sorted(facts, key=lambda f: getattr(f, key), reverse=descending)


class FactsModel(PagedRowsModel[Any, FactQuery]):
    COL_TYPE, COL_STATEMENT, COL_CONF, COL_DOCS, COL_SCOPE, COL_STATUS = range(6)
    HEADERS = (
        QT_TRANSLATE_NOOP("FactsModel", "Type"),
        QT_TRANSLATE_NOOP("FactsModel", "Statement"),
        QT_TRANSLATE_NOOP("FactsModel", "Conf."),
        QT_TRANSLATE_NOOP("FactsModel", "Docs"),
        QT_TRANSLATE_NOOP("FactsModel", "Scope"),
        QT_TRANSLATE_NOOP("FactsModel", "Status"),
    )
    JOB_NAME = QT_TRANSLATE_NOOP("FactsModel", "Loading facts")
    JOB_VISIBLE = False
    SORT_KEYS: ClassVar[dict[int, str]] = dict(
        enumerate(("type", "statement", "confidence", "corroboration", "scope", "status"))
    )
    DEFAULT_SORT = (-1, False)  # the service's order (creation order) until a header is clicked

    def __init__(self, service: Callable[[], Any], parent: Any = None) -> None:
        super().__init__(FactQuery(), parent)
        self._service = service
        self.snapshot: list[FactInfo] = []  # every fact of the current query (the view has the first pages)

    def reload(self) -> None:
        query, service = self.query, self._service()
        column, descending = self.sort_column, self.descending
        self._generation += 1
        generation = self._generation
        self._loading = True
        run_task(
            lambda: sort_facts(query_facts(service, query), column, descending),
            name=class_text(self, "JOB_NAME"),
            key=(self, "page"),
            visible=self.JOB_VISIBLE,
            on_result=lambda facts: self._on_snapshot(facts, generation),
            on_error=self._on_error,
        )

    def _on_snapshot(self, facts: list[FactInfo], generation: int) -> None:
        self.snapshot = facts
        self._on_first_page((len(facts), facts), generation)  # the whole answer: no page to ask later

    def drop_decided(self, ids: tuple[Any, ...], result: Any) -> None:
        """The queue decided `ids`: the facts that left the filter leave the list now (the next one
        is on screen at once); the change feed's reload then brings the store's state."""
        after = {f.id: f for f in getattr(result, "facts", []) or []}
        gone = {i for i in ids if i in after and not self.query_keeps(after[i])}
        if not gone:
            return
        self.beginResetModel()
        self.rows = [f for f in self.rows if f.id not in gone]
        self.snapshot = [f for f in self.snapshot if f.id not in gone]
        self.total = len(self.snapshot)
        self.endResetModel()

    def query_keeps(self, f: FactInfo) -> bool:
        q = self.query
        return (not q.status or f.status == q.status) and q.keeps(f)

    def cell(self, item: FactInfo, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            if column == self.COL_TYPE:
                return item.type
            if column == self.COL_STATEMENT:
                return ("⚑ " if item.flag else "") + item.statement
            if column == self.COL_CONF:
                return fmt_float(item.confidence, 2)
            if column == self.COL_DOCS:
                return str(item.corroboration)
            if column == self.COL_SCOPE:
                return ", ".join(item.scope) if item.scope else QCoreApplication.translate("FactsModel", "everywhere")
            if column == self.COL_STATUS:
                return value_text(item.status)
        if role == Qt.ItemDataRole.ForegroundRole:
            if column == self.COL_STATUS:
                return color(
                    {"approved": "pass", "rejected": "fail", "conflicting": "trigger"}.get(item.status, "info")
                )
            if column == self.COL_SCOPE and not item.scope:
                return color("muted")
        if role == Qt.ItemDataRole.ToolTipRole and column == self.COL_STATEMENT:
            return item.statement + (f"\n\n⚑ {item.flag}" if item.flag else "")
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (self.COL_CONF, self.COL_DOCS):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None
