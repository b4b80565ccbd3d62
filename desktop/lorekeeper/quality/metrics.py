"""Quality metrics and the seed's underperformer rule, as plain arithmetic over events.

Definitions (seeds 000/001 quality tracker), per skill (and project) over a time window:
- applied_count: how many answers the skill was routed to (hinted in the prompt);
- success_rate: of those answers' eval outcomes, the share where no *warning* rule failed
  (None when no outcome was recorded);
- feedback_positive / feedback_negative: thumbs up / down on answers the skill was routed to.

Underperforming (the improvement loop acts on these): applied_count >= 3 and
(success_rate < 80% or feedback_negative > feedback_positive). The nightly loop imports
`is_underperforming` from here, so the rule exists once.

The unit the rule judges is a skill *scope* (the global skill or a project's fork: what a proposal
changes), over its current evidence: the events in the window that came after the scope's current
version was created and after the last decision on a proposal for it
(`QualityTracker.health`). The Quality panel, `lorekeeper quality` and the nightly run all read
`health`, so they agree. Percentages are shown with `format_rate`, which rounds down: 79.9% is
never shown as 80%.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime

from lorekeeper.rates import format_rate as format_rate  # re-exported: the one rule (issue 31 item 8)
from lorekeeper.rates import json_rate as json_rate

MIN_APPLIED = 3
SUCCESS_THRESHOLD = 0.80


@dataclass(frozen=True)
class Event:
    """The part of a quality event the metrics read."""

    kind: str  # applied | eval | feedback
    skill: str
    project: str
    created_at: datetime
    passed: bool | None = None
    positive: bool | None = None


@dataclass(frozen=True)
class SkillMetrics:
    skill: str
    project: str | None  # None: all projects together
    applied_count: int
    evaluated: int
    succeeded: int
    feedback_positive: int
    feedback_negative: int
    since: datetime | None = None  # health rows: evidence counted from here (version or decision), if in the window

    @property
    def success_rate(self) -> float | None:
        return self.succeeded / self.evaluated if self.evaluated else None

    @property
    def underperforming(self) -> bool:
        return is_underperforming(self.applied_count, self.success_rate, self.feedback_positive, self.feedback_negative)

    @property
    def reasons(self) -> list[str]:
        """Why the rule flags it, in the words of the seed's proposal card."""
        out: list[str] = []
        if self.applied_count < MIN_APPLIED:
            return out
        rate = self.success_rate
        if rate is not None and rate < SUCCESS_THRESHOLD:
            out.append(f"low success rate ({format_rate(rate)})")
        if self.feedback_negative > self.feedback_positive:
            out.append(f"more negative feedback ({self.feedback_negative} down / {self.feedback_positive} up)")
        return out

    @property
    def health(self) -> float:
        """A sort key: lower is worse. Underperformers first, then by success rate and feedback balance."""
        rate = self.success_rate if self.success_rate is not None else 1.0
        balance = self.feedback_positive - self.feedback_negative
        return (0.0 if self.underperforming else 1.0) + rate + 0.01 * max(min(balance, 50), -50)

    def to_dict(self) -> dict[str, object]:
        rate = self.success_rate
        return {
            "skill": self.skill,
            "project": self.project,
            "applied_count": self.applied_count,
            "evaluated": self.evaluated,
            "success_rate": json_rate(rate),
            "feedback_positive": self.feedback_positive,
            "feedback_negative": self.feedback_negative,
            "underperforming": self.underperforming,
            "reasons": self.reasons,
        }


def merge(rows: Iterable[SkillMetrics], skill: str, project: str | None) -> SkillMetrics:
    """The sum of several rows' counts under one (skill, project) label (one skill scope)."""
    vals = [0, 0, 0, 0, 0]
    since: datetime | None = None
    for m in rows:
        for i, v in enumerate((m.applied_count, m.evaluated, m.succeeded, m.feedback_positive, m.feedback_negative)):
            vals[i] += v
        if m.since is not None and (since is None or m.since > since):
            since = m.since
    applied, evaluated, succeeded, up, down = vals
    return SkillMetrics(skill, project, applied, evaluated, succeeded, up, down, since=since)


def with_since(m: SkillMetrics, since: datetime | None) -> SkillMetrics:
    return replace(m, since=since)


def is_underperforming(applied_count: int, success_rate: float | None, positive: int, negative: int) -> bool:
    """The seed's rule: applied_count >= 3 and (success_rate < 80% or negative > positive)."""
    if applied_count < MIN_APPLIED:
        return False
    low_success = success_rate is not None and success_rate < SUCCESS_THRESHOLD
    return low_success or negative > positive


@dataclass(frozen=True)
class Count:
    """Events of one kind and outcome for one skill (and project): what a GROUP BY query returns."""

    skill: str
    project: str | None
    kind: str
    passed: bool | None
    positive: bool | None
    n: int


def from_counts(counts: Iterable[Count]) -> list[SkillMetrics]:
    """Metrics from grouped counts, sorted by health (worst first), then name."""
    acc: dict[tuple[str, str | None], list[int]] = {}
    for c in counts:
        if not c.skill:
            continue
        a = acc.setdefault((c.skill, c.project), [0, 0, 0, 0, 0])
        if c.kind == "applied":
            a[0] += c.n
        elif c.kind == "eval" and c.passed is not None:
            a[1] += c.n
            a[2] += c.n if c.passed else 0
        elif c.kind == "feedback" and c.positive is not None:
            a[3 if c.positive else 4] += c.n
    out = [SkillMetrics(skill, proj, v[0], v[1], v[2], v[3], v[4]) for (skill, proj), v in acc.items()]
    out.sort(key=lambda m: (m.health, m.skill, m.project or ""))
    return out


def compute(events: Iterable[Event], *, by_project: bool = False) -> list[SkillMetrics]:
    """Metrics per skill (and per project when `by_project`), sorted by health (worst first), then name."""
    return from_counts(
        Count(e.skill, e.project if by_project else None, e.kind, e.passed, e.positive, 1) for e in events
    )


@dataclass(frozen=True)
class DayPoint:
    day: str  # YYYY-MM-DD (UTC)
    applied: int
    evaluated: int
    succeeded: int
    positive: int
    negative: int

    @property
    def success_rate(self) -> float | None:
        return self.succeeded / self.evaluated if self.evaluated else None


def daily(events: Iterable[Event], skill: str | None = None) -> list[DayPoint]:
    """Per-day counts (for the dashboard's charts), oldest day first; `skill=None` sums all skills."""
    acc: dict[str, list[int]] = {}
    for e in events:
        if skill is not None and e.skill != skill:
            continue
        a = acc.setdefault(e.created_at.strftime("%Y-%m-%d"), [0, 0, 0, 0, 0])
        if e.kind == "applied":
            a[0] += 1
        elif e.kind == "eval" and e.passed is not None:
            a[1] += 1
            a[2] += 1 if e.passed else 0
        elif e.kind == "feedback" and e.positive is not None:
            a[3 if e.positive else 4] += 1
    return [DayPoint(day, *vals) for day, vals in sorted(acc.items())]
