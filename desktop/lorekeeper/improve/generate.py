"""The skill generator (seed 001 "Neural Skill Generator"): from an extraction goal, the model
writes a rulebook skill (SKILL.md + eval rules) from the passages the knowledge holds about it.

The passages come from `ws.ask` (BM25 over skills, learnings, documents and registered corpora);
the prompt is resources/prompts/generate.md. The answer must give a new skill's name, a valid
SKILL.md between <<<SKILL / SKILL>>> and valid eval rules between <<<EVALS / EVALS>>>; anything
else is ERR_MODEL_ANSWER_INVALID and stores nothing. The skill arrives as a pending proposal
(source "generator", base version 0: it creates the skill when approved) with its rules and the
cited passages beside it, and is benchmarked at once like Sage's proposals: no skill (old) against
the generated skill (new), on the generated rules.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any

from lorekeeper.ask.passages import numbered
from lorekeeper.ask.service import AskService, Hit
from lorekeeper.errors import InvalidInputError, InvalidSpecError, LorekeeperError, NotFoundError
from lorekeeper.evals.rules import parse_rules_text
from lorekeeper.improve.bench import DEFAULT_SCENARIOS, BenchmarkService
from lorekeeper.improve.judge import Judge, ModelAnswerError
from lorekeeper.improve.prompts import template
from lorekeeper.improve.proposals import NEW_SKILL, NewProposal, ProposalInfo, ProposalService
from lorekeeper.improve.sage import sage_provider
from lorekeeper.jobs import Cancelled, Progress, drive
from lorekeeper.llm.base import LLMUnavailableError, Provider
from lorekeeper.llm.service import LLMService
from lorekeeper.skills.library import SkillLibrary
from lorekeeper.skills.spec import normalise_evals_text, parse_skill_md, validate_name
from lorekeeper.store.engine import Store
from lorekeeper.store.models import SkillGeneration, utcnow
from lorekeeper.store.scopes import validate_project

PASSAGES = 8
MAX_GOAL = 500
_SKILL = re.compile(r"<<<SKILL[ \t]*\r?\n(.*?)\r?\n?SKILL>>>", re.DOTALL)
_EVALS = re.compile(r"<<<EVALS[ \t]*\r?\n(.*?)\r?\n?EVALS>>>", re.DOTALL)
_FENCE = re.compile(r"^```[\w-]*\s*\n(.*?)\n```\s*$", re.DOTALL)
_CITE = re.compile(r"\[(\d{1,3})\]")


@dataclass(frozen=True)
class GeneratedSkill:
    name: str
    reason: str
    content: str
    evals: str
    cited: tuple[int, ...]


def _unfence(text: str) -> str:
    m = _FENCE.match(text.strip())
    return m.group(1) if m else text


def parse_generated(raw: str, *, name: str | None = None) -> GeneratedSkill:
    """The model's answer as a skill; ModelAnswerError when it is not one."""
    text = (raw or "").strip()
    ms, me = _SKILL.search(text), _EVALS.search(text)
    if not ms or not me:
        hint = "it is empty" if not text else f"it starts with {text[:120]!r}"
        raise ModelAnswerError(f"the generator's answer lacks a <<<SKILL ...>>> or <<<EVALS ...>>> block ({hint})")
    content = _unfence(ms.group(1)).strip("\n") + "\n"
    evals_text = _unfence(me.group(1)).strip()
    try:
        doc = parse_skill_md(content, file="generated SKILL.md")
    except InvalidSpecError as exc:
        raise ModelAnswerError(f"the generated SKILL.md is invalid: {exc.message}") from None
    if name and doc.name != name:
        content = re.sub(r"^name:.*$", f"name: {name}", content, count=1, flags=re.MULTILINE)
        try:
            doc = parse_skill_md(content, file="generated SKILL.md")
        except InvalidSpecError as exc:
            raise ModelAnswerError(f"the generated SKILL.md is invalid: {exc.message}") from None
    try:
        rules = parse_rules_text(evals_text, file="generated evals")
    except InvalidSpecError as exc:
        raise ModelAnswerError(f"the generated eval rules are invalid: {exc.message}") from None
    if not rules.rules:
        raise ModelAnswerError("the generated eval rules are empty: a rulebook skill needs rules to check")
    data = json.loads(evals_text)
    if isinstance(data, dict):
        data["skill"] = doc.name
    evals = normalise_evals_text(json.dumps(data, ensure_ascii=False), doc.name)
    reason = next(
        (
            ln.split(":", 1)[1].strip()
            for ln in text[: ms.start()].splitlines()
            if ln.strip().upper().startswith("REASON:")
        ),
        "",
    )
    cited = tuple(sorted({int(n) for n in _CITE.findall(content)}))
    return GeneratedSkill(doc.name, reason or f"a rulebook for: {doc.description}", content, evals, cited)


