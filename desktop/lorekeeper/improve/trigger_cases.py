"""`skills suggest NAME --triggers`: trigger cases written from a skill's description and its
quality history (issue 27 d2), in skill-creator's shape, stored as the skill's `triggers.json`.

Sources, in this order, one case per distinct query (existing cases are kept, never relabelled):
- **history**: the requests answered with this skill first in the hint (`answers`, the Playground
  and `llm ask`), fixed ones included (a fix corrects the answer, not the routing), are
  should-trigger cases; requests answered with another skill first while this one was also in
  the hint are should-not-trigger cases (the near misses the router must learn to leave alone);
- **description**: with a model, the model writes should-trigger and near-miss should-not-trigger
  queries from the name and description; without one, each clause of the description is a
  should-trigger query and the clauses of the closest other skills' descriptions (most shared
  words) are should-not-trigger ones.

The cases are test data, not what reaches an agent: they are written at once as a new version of
the skill (a signed `skill_saved` event, like any edit; `--dry-run` writes nothing), not queued as
a proposal.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from sqlalchemy import select

from lorekeeper.errors import InvalidInputError, LorekeeperError
from lorekeeper.llm.base import LLMUnavailableError, Provider
from lorekeeper.llm.service import LLMService
from lorekeeper.skills.library import SkillLibrary
from lorekeeper.skills.spec import SKILL_FILE, parse_skill_md
from lorekeeper.skills.textindex import folded_words
from lorekeeper.skills.triggers import TriggerCase, parse_cases
from lorekeeper.store.models import AnswerRecord

MAX_HISTORY = 20
MAX_FROM_DESCRIPTION = 8
NEIGHBOURS = 3

PROMPT = """You write trigger test cases for an Agent Skill: user requests a router should send to
this skill (should_trigger true) and near misses that share its words but need something else
(should_trigger false).

Skill name: {name}
Description: {description}

Answer with a JSON list only, {n} should-trigger and {n} should-not-trigger cases:
[{{"query": "...", "should_trigger": true}}, {{"query": "...", "should_trigger": false}}]
"""

_CLAUSE = re.compile(r"(?<=[.;!?])\s+|\s+(?=Use (?:it |this )?(?:when|for|to)\b)")


@dataclass(frozen=True)
class TriggerSuggestion:
    name: str
    scope: str
    cases: tuple[TriggerCase, ...]  # every case after the merge (existing first)
    added: tuple[TriggerCase, ...]
    sources: dict[str, int]
    model: str
    version: int | None  # the new version (None: dry run or nothing new)

    def to_dict(self) -> dict[str, object]:
        return {
            "skill": self.name,
            "project": self.scope or None,
            "cases": [c.to_dict() for c in self.cases],
            "added": [c.to_dict() for c in self.added],
            "sources": self.sources,
            "model": self.model or None,
            "version": self.version,
        }


def clauses(description: str) -> list[str]:
    """The description's sentences and "Use when ..." clauses, each a plausible request."""
    out = []
    for part in _CLAUSE.split(" ".join(description.split())):
        part = part.strip(" .;")
        if len(folded_words(part)) >= 3:
            out.append(part)
    return out


class TriggerCaseService:
    def __init__(self, skills: SkillLibrary, llm: LLMService) -> None:
        self.skills = skills
        self.llm = llm

    def suggest(
        self,
        name: str,
        project: str | None = None,
        *,
        use_model: bool | None = None,
        write: bool = True,
        provider: Provider | None = None,
    ) -> TriggerSuggestion:
        scope = self.skills.resolve_scope(name, project)
        cur = self.skills.get(name, scope or None)
        doc = parse_skill_md(cur.content, file=f"{name}/{SKILL_FILE}")
        existing, problems = self.skills.trigger_cases(scope or None, name)
        if problems:
            raise InvalidInputError(f"the current trigger file of {name} does not parse: {problems[0]['message']}")
        cases = list(existing.get(name, []))
        seen = {c.query.casefold() for c in cases}
        sources: dict[str, int] = {}
        added: list[TriggerCase] = []

        def add(query: str, should: bool, source: str) -> None:
            q = " ".join(query.split())
            if not q or q.casefold() in seen:
                return
            seen.add(q.casefold())
            case = TriggerCase(q[:4000], should)
            added.append(case)
            sources[source] = sources.get(source, 0) + 1

        for query, should in self._history(name, scope):
            add(query, should, "history")
        model = ""
        if provider is None and use_model is not False:
            status = self.llm.status()
            provider = self.llm.provider() if status.ready else None
            if use_model and provider is None:
                raise LLMUnavailableError(f"suggest --triggers --model needs a model: {status.reason}")
        if provider is not None:
            raw = provider.complete(
                PROMPT.format(name=doc.name, description=doc.description, n=MAX_FROM_DESCRIPTION // 2)
            )
            try:
                start, end = raw.find("["), raw.rfind("]")
                for c in parse_cases(raw[start : end + 1] if start >= 0 else raw, file="the model's answer"):
                    add(c.query, c.should_trigger, "model")
            except LorekeeperError as exc:
                raise InvalidInputError(f"the model's trigger cases are not usable: {exc}") from None
            model = f"{provider.name}:{provider.model}"
        else:
            for part in clauses(doc.description)[:MAX_FROM_DESCRIPTION]:
                add(part, True, "description")
            for part in self._near_misses(name, doc.description, scope):
                add(part, False, "neighbours")
        if not added and not cases:
            raise InvalidInputError(f"nothing to write for {name}: no history and no usable description clause")
        merged = [*cases, *added]
        version = None
        if write and added:
            version = self.skills.set_trigger_cases(
                name, scope or None, merged, message=f"trigger cases: +{len(added)} ({', '.join(sorted(sources))})"
            ).version
        return TriggerSuggestion(name, scope, tuple(merged), tuple(added), sources, model, version)

    def _history(self, name: str, scope: str) -> list[tuple[str, bool]]:
        """(request, should_trigger) from the stored answers of the skill's scope, newest first."""
        with self.skills.store.session() as s:
            rows = s.execute(
                select(AnswerRecord.message, AnswerRecord.skills)
                .where(AnswerRecord.project == scope)
                .order_by(AnswerRecord.created_at.desc(), AnswerRecord.id.desc())
                .limit(2000)
            ).all()
        pos: list[tuple[str, bool]] = []
        neg: list[tuple[str, bool]] = []
        for message, skills_json in rows:
            try:
                ranked = [str(entry[0]) for entry in json.loads(skills_json or "[]")]
            except (ValueError, TypeError, IndexError, KeyError):
                continue
            if not message.strip() or not ranked:
                continue
            if ranked[0] == name and len(pos) < MAX_HISTORY:
                pos.append((message, True))
            elif name in ranked[1:] and len(neg) < MAX_HISTORY:
                neg.append((message, False))
        return pos + neg

    def _near_misses(self, name: str, description: str, scope: str) -> list[str]:
        mine = set(folded_words(description))
        others = [
            (len(mine & set(folded_words(i.description))), i.name, i.description)
            for i in self.skills.list(project=scope)
            if i.name != name and i.description
        ]
        others.sort(key=lambda t: (-t[0], t[1]))
        out: list[str] = []
        for overlap, _n, desc in others[:NEIGHBOURS]:
            if overlap:
                out.extend(clauses(desc)[:2])
        return out
