"""The rule model of `<skill>.evals.json` and its validation.

A rules file is validated completely when it is loaded, so that a bad rule is reported before any
response is checked: unknown type, missing or ill-typed value, invalid regex or flags, bad
severity, duplicate id. Each error is an ERR_INVALID_SPEC naming the file and the rule id.
Regexes are compiled once here and the compiled pattern is cached on the rule.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from lorekeeper.errors import InvalidSpecError

SEVERITIES = ("warning", "info")

#: The six rule types of the seed (case-sensitive literals, Python `re` search, code-point lengths).
SEED_TYPES = (
    "string_contains",
    "string_not_contains",
    "regex_match",
    "regex_not_match",
    "max_length",
    "min_length",
)

#: Extra deterministic types, as promptfoo users expect them. `not_` variants negate.
EXTRA_TYPES = (
    "icontains",
    "not_icontains",
    "contains_any",
    "not_contains_any",
    "contains_all",
    "not_contains_all",
    "icontains_any",
    "not_icontains_any",
    "icontains_all",
    "not_icontains_all",
    "starts_with",
    "not_starts_with",
    "ends_with",
    "not_ends_with",
    "equals",
    "not_equals",
    "is_json",
    "not_is_json",
    "min_words",
    "max_words",
)

RULE_TYPES = SEED_TYPES + EXTRA_TYPES

_REGEX_TYPES = {"regex_match", "regex_not_match"}
_LENGTH_TYPES = {"max_length", "min_length", "min_words", "max_words"}
_LIST_TYPES = {t for t in RULE_TYPES if t.endswith(("_any", "_all"))}
_NO_VALUE_TYPES = {"is_json", "not_is_json"}
_FLAG_BITS = {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL}


@lru_cache(maxsize=4096)
def compile_pattern(pattern: str, flags: int) -> re.Pattern[str]:
    """Compile once per (pattern, flags) for the whole process."""
    return re.compile(pattern, flags)


@dataclass(frozen=True)
class Rule:
    id: str
    type: str
    severity: str
    value: Any = None
    name: str | None = None
    flags: str = ""
    negate: bool = False  # any rule can be inverted with "negate": true
    compiled: re.Pattern[str] | None = field(default=None, compare=False, repr=False)

    @property
    def label(self) -> str:
        """What the footnote and the tables show: the rule's name, else its id."""
        return self.name or self.id

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id}
        if self.name:
            out["name"] = self.name
        out["type"] = self.type
        if self.type in _REGEX_TYPES:
            out["pattern"] = self.value
            if self.flags:
                out["flags"] = self.flags
        elif self.type not in _NO_VALUE_TYPES:
            out["value"] = self.value
        if self.negate:
            out["negate"] = True
        out["severity"] = self.severity
        return out


@dataclass(frozen=True)
class RuleSet:
    rules: tuple[Rule, ...]
    skill: str | None = None
    version: Any = 1
    source: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"version": self.version}
        if self.skill:
            out["skill"] = self.skill
        out["rules"] = [r.to_dict() for r in self.rules]
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n"


def _as_count(raw: Any, *, file: str | None, rule_id: str) -> int:
    """A non-negative integer count (lengths, word counts). Digit strings are accepted."""
    if isinstance(raw, bool):
        raise InvalidSpecError("value must be a non-negative integer, not a boolean", file=file, rule_id=rule_id)
    if isinstance(raw, int):
        n = raw
    elif isinstance(raw, float) and raw.is_integer():
        n = int(raw)
    elif isinstance(raw, str) and raw.strip().isdigit():
        n = int(raw.strip())
    else:
        raise InvalidSpecError(f"value must be a non-negative integer, got {raw!r}", file=file, rule_id=rule_id)
    if n < 0:
        raise InvalidSpecError(f"value must be a non-negative integer, got {n}", file=file, rule_id=rule_id)
    return n


