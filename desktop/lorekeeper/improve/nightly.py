"""The nightly analysis (seed pillar 4, "Karpathy loop"): deterministic, template-based proposals.

For every project (and the events recorded without one), per-skill metrics over the window are
checked with the seed's rule (`lorekeeper.quality.metrics.is_underperforming`, not re-implemented
here). Each underperforming skill gets its failing eval rules and related learnings gathered and
one proposal written from a template — no model involved — unless a proposal for the same skill
scope is already pending. A skill flagged in several projects that all resolve to the same scope
(e.g. the global skill) gets one proposal per run, carrying the metrics of each project.

The template appends a "Corrections from review" section to the current SKILL.md: each failing
rule as an instruction with its failure count, each related learning as a rule to follow, and the
reasons. The operator reads the diff and decides; the system identifies, the human fixes.
"""

from __future__ import annotations

import json
from collections.abc import Generator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from lorekeeper.improve.evidence import failing_rules, related_learnings
from lorekeeper.improve.proposals import NewProposal, ProposalService
from lorekeeper.jobs import Progress, drive
from lorekeeper.learnings.service import LearningService
from lorekeeper.quality.metrics import SkillMetrics
from lorekeeper.quality.tracker import QualityTracker
from lorekeeper.skills.library import SkillLibrary
from lorekeeper.store.engine import Store
from lorekeeper.store.models import ImprovementRun, utcnow
from lorekeeper.store.scopes import validate_project

DEFAULT_DAYS = 30.0
SECTION = "## Corrections from review"
FALLBACK = "- Ask for the missing context when the request is ambiguous, and say which assumptions you made."


@dataclass
class RunSummary:
    """What one nightly (or Sage) run looked at and did; kept in the store and shown in the app."""

    kind: str
    project: str | None
    started_at: datetime
    finished_at: datetime | None = None
    days: float | None = DEFAULT_DAYS
    model: str = ""
    projects: list[str] = field(default_factory=list)
    skills_checked: int = 0
    underperforming: list[dict[str, Any]] = field(default_factory=list)
    created: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[dict[str, Any]] = field(default_factory=list)  # pending duplicate, NO_CHANGE, ...
    errors: list[dict[str, Any]] = field(default_factory=list)
    benchmarks: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # e.g. the nightly Sage pass: what it did or why not
    run_id: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "kind": self.kind,
            "project": self.project,
            "started_at": self.started_at.isoformat(),
            "finished_at": self.finished_at.isoformat() if self.finished_at else None,
            "days": self.days,
            "model": self.model or None,
            "projects": self.projects,
            "skills_checked": self.skills_checked,
            "underperforming": self.underperforming,
            "created": self.created,
            "skipped": self.skipped,
            "errors": self.errors,
            "benchmarks": self.benchmarks,
            "notes": self.notes,
        }

    def text(self) -> str:
        head = f"{self.kind} run #{self.run_id}" if self.run_id else f"{self.kind} run"
        lines = [
            f"{head}: {len(self.projects)} project scope(s), {self.skills_checked} skill(s) checked, "
            f"{len(self.underperforming)} underperforming, {len(self.created)} proposal(s) created, "
            f"{len(self.skipped)} skipped" + (f", {len(self.errors)} error(s)" if self.errors else "") + "."
        ]
        for c in self.created:
            lines.append(
                f"  + #{c['proposal']} {c['skill']}"
                + (f" ({c['project']})" if c.get("project") else "")
                + f": {c['reason']}"
            )
        for sk in self.skipped:
            lines.append(f"  = {sk['skill']}" + (f" ({sk['project']})" if sk.get("project") else "") + f": {sk['why']}")
        for e in self.errors:
            lines.append(f"  ! {e.get('skill', '')}: {e['error']}")
        for b in self.benchmarks:
            lines.append(f"  benchmark of #{b['proposal']}: " + (b.get("badge") or b.get("error", "")))
        for note in self.notes:
            lines.append(f"  note: {note}")
        return "\n".join(lines)


def save_run(store: Store, summary: RunSummary) -> int:
    with store.write() as s:
        row = ImprovementRun(
            kind=summary.kind,
            project=summary.project,
            started_at=summary.started_at,
            finished_at=summary.finished_at,
            model=summary.model,
            summary=json.dumps(summary.to_dict(), ensure_ascii=False),
        )
        s.add(row)
        s.flush()
        summary.run_id = row.id
        row.summary = json.dumps(summary.to_dict(), ensure_ascii=False)
        return row.id


