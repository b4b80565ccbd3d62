"""Sage (seed pillar 6): model-written proposals for up to 5 target skills, benchmarked at once.

Targets: the skills of the library (globals and project forks) that have no pending proposal,
underperformers first, then the least healthy, then by name; at most 5 (or the one `--skill`).
For each, the model gets the skill, its metrics, its eval rules, its failing rules and related
learnings (resources/prompts/sage.md) and answers `NO_CHANGE` (nothing is created) or a reason, a
summary and the complete new SKILL.md. An answer in any other form, or whose SKILL.md is invalid
or renames the skill, is an ERR_MODEL_ANSWER_INVALID for that skill and stores no proposal. Each
new proposal is benchmarked right away (pillar 7); a benchmark failure keeps the proposal.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any

from lorekeeper.errors import InvalidSpecError, LorekeeperError
from lorekeeper.improve.bench import DEFAULT_SCENARIOS, BenchmarkService, rules_text
from lorekeeper.improve.evidence import failing_rules, related_learnings
from lorekeeper.improve.judge import Judge, ModelAnswerError
from lorekeeper.improve.nightly import DEFAULT_DAYS, NightlyAnalysis, RunSummary, metric_dict, save_run
from lorekeeper.improve.prompts import template
from lorekeeper.improve.proposals import NewProposal, ProposalService
from lorekeeper.jobs import Cancelled, Progress, drive
from lorekeeper.learnings.service import LearningService
from lorekeeper.llm.base import LLMUnavailableError, Provider
from lorekeeper.llm.service import LLMService
from lorekeeper.quality.metrics import SkillMetrics, format_rate, merge
from lorekeeper.quality.tracker import QualityTracker
from lorekeeper.skills.library import SkillLibrary
from lorekeeper.skills.spec import parse_skill_md
from lorekeeper.store.engine import Store
from lorekeeper.store.models import utcnow
from lorekeeper.store.scopes import validate_project

MAX_TARGETS = 5
_BLOCK = re.compile(r"<<<SKILL[ \t]*\r?\n(.*?)\r?\n?SKILL>>>", re.DOTALL)
# a whole SKILL.md in a code fence, without the markers: up to the *last* fence, since skills hold fences too
_FENCED_SKILL = re.compile(r"```[\w-]*[ \t]*\r?\n(---\r?\n.*)\r?\n```", re.DOTALL)
_FENCE = re.compile(r"^```[\w-]*\s*\n(.*?)\n```\s*$", re.DOTALL)


def _label(line: str) -> str:
    """'REASON' for a line such as `REASON: ...` or `**Reason:** ...`."""
    head = line.split(":", 1)[0] if ":" in line else ""
    return head.strip().strip("*#_ ").upper()


@dataclass(frozen=True)
class SageAnswer:
    reason: str
    summary: str
    content: str


def parse_sage_answer(raw: str, skill: str) -> SageAnswer | None:
    """None for NO_CHANGE; the proposal otherwise; ModelAnswerError when there is no complete SKILL.md.

    The SKILL.md is read between the <<<SKILL / SKILL>>> markers the prompt asks for, else from a
    code fence that holds a whole SKILL.md (front matter first). REASON and SUMMARY lines may come
    before or after it; without REASON, the summary (or a note saying so) stands in."""
    text = (raw or "").strip()
    first = text.splitlines()[0].strip().strip("`*. ") if text else ""
    if first == "NO_CHANGE":
        return None
    m = _BLOCK.search(text) or _FENCED_SKILL.search(text)
    if not m:
        hint = "it is empty" if not text else f"it starts with {text[:120]!r}"
        raise ModelAnswerError(
            f"Sage's answer for {skill} is neither NO_CHANGE nor a REASON line with a <<<SKILL ... SKILL>>> block ({hint})"
        )
    content = m.group(1).strip("\n")
    fenced = _FENCE.match(content.strip())
    if fenced:
        content = fenced.group(1)
    content = content.strip("\n") + "\n"
    outside = (text[: m.start()] + "\n" + text[m.end() :]).splitlines()  # REASON/SUMMARY, before or after the block
    reason = next((ln.split(":", 1)[1].strip(" *_\t") for ln in outside if _label(ln) == "REASON"), "")
    summary = next((ln.split(":", 1)[1].strip(" *_\t") for ln in outside if _label(ln) == "SUMMARY"), "")
    reason = reason or summary or "Sage rewrite (the answer gave no REASON line)"
    try:
        doc = parse_skill_md(content, file=f"Sage's {skill}/SKILL.md")
    except InvalidSpecError as exc:
        raise ModelAnswerError(f"Sage's proposed SKILL.md for {skill} is invalid: {exc.message}") from None
    if doc.name != skill:
        raise ModelAnswerError(
            f"Sage's proposed SKILL.md renames {skill} to {doc.name!r}; a proposal cannot rename a skill"
        )
    return SageAnswer(reason, summary or "rewrites the skill", content)


@dataclass(frozen=True)
class Target:
    skill: str
    scope: str
    project: str  # where its metrics come from ("" when no project)
    metrics: list[tuple[str, SkillMetrics]]

    @property
    def pooled(self) -> SkillMetrics:
        """The scope's counts over its projects: what the one underperformer rule judges."""
        return merge((m for _, m in self.metrics), self.skill, self.scope or None)

    @property
    def underperforming(self) -> bool:
        return self.pooled.underperforming

    @property
    def health(self) -> float:
        return self.pooled.health if self.metrics else 2.0