def parse_rule(raw: Any, index: int, *, file: str | None = None) -> Rule:
    """Validate one rule object; raise InvalidSpecError naming the file and the rule id."""
    if not isinstance(raw, dict):
        raise InvalidSpecError(f"rule #{index + 1} must be an object", file=file, rule_id=f"#{index + 1}")
    rid = raw.get("id")
    if not isinstance(rid, str) or not rid.strip():
        raise InvalidSpecError(
            f"rule #{index + 1} has no id (a non-empty string is required)", file=file, rule_id=f"#{index + 1}"
        )
    rtype = raw.get("type")
    if rtype not in RULE_TYPES:
        raise InvalidSpecError(
            f"unknown rule type {rtype!r}; known types: {', '.join(RULE_TYPES)}", file=file, rule_id=rid
        )
    severity = raw.get("severity")
    if severity not in SEVERITIES:
        raise InvalidSpecError(f"severity must be 'warning' or 'info', got {severity!r}", file=file, rule_id=rid)
    name = raw.get("name")
    if name is not None and not isinstance(name, str):
        raise InvalidSpecError("name must be a string", file=file, rule_id=rid)
    negate = raw.get("negate", False)
    if not isinstance(negate, bool):
        raise InvalidSpecError("negate must be true or false", file=file, rule_id=rid)

    flags = ""
    compiled = None
    value: Any = None
    if rtype in _REGEX_TYPES:
        value = raw.get("pattern", raw.get("value"))
        if value is None:
            raise InvalidSpecError("missing 'pattern' (or 'value') for a regex rule", file=file, rule_id=rid)
        if not isinstance(value, str):
            raise InvalidSpecError("pattern must be a string", file=file, rule_id=rid)
        flags = raw.get("flags") or ""
        if not isinstance(flags, str) or any(c not in _FLAG_BITS for c in flags):
            raise InvalidSpecError(f"flags may only hold i, m, s; got {flags!r}", file=file, rule_id=rid)
        bits = 0
        for c in flags:
            bits |= _FLAG_BITS[c]
        try:
            compiled = compile_pattern(value, bits)
        except re.error as exc:
            raise InvalidSpecError(f"invalid regex {value!r}: {exc}", file=file, rule_id=rid) from None
    elif rtype in _NO_VALUE_TYPES:
        value = None
    else:
        if "value" not in raw or raw["value"] is None:
            raise InvalidSpecError("missing 'value'", file=file, rule_id=rid)
        value = raw["value"]
        if rtype in _LENGTH_TYPES:
            value = _as_count(value, file=file, rule_id=rid)
        elif rtype in _LIST_TYPES:
            if isinstance(value, str):
                value = [v.strip() for v in value.split(",") if v.strip()]
            if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
                raise InvalidSpecError("value must be a non-empty list of strings", file=file, rule_id=rid)
            value = tuple(value)
        elif not isinstance(value, str):
            raise InvalidSpecError(f"value must be a string, got {type(value).__name__}", file=file, rule_id=rid)
    return Rule(
        id=rid, type=rtype, severity=severity, value=value, name=name, flags=flags, negate=negate, compiled=compiled
    )


def _reject_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"duplicate key {k!r}")
        out[k] = v
    return out


def parse_rules(data: Any, *, file: str | None = None) -> RuleSet:
    """Validate a decoded rules document (`{"version", "skill", "rules": [...]}`)."""
    if isinstance(data, list):  # a bare list of rules is accepted too
        data = {"rules": data}
    if not isinstance(data, dict):
        raise InvalidSpecError("a rules file must be a JSON object with a 'rules' list", file=file, field="rules")
    rules_raw = data.get("rules")
    if not isinstance(rules_raw, list):
        raise InvalidSpecError("'rules' must be a list", file=file, field="rules")
    rules = [parse_rule(r, i, file=file) for i, r in enumerate(rules_raw)]
    seen: set[str] = set()
    for r in rules:
        if r.id in seen:
            raise InvalidSpecError("duplicate rule id", file=file, rule_id=r.id)
        seen.add(r.id)
    skill = data.get("skill")
    if skill is not None and not isinstance(skill, str):
        raise InvalidSpecError("'skill' must be a string", file=file, field="skill")
    return RuleSet(rules=tuple(rules), skill=skill, version=data.get("version", 1), source=file)


def parse_rules_text(text: str, *, file: str | None = None) -> RuleSet:
    try:
        data = json.loads(text, object_pairs_hook=_reject_duplicates)
    except (json.JSONDecodeError, ValueError) as exc:
        raise InvalidSpecError(f"not valid JSON: {exc}", file=file) from None
    return parse_rules(data, file=file)


def load_rules_file(path: str | Path) -> RuleSet:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise InvalidSpecError(f"cannot read rules file: {exc.strerror}", file=str(p)) from None
    except UnicodeDecodeError:
        raise InvalidSpecError("rules file is not UTF-8", file=str(p)) from None
    return parse_rules_text(text, file=str(p))
