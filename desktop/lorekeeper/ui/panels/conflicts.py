"""Conflicts: arbitrate contradicting facts, side by side, by the keyboard (seed 003, issue 11).

1 / 2 (… 9) keep fact A / B (the others are rejected) · M merge into a new statement · X reject
them all · U / Ctrl+Z undo (the conflict opens again) · H this session's decisions, any of them
undone · J / K next / previous · ? the cheat-sheet (F1: the app's). Every decision asks for a reason (Enter
confirms, Esc cancels) and goes through `ws.facts.resolve` in a job: a signed event (who, when,
why); the losing facts keep their rows and history. The queue is the shared
`ui.review_queue.ReviewQueue`.
"""

from __future__ import annotations

import html
import string
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from lorekeeper.facts.model import ConflictInfo, FactInfo
from lorekeeper.ui.i18n import QT_TRANSLATE_NOOP, fmt_datetime, lformat, tr_const, value_text
from lorekeeper.ui.models.base import RowsModel
from lorekeeper.ui.models.facts import band_of
from lorekeeper.ui.panels.base import AppContext, FactQueuePanel
from lorekeeper.ui.review_notes import QueueNotes
from lorekeeper.ui.review_queue import UNDO, Decision, QueueActions, ReviewQueue
from lorekeeper.ui.saved_views import SavedViews, saved_view_note
from lorekeeper.ui.theme import color
from lorekeeper.ui.widgets import FlowLayout, label
from lorekeeper.ui.workers import run_task

STATUSES = (
    (QT_TRANSLATE_NOOP("conflicts", "Open"), "open"),
    (QT_TRANSLATE_NOOP("conflicts", "Resolved"), "resolved"),
    (QT_TRANSLATE_NOOP("conflicts", "All"), ""),
)
LETTERS = string.ascii_uppercase


@dataclass(frozen=True)
class ConflictRow:
    id: int
    info: ConflictInfo
    facts: tuple[FactInfo, ...]


def load_conflicts(service: Any, status: str | None) -> list[ConflictRow]:
    out: list[ConflictRow] = []
    for c in service.conflicts(status=status or None):
        facts: list[FactInfo] = []
        for fid in c.facts:
            try:
                facts.append(service.show(fid))
            except Exception:  # noqa: BLE001 - a fact that cannot be read is left out, the rest shown
                continue
        out.append(ConflictRow(c.id, c, tuple(facts)))
    return out


class ConflictsModel(RowsModel[ConflictRow]):
    HEADERS = (
        "#",
        QT_TRANSLATE_NOOP("ConflictsModel", "Reason"),  # short: the column is stretched in a narrow list
        QT_TRANSLATE_NOOP("ConflictsModel", "Status"),
    )

    def cell(self, item: ConflictRow, column: int, role: int) -> Any:
        c = item.info
        if role == Qt.ItemDataRole.DisplayRole:
            return (str(c.id), f"{c.project}: {c.reason}", value_text(c.resolution or c.status))[column]
        if role == Qt.ItemDataRole.ForegroundRole and column == 2:
            return color("trigger" if c.status == "open" else "pass")
        if role == Qt.ItemDataRole.ToolTipRole and column == 1:
            return f"{c.project}: {c.reason} ({len(c.facts)} facts)"
        return None


def fact_side_html(letter: str, f: FactInfo, outcome: str = "") -> str:
    e = html.escape
    scope = (
        ", ".join(f"<code>{e(g)}</code>" for g in f.scope)
        if f.scope
        else QCoreApplication.translate("conflicts", "everywhere")
    )
    parts = [
        QCoreApplication.translate("conflicts", "<p style='font-size:12pt; font-weight:600'>{letter}. {0}</p>").format(
            e(f.statement), letter=letter
        ),
        lformat(
            QCoreApplication.translate(
                "conflicts",
                "<p>{0} · confidence {confidence:.2f} ({1}) · scope {scope} · {corroboration} document{2}</p>",
            ),
            e(f.type),
            band_of(f.confidence),
            "s" if f.corroboration != 1 else "",
            confidence=f.confidence,
            scope=scope,
            corroboration=f.corroboration,
        ),
    ]
    if outcome:
        parts.append(f"<p><b>{e(outcome)}</b></p>")
    if f.detail:
        parts.append(f"<p>{e(f.detail)}</p>")
    parts.append("<p><b>Provenance</b></p>")
    for p in f.provenance:
        parts.append(
            QCoreApplication.translate("conflicts", "<p style='margin-left:6px'><b>{0}</b><br><i>“{1}”</i></p>").format(
                e(p.origin or p.document_id), e(p.quote)
            )
        )
    parts.append(
        QCoreApplication.translate("conflicts", "<p style='color:{0}'><code>{1}</code></p>").format(
            color("muted").name(), e(f.id)
        )
    )
    return "".join(parts)