def latest_runs(store: Store, kind: str | None = None, limit: int = 10) -> list[dict[str, Any]]:
    from sqlalchemy import select

    stmt = select(ImprovementRun).order_by(ImprovementRun.id.desc()).limit(limit)
    if kind:
        stmt = stmt.where(ImprovementRun.kind == kind)
    with store.session() as s:
        out = []
        for r in s.scalars(stmt):
            try:
                data = json.loads(r.summary or "{}")
            except ValueError:
                data = {}
            data["run_id"] = r.id
            out.append(data)
        return out


def metric_dict(m: SkillMetrics, project: str) -> dict[str, Any]:
    d = m.to_dict()
    d["project"] = project or None
    return d


def _split_section(body: str) -> tuple[str, list[str]]:
    """`body` without its "Corrections from review" section(s), and the bullets they held (in order).
    A section runs from its heading to the next `## ` heading or the end."""
    kept: list[str] = []
    bullets: list[str] = []
    inside = False
    for line in body.split("\n"):
        if line.startswith(SECTION):
            inside = True
            continue
        if inside and line.startswith("## "):
            inside = False
        if inside:
            if line.startswith("- ") and line not in bullets and line != FALLBACK:
                bullets.append(line)
            continue
        kept.append(line)
    return "\n".join(kept).rstrip("\n"), bullets


def _check_line(rule: dict[str, Any]) -> str:
    return (
        f'- Must satisfy the check "{rule["name"]}" (failed in {rule["failed"]} of {rule["checked"]} checked answers).'
    )


def template_content(
    current: str, skill: str, reasons: list[str], rules: list[dict[str, Any]], learnings: list[dict[str, Any]], day: str
) -> tuple[str, str]:
    """The proposed SKILL.md (current + a corrections section) and a one-line summary of the change.

    A skill keeps one corrections section: when the current content already has one (an earlier
    approved proposal), its points are kept (a failing check listed again gets its new counts),
    the new points are added, and the section is written once, dated today."""
    body, old = _split_section(current.rstrip("\n"))
    existing = body.casefold()
    new_checks = {r["name"].casefold() for r in rules}
    kept = [b for b in old if not any(b.casefold().startswith(f'- must satisfy the check "{n}"') for n in new_checks)]
    known = existing + "\n" + "\n".join(kept).casefold()
    added_rules: list[str] = []
    for r in rules:
        if r["name"].casefold() not in existing:  # a check the skill's own text names is not repeated
            added_rules.append(_check_line(r))
    added_learnings: list[str] = []
    for item in learnings:
        rule = str(item["rule"]).strip()
        if rule and rule.casefold() not in known:
            added_learnings.append(f"- {rule.rstrip('.')}.")
    points = [*kept, *added_rules, *added_learnings] or [FALLBACK]
    lines = [
        f"{SECTION} ({day})",
        "",
        "Quality review found: " + "; ".join(reasons) + ". Before answering, check these points:",
        "",
        *points,
    ]
    summary = (
        f"adds a corrections section: {len(added_rules)} failing check(s), {len(added_learnings)} related learning(s)"
        if not old
        else f"updates the corrections section: {len(added_rules)} failing check(s), "
        f"{len(added_learnings)} new related learning(s), {len(kept)} earlier point(s) kept"
    )
    return body + "\n\n" + "\n".join(lines) + "\n", summary


