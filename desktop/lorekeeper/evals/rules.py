"""The rule model of `<skill>.evals.json` and its validation.

A rules file is validated completely when it is loaded, so that a bad rule is reported before any
response is checked: unknown type, missing or ill-typed value, invalid regex or flags, bad
severity, duplicate id. Each error is an ERR_INVALID_SPEC naming the file and the rule id.
Regexes are compiled once here and the compiled pattern is cached on the rule.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lorekeeper import safejson
from lorekeeper.errors import InvalidInputError, InvalidSpecError, UnsafeInputError
from lorekeeper.evals.aliases import ALIASES, REFUSED
from lorekeeper.evals.jsoncheck import make_validator
from lorekeeper.evals.regexcheck import FLAG_BITS, MAX_REGEX_TIMEOUT, compile_pattern, nested_quantifier_warning
from lorekeeper.fsutil import MIB, read_regular_bytes, shown_path

if TYPE_CHECKING:
    import regex
    from jsonschema.protocols import Validator

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

#: Extra deterministic types, as promptfoo users expect them. Each has a `not_` form that negates it.
EXTRA_BASE_TYPES = (
    "icontains",
    "contains_any",
    "contains_all",
    "icontains_any",
    "icontains_all",
    "starts_with",
    "ends_with",
    "equals",
    "is_json",
    "min_words",
    "max_words",
)
EXTRA_TYPES = tuple(t for base in EXTRA_BASE_TYPES for t in (base, "not_" + base))

RULE_TYPES = SEED_TYPES + EXTRA_TYPES

_REGEX_TYPES = {"regex_match", "regex_not_match"}
_LENGTH_TYPES = {"max_length", "min_length", "min_words", "max_words", "not_min_words", "not_max_words"}
_LIST_TYPES = {t for t in RULE_TYPES if t.endswith(("_any", "_all"))}
_JSON_TYPES = {"is_json", "not_is_json"}
_NO_VALUE_TYPES = _JSON_TYPES  # kept for callers: is_json needs no value (a JSON Schema is optional)


def canonical_type(rtype: Any, *, file: str | None, rule_id: str) -> str:
    """The rule type, with promptfoo's spellings mapped; ERR_INVALID_SPEC naming the right one."""
    if isinstance(rtype, str):
        if rtype in RULE_TYPES:
            return rtype
        if rtype in ALIASES:
            return ALIASES[rtype]
        dashed = rtype.strip().lower().replace("_", "-")  # contains_json, LLM-Rubric: promptfoo's names
        refused = rtype if rtype in REFUSED else dashed if dashed in REFUSED else None
        if refused is not None:
            raise InvalidSpecError(
                f"rule type {rtype!r} is not supported: {REFUSED[refused]}",
                file=file,
                rule_id=rule_id,
                field="type",
            )
        lower = rtype.strip().lower()
        close = [lower] if lower in RULE_TYPES or lower in ALIASES else []
        close = close or difflib.get_close_matches(rtype, [*RULE_TYPES, *ALIASES], n=1)
        if close:
            hint = f"did you mean {ALIASES.get(close[0], close[0])!r}? "
        else:
            hint = ""
    else:
        hint = ""
    raise InvalidSpecError(
        f"unknown rule type {rtype!r}; {hint}known types: {', '.join(RULE_TYPES)}",
        file=file,
        rule_id=rule_id,
        field="type",
    )