@dataclass
class GenerationResult:
    goal: str
    project: str
    proposal: ProposalInfo
    skill: str
    evals: str
    passages: list[Hit]
    cited: list[int]
    benchmark: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {
            "goal": self.goal,
            "project": self.project or None,
            "proposal": self.proposal.to_dict(),
            "skill": self.skill,
            "evals": json.loads(self.evals) if self.evals else None,
            "passages": [h.to_dict() for h in self.passages],
            "cited": self.cited,
            "benchmark": self.benchmark,
            "notes": self.notes,
        }


class SkillGenerator:
    def __init__(
        self,
        *,
        store: Store,
        skills: SkillLibrary,
        llm: LLMService,
        ask: AskService,
        proposals: ProposalService,
        bench: BenchmarkService,
    ) -> None:
        self.store = store
        self.skills = skills
        self.llm = llm
        self.ask = ask
        self.proposals = proposals
        self.bench = bench

    def generate(self, goal: str, project: str | None = None, **kwargs: Any) -> GenerationResult:
        result: GenerationResult = drive(self.generate_steps, (goal, project), kwargs)
        return result

    def generate_steps(
        self,
        goal: str,
        project: str | None = None,
        *,
        name: str | None = None,
        passages: int = PASSAGES,
        benchmark: bool = True,
        scenarios: int = DEFAULT_SCENARIOS,
        provider: Provider | None = None,
        judge: Judge | None = None,
        should_stop: Callable[[], bool] | None = None,
    ) -> Generator[Progress, None, GenerationResult]:
        goal = " ".join((goal or "").split())
        if not goal:
            raise InvalidInputError("the extraction goal is empty")
        if len(goal) > MAX_GOAL:
            raise InvalidInputError(f"the extraction goal is over {MAX_GOAL} characters")
        proj = validate_project(project)
        if name:
            validate_name(name, file="--name")
            self._refuse_existing(name, proj)
        provider = provider or sage_provider(self.llm)
        status = provider.status()
        if not status.ready:
            raise LLMUnavailableError(f"the skill generator needs a model: {status.reason}")
        total = 3 if benchmark else 2
        yield Progress(0, total, "Generator: retrieving passages")
        hits = self.ask.retrieve(goal, proj, top=passages)
        if not hits:
            raise NotFoundError(
                "no passage of the knowledge matches the goal: add documents under sources/ (or learnings, "
                "facts) about it, or word the goal with the terms they use"
            )
        prompt = template("generate").render(goal=goal, passages=numbered(h.passage for h in hits))
        yield Progress(1, total, "Generator: the model writes the skill")
        if should_stop is not None and should_stop():
            raise Cancelled("the generation was cancelled")
        raw = str(provider.complete(prompt))
        made = parse_generated(raw, name=name)
        self._refuse_existing(made.name, proj)
        cited = [n for n in made.cited if 1 <= n <= len(hits)]
        used = [hits[n - 1] for n in cited] or hits
        new = NewProposal(
            skill=made.name,
            scope=proj,
            project=proj,
            source="generator",
            reason=made.reason,
            summary=f"new skill {made.name} generated from the goal: {goal}",
            metrics={"goal": goal, "passages": len(hits), "cited": cited},
            failing_rules=[],
            learnings=[],
            base_version=NEW_SKILL,
            current_content="",
            proposed_content=made.content,
            model=f"{provider.name}:{provider.model}",
            prompt=prompt,
            answer=raw,
        )
        created = self.proposals.create(new)
        if created is None:
            raise InvalidInputError(
                f"a proposal for {made.name} is already pending; decide it first (`lorekeeper proposals list`)"
            )
        with self.store.write() as s:
            s.add(
                SkillGeneration(
                    proposal_id=created.id,
                    goal=goal,
                    project=proj,
                    evals=made.evals,
                    passages=json.dumps([h.to_dict() for h in used], ensure_ascii=False),
                    created_at=utcnow(),
                )
            )
        result = GenerationResult(goal, proj, created, made.name, made.evals, hits, cited)
        if not made.cited:
            result.notes.append("the generated skill cites no passage; review it against the passages shown")
        if benchmark:
            yield Progress(2, total, f"Generator: benchmarking proposal #{created.id} ({made.name})")
            try:
                run = self.bench.run(
                    created.id, scenarios=scenarios, provider=provider, judge=judge, should_stop=should_stop
                )
                result.benchmark = {
                    "run": run.id,
                    "verdict": run.verdict,
                    "improvement_pct": run.improvement_pct,
                    "badge": run.badge,
                }
            except Cancelled:
                raise
            except LorekeeperError as exc:
                result.benchmark = {"error": f"{exc.code}: {exc.message}"}
        result.proposal = self.proposals.get(created.id)
        yield Progress(total, total, "Generator: done")
        return result

    def _refuse_existing(self, name: str, project: str) -> None:
        if self.skills.exists(name, project) or (project and self.skills.exists(name, "")):
            raise InvalidInputError(
                f"a skill named {name} already exists; the generator writes new skills (Sage improves existing "
                "ones). Pass --name to choose another name."
            )
