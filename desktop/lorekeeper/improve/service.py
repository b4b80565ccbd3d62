"""`ws.improve`: the improvement loop's services for one workspace (CLI, panels and tests share them)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lorekeeper.improve.bench import BenchmarkService
from lorekeeper.improve.nightly import DEFAULT_DAYS, NightlyAnalysis, RunSummary, latest_runs
from lorekeeper.improve.proposals import ProposalService
from lorekeeper.improve.sage import SageService

if TYPE_CHECKING:
    from lorekeeper.workspace import Workspace


class ImproveService:
    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self.proposals = ProposalService(ws)
        self.nightly = NightlyAnalysis(ws)
        self.sage = SageService(ws)
        self.bench = BenchmarkService(ws)

    def run_nightly(self, project: str | None = None, *, days: float | None = DEFAULT_DAYS) -> RunSummary:
        return self.nightly.run(project, days=days)

    def runs(self, kind: str | None = None, limit: int = 10) -> list[dict[str, Any]]:
        return latest_runs(self.ws, kind, limit)