@dataclass(frozen=True)
class Rule:
    id: str
    type: str
    severity: str
    value: Any = None
    name: str | None = None
    flags: str = ""
    negate: bool = False  # any rule can be inverted with "negate": true
    compiled: regex.Pattern[str] | None = field(default=None, compare=False, repr=False)
    timeout: float | None = None  # a regex rule's own time limit (seconds), else the default
    validator: Validator | None = field(default=None, compare=False, repr=False)  # is_json with a schema
    warning: str | None = None  # a load-time warning (nested quantifiers); never an error

    def __hash__(self) -> int:  # a schema value is a dict: hash what identifies the rule
        return hash((self.id, self.type, self.severity))

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
            if self.timeout is not None:
                out["timeout"] = self.timeout
        elif self.type not in _JSON_TYPES or self.value is not None:
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

    @property
    def warnings(self) -> tuple[str, ...]:
        """Load-time warnings (not errors), each naming its rule id."""
        return tuple(f"rule {r.id}: {r.warning}" for r in self.rules if r.warning)

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
        raise InvalidSpecError(
            "value must be a non-negative integer, not a boolean", file=file, rule_id=rule_id, field="value"
        )
    if isinstance(raw, int):
        n = raw
    elif isinstance(raw, float) and raw.is_integer():
        n = int(raw)
    elif isinstance(raw, str) and raw.strip().isdigit():
        n = int(raw.strip())
    else:
        raise InvalidSpecError(
            f"value must be a non-negative integer, got {raw!r}", file=file, rule_id=rule_id, field="value"
        )
    if n < 0:
        raise InvalidSpecError(
            f"value must be a non-negative integer, got {n}", file=file, rule_id=rule_id, field="value"
        )
    return n


def _as_timeout(raw: Any, *, file: str | None, rule_id: str) -> float | None:
    """A regex rule's own time limit in seconds (0 < t <= MAX_REGEX_TIMEOUT), or None for the default."""
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int | float) or not 0 < raw <= MAX_REGEX_TIMEOUT:
        raise InvalidSpecError(
            f"timeout must be a number of seconds in (0, {MAX_REGEX_TIMEOUT:g}], got {raw!r}",
            file=file,
            rule_id=rule_id,
            field="timeout",
        )
    return float(raw)


