"""The LLM judge: scores two outputs 1-10 with the labels hidden ("Response A" / "Response B").

The benchmark calls it twice per scenario, once with (old, new) as (A, B) and once swapped, so a
judge that prefers a position rather than an answer is caught (MT-Bench: position bias). Any
object with the `score` method works as a judge: the tests use a scripted one.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Protocol

from lorekeeper.errors import LorekeeperError
from lorekeeper.improve.prompts import template
from lorekeeper.llm.base import Provider


class ModelAnswerError(LorekeeperError):
    """The model answered, but not in the form the prompt asked for; nothing was stored."""

    code = "ERR_MODEL_ANSWER_INVALID"


@dataclass(frozen=True)
class JudgeCall:
    """One judgement: the scores of the responses shown as A and B, the reason, and what was sent."""

    score_a: int
    score_b: int
    reason: str
    prompt: str = ""
    raw: str = ""

    def to_dict(self) -> dict[str, object]:
        return {
            "score_a": self.score_a,
            "score_b": self.score_b,
            "reason": self.reason,
            "prompt": self.prompt,
            "raw": self.raw,
        }


class Judge(Protocol):
    model: str

    def score(self, *, skill: str, description: str, scenario: str, response_a: str, response_b: str) -> JudgeCall: ...


_OBJECT = re.compile(r"\{.*\}", re.DOTALL)
_TEXT_SCORE = {side: re.compile(rf"(?i)\b(?:score[ _]?|response[ _]?){side}\b\W{{0,6}}(\d{{1,2}})\b") for side in "ab"}


def _score(value: object, key: str, raw: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or float(value) != int(value):
        raise ModelAnswerError(f"the judge's {key} is not an integer from 1 to 10: {value!r} (answer: {raw[:200]!r})")
    n = int(value)
    if not 1 <= n <= 10:
        raise ModelAnswerError(f"the judge's {key} is {n}, outside 1-10 (answer: {raw[:200]!r})")
    return n


def parse_judge_answer(raw: str) -> tuple[int, int, str]:
    """`{"score_a": int, "score_b": int, "reason": str}`, possibly inside a code fence or prose."""
    m = _OBJECT.search(raw or "")
    if not m:
        ma, mb = _TEXT_SCORE["a"].search(raw or ""), _TEXT_SCORE["b"].search(raw or "")
        if ma and mb:  # "Response A: 7/10 ... Response B: 9/10" in prose
            return _score(int(ma.group(1)), "score_a", raw), _score(int(mb.group(1)), "score_b", raw), raw.strip()[:500]
        raise ModelAnswerError(f"the judge did not answer with a JSON object (answer: {(raw or '')[:200]!r})")
    try:
        data = json.loads(m.group(0))
    except ValueError:
        raise ModelAnswerError(f"the judge's answer is not valid JSON (answer: {raw[:200]!r})") from None
    if not isinstance(data, dict):
        raise ModelAnswerError(f"the judge's answer is not a JSON object (answer: {raw[:200]!r})")
    keys = {str(k).strip().lower().replace(" ", "_"): v for k, v in data.items()}
    a = _score(_first(keys, ("score_a", "response_a", "a")), "score_a", raw)
    b = _score(_first(keys, ("score_b", "response_b", "b")), "score_b", raw)
    return a, b, str(_first(keys, ("reason", "reasoning", "explanation")) or "").strip()


def _first(data: dict[str, object], names: tuple[str, ...]) -> object:
    """The first of `names` present (models sometimes say "Score A" or "response_b" for "score_b")."""
    return next((data[n] for n in names if n in data), None)


class LLMJudge:
    """The judge as the configured model, with the prompt of resources/prompts/judge.md."""

    def __init__(self, provider: Provider) -> None:
        self.provider = provider
        self.model = provider.model
        self.template = template("judge")

    def score(self, *, skill: str, description: str, scenario: str, response_a: str, response_b: str) -> JudgeCall:
        prompt = self.template.render(
            skill=skill, description=description, scenario=scenario, response_a=response_a, response_b=response_b
        )
        raw = self.provider.complete(prompt)
        a, b, reason = parse_judge_answer(raw)
        return JudgeCall(a, b, reason, prompt, raw)
