"""`ws.improve`: the improvement loop's services for one workspace (CLI, panels and tests share them)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lorekeeper.ask.service import AskService
from lorekeeper.audit.log import SessionLog
from lorekeeper.errors import LorekeeperError
from lorekeeper.improve.bench import BenchmarkService
from lorekeeper.improve.generate import SkillGenerator
from lorekeeper.improve.nightly import DEFAULT_DAYS, NightlyAnalysis, RunSummary, latest_runs
from lorekeeper.improve.optimise import OptimiseService
from lorekeeper.improve.proposals import ProposalService
from lorekeeper.improve.sage import SageService, sage_provider
from lorekeeper.improve.suggest import SuggestService
from lorekeeper.improve.trigger_cases import TriggerCaseService
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
        ask: AskService | None = None,
        verifier: Callable[[], Any] | None = None,
    ) -> None:
        self.store = store
        self.llm = llm
        self.proposals = ProposalService(store, skills, audit_log, verifier)  # verified on read (issue 24)
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
        self.suggest = SuggestService(skills, llm, self.proposals)  # `skills suggest`: router words
        self.trigger_cases = TriggerCaseService(skills, llm)  # `skills suggest --triggers`: trigger cases
        self.optimiser = OptimiseService(skills, llm, self.proposals)  # `skills optimise`: against the cases
        # the skill generator (issue 14): a new skill from an extraction goal, as a benchmarked proposal
        self.generator = (
            SkillGenerator(store=store, skills=skills, llm=llm, ask=ask, proposals=self.proposals, bench=self.bench)
            if ask is not None
            else None
        )

    def run_nightly(
        self, project: str | None = None, *, days: float | None = DEFAULT_DAYS, sage: bool = False
    ) -> RunSummary:
        """The nightly run. With `sage` (`nightly --sage`, `[improve] nightly_sage`), Sage first
        writes model proposals for the underperformers; the template pass then covers the rest
        (a skill with a pending proposal gets no second one). Without a ready model the Sage pass
        is skipped with a note and the template proposals still run."""
        notes: list[str] = []
        if sage:
            status = sage_provider(self.llm).status()
            if not status.ready:
                notes.append(f"Sage skipped: it needs a model ({status.reason}); template proposals only")
            else:
                try:
                    ran = self.sage.analyze(None, project, days=days, underperforming_only=True)
                except LorekeeperError as exc:
                    notes.append(f"Sage failed ({exc.code}): {exc}; template proposals only")
                else:
                    made = ", ".join(f"#{c['proposal']} {c['skill']}" for c in ran.created) or "none"
                    notes.append(f"Sage run #{ran.run_id}: {len(ran.created)} proposal(s) ({made})")
                    notes.extend(f"Sage error on {e.get('skill', '?')}: {e['error']}" for e in ran.errors)
        return self.nightly.run(project, days=days, notes=notes)

    def runs(self, kind: str | None = None, limit: int = 10) -> list[dict[str, Any]]:
        return latest_runs(self.store, kind, limit)
