"""Check a response against a rule set. Deterministic, no model, never blocking."""

from __future__ import annotations

from dataclasses import dataclass

from lorekeeper.evals.footnote import footnote as make_footnote
from lorekeeper.evals.jsoncheck import JSON_TOO_DEEP, SCHEMA_UNAPPLIED, check_json
from lorekeeper.evals.regexcheck import REGEX_TIMEOUT, RegexTimeout, default_timeout, search
from lorekeeper.evals.rules import Rule, RuleSet


@dataclass(frozen=True)
class RuleResult:
    id: str
    name: str
    type: str
    severity: str
    passed: bool
    reason: str = ""  # why it failed, when the plain verdict is not enough (timeout, schema, nesting)
    code: str = ""  # a stable code when the check could not be completed (UNDECIDED_CODES)

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "id": self.id,
            "name": self.name,
            "type": self.type,
            "severity": self.severity,
            "passed": self.passed,
        }
        if self.reason:
            out["reason"] = self.reason
        if self.code:
            out["code"] = self.code
        return out


@dataclass(frozen=True)
class EvalReport:
    results: tuple[RuleResult, ...]
    footnote: str
    warnings: tuple[str, ...] = ()  # load-time warnings of the rule set (nested quantifiers)

    @property
    def passed(self) -> bool:
        """A response succeeds when no *warning* rule fails (info rules are advisory)."""
        return not any(r.severity == "warning" and not r.passed for r in self.results)

    @property
    def failed(self) -> tuple[RuleResult, ...]:
        return tuple(r for r in self.results if not r.passed)

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "passed": self.passed,
            "results": [r.to_dict() for r in self.results],
            "footnote": self.footnote,
        }
        if self.warnings:
            out["warnings"] = list(self.warnings)
        return out


#: Codes of a check that could not be completed (the rule fails, whatever its negation).
UNDECIDED_CODES = (REGEX_TIMEOUT, JSON_TOO_DEEP, SCHEMA_UNAPPLIED)


@dataclass(frozen=True)
class Outcome:
    passed: bool
    reason: str = ""
    code: str = ""


class _Undecided(Exception):
    """The check could not be completed (regex timeout, nesting too deep): the rule fails."""

    def __init__(self, reason: str, code: str) -> None:
        super().__init__(reason)
        self.code = code


def check(rule: Rule, response: str, *, regex_timeout: float | None = None) -> bool:
    """True when the response satisfies the rule (inverted when the rule says "negate": true)."""
    return outcome(rule, response, regex_timeout=regex_timeout).passed


def outcome(rule: Rule, response: str, *, regex_timeout: float | None = None) -> Outcome:
    """The verdict and, for a failure the verdict alone does not explain, the reason. Never raises
    for any response: a check that cannot complete (a regex past its time limit, JSON nested too
    deeply) FAILS with its reason whatever the rule's negation."""
    limit = rule.timeout or regex_timeout or default_timeout()
    reasons: list[str] = []
    try:
        ok = _check(rule, response, limit, reasons)
    except _Undecided as exc:
        return Outcome(False, str(exc), exc.code)
    ok = ok != rule.negate
    return Outcome(ok, "" if ok else (reasons[0] if reasons else ""))


def _regex(rule: Rule, response: str, limit: float) -> bool:
    assert rule.compiled is not None
    try:
        return search(rule.compiled, response, limit)
    except RegexTimeout as exc:
        raise _Undecided(str(exc), REGEX_TIMEOUT) from None


def _check(rule: Rule, response: str, limit: float, reasons: list[str]) -> bool:
    t = rule.type
    negate = t.startswith("not_")
    base = t[4:] if negate else t
    v = rule.value
    if t == "string_contains":
        return bool(v in response)
    if t == "string_not_contains":
        return bool(v not in response)
    if t == "regex_match":
        return _regex(rule, response, limit)
    if t == "regex_not_match":
        return not _regex(rule, response, limit)
    if t == "max_length":
        return len(response) <= int(v)
    if t == "min_length":
        return len(response) >= int(v)

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
    elif base == "max_words":
        ok = len(response.split()) <= v
    elif base == "min_words":
        ok = len(response.split()) >= v
    elif base == "is_json":
        verdict = check_json(response, rule.validator)
        if verdict.error:
            raise _Undecided(verdict.reason, verdict.code)
        ok = verdict.ok
        if verdict.reason and not negate:
            reasons.append(verdict.reason)
    else:  # pragma: no cover - parse_rule rejects unknown types
        raise ValueError(f"unknown rule type {t}")
    return not ok if negate else ok


def evaluate(rules: RuleSet, response: str, *, regex_timeout: float | None = None) -> EvalReport:
    """Run every rule, in file order. The footnote lists the failed rules only.

    `regex_timeout` (seconds per regex rule) overrides LOREKEEPER_REGEX_TIMEOUT and the default;
    a rule's own `"timeout"` wins over both."""
    results = []
    for r in rules.rules:
        o = outcome(r, response, regex_timeout=regex_timeout)
        results.append(
            RuleResult(
                id=r.id, name=r.label, type=r.type, severity=r.severity, passed=o.passed, reason=o.reason, code=o.code
            )
        )
    done = tuple(results)
    return EvalReport(results=done, footnote=make_footnote(done), warnings=rules.warnings)
