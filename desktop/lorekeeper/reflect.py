"""The reflect loop around one conversation (seeds 000/001 pillars 1, 3 and the quality tracker).

send: assemble the prompt, stream the model's answer, check it against the routed skills' rules
(the footnote), record the quality events. Fix It: save the correction as a learning, then send
the fix request at once (its prompt already carries the new learning). Thumbs down: a learning
and negative feedback. Thumbs up: positive feedback. The CLI and the Playground both use this.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Generator
from dataclasses import dataclass, field

from lorekeeper.errors import LorekeeperError
from lorekeeper.evals.engine import RuleResult, evaluate
from lorekeeper.evals.footnote import footnote as make_footnote
from lorekeeper.evals.service import EvalService
from lorekeeper.jobs import Cancelled, drive
from lorekeeper.learnings.block import LearningsBlock
from lorekeeper.learnings.service import EventHook, LearningInfo, LearningService
from lorekeeper.llm.service import LLMService
from lorekeeper.prompt import AssembledPrompt, PromptBuilder
from lorekeeper.quality.answers import AnswerLog, StoredAnswer
from lorekeeper.quality.tracker import QualityTracker
from lorekeeper.skills.library import SkillLibrary
from lorekeeper.skills.router import RouteMatch, RouteResult

EXCERPT_CHARS = 200
SOURCE = "playground"


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    one = " ".join(text.split())
    return one if len(one) <= limit else one[: limit - 1].rstrip() + "\u2026"


def fixit_rule(answer_text: str) -> str:
    """The seed's default rule for Fix It, for the dialog to start from."""
    return f"Fix requested for: {excerpt(answer_text)}"


def negative_rule(answer_text: str, reason: str = "") -> str:
    """The seed's rule for thumbs down; the operator's reason, when given, is the rule."""
    reason = " ".join(reason.split())
    return reason or f"Negative feedback on: {excerpt(answer_text)}"


def fix_request(rule: str, answer_text: str, original: str = "") -> str:
    """The message sent at once after Fix It. It repeats the original request, so it routes the same."""
    head = f"Original request:\n{original}\n\n" if original else ""
    return (
        f"{head}Your previous answer needs a correction. Rewrite it following this rule:\n"
        f"{rule}\n\nPrevious answer:\n{answer_text}"
    )


@dataclass(frozen=True)
class Answer:
    interaction: str
    project: str
    prompt: AssembledPrompt
    text: str
    results: tuple[RuleResult, ...]
    footnote: str
    eval_runs: tuple[int, ...] = field(default=())
    model: str = ""
    truncated: bool = False  # the model stopped at [llm] max_tokens (stop_reason "max_tokens")

    @property
    def passed(self) -> bool:
        return not any(r.severity == "warning" and not r.passed for r in self.results)

    @property
    def skills(self) -> tuple[str, ...]:
        return self.prompt.skills

    def to_dict(self) -> dict[str, object]:
        return {
            "interaction": self.interaction,
            "project": self.project or None,
            "model": self.model,
            "skills": list(self.skills),
            "answer": self.text,
            "passed": self.passed,
            "results": [r.to_dict() for r in self.results],
            "footnote": self.footnote,
            "truncated": self.truncated,
        }