def parse_rule(raw: Any, index: int, *, file: str | None = None) -> Rule:
    """Validate one rule object; raise InvalidSpecError naming the file and the rule id."""
    if not isinstance(raw, dict):
        raise InvalidSpecError(f"rule #{index + 1} must be an object", file=file, rule_id=f"#{index + 1}")
    rid = raw.get("id")
    if not isinstance(rid, str) or not rid.strip():
        raise InvalidSpecError(
            f"rule #{index + 1} has no id (a non-empty string is required)", file=file, rule_id=f"#{index + 1}"
        )
    rtype = canonical_type(raw.get("type"), file=file, rule_id=rid)
    severity = raw.get("severity")
    if severity not in SEVERITIES:
        raise InvalidSpecError(
            f"severity must be 'warning' or 'info', got {severity!r}", file=file, rule_id=rid, field="severity"
        )
    name = raw.get("name")
    if name is not None and not isinstance(name, str):
        raise InvalidSpecError("name must be a string", file=file, rule_id=rid, field="name")
    negate = raw.get("negate", False)
    if not isinstance(negate, bool):
        raise InvalidSpecError("negate must be true or false", file=file, rule_id=rid, field="negate")

    flags = ""
    compiled = None
    timeout: float | None = None
    validator: Validator | None = None
    warning: str | None = None
    value: Any = None
    if rtype in _REGEX_TYPES:
        key = "pattern" if raw.get("pattern") is not None else "value"
        value = raw.get(key)
        if value is None:
            raise InvalidSpecError(
                "missing 'pattern' (or 'value') for a regex rule", file=file, rule_id=rid, field="pattern"
            )
        if not isinstance(value, str):
            raise InvalidSpecError("pattern must be a string", file=file, rule_id=rid, field=key)
        if not value:
            raise InvalidSpecError("empty pattern (it would match every response)", file=file, rule_id=rid, field=key)
        flags = raw.get("flags") or ""
        if not isinstance(flags, str) or any(c not in FLAG_BITS for c in flags):
            raise InvalidSpecError(f"flags may only hold i, m, s; got {flags!r}", file=file, rule_id=rid, field="flags")
        bits = 0
        for c in flags:
            bits |= FLAG_BITS[c]
        import regex  # with the first regex rule, not with every command (issue 26 d3)

        try:
            compiled = compile_pattern(value, bits)
        except (regex.error, ValueError, OverflowError) as exc:
            raise InvalidSpecError(f"invalid regex {value!r}: {exc}", file=file, rule_id=rid, field=key) from None
        timeout = _as_timeout(raw.get("timeout"), file=file, rule_id=rid)
        warning = nested_quantifier_warning(value)
    elif rtype in _JSON_TYPES:
        value = raw.get("value")
        if value is not None:
            if not isinstance(value, dict):
                raise InvalidSpecError(
                    f"value of {rtype} is optional and must be a JSON Schema object, got {type(value).__name__}",
                    file=file,
                    rule_id=rid,
                    field="value",
                )
            from jsonschema import SchemaError

            try:
                validator = make_validator(value)
            except SchemaError as exc:
                raise InvalidSpecError(
                    f"invalid JSON Schema: {exc.message}", file=file, rule_id=rid, field="value"
                ) from None
            except RecursionError:
                raise InvalidSpecError(
                    "the JSON Schema is nested too deeply to check", file=file, rule_id=rid, field="value"
                ) from None
    else:
        if "value" not in raw or raw["value"] is None:
            raise InvalidSpecError("missing 'value'", file=file, rule_id=rid, field="value")
        value = raw["value"]
        if rtype in _LENGTH_TYPES:
            value = _as_count(value, file=file, rule_id=rid)
        elif rtype in _LIST_TYPES:
            if isinstance(value, str):
                value = [v.strip() for v in value.split(",") if v.strip()]
            if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
                raise InvalidSpecError(
                    "value must be a non-empty list of strings", file=file, rule_id=rid, field="value"
                )
            if any(v == "" for v in value):
                raise InvalidSpecError(
                    "value holds an empty string (it is in every response)", file=file, rule_id=rid, field="value"
                )
            value = tuple(value)
        elif not isinstance(value, str):
            hint = (
                ' (to compare JSON structure, use is_json with a JSON Schema, e.g. {"const": ...})'
                if rtype.endswith("equals") and isinstance(value, (dict, list))
                else ""
            )
            raise InvalidSpecError(
                f"value must be a string, got {type(value).__name__}{hint}", file=file, rule_id=rid, field="value"
            )
        elif not value:
            raise InvalidSpecError(
                "empty value (an empty string is in every response, so the rule would never discriminate)",
                file=file,
                rule_id=rid,
                field="value",
            )
    return Rule(
        id=rid,
        type=rtype,
        severity=severity,
        value=value,
        name=name,
        flags=flags,
        negate=negate,
        compiled=compiled,
        timeout=timeout,
        validator=validator,
        warning=warning,
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


RULES_FILE_LIMIT = 10 * MIB  # a rules file is a few kilobytes; the skills' per-file limit
#: a rule's JSON Schema may nest deeply; deeper than this no schema checker could apply it anyway
RULES_MAX_DEPTH = 512


def parse_rules_text(text: str, *, file: str | None = None) -> RuleSet:
    try:
        data = safejson.loads(text, max_depth=RULES_MAX_DEPTH, what=file, object_pairs_hook=_reject_duplicates)
    except (RecursionError, UnsafeInputError):
        raise InvalidSpecError(
            f"the rules file is nested too deeply to read (more than {RULES_MAX_DEPTH} levels)", file=file
        ) from None
    except (json.JSONDecodeError, ValueError) as exc:
        raise InvalidSpecError(f"not valid JSON: {exc}", file=file) from None
    return parse_rules(data, file=file)


def load_rules_file(path: str | Path) -> RuleSet:
    p = Path(path)
    try:  # a regular file only (a FIFO or /dev/zero is refused, not read), at most RULES_FILE_LIMIT
        raw = read_regular_bytes(p, limit=RULES_FILE_LIMIT, what="rules file")
    except InvalidInputError as exc:
        raise InvalidSpecError(exc.message, file=shown_path(p)) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidSpecError("rules file is not UTF-8", file=shown_path(p)) from None
    return parse_rules_text(text, file=shown_path(p))
