"""The sidebar's panel registry. A feature adds its panel with one line in PANELS.

Each entry is (panel_id, title, icon name in resources/icons, factory). The factory imports its
module only when the panel is built, so one panel's import error cannot take the others down.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import NamedTuple

from lorekeeper.ui.panels.base import AppContext, Panel


class PanelSpec(NamedTuple):
    panel_id: str
    title: str
    icon: str
    factory: Callable[[AppContext], Panel]


def lazy(module: str, cls: str) -> Callable[[AppContext], Panel]:
    def build(ctx: AppContext) -> Panel:
        return getattr(importlib.import_module(module), cls)(ctx)

    build.__qualname__ = f"lazy({module}.{cls})"
    return build


# the sidebar's order (DESIGN.md "Desktop app"): the daily loop, then the knowledge, then the records
PANELS: list[PanelSpec] = [
    # the first-run view (issue 30 d1): what waits, one key to each; the window opens on it
    PanelSpec("start", "Start", "info", lazy("lorekeeper.ui.panels.start", "StartPanel")),
    PanelSpec("skills", "Skills", "skills", lazy("lorekeeper.ui.panels.skills", "SkillsPanel")),
    PanelSpec("evals", "Evals", "evals", lazy("lorekeeper.ui.panels.evals", "EvalsPanel")),
    PanelSpec("router", "Router", "router", lazy("lorekeeper.ui.panels.router", "RouterPanel")),
    PanelSpec("playground", "Playground", "playground", lazy("lorekeeper.ui.panels.playground", "PlaygroundPanel")),
    PanelSpec("learnings", "Learnings", "learnings", lazy("lorekeeper.ui.panels.learnings", "LearningsPanel")),
    PanelSpec("quality", "Quality", "quality", lazy("lorekeeper.ui.panels.quality", "QualityPanel")),
    PanelSpec("proposals", "Proposals", "proposals", lazy("lorekeeper.ui.panels.proposals", "ProposalsPanel")),
    PanelSpec("benchmarks", "Benchmarks", "benchmarks", lazy("lorekeeper.ui.panels.benchmarks", "BenchmarksPanel")),
    PanelSpec("facts", "Facts review", "facts", lazy("lorekeeper.ui.panels.facts", "FactsPanel")),
    PanelSpec("conflicts", "Conflicts", "conflicts", lazy("lorekeeper.ui.panels.conflicts", "ConflictsPanel")),
    PanelSpec("memory", "Memory", "memory", lazy("lorekeeper.ui.panels.memory", "MemoryPanel")),
    PanelSpec("ask", "Ask", "ask", lazy("lorekeeper.ui.panels.ask", "AskPanel")),
    PanelSpec("ledger", "Compression ledger", "ledger", lazy("lorekeeper.ui.panels.ledger", "LedgerPanel")),
    PanelSpec("purge", "Purge runs", "purge", lazy("lorekeeper.ui.panels.purge", "PurgePanel")),
    PanelSpec("audit", "Audit", "audit", lazy("lorekeeper.ui.panels.audit", "AuditPanel")),
]

__all__ = ["PANELS", "AppContext", "Panel", "PanelSpec", "lazy"]