class NightlyAnalysis:
    def __init__(
        self,
        store: Store,
        skills: SkillLibrary,
        quality: QualityTracker,
        learnings: LearningService,
        proposals: ProposalService,
    ) -> None:
        self.store = store
        self.skills = skills
        self.quality = quality
        self.learnings = learnings
        self.proposals = proposals

    def scopes(self, project: str | None) -> list[str]:
        if project is not None:
            return [validate_project(project)]
        from sqlalchemy import select

        from lorekeeper.store.models import QualityEvent

        with self.store.session() as s:  # projects named only by their events count too
            seen = {str(p) for p in s.scalars(select(QualityEvent.project).distinct()) if p}
        return ["", *sorted(seen | {p for p in self.skills.projects() if p})]

    def run(
        self, project: str | None = None, *, days: float | None = DEFAULT_DAYS, notes: list[str] | None = None
    ) -> RunSummary:
        return drive(self.run_steps, (project,), {"days": days, "notes": notes})  # type: ignore[no-any-return]

    def run_steps(
        self, project: str | None = None, *, days: float | None = DEFAULT_DAYS, notes: list[str] | None = None
    ) -> Generator[Progress, None, RunSummary]:
        """`run` as a job: yields `Progress` per step and per skill written up, so a cancelled job
        stops between two skills (the proposals written so far stay; the run record is not saved);
        returns the summary.

        The verdict is `QualityTracker.health` (the same rows the Quality panel and `lorekeeper
        quality` show): per skill scope, over the events after its current version and after the
        last decision on it, so an approved or rejected proposal is not made again until new
        evidence crosses the threshold."""
        summary = RunSummary("nightly", project or None, utcnow(), days=days, notes=list(notes or []))
        pending = self.proposals.pending_keys()
        scopes = self.scopes(project)
        summary.projects = [p or "(no project)" for p in scopes]
        yield Progress(0, 2, "quality metrics")
        only = None if project is None else validate_project(project)
        per_project: dict[tuple[str, str], list[tuple[str, SkillMetrics]]] = {}
        for scope, m in self.quality.current(days=days, project=only):
            per_project.setdefault((m.skill, scope), []).append((m.project or "", m))
        groups: dict[tuple[str, str], tuple[SkillMetrics, list[tuple[str, SkillMetrics]]]] = {}
        for h in self.quality.health(days=days, project=only):
            summary.skills_checked += 1
            if not h.underperforming:
                continue
            scope = h.project or ""
            summary.underperforming.append({"skill": h.skill, "project": h.project, "reasons": h.reasons})
            seen = per_project.get((h.skill, scope), [])
            try:
                resolved = self.skills.resolve_scope(h.skill, scope or None)
            except Exception as exc:  # noqa: BLE001 - events of a skill removed since
                summary.skipped.append({"skill": h.skill, "project": h.project, "why": f"not in the library ({exc})"})
                continue
            groups[(h.skill, resolved)] = (h, seen)
        # issue 24, fail closed: a skill that does not verify stops the run before any proposal is written
        self.skills.require_verified(k for k in groups if k not in pending)
        day = summary.started_at.strftime("%Y-%m-%d")
        for n, ((skill, scope), (h, seen)) in enumerate(groups.items()):
            yield Progress(n, len(groups), f"proposal for {skill}")
            first_proj = seen[0][0] if seen else scope
            if (skill, scope) in pending:
                summary.skipped.append(
                    {"skill": skill, "project": first_proj or None, "why": "a proposal for it is already pending"}
                )
                continue
            current = self.skills.get(skill, scope or None)
            reasons = list(h.reasons)
            rules: dict[str, dict[str, Any]] = {}
            learnings: dict[int, dict[str, Any]] = {}
            for proj, m in seen:
                for fr in failing_rules(self.store, skill, proj, days=days, since=m.since):
                    if fr.id in rules:
                        rules[fr.id]["failed"] += fr.failed
                        rules[fr.id]["checked"] += fr.checked
                    else:
                        rules[fr.id] = fr.to_dict()
            names = [r["name"] for r in rules.values()]
            for proj, _m in seen or [(scope, h)]:
                for item in related_learnings(self.skills, self.learnings, skill, proj, names):
                    learnings.setdefault(int(str(item["id"])), item)
            rule_list = sorted(rules.values(), key=lambda r: (-r["failed"], r["name"]))
            learn_list = list(learnings.values())[:5]
            proposed, change = template_content(current.content, skill, reasons, rule_list, learn_list, day)
            by_project = [metric_dict(m, proj) for proj, m in seen]
            new = NewProposal(
                skill=skill,
                scope=scope,
                project=first_proj,
                source="template",
                reason="; ".join(reasons),
                summary=change,
                metrics={
                    "window_days": days,
                    "since": h.since.isoformat() if h.since else None,
                    "by_project": by_project,
                },
                failing_rules=rule_list,
                learnings=learn_list,
                base_version=current.version,
                current_content=current.content,
                proposed_content=proposed,
            )
            created = self.proposals.create(new)
            if created is None:  # a concurrent run got there first
                summary.skipped.append(
                    {"skill": skill, "project": first_proj or None, "why": "a proposal for it is already pending"}
                )
                continue
            pending.add((skill, scope))
            summary.created.append(
                {
                    "proposal": created.id,
                    "skill": skill,
                    "scope": scope or None,
                    "project": first_proj or None,
                    "reason": created.reason,
                }
            )
        yield Progress(1, 2, "saving the run")
        summary.finished_at = utcnow()
        save_run(self.store, summary)
        self._link(summary)
        return summary

    def _link(self, summary: RunSummary) -> None:
        from lorekeeper.store.models import Proposal

        ids = [c["proposal"] for c in summary.created]
        if not ids:
            return
        with self.store.write() as s:
            for row in s.query(Proposal).filter(Proposal.id.in_(ids)):
                row.run_id = summary.run_id