class ReflectLoop:
    def __init__(
        self,
        *,
        prompts: PromptBuilder,
        llm: LLMService,
        skills: SkillLibrary,
        evals: EvalService,
        quality: QualityTracker,
        learnings: LearningService,
        answers: AnswerLog | None = None,
        on_event: EventHook | None = None,
    ) -> None:
        self.prompts = prompts
        self.llm = llm
        self.skills = skills
        self.evals = evals
        self.quality = quality
        self.learnings = learnings
        self.answers = answers  # each checked answer is kept by its interaction id (CLI feedback, fixit)
        self.on_event = on_event  # the signed audit chain (feedback events); returns a warning or None
        self.audit_warnings: list[str] = []

    def _emit(self, name: str, data: dict[str, object]) -> None:
        if self.on_event is not None:
            warning = self.on_event(name, data)
            if warning:
                self.audit_warnings.append(warning)

    def take_audit_warnings(self) -> list[str]:
        """Changes the audit chain could not sign (the change itself was kept), then cleared."""
        out, self.audit_warnings = self.audit_warnings, []
        return out

    def prepare(self, message: str, project: str | None = None) -> AssembledPrompt:
        return self.prompts.build(message, project)

    def send(
        self,
        prompt: AssembledPrompt,
        *,
        on_chunk: Callable[[str], None] | None = None,
        is_cancelled: Callable[[], bool] | None = None,
    ) -> Answer:
        answer: Answer = drive(self.send_steps, (prompt,), {"is_cancelled": is_cancelled}, on_value=on_chunk)
        return answer

    def send_steps(
        self, prompt: AssembledPrompt, *, is_cancelled: Callable[[], bool] | None = None
    ) -> Generator[str, None, Answer]:
        """The answer as a job: yields the streamed text chunks, returns the checked `Answer`.
        Closing the generator (a cancelled job) stops the model's stream at once."""
        provider = self.llm.provider()
        parts: list[str] = []
        stream = provider.stream(prompt.text)
        try:
            for piece in stream:
                if is_cancelled is not None and is_cancelled():
                    raise Cancelled("the answer was cancelled")
                parts.append(piece)
                yield piece
        finally:
            close = getattr(stream, "close", None)
            if close is not None:
                close()  # stops the HTTP stream or the claude process at once on cancel
        text = "".join(parts)
        model = f"{provider.name}:{provider.model}" if provider.model else provider.name
        return self.check(prompt, text, model=model, truncated=bool(getattr(provider, "last_truncated", False)))

    def check(
        self, prompt: AssembledPrompt, text: str, *, model: str = "", truncated: bool = False, source: str = SOURCE
    ) -> Answer:
        """Evaluate an answer against each routed skill's rules and record the quality events.
        `source`: the eval runs' origin (the Playground's, or an agent's through MCP or a hook)."""
        # the eval runs, the quality events and the stored answer: one commit (issue 24)
        with self.quality.store.write():
            return self._check(prompt, text, model=model, truncated=truncated, source=source)

    def _check(self, prompt: AssembledPrompt, text: str, *, model: str, truncated: bool, source: str) -> Answer:
        interaction = uuid.uuid4().hex
        project = prompt.project
        results: list[RuleResult] = []
        runs: list[int] = []
        outcomes: list[tuple[str, bool, int]] = []
        for skill in prompt.skills:
            try:
                version = self.skills.get(skill, project or None)
                rules = version.rules()
            except LorekeeperError:
                continue  # a skill removed or broken since routing: nothing to check it against
            report = evaluate(rules, text)
            run_id = self.evals.record(
                report, text, skill=skill, project=project, version=version.version, source=source
            )
            runs.append(run_id)
            results.extend(report.results)
            outcomes.append((skill, report.passed, run_id))
        self.quality.log_applied(prompt.skills, project, interaction)
        for skill, passed, run_id in outcomes:
            self.quality.log_eval(skill, project, passed, interaction=interaction, eval_run_id=run_id)
        # One footnote for the answer: the routed skills' failed rules in route order, each
        # (severity, name) once, since two skills often share a rule such as "No force push".
        unique = list({(r.severity, r.name, r.passed): r for r in results if not r.passed}.values())
        note = make_footnote(unique)
        answer = Answer(interaction, project, prompt, text, tuple(results), note, tuple(runs), model, truncated)
        if self.answers is not None:
            self.answers.record(
                interaction,
                project=project,
                message=prompt.message,
                prompt=prompt.text,
                text=text,
                skills=[(m.name, m.score) for m in prompt.route.skills],
                model=model,
                footnote=note,
                passed=answer.passed,
                truncated=truncated,
                eval_runs=runs,
            )
        return answer

    def answer(self, ref: str, project: str | None = None) -> Answer:
        """A recorded answer (its id, a unique prefix of it, or `last`), as the Playground held it:
        the same interaction, project, request, text and routed skills, for thumbs and Fix It."""
        if self.answers is None:
            raise LorekeeperError("this workspace keeps no answers", code="ERR_NOT_FOUND")
        return as_answer(self.answers.get(ref, project))

    def fix_it(
        self,
        answer: Answer,
        rule: str,
        *,
        on_learning: Callable[[LearningInfo, AssembledPrompt], None] | None = None,
        on_chunk: Callable[[str], None] | None = None,
        is_cancelled: Callable[[], bool] | None = None,
    ) -> tuple[LearningInfo, Answer]:
        """Save the correction as a learning (source fixit), then send the fix request at once."""
        learning = self.save_fix(answer, rule)
        prompt = self.fix_prompt(answer, learning)
        if on_learning is not None:
            on_learning(learning, prompt)
        fixed = self.send(prompt, on_chunk=on_chunk, is_cancelled=is_cancelled)
        return learning, fixed

    def save_fix(self, answer: Answer, rule: str) -> LearningInfo:
        """Fix It, first half: the correction becomes a learning (source fixit); the learning and
        both events are one commit (issue 24)."""
        with self.quality.store.write():
            learning = self.learnings.add(rule, project=answer.project or None, source="fixit")
            self._emit("answer_fixed", {"interaction": answer.interaction, "learning": learning.id, **_about(answer)})
        return learning

    def fix_prompt(self, answer: Answer, learning: LearningInfo) -> AssembledPrompt:
        """Fix It, second half: the fix request's prompt (it already carries the new learning).

        Routed on the original request only: the previous answer it quotes may name other skills,
        which would then be hinted, counted as applied and evaluated (issue 17)."""
        original = answer.prompt.message
        return self.prompts.build(
            fix_request(learning.rule, answer.text, original), answer.project or None, route_on=original or None
        )

    def thumbs_up(self, answer: Answer) -> None:
        with self.quality.store.write():  # the feedback rows and their event: one commit (issue 24)
            self.quality.log_feedback(answer.skills, answer.project, True, interaction=answer.interaction)
            self._emit("answer_feedback", {"interaction": answer.interaction, "positive": True, **_about(answer)})

    def thumbs_down(self, answer: Answer, reason: str = "") -> LearningInfo:
        """The learning, the negative feedback rows and both events: one commit (issue 24; it was 5)."""
        with self.quality.store.write():
            learning = self.learnings.add(
                negative_rule(answer.text, reason), project=answer.project or None, source="negative"
            )
            self.quality.log_feedback(
                answer.skills, answer.project, False, interaction=answer.interaction, reason=reason
            )
            self._emit(
                "answer_feedback",
                {
                    "interaction": answer.interaction,
                    "positive": False,
                    "reason": " ".join(reason.split()),
                    "learning": learning.id,
                    **_about(answer),
                },
            )
        return learning


def _about(answer: Answer) -> dict[str, object]:
    """What a feedback event says about the answer it rates (the audit event's context)."""
    return {"project": answer.project or None, "skills": list(answer.skills), "model": answer.model}


def as_answer(stored: StoredAnswer) -> Answer:
    """A recorded answer as an `Answer`: the routed skills and the request as they were (the
    learnings block is not kept; the prompt's text is the one that was sent)."""
    route = RouteResult(tuple(RouteMatch(n, sc, (), ()) for n, sc in stored.skills), "")
    prompt = AssembledPrompt(stored.message, stored.project, route, LearningsBlock("", (), 0), (), stored.prompt)
    return Answer(
        stored.interaction,
        stored.project,
        prompt,
        stored.text,
        (),
        stored.footnote,
        stored.eval_runs,
        stored.model,
        stored.truncated,
    )