def _metrics_text(metrics: list[tuple[str, SkillMetrics]]) -> str:
    if not metrics:
        return "(no recorded use in this window)"
    lines = []
    for proj, m in metrics:
        rate = format_rate(m.success_rate, none="n/a")
        flag = " — UNDERPERFORMING: " + "; ".join(m.reasons) if m.underperforming else ""
        lines.append(
            f"- {proj or '(no project)'}: applied {m.applied_count}, success {rate} of {m.evaluated} checked, "
            f"feedback +{m.feedback_positive} / -{m.feedback_negative}{flag}"
        )
    return "\n".join(lines)


MIN_MAX_TOKENS = 4096  # a whole SKILL.md comes back: the usual 1024-token answer cap would cut it
MIN_TIMEOUT = 120.0


def sage_provider(llm: LLMService) -> Provider:
    """The configured model, with room for a complete SKILL.md in its answer."""
    from dataclasses import replace

    from lorekeeper.llm import make_provider

    settings = llm.settings
    return make_provider(
        replace(
            settings, max_tokens=max(settings.max_tokens, MIN_MAX_TOKENS), timeout=max(settings.timeout, MIN_TIMEOUT)
        )
    )


class SageService:
    def __init__(
        self,
        *,
        store: Store,
        skills: SkillLibrary,
        quality: QualityTracker,
        learnings: LearningService,
        llm: LLMService,
        proposals: ProposalService,
        nightly: NightlyAnalysis,
        bench: BenchmarkService,
    ) -> None:
        self.store = store
        self.skills = skills
        self.quality = quality
        self.learnings = learnings
        self.llm = llm
        self.proposals = proposals
        self.nightly = nightly
        self.bench = bench

    def targets(
        self,
        skill: str | None = None,
        project: str | None = None,
        *,
        days: float | None = DEFAULT_DAYS,
        limit: int = MAX_TARGETS,
        underperforming_only: bool = False,
    ) -> tuple[list[Target], list[dict[str, Any]]]:
        """(targets, skipped): at most `limit` skills without a pending proposal, underperformers first
        (only those with `underperforming_only`: the nightly Sage pass). Metrics are the current
        evidence of each skill scope (`QualityTracker.current`), as nightly and the Quality panel."""
        by_scope: dict[tuple[str, str], list[tuple[str, SkillMetrics]]] = {}
        only = None if project is None else validate_project(project)
        for scope, m in self.quality.current(days=days, project=only):
            by_scope.setdefault((m.skill, scope), []).append((m.project or "", m))
        if skill:
            scope = self.skills.resolve_scope(skill, project)
            candidates = [(skill, scope)]
        else:
            candidates = [(i.name, i.project) for i in self.skills.list()]
            if project:
                candidates = [(n, sc) for n, sc in candidates if sc in ("", project)]
        pending = self.proposals.pending_keys()
        targets, skipped = [], []
        for name, scope in candidates:
            metrics = sorted(by_scope.get((name, scope), []), key=lambda pm: pm[1].health)
            if (name, scope) in pending:
                skipped.append({"skill": name, "project": scope or None, "why": "a proposal for it is already pending"})
                continue
            targets.append(Target(name, scope, metrics[0][0] if metrics else (scope or project or ""), metrics))
        if underperforming_only:
            targets = [t for t in targets if t.underperforming]
        targets.sort(key=lambda t: (not t.underperforming, t.health, t.skill, t.scope))
        return targets[:limit], skipped

    def prompt_for(
        self, t: Target, days: float | None
    ) -> tuple[str, list[dict[str, Any]], list[dict[str, Any]], int, str]:
        current = self.skills.get(t.skill, t.scope or None)
        rules = current.rules()
        fails: dict[str, dict[str, Any]] = {}
        since = {p: m.since for p, m in t.metrics}
        for proj in [p for p, _m in t.metrics] or [t.project]:
            for fr in failing_rules(self.store, t.skill, proj, days=days, since=since.get(proj)):
                fails.setdefault(fr.id, fr.to_dict())
        learn = related_learnings(self.skills, self.learnings, t.skill, t.project, [f["name"] for f in fails.values()])
        prompt = template("sage").render(
            skill=t.skill,
            scope=f"project fork for {t.scope}" if t.scope else "global skill",
            days="all" if days is None else f"{days:g}",
            metrics=_metrics_text(t.metrics),
            rules=rules_text(rules),
            failing="\n".join(f"- {f['name']} (failed {f['failed']} of {f['checked']})" for f in fails.values())
            or "(none recorded)",
            learnings="\n".join(f"- {item['rule']}" for item in learn) or "(none)",
            content=current.content.rstrip("\n"),
        )
        return prompt, list(fails.values()), learn, current.version, current.content

    def analyze(self, skill: str | None = None, project: str | None = None, **kwargs: Any) -> RunSummary:
        summary: RunSummary = drive(self.analyze_steps, (skill, project), kwargs)
        return summary

    def analyze_steps(
        self,
        skill: str | None = None,
        project: str | None = None,
        *,
        days: float | None = DEFAULT_DAYS,
        provider: Provider | None = None,
        judge: Judge | None = None,
        benchmark: bool = True,
        scenarios: int = DEFAULT_SCENARIOS,
        underperforming_only: bool = False,
        should_stop: Callable[[], bool] | None = None,
    ) -> Generator[Progress, None, RunSummary]:
        """A generator yielding `Progress`; returns the run summary. `should_stop` (a job's cancel
        token) is asked before every model call: True stops the run with `Cancelled`; proposals
        created so far stay (each is complete), the run summary is not saved."""
        provider = provider or sage_provider(self.llm)
        status = provider.status()
        if not status.ready:
            raise LLMUnavailableError(f"Sage needs a model: {status.reason}")
        summary = RunSummary("sage", project or None, utcnow(), days=days, model=f"{provider.name}:{provider.model}")
        targets, skipped = self.targets(skill, project, days=days, underperforming_only=underperforming_only)
        # issue 24, fail closed: a target that does not verify stops the run before any model call or write
        self.skills.require_verified((t.skill, t.scope) for t in targets)
        summary.skipped.extend(skipped)
        summary.projects = sorted({t.scope or "(global)" for t in targets})
        summary.skills_checked = len(targets)
        summary.underperforming = [
            {"skill": t.skill, "project": t.scope or None, "reasons": [r for _, m in t.metrics for r in m.reasons]}
            for t in targets
            if t.underperforming
        ]
        total = len(targets) * (2 if benchmark else 1)
        done = 0
        created_ids: list[int] = []
        for t in targets:
            yield Progress(done, total, f"Sage: analysing {t.skill}")
            if should_stop is not None and should_stop():
                raise Cancelled("the Sage run was cancelled")
            try:
                prompt, fails, learn, base_version, current = self.prompt_for(t, days)
                raw = provider.complete(prompt)
                try:
                    answer = parse_sage_answer(raw, t.skill)
                except ModelAnswerError as exc:
                    if getattr(raw, "truncated", False):  # the model ran out of room: say so, and what to do
                        raise ModelAnswerError(
                            f"Sage's answer for {t.skill} was cut at max_tokens "
                            f"({provider.settings.max_tokens} tokens) before the SKILL.md was complete; "
                            f"raise [llm] max_tokens and analyse it again ({exc.message})"
                        ) from None
                    raise
            except LorekeeperError as exc:
                summary.errors.append(
                    {"skill": t.skill, "project": t.scope or None, "code": exc.code, "error": exc.message}
                )
                done += 2 if benchmark else 1
                continue
            done += 1
            if answer is None or answer.content.strip() == current.strip():
                summary.skipped.append(
                    {"skill": t.skill, "project": t.scope or None, "why": "NO_CHANGE: Sage found nothing to improve"}
                )
                done += 1 if benchmark else 0
                continue
            new = NewProposal(
                skill=t.skill,
                scope=t.scope,
                project=t.project,
                source="sage",
                reason=answer.reason,
                summary=answer.summary,
                metrics={"window_days": days, "by_project": [metric_dict(m, proj) for proj, m in t.metrics]},
                failing_rules=fails,
                learnings=learn,
                base_version=base_version,
                current_content=current,
                proposed_content=answer.content,
                model=f"{provider.name}:{provider.model}",
                prompt=prompt,
                answer=raw,
            )
            created = self.proposals.create(new)
            if created is None:
                summary.skipped.append(
                    {"skill": t.skill, "project": t.scope or None, "why": "a proposal for it is already pending"}
                )
                done += 1 if benchmark else 0
                continue
            created_ids.append(created.id)
            summary.created.append(
                {
                    "proposal": created.id,
                    "skill": t.skill,
                    "scope": t.scope or None,
                    "project": t.project or None,
                    "reason": created.reason,
                }
            )
            if benchmark:
                yield Progress(done, total, f"Sage: benchmarking proposal #{created.id} ({t.skill})")
                try:
                    run = self.bench.run(
                        created.id, scenarios=scenarios, provider=provider, judge=judge, should_stop=should_stop
                    )
                    summary.benchmarks.append(
                        {
                            "proposal": created.id,
                            "run": run.id,
                            "verdict": run.verdict,
                            "improvement_pct": run.improvement_pct,
                            "badge": run.badge,
                        }
                    )
                except Cancelled:
                    raise
                except LorekeeperError as exc:
                    summary.benchmarks.append({"proposal": created.id, "error": f"{exc.code}: {exc.message}"})
                done += 1
        summary.finished_at = utcnow()
        save_run(self.store, summary)
        if created_ids:
            from lorekeeper.store.models import Proposal

            with self.store.write() as s:
                for row in s.query(Proposal).filter(Proposal.id.in_(created_ids)):
                    row.run_id = summary.run_id
        yield Progress(total, total, "Sage: done")
        return summary


__all__ = ["SageAnswer", "SageService", "parse_sage_answer"]
