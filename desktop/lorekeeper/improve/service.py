"""`ws.improve`: the improvement loop's services for one workspace (CLI, panels and tests share them)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lorekeeper.audit.log import SessionLog
from lorekeeper.improve.bench import BenchmarkService
from lorekeeper.improve.nightly import DEFAULT_DAYS, NightlyAnalysis, RunSummary, latest_runs
from lorekeeper.improve.proposals import ProposalService
from lorekeeper.improve.sage import SageService
from lorekeeper.learnings.service import LearningService
from lorekeeper.llm.service import LLMService
from lorekeeper.quality.tracker import QualityTracker
from lorekeeper.skills.library import SkillLibrary
from lorekeeper.store.engine import Store


class ImproveService:
    """Wires the four parts of the loop to the collaborators each one uses (and to each other)."""

    def __init__(
        self,
        *,
        store: Store,
        skills: SkillLibrary,
        quality: QualityTracker,
        learnings: LearningService,
        llm: LLMService,
        audit_log: Callable[[], SessionLog],
    ) -> None:
        self.store = store
        self.proposals = ProposalService(store, skills, audit_log)
        self.bench = BenchmarkService(store, skills, llm, self.proposals)
        self.nightly = NightlyAnalysis(store, skills, quality, learnings, self.proposals)
        self.sage = SageService(
            store=store,
            skills=skills,
            quality=quality,
            learnings=learnings,
            llm=llm,
            proposals=self.proposals,
            nightly=self.nightly,
            bench=self.bench,
        )

    def run_nightly(self, project: str | None = None, *, days: float | None = DEFAULT_DAYS) -> RunSummary:
        return self.nightly.run(project, days=days)

    def runs(self, kind: str | None = None, limit: int = 10) -> list[dict[str, Any]]:
        return latest_runs(self.store, kind, limit)
