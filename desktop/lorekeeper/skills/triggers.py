"""Trigger evals per skill (issue 27 d2): does the router hint a skill for the requests it is for,
and only for them?

A skill carries its trigger cases in a file of its folder (stored with its other files, so every
version keeps its own): `<name>.triggers.json` (DESIGN's name), `triggers.json`, or
`evals/triggers.json`. The shape is Anthropic
skill-creator's trigger eval set, `[{"query": "...", "should_trigger": true}, ...]`, or the same
list under `{"evals": [...]}`.

A skill *fires* for a query when the router puts it in the SKILLS_HINT an agent would get for that
query (the top `router.top` skills, 5 by default), over the whole library the project sees. For
each skill with cases: precision = fired on a should-trigger case / fired at all, recall = fired on
a should-trigger case / should-trigger cases; a confusion is a case answered wrongly, with the
skill that took the query (the router's first); the collisions are the other skills that fire on
this skill's should-trigger cases, counted.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field

from lorekeeper import safejson
from lorekeeper.errors import InvalidSpecError, LorekeeperError
from lorekeeper.jobs import Progress, drive
from lorekeeper.rates import json_rate
from lorekeeper.skills.router import RouteResult

TRIGGER_FILES = ("triggers.json", "evals/triggers.json")
MAX_CASES = 1000
MAX_QUERY = 4000


@dataclass(frozen=True)
class TriggerCase:
    query: str
    should_trigger: bool

    def to_dict(self) -> dict[str, object]:
        return {"query": self.query, "should_trigger": self.should_trigger}


NAMED_SUFFIX = ".triggers.json"  # DESIGN's `<name>.triggers.json`, beside `<name>.evals.json`


def trigger_file(paths: Sequence[str], name: str | None = None) -> str | None:
    """Which of a skill's files holds its trigger cases (None: it has none): `<name>.triggers.json`
    (DESIGN's name; any top-level `*.triggers.json` when the name is not given), else
    `triggers.json`, else `evals/triggers.json`."""
    have = set(paths)
    if name is not None and f"{name}{NAMED_SUFFIX}" in have:
        return f"{name}{NAMED_SUFFIX}"
    if name is None:
        named = sorted(p for p in have if p.endswith(NAMED_SUFFIX) and "/" not in p and p != NAMED_SUFFIX[1:])
        if named:
            return named[0]
    return next((p for p in TRIGGER_FILES if p in have), None)


def parse_cases(data: bytes | str, *, file: str) -> list[TriggerCase]:
    """The cases of a trigger file; ERR_INVALID_SPEC naming the file and the case when malformed."""
    try:
        raw = safejson.loads(data, what=file)
    except LorekeeperError:
        raise
    except ValueError as exc:
        raise InvalidSpecError(f"not valid JSON ({exc})", file=file) from None
    items = raw.get("evals") if isinstance(raw, dict) else raw
    if not isinstance(items, list):
        raise InvalidSpecError(
            'trigger cases are a list of {"query", "should_trigger"} (or that list under "evals")', file=file
        )
    if len(items) > MAX_CASES:
        raise InvalidSpecError(f"{len(items)} trigger cases; at most {MAX_CASES}", file=file)
    out: list[TriggerCase] = []
    for n, item in enumerate(items, 1):
        if not isinstance(item, dict):
            raise InvalidSpecError(f"case {n} is not an object", file=file)
        query, should = item.get("query"), item.get("should_trigger")
        if not isinstance(query, str) or not query.strip():
            raise InvalidSpecError(f"case {n}: 'query' must be a non-empty string", file=file, field="query")
        if len(query) > MAX_QUERY:
            raise InvalidSpecError(f"case {n}: 'query' is over {MAX_QUERY} characters", file=file, field="query")
        if not isinstance(should, bool):
            raise InvalidSpecError(
                f"case {n}: 'should_trigger' must be true or false", file=file, field="should_trigger"
            )
        out.append(TriggerCase(query.strip(), should))
    return out


def dump_cases(cases: Sequence[TriggerCase]) -> str:
    """A trigger file's text (skill-creator's list shape, one case per line)."""
    import json

    lines = [json.dumps(c.to_dict(), ensure_ascii=False) for c in cases]
    return "[\n  " + ",\n  ".join(lines) + "\n]\n" if lines else "[]\n"


@dataclass
class SkillTriggerScore:
    name: str
    cases: int
    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0
    #: cases answered wrongly: {"query", "should_trigger", "fired", "taken_by" (= "took"), "rank"}
    confusions: list[dict[str, object]] = field(default_factory=list)
    #: other skills that fire on this skill's should-trigger cases: name -> how many
    collisions: dict[str, int] = field(default_factory=dict)

    @property
    def precision(self) -> float | None:
        fired = self.tp + self.fp
        return json_rate(self.tp / fired) if fired else None  # rounded down: the one rule (issue 31 item 8)

    @property
    def recall(self) -> float | None:
        should = self.tp + self.fn
        return json_rate(self.tp / should) if should else None

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "cases": self.cases,
            "precision": self.precision,
            "recall": self.recall,
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "tn": self.tn,
            "confusions": self.confusions,
            "collisions": [
                {"skill": k, "cases": v} for k, v in sorted(self.collisions.items(), key=lambda kv: (-kv[1], kv[0]))
            ],
        }


@dataclass
class TriggerReport:
    top: int
    skills: list[SkillTriggerScore]

    def collisions(self) -> list[dict[str, object]]:
        """Every pair of skills that fire on the same cases: `skill`'s should-trigger cases on which
        `with` fires too, most first (DESIGN's top-level "collisions")."""
        pairs = [
            {"skill": sc.name, "with": other, "cases": n} for sc in self.skills for other, n in sc.collisions.items()
        ]
        return sorted(pairs, key=lambda p: (-int(str(p["cases"])), str(p["skill"]), str(p["with"])))

    def to_dict(self) -> dict[str, object]:
        return {"top": self.top, "skills": [s.to_dict() for s in self.skills], "collisions": self.collisions()}


def evaluate_steps(
    cases: Mapping[str, Sequence[TriggerCase]], route: Callable[[str], RouteResult], *, top: int
) -> Generator[Progress, None, TriggerReport]:
    """Score every skill's cases against `route` (a query -> the router's hint for it); yields
    `Progress` per skill (a job: cancellable between two skills)."""
    memo: dict[str, RouteResult] = {}
    scores: list[SkillTriggerScore] = []
    names = sorted(cases)
    for n, name in enumerate(names):
        yield Progress(n, len(names), f"routing the cases of {name}")
        sc = SkillTriggerScore(name, len(cases[name]))
        for case in cases[name]:
            result = memo.get(case.query)
            if result is None:
                result = memo[case.query] = route(case.query)
            ranked = [m.name for m in result.skills]
            fired = name in ranked
            if case.should_trigger and fired:
                sc.tp += 1
            elif case.should_trigger:
                sc.fn += 1
            elif fired:
                sc.fp += 1
            else:
                sc.tn += 1
            if case.should_trigger:
                for other in ranked:
                    if other != name:
                        sc.collisions[other] = sc.collisions.get(other, 0) + 1
            if fired != case.should_trigger:
                sc.confusions.append(
                    {
                        "query": case.query,
                        "should_trigger": case.should_trigger,
                        "fired": fired,
                        "taken_by": ranked[0] if ranked else None,
                        "took": ranked[0] if ranked else None,  # DESIGN's key (the same skill)
                        "rank": ranked.index(name) + 1 if fired else None,
                    }
                )
        scores.append(sc)
    return TriggerReport(top, scores)


def evaluate(
    cases: Mapping[str, Sequence[TriggerCase]], route: Callable[[str], RouteResult], *, top: int
) -> TriggerReport:
    return drive(evaluate_steps, (cases, route), {"top": top})  # type: ignore[no-any-return]
