"""Check a response against a rule set. Deterministic, no model, never blocking."""

from __future__ import annotations

import json
from dataclasses import dataclass

from lorekeeper.evals.footnote import footnote as make_footnote
from lorekeeper.evals.rules import Rule, RuleSet


@dataclass(frozen=True)
class RuleResult:
    id: str
    name: str
    type: str
    severity: str
    passed: bool

    def to_dict(self) -> dict[str, object]:
        return {"id": self.id, "name": self.name, "type": self.type, "severity": self.severity, "passed": self.passed}


@dataclass(frozen=True)
class EvalReport:
    results: tuple[RuleResult, ...]
    footnote: str

    @property
    def passed(self) -> bool:
        """A response succeeds when no *warning* rule fails (info rules are advisory)."""
        return not any(r.severity == "warning" and not r.passed for r in self.results)

    @property
    def failed(self) -> tuple[RuleResult, ...]:
        return tuple(r for r in self.results if not r.passed)

    def to_dict(self) -> dict[str, object]:
        return {"passed": self.passed, "results": [r.to_dict() for r in self.results], "footnote": self.footnote}


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def check(rule: Rule, response: str) -> bool:
    """True when the response satisfies the rule (inverted when the rule says "negate": true)."""
    return _check(rule, response) != rule.negate


def _check(rule: Rule, response: str) -> bool:
    t = rule.type
    negate = t.startswith("not_")
    base = t[4:] if negate else t
    v = rule.value
    if t == "string_contains":
        return v in response
    if t == "string_not_contains":
        return v not in response
    if t == "regex_match":
        assert rule.compiled is not None
        return rule.compiled.search(response) is not None
    if t == "regex_not_match":
        assert rule.compiled is not None
        return rule.compiled.search(response) is None
    if t == "max_length":
        return len(response) <= int(v)
    if t == "min_length":
        return len(response) >= int(v)
    if t == "max_words":
        return len(response.split()) <= int(v)
    if t == "min_words":
        return len(response.split()) >= int(v)

    folded = response.casefold()
    if base == "icontains":
        ok = v.casefold() in folded
    elif base == "contains_any":
        ok = any(x in response for x in v)
    elif base == "contains_all":
        ok = all(x in response for x in v)
    elif base == "icontains_any":
        ok = any(x.casefold() in folded for x in v)
    elif base == "icontains_all":
        ok = all(x.casefold() in folded for x in v)
    elif base == "starts_with":
        ok = response.startswith(v)
    elif base == "ends_with":
        ok = response.endswith(v)
    elif base == "equals":
        ok = response == v
    elif base == "is_json":
        ok = _is_json(response)
    else:  # pragma: no cover - parse_rule rejects unknown types
        raise ValueError(f"unknown rule type {t}")
    return not ok if negate else ok


def evaluate(rules: RuleSet, response: str) -> EvalReport:
    """Run every rule, in file order. The footnote lists the failed rules only."""
    results = tuple(
        RuleResult(id=r.id, name=r.label, type=r.type, severity=r.severity, passed=check(r, response))
        for r in rules.rules
    )
    return EvalReport(results=results, footnote=make_footnote(results))
