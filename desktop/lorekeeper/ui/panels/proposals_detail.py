"""The Proposals panel's detail: the proposal's card (project, skill, reason, metrics, feedback,
related learnings) with the benchmark badge, then the queue's actions, and the current and the
proposed SKILL.md side by side with the changed lines marked. One job: showing one proposal; the
card and the diff are painted in event-loop turns of their own, so no turn holds the GUI thread
long (a big diff is a job)."""

from __future__ import annotations

import html
from collections.abc import Callable, Generator, Sequence

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QSettings, Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QScrollArea, QSplitter, QVBoxLayout, QWidget

from lorekeeper.improve.optimise import card_rows
from lorekeeper.improve.proposals import ProposalInfo
from lorekeeper.quality.metrics import format_rate
from lorekeeper.ui.diffview import DiffView
from lorekeeper.ui.i18n import fmt_datetime
from lorekeeper.ui.theme import color
from lorekeeper.ui.turns import in_turns
from lorekeeper.ui.widgets import WrapBox


def badge_style(verdict: str | None) -> str:
    name = {"PASSED": "pass", "FAILED": "fail"}.get(verdict or "", "muted")
    c = color(name).name()
    return f"color: {c}; border: 1px solid {c}; border-radius: 8px; padding: 2px 8px; font-weight: 600;"


def card_html(p: ProposalInfo) -> str:
    e = html.escape
    scope = (
        QCoreApplication.translate("proposals", "fork of project {0}").format(e(p.scope))
        if p.scope
        else QCoreApplication.translate("proposals", "global skill")
    )
    parts = [
        QCoreApplication.translate(
            "proposals", "<p style='font-size:13pt; font-weight:600'>Improvement proposal #{id}</p>"
        ).format(id=p.id),
        QCoreApplication.translate("proposals", "<table cellspacing='0' cellpadding='2'>"),
        "<tr><td><b>"
        + QCoreApplication.translate("proposals", "Project")
        + f"</b></td><td>{e(p.project or '—')}</td></tr>",
        QCoreApplication.translate(
            "proposals", "<tr><td><b>Skill</b></td><td>{0} ({scope}, from v{base_version})</td></tr>"
        ).format(e(p.skill), scope=scope, base_version=p.base_version),
        "<tr><td><b>" + QCoreApplication.translate("proposals", "Reason") + f"</b></td><td>{e(p.reason)}</td></tr>",
        "<tr><td><b>" + QCoreApplication.translate("proposals", "Change") + f"</b></td><td>{e(p.summary)}</td></tr>",
        "<tr><td><b>"
        + QCoreApplication.translate("proposals", "Source")
        + f"</b></td><td>{e(p.source)}{' · ' + e(p.model) if p.model else ''}</td></tr>",
    ]
    for m in p.metrics.get("by_project", []):
        rate = format_rate(m.get("success_rate"), none="n/a")  # 79.9% never reads as 80%
        parts.append(
            QCoreApplication.translate(
                "proposals",
                "<tr><td><b>Metrics</b></td><td>{0}: applied {applied_count}, success {rate}</td></tr><tr><td><b>Feedback</b></td><td>{feedback_positive} up / {feedback_negative} down</td></tr>",
            ).format(
                e(m.get("project") or QCoreApplication.translate("proposals", "no project")),
                applied_count=m["applied_count"],
                rate=rate,
                feedback_positive=m["feedback_positive"],
                feedback_negative=m["feedback_negative"],
            )
        )
    for title, text in card_rows(p.metrics):  # `skills optimise` (issue 27 d3): trigger cases before/after
        parts.append(f"<tr><td><b>{e(title)}</b></td><td>{e(text)}</td></tr>")
    parts.append("</table>")
    if p.failing_rules:
        parts.append(
            QCoreApplication.translate("proposals", "<p><b>Failing rules:</b> ")
            + ", ".join(f"{e(r['name'])} ({r['failed']}/{r['checked']})" for r in p.failing_rules)
            + "</p>"
        )
    if p.learnings:
        parts.append(
            QCoreApplication.translate("proposals", "<p><b>Related learnings:</b><br>")
            + "<br>".join(f"• {e(str(i['rule']))}" for i in p.learnings)
            + "</p>"
        )
    else:
        parts.append(QCoreApplication.translate("proposals", "<p><b>Related learnings:</b> none</p>"))
    if p.status != "pending":
        when = fmt_datetime(p.decided_at) + " UTC" if p.decided_at else ""
        parts.append(
            QCoreApplication.translate("proposals", "<p><b>{0}</b> by {1} · {when}").format(
                e(p.status.capitalize()), e(p.decided_by), when=when
            )
            + (f" — {e(p.decision_reason)}" if p.decision_reason else "")
            + (
                QCoreApplication.translate("proposals", " · now v{applied_version}").format(
                    applied_version=p.applied_version
                )
                if p.applied_version
                else ""
            )
            + "</p>"
        )
    return "".join(parts)


