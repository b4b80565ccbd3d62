"""What the loop knows about a weak skill: its failing eval rules and the learnings related to it."""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select

from lorekeeper.learnings.service import LearningService
from lorekeeper.skills.library import SkillLibrary
from lorekeeper.store.engine import Store
from lorekeeper.store.models import EvalRun, utcnow

MAX_LEARNINGS = 5
MIN_OVERLAP = 2  # shared words (after stop words) for a learning to count as related; a tag counts 10
_STOP = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "for",
        "from",
        "in",
        "into",
        "is",
        "it",
        "of",
        "on",
        "or",
        "the",
        "this",
        "to",
        "with",
        "use",
        "using",
        "when",
        "your",
        "you",
        "not",
        "no",
        "do",
        "does",
        "never",
        "always",
        "should",
        "must",
    ]
)


@dataclass(frozen=True)
class FailingRule:
    id: str
    name: str
    severity: str
    failed: int  # answers where it failed
    checked: int  # answers checked against it

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "name": self.name,
            "severity": self.severity,
            "failed": self.failed,
            "checked": self.checked,
        }


def failing_rules(
    store: Store, skill: str, project: str, *, days: float | None = 30, since: datetime | None = None
) -> list[FailingRule]:
    """Rules of `skill` that failed on recorded answers of `project` (after `since`, when given:
    the current version or the last decision), most failures first."""
    # answers only: rules the operator tries out in the Evals panel ("app") are not failures of the skill
    stmt = select(EvalRun.results).where(EvalRun.skill == skill, EvalRun.project == project, EvalRun.source != "app")
    if days is not None:
        stmt = stmt.where(EvalRun.created_at >= utcnow() - timedelta(days=days))
    if since is not None:
        stmt = stmt.where(EvalRun.created_at > since)
    failed: Counter[str] = Counter()
    checked: Counter[str] = Counter()
    meta: dict[str, tuple[str, str]] = {}
    with store.session() as s:
        for raw in s.scalars(stmt):
            try:
                results = json.loads(raw or "[]")
            except ValueError:
                continue
            for r in results if isinstance(results, list) else []:
                if not isinstance(r, dict) or "id" not in r:
                    continue
                rid = str(r["id"])
                meta[rid] = (str(r.get("name") or rid), str(r.get("severity") or "warning"))
                checked[rid] += 1
                if not r.get("passed", True):
                    failed[rid] += 1
    out = [FailingRule(rid, meta[rid][0], meta[rid][1], n, checked[rid]) for rid, n in failed.items() if n]
    out.sort(key=lambda f: (-f.failed, f.severity != "warning", f.name))
    return out


def _words(text: str) -> set[str]:
    folded = unicodedata.normalize("NFKD", text.casefold())
    folded = "".join(c for c in folded if not unicodedata.combining(c))
    return {w for w in re.findall(r"[a-z0-9]+", folded) if w not in _STOP and len(w) > 2}


def related_learnings(
    skills: SkillLibrary, learnings: LearningService, skill: str, project: str, rule_names: list[str] | None = None
) -> list[dict[str, object]]:
    """Active learnings the skill's project sees that share words with the skill (name, description,
    triggers, keywords) or with its failing rules (at least 2 words); a learning tagged with the skill's name always counts.
    Best overlap first, newest first among equals, at most 5."""
    if not any(i.name == skill for i in skills.list(project=project or "")):
        return []  # a removed skill has no related learnings
    listed = next((i for i in skills.list(project=project or "") if i.name == skill), None)
    terms = set(_words(skill.replace("-", " ")))
    if listed is not None:
        terms |= _words(listed.description)
        for t in listed.triggers + listed.keywords:
            terms |= _words(t)
    for name in rule_names or []:
        terms |= _words(name)
    scored: list[tuple[int, float, dict[str, object]]] = []
    for item in learnings.for_prompt(project or None):
        overlap = len(_words(item.rule) & terms)
        if skill in item.tags:
            overlap += 10
        if overlap >= MIN_OVERLAP:
            scored.append(
                (
                    overlap,
                    item.created_at.timestamp(),
                    {"id": item.id, "rule": item.rule, "source": item.source, "project": item.project or None},
                )
            )
    scored.sort(key=lambda t: (-t[0], -t[1]))
    return [d for _, _, d in scored[:MAX_LEARNINGS]]