class FactSide(QFrame):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("conflictSide")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay = QVBoxLayout(self)
        lay.addWidget(self.text)
        lay.addStretch(1)


class ConflictsPanel(FactQueuePanel):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.status_combo = QComboBox()
        for text, value in STATUSES:
            self.status_combo.addItem(tr_const("conflicts", text), value)
        self.status_combo.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.counts_label = label("", "hintText")

        self.model = ConflictsModel(self)
        self.queue = queue = ReviewQueue(
            self.model,
            QueueActions(
                is_open=lambda r: r.info.status == "open",
                undo=self._undo_decision,
                describe=self._describe,
            ),
            host=self,
            noun=self.tr("conflict"),
            undo_keys=("U", "Ctrl+Z"),
            undo_text=self.tr("Undo the arbitration: the conflict opens again, its facts back in conflict"),
        )
        self.keep_buttons: list[QPushButton] = []
        for i in range(2):
            b = QPushButton(self.tr("Keep {0} ({1})").format(LETTERS[i], i + 1))
            b.clicked.connect(lambda _=False, n=i: self.keep(n))
            queue.add_action_button(b)
            self.keep_buttons.append(b)
        self.merge_button = QPushButton(self.tr("Merge… (M)"))
        self.merge_button.clicked.connect(self.start_merge)
        self.reject_all_button = QPushButton(self.tr("Reject all (X)"))
        self.reject_all_button.clicked.connect(self.reject_all)
        queue.add_action_button(self.merge_button)
        queue.add_action_button(self.reject_all_button)
        queue.add_shortcut(
            tuple(str(i + 1) for i in range(9)),
            self.tr("Keep fact A, B, … (the others are rejected); type the reason, Enter"),
            lambda: None,
            label="1 / 2 …",
        )
        for sc in queue.shortcuts[-9:]:  # each digit keeps its own fact
            n = int(sc.key().toString()) - 1
            sc.activated.disconnect()
            sc.activated.connect(lambda n=n: self.keep(n))
        queue.add_shortcut(
            ("M",), self.tr("Merge into a new statement (type it, Enter; then the reason)"), self.start_merge
        )
        queue.add_shortcut(("X",), self.tr("Reject them all; type the reason, Enter"), self.reject_all)
        queue.add_shortcut(("F5",), self.tr("Refresh"), self.refresh)
        queue.on_escape = self._escape
        self._rows: list[ConflictRow] = []
        self.notes = QueueNotes(queue, "conflict", lambda: self.ws, self._mine_changed, self)
        queue.current_changed.connect(self._show_conflict)
        queue.decided.connect(self._decided)
        queue.busy_changed.connect(lambda _b: self._update_buttons())
        queue.table.selectionModel().selectionChanged.connect(lambda *_a: self._update_buttons())
        self.table, self.message = queue.table, queue.message
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        hh.setStretchLastSection(False)
        hh.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        for col, width in ((0, 34), (2, 76)):
            self.table.setColumnWidth(col, width)

        self.merge_bar = QFrame()
        mb = QHBoxLayout(self.merge_bar)
        mb.setContentsMargins(0, 0, 0, 0)
        self.merge_edit = QLineEdit()
        self.merge_edit.setPlaceholderText(self.tr("The merged statement (Enter, then the reason; Esc cancels)"))
        self.merge_edit.returnPressed.connect(self._merge_statement_done)
        mb.addWidget(QLabel(self.tr("Merged statement:")))
        mb.addWidget(self.merge_edit, 1)
        self.merge_bar.hide()

        self.header = label("", "sectionTitle", wrap=True)
        self.sides_box = QWidget()
        self.sides = QHBoxLayout(self.sides_box)
        self.sides.setContentsMargins(0, 0, 0, 0)
        self.side_widgets: list[FactSide] = []
        self.resolution = label("", "hintText", wrap=True)
        detail = QWidget()
        dl = QVBoxLayout(detail)
        dl.setContentsMargins(0, 0, 0, 0)
        dl.addWidget(self.header)
        dl.addWidget(self.resolution)
        dl.addWidget(self.sides_box)
        dl.addWidget(self.notes.history_label)  # the conflict's assignment and comments
        dl.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(detail)
        scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)

        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(queue)
        split.addWidget(scroll)
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 5)
        split.setSizes([360, 800])

        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 16, 20, 12)
        layout.addWidget(label(self.tr("Conflicts"), "panelTitle"))
        layout.addWidget(
            label(
                self.tr(
                    "Facts that contradict each other, side by side with their sources. Keep one, merge them into a new "
                    "statement or reject them all: a reason is required, the decision is signed and the other facts keep "
                    "their history. Press ? for the keyboard shortcuts."
                ),
                "panelSubtitle",
                wrap=True,
            )
        )
        # a bar that wraps: in French at 1024x640 the counts were cut to "1 affic…" in one row
        top_bar = QWidget()
        top = FlowLayout(top_bar)
        top.addWidget(QLabel(self.tr("Show:")))
        top.addWidget(self.status_combo)
        top.addWidget(self.counts_label)
        top.addStretch()
        top.addWidget(self.notes.mine_box)
        self.views = SavedViews("conflicts", [self.status_combo], [self.notes.mine_box], host=self)
        self.views.applied.connect(lambda _n: saved_view_note(self.views, queue.message))
        top.addWidget(self.views)
        layout.addWidget(top_bar)
        layout.addWidget(queue.action_bar)
        layout.addWidget(self.merge_bar)
        layout.addWidget(queue.reject_bar)
        layout.addWidget(queue.cheatsheet)
        layout.addWidget(split, 1)
        layout.addWidget(self.message)

        self.status_combo.currentIndexChanged.connect(self._filter_changed)
        ctx.bus.changed.connect(self._on_bus)
        self._show_conflict(None)
        self.refresh()

    # ------------------------------------------------------------ loading
    # refresh, showEvent, showcase, the bus and the filter: FactQueuePanel
    @Slot()
    def reload(self) -> None:
        status = self.status_combo.currentData()
        self.queue.set_empty_text(
            self.tr(
                "No open conflict. Contradictions appear here when `lorekeeper facts consolidate --llm` finds facts "
                "that cannot both be true; the model never chooses, you do."
            )
            if status == "open"
            else self.tr("No conflict.")
        )
        run_task(
            load_conflicts,
            self.ws.facts,
            status,
            name=self.tr("Loading conflicts"),
            key=(self, "list"),
            visible=False,
            on_result=self._show,
            on_error=self.message.show_error,
        )

    def _show(self, rows: list[ConflictRow]) -> None:
        n_open = sum(1 for r in rows if r.info.status == "open")
        self.counts_label.setText(self.tr("{n} shown · {n_open} open").format(n=len(rows), n_open=n_open))
        self._rows = rows
        self.model.set_rows([r for r in rows if self.notes.keeps(r)])

    def _mine_changed(self, _ids: set[str] | None) -> None:
        self.queue.reset_progress()
        self._show(self._rows)

    def current(self) -> ConflictRow | None:
        cur: ConflictRow | None = self.queue.current()
        return cur

    # ------------------------------------------------------------ the detail
    def _show_conflict(self, row: ConflictRow | None) -> None:
        self.merge_bar.hide()
        facts = row.facts if row else ()
        while len(self.side_widgets) < len(facts):
            side = FactSide()
            self.sides.addWidget(side, 1)
            self.side_widgets.append(side)
        for i, side in enumerate(self.side_widgets):
            side.setVisible(i < len(facts))
        if row is None:
            self.header.setText(
                self.tr("Select a conflict to see its facts side by side.") if self.model.rowCount() else ""
            )
            self.resolution.setText("")
            self._update_buttons()
            return
        c = row.info
        self.header.setText(
            self.tr("Conflict #{id} · {project} — {reason}").format(id=c.id, project=c.project, reason=c.reason)
        )
        if c.status == "open":
            self.resolution.setText(self.tr("Open: 1 / 2 keep a fact, M merge, X reject all (each asks for a reason)."))
        else:
            self.resolution.setText(
                self.tr("Resolved ({resolution}) by {resolved_by} · {0}").format(
                    fmt_datetime(c.resolved_at),
                    resolution={
                        "keep": self.tr("keep"),
                        "merge": self.tr("merge"),
                        "reject_all": self.tr("reject all"),
                    }.get(c.resolution, c.resolution),
                    resolved_by=c.resolved_by,
                )
                + (f" → {c.result}" if c.result else "")
                + (f" — {c.resolution_reason}" if c.resolution_reason else "")
                + self.tr(" · U undoes it")
            )
        for i, f in enumerate(facts):
            outcome = ""
            if c.status != "open":
                outcome = value_text("kept" if f.id == c.result else f.status)
            self.side_widgets[i].text.setText(fact_side_html(LETTERS[i], f, outcome))
        self._update_buttons()

    def _update_buttons(self) -> None:
        row = self.current()
        open_ = row is not None and row.info.status == "open" and not self.queue.busy
        many = self.queue.multi()
        if many:
            open_ = any(r.info.status == "open" for r in many) and not self.queue.busy
        for i, b in enumerate(self.keep_buttons):
            b.setEnabled(open_ and row is not None and i < len(row.facts))
        self.merge_button.setEnabled(open_)
        self.reject_all_button.setEnabled(open_)

    # ------------------------------------------------------------ decisions
    def _open_row(self) -> ConflictRow | None:
        row = self.current()
        if row is None or row.info.status != "open" or self.queue.busy or self.queue.reject_bar.isVisible():
            return None
        return row

    def _resolve(self, row: ConflictRow, kind: str, why: str, **how: Any) -> None:
        facts = self.ws.facts
        cid = row.id
        self.queue.decide(kind, (cid,), lambda: facts.resolve(cid, why=why, **how))

    def _selection(self) -> list[ConflictRow] | None:
        """The open conflicts of a multi-selection (None without one; [] when none can be decided)."""
        many = self.queue.multi()
        if not many:
            return None
        if self.queue.busy or self.queue.reject_bar.isVisible() or self.merge_bar.isVisible():
            return []
        rows = [r for r in many if r.info.status == "open"]
        if not rows:
            self.message.show_ok(self.tr("None of the {0} selected conflicts is open.").format(len(many)))
        return rows

    def _resolve_many(self, rows: list[ConflictRow], kind: str, why: str, how: Any) -> None:
        facts = self.ws.facts
        ids = tuple(r.id for r in rows)
        self.queue.decide(kind, ids, lambda: [facts.resolve(r.id, why=why, **how(r)) for r in rows])

    def keep(self, n: int) -> None:
        rows = self._selection()
        if rows is not None:  # several selected: keep the n-th fact of each (the others rejected)
            rows = [r for r in rows if n < len(r.facts)]
            if rows:
                self.queue.ask_reason(
                    self.tr(
                        "Why keep fact {0} in each of the {1} selected conflicts? One reason for all, Enter"
                    ).format(LETTERS[n], len(rows)),
                    self.tr("Keep {0} in {1}").format(LETTERS[n], len(rows)),
                    lambda why: self._resolve_many(rows, "keep", why, lambda r: {"keep": r.facts[n].id}),
                    missing=self.tr("Keeping a fact needs a reason"),
                )
            return
        row = self._open_row()
        if row is None or self.merge_bar.isVisible() or n >= len(row.facts):
            return
        fact = row.facts[n]
        self.queue.ask_reason(
            self.tr("Why keep {0} (“{1}”)? Enter to confirm, Esc to cancel").format(LETTERS[n], fact.statement[:60]),
            self.tr("Keep {0}").format(LETTERS[n]),
            lambda why: self._resolve(row, "keep", why, keep=fact.id),
            missing=self.tr("Keeping a fact needs a reason"),
        )

    def reject_all(self) -> None:
        rows = self._selection()
        if rows is not None:  # several selected: reject every fact of each, one reason
            if rows:
                self.queue.ask_reason(
                    self.tr("Why reject every fact of the {0} selected conflicts? One reason for all, Enter").format(
                        len(rows)
                    ),
                    self.tr("Reject all in {0}").format(len(rows)),
                    lambda why: self._resolve_many(rows, "reject_all", why, lambda _r: {"reject_all": True}),
                    missing=self.tr("Rejecting them all needs a reason"),
                )
            return
        row = self._open_row()
        if row is None or self.merge_bar.isVisible():
            return
        self.queue.ask_reason(
            self.tr("Why reject them all? Enter to confirm, Esc to cancel"),
            self.tr("Reject all"),
            lambda why: self._resolve(row, "reject_all", why, reject_all=True),
            missing=self.tr("Rejecting them all needs a reason"),
        )

    def start_merge(self) -> None:
        row = self._open_row()
        if row is None or self.merge_bar.isVisible():
            return
        self.merge_edit.setText(row.facts[0].statement if row.facts else "")
        self.merge_bar.show()
        self.merge_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.merge_edit.selectAll()

    def _merge_statement_done(self) -> None:
        row = self._open_row()
        statement = self.merge_edit.text().strip()
        if row is None:
            return
        if not statement:
            self.message.show_error(self.tr("A merge needs the new statement: type it, then Enter."))
            return
        self.merge_bar.hide()
        self.queue.ask_reason(
            self.tr("Why merge them into this statement? Enter to confirm, Esc to cancel"),
            self.tr("Merge"),
            lambda why: self._resolve(row, "merge", why, merge=statement),
            missing=self.tr("A merge needs a reason"),
        )

    def _escape(self) -> bool:
        if self.merge_bar.isVisible():
            self.merge_bar.hide()
            self.table.setFocus()
            return True
        return False

    def _undo_decision(self, decision: Decision) -> Any:
        """U / Ctrl+Z / the history: each arbitration of the decision undone (signed); in a job."""
        facts = self.ws.facts
        why = self.tr("undo in the review queue")
        out = [facts.reopen_conflict(str(cid), why=why) for cid in decision.ids]
        return out if len(out) > 1 else out[0]

    def _describe(self, decision: Decision) -> str | None:
        what = {
            "keep": self.tr("Undo: conflict {0} resolved by keeping one fact"),
            "merge": self.tr("Undo: conflict {0} resolved by a merge"),
            "reject_all": self.tr("Undo: conflict {0} resolved by rejecting every fact"),
        }.get(decision.kind)
        if what is None:
            return None
        return what.format(", ".join(f"#{i}" for i in decision.ids[:6]) + (" …" if len(decision.ids) > 6 else ""))

    def _decided(self, kind: str, result: Any) -> None:
        if kind == UNDO:
            reopened = result if isinstance(result, list) else [result]
            if len(reopened) == 1 and reopened[0].conflict is not None:
                text = self.tr("Conflict #{0} is open again: its facts are back in conflict").format(
                    reopened[0].conflict.id
                )
            else:
                text = self.tr("%n conflict(s) open again: their facts are back in conflict", "", len(reopened))
            self.message.show_ok(text + self.tr(" (signed in the audit log)."))
            self.ctx.status(text)
            return
        if isinstance(result, list):  # a multi-selection, one reason for all
            what = {"keep": self.tr("one fact kept in each"), "reject_all": self.tr("every fact rejected")}.get(
                kind, kind
            )
            text = self.tr("{0} conflicts resolved: {1} (signed in the audit log).").format(len(result), what)
            self.message.show_ok(text)
            self.ctx.status(text)
            return
        c = getattr(result, "conflict", None)
        what = {
            "keep": self.tr("Kept one fact"),
            "merge": self.tr("Merged"),
            "reject_all": self.tr("Rejected all"),
        }.get(kind, kind)
        text = self.tr("Conflict #{0} resolved: {what}").format(c.id if c else "?", what=what)
        facts = list(getattr(result, "facts", []) or [])
        if kind in ("keep", "merge") and facts:
            kept = next((f for f in facts if f.status == "approved"), facts[0])
            text += self.tr(" — “{statement}” is approved").format(statement=kept.statement)
        self.message.show_ok(text + self.tr(" (signed in the audit log)."))
        self.ctx.status(text)
