"""The sidebar's panel registry. A feature adds its panel with one line in PANELS.

Each entry is (panel_id, title, icon name in resources/icons, factory). The factory imports its
module only when the panel is built, so one panel's import error cannot take the others down.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import NamedTuple

from lorekeeper.ui.i18n import QT_TRANSLATE_NOOP
from lorekeeper.ui.panels.base import AppContext, Panel


class PanelSpec(NamedTuple):
    panel_id: str
    title: str
    icon: str
    factory: Callable[[AppContext], Panel]

    @property
    def label(self) -> str:
        """The title in the app's language (`title` is the English source, marked for lupdate)."""
        from PySide6.QtCore import QCoreApplication

        return QCoreApplication.translate("panels", self.title)


def lazy(module: str, cls: str) -> Callable[[AppContext], Panel]:
    def build(ctx: AppContext) -> Panel:
        return getattr(importlib.import_module(module), cls)(ctx)

    build.__qualname__ = f"lazy({module}.{cls})"
    return build


# the sidebar's order (DESIGN.md "Desktop app"): the daily loop, then the knowledge, then the records
PANELS: list[PanelSpec] = [
    # the first-run view (issue 30 d1): what waits, one key to each; the window opens on it
    PanelSpec("start", QT_TRANSLATE_NOOP("panels", "Start"), "info", lazy("lorekeeper.ui.panels.start", "StartPanel")),
    PanelSpec(
        "skills", QT_TRANSLATE_NOOP("panels", "Skills"), "skills", lazy("lorekeeper.ui.panels.skills", "SkillsPanel")
    ),
    PanelSpec("evals", QT_TRANSLATE_NOOP("panels", "Evals"), "evals", lazy("lorekeeper.ui.panels.evals", "EvalsPanel")),
    PanelSpec(
        "router", QT_TRANSLATE_NOOP("panels", "Router"), "router", lazy("lorekeeper.ui.panels.router", "RouterPanel")
    ),
    PanelSpec(
        "playground",
        QT_TRANSLATE_NOOP("panels", "Playground"),
        "playground",
        lazy("lorekeeper.ui.panels.playground", "PlaygroundPanel"),
    ),
    PanelSpec(
        "learnings",
        QT_TRANSLATE_NOOP("panels", "Learnings"),
        "learnings",
        lazy("lorekeeper.ui.panels.learnings", "LearningsPanel"),
    ),
    PanelSpec(
        "quality",
        QT_TRANSLATE_NOOP("panels", "Quality"),
        "quality",
        lazy("lorekeeper.ui.panels.quality", "QualityPanel"),
    ),
    PanelSpec(
        "proposals",
        QT_TRANSLATE_NOOP("panels", "Proposals"),
        "proposals",
        lazy("lorekeeper.ui.panels.proposals", "ProposalsPanel"),
    ),
    PanelSpec(
        "benchmarks",
        QT_TRANSLATE_NOOP("panels", "Benchmarks"),
        "benchmarks",
        lazy("lorekeeper.ui.panels.benchmarks", "BenchmarksPanel"),
    ),
    PanelSpec(
        "facts", QT_TRANSLATE_NOOP("panels", "Facts review"), "facts", lazy("lorekeeper.ui.panels.facts", "FactsPanel")
    ),
    PanelSpec(
        "conflicts",
        QT_TRANSLATE_NOOP("panels", "Conflicts"),
        "conflicts",
        lazy("lorekeeper.ui.panels.conflicts", "ConflictsPanel"),
    ),
    PanelSpec(
        "memory", QT_TRANSLATE_NOOP("panels", "Memory"), "memory", lazy("lorekeeper.ui.panels.memory", "MemoryPanel")
    ),
    PanelSpec("ask", QT_TRANSLATE_NOOP("panels", "Ask"), "ask", lazy("lorekeeper.ui.panels.ask", "AskPanel")),
    PanelSpec(
        "ledger",
        QT_TRANSLATE_NOOP("panels", "Compression ledger"),
        "ledger",
        lazy("lorekeeper.ui.panels.ledger", "LedgerPanel"),
    ),
    PanelSpec(
        "purge", QT_TRANSLATE_NOOP("panels", "Purge runs"), "purge", lazy("lorekeeper.ui.panels.purge", "PurgePanel")
    ),
    PanelSpec("audit", QT_TRANSLATE_NOOP("panels", "Audit"), "audit", lazy("lorekeeper.ui.panels.audit", "AuditPanel")),
]

__all__ = ["PANELS", "AppContext", "Panel", "PanelSpec", "lazy"]