class ProposalDetail(QSplitter):
    """The card above a splitter handle, the actions and the diff below (they keep the room: at
    1024x640 the diff would otherwise get a few lines); the split is remembered. `history` goes
    under the card (the proposal's assignment and comments), `actions` between the badge row and
    the diff (the queue's action bar, hold reason, reject bar and cheat-sheet)."""

    def __init__(
        self, history: QWidget, actions: Sequence[QWidget], shortcuts_host: QWidget, parent: QWidget | None = None
    ) -> None:
        super().__init__(Qt.Orientation.Vertical, parent)
        self.card = QLabel()
        self.card.setObjectName("proposalCard")
        self.card.setWordWrap(True)
        self.card.setTextFormat(Qt.TextFormat.RichText)
        self.card.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.card.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.badge = QLabel("")
        self.badge.setObjectName("benchmarkBadge")

        diff = self.diff = DiffView("Current", "Proposed")
        diff.install_shortcuts(shortcuts_host)  # Alt+Down/Up, Alt+V while the focus is on the queue

        card_area = self.card_area = QScrollArea()
        card_area.setObjectName("proposalCardArea")
        card_area.setWidgetResizable(True)
        card_area.setFrameShape(QFrame.Shape.NoFrame)
        card_box = QWidget()
        cb = QVBoxLayout(card_box)
        cb.setContentsMargins(0, 0, 0, 0)
        cb.addWidget(self.card)
        cb.addWidget(history)
        cb.addStretch(1)
        card_area.setWidget(card_box)
        card_area.setMinimumHeight(48)
        lower = WrapBox()  # the action rows wrap: the card above gives way, never the rows
        dl = QVBoxLayout(lower)
        dl.setContentsMargins(0, 0, 0, 0)
        head = QHBoxLayout()
        head.addWidget(self.badge)
        head.addWidget(diff.bar, 1)  # the diff's count, change navigation and view toggle: one row less
        dl.addLayout(head)
        for w in actions:
            dl.addWidget(w)
        dl.addWidget(diff, 1)
        self.setObjectName("proposalDetailSplit")
        self.setChildrenCollapsible(False)
        self.addWidget(card_area)
        self.addWidget(lower)
        self.setStretchFactor(0, 0)
        self.setStretchFactor(1, 1)
        saved = QSettings().value("proposals/detail_split")
        # until the operator drags the handle, the card keeps a quarter of the height and the
        # actions and the diff the rest, at every window size (issue 30 d2: at 1024x640 the card
        # took 230 px and the diff showed 3 lines)
        self._split_auto = saved is None or not self.restoreState(saved)
        self.splitterMoved.connect(self._moved)
        self.installEventFilter(self)

    def _moved(self, *_args: object) -> None:
        self._split_auto = False
        QSettings().setValue("proposals/detail_split", self.saveState())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self and event.type() == QEvent.Type.Resize and self._split_auto:
            total = self.height() - self.handleWidth()
            card = max(self.card_area.minimumHeight(), total // 4)
            self.setSizes([card, total - card])  # the lower part's minimum wins if larger
        return super().eventFilter(watched, event)

    def show_proposal(
        self, p: ProposalInfo | None, restored: tuple[int, int, int] | None, wanted: Callable[[], bool]
    ) -> None:
        """Show `p` (None: the hint); `restored`: what its last undo wrote (see the panel's
        `restored`); `wanted()` stays true while `p` is still the one to show."""
        if p is None:
            self.card.setText(self.tr("<p>Select a proposal to see its card and the change it makes.</p>"))
            self.badge.setText("")
            self.badge.hide()
            self.diff.clear()
            return
        b = p.benchmark
        self.badge.setText(
            self.tr("Benchmark: {text}").format(text=b.text) if b else self.tr("Benchmark: not run (press B)")
        )
        style = badge_style(b.verdict if b else None)
        if self.badge.styleSheet() != style:  # setting a style sheet re-polishes: only on a change
            self.badge.setStyleSheet(style)
        self.badge.show()
        current = self.tr("Current (v{base_version})").format(base_version=p.base_version)
        if restored is not None and restored[0] == p.base_version:
            current = self.tr("Current (v{0}, restores v{1})").format(restored[0], restored[1])
        self.diff.set_titles(
            current,
            self.tr("Proposed")
            + (
                self.tr(" (now v{applied_version})").format(applied_version=p.applied_version)
                if p.applied_version
                else ""
            ),
        )
        in_turns(self, self._show_steps(p), wanted)

    def _show_steps(self, p: ProposalInfo) -> Generator[None, None, None]:
        yield
        self.card.setText(card_html(p))
        yield
        self.diff.show_diff(p.current_content, p.proposed_content)  # opens at the first change
