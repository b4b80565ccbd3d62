"""What the loop knows about a weak skill: its failing eval rules and the learnings related to it."""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select

from lorekeeper.learnings.service import LearningService
from lorekeeper.skills.library import SkillLibrary
from lorekeeper.store.engine import Store
from lorekeeper.store.models import EvalRun, utcnow
from lorekeeper.text import INSTRUCTION_WORDS, singular, stop_words
from lorekeeper.text import words as folded_words

MAX_LEARNINGS = 5
# A learning is related to a skill when the words they share weigh at least this much (see
# `relevance`): one word distinctive of the skill's router words (name, triggers, keywords) or of a
# failing rule's name is enough; generic words weigh next to nothing, stop words nothing at all.
RELATED_THRESHOLD = 1.0
ROUTER_WEIGHT = 1.0  # a whole router term (name, trigger, keyword) or a failing rule's name
PARTIAL_WEIGHT = 0.5  # part of a multi-word router term, or the description (longer prose)
TAG_SCORE = 10.0  # a learning tagged with the skill's name always counts
# Beyond the function words and the instruction words (lorekeeper.text), the generic words of
# instructions (issue 17: "before" alone, shared with an unrelated skill, pulled a learning in).
GENERIC_WORDS = frozenset(
    """always done either else ever every first however instead last less many much never new next
    often one per put rather set since sure thus try upon way well whether within without yet""".split()  # noqa: SIM905 - a word list reads better as text
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
    """The content words of a text, plurals folded ("migrations" ~ "migration"): whole words, not
    Snowball stems, which relate "accessible name" to a skill's "naming" keyword."""
    stop = stop_words(INSTRUCTION_WORDS, GENERIC_WORDS)
    return {singular(w) for w in folded_words(text) if w not in stop and len(w) > 2}


def _router_terms(name: str, triggers: tuple[str, ...], keywords: tuple[str, ...]) -> list[frozenset[str]]:
    """The skill's router terms (its name, each trigger and keyword) as sets of content words."""
    terms = [frozenset(_words(t)) for t in (name.replace("-", " "), *triggers, *keywords)]
    return [t for t in terms if t]


def relevance(
    learning: str,
    router: list[frozenset[str]],
    description: set[str],
    library: list[set[str]],
    rule_words: set[str] | frozenset[str] = frozenset(),
    router_library: list[set[str]] | None = None,
) -> float:
    """How much `learning` is about the skill: the sum, over the content words it shares with the
    skill, of the word's weight times its rarity in the library.

    Weights: 1.0 for a word of a router term the learning holds whole (a one-word trigger or
    keyword, or every word of "code review") or of a failing rule's name; 0.5 for a word of a
    router term only partly there ("query" of "slow query") or of the description. Rarity is BM25's
    idf over the skills' words, scaled so that a word only this skill has weighs 1.0 and a word
    every skill has weighs about 0. A word of a router term held whole takes its rarity among the
    skills' router words (`router_library`, when given): "changelog", a trigger of one skill only,
    is distinctive of it even when another skill's description mentions a changelog."""
    words = _words(learning)
    whole: set[str] = set()
    partial: set[str] = set()
    for term in router:
        (whole if term <= words else partial).update(term)
    n = max(len(library), 1)

    def idf(df: int) -> float:
        return math.log(1 + (n - df + 0.5) / (df + 0.5))

    top = idf(1)
    score = 0.0
    for w in words:
        docs = library
        if w in whole or w in rule_words:
            weight = ROUTER_WEIGHT
            if w in whole and router_library is not None:
                docs = router_library
        elif w in partial or w in description:
            weight = PARTIAL_WEIGHT
        else:
            continue
        df = max(sum(1 for doc in docs if w in doc), 1)
        score += weight * idf(df) / top
    return score


def related_learnings(
    skills: SkillLibrary, learnings: LearningService, skill: str, project: str, rule_names: list[str] | None = None
) -> list[dict[str, object]]:
    """Active learnings the skill's project sees whose `relevance` to the skill (its router words,
    description and failing rules) reaches RELATED_THRESHOLD; a learning tagged with the skill's
    name always counts. Most relevant first, newest first among equals, at most 5."""
    listed_all = skills.list(project=project or "")
    listed = next((i for i in listed_all if i.name == skill), None)
    if listed is None:
        return []  # a removed skill has no related learnings
    library = [set().union(*_router_terms(i.name, i.triggers, i.keywords), _words(i.description)) for i in listed_all]
    router_library = [set().union(*_router_terms(i.name, i.triggers, i.keywords)) for i in listed_all]
    router = _router_terms(listed.name, listed.triggers, listed.keywords)
    description = _words(listed.description)
    rule_words: set[str] = set()
    for name in rule_names or []:
        rule_words |= _words(name)
    scored: list[tuple[float, float, dict[str, object]]] = []
    for item in learnings.for_prompt(project or None):
        score = relevance(item.rule, router, description, library, rule_words, router_library)
        if skill in item.tags:
            score += TAG_SCORE
        if score >= RELATED_THRESHOLD:
            scored.append(
                (
                    round(score, 6),
                    item.created_at.timestamp(),
                    {"id": item.id, "rule": item.rule, "source": item.source, "project": item.project or None},
                )
            )
    scored.sort(key=lambda t: (-t[0], -t[1]))
    return [d for _, _, d in scored[:MAX_LEARNINGS]]
