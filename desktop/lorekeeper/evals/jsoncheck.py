"""`is_json`: strict RFC 8259 JSON, the whole response or one fenced ```json block, optionally
validated against a JSON Schema (Draft 2020-12 unless the schema's `$schema` names another).

What counts as the JSON text of a response:
- the whole response, surrounding whitespace ignored; or
- the whole response being exactly one fenced code block whose info string is `json` (any case)
  or empty: a line "```json", the JSON text, a line "```" (surrounding whitespace ignored).
Prose around a fence, two fences, or a fence with another language fail.
`NaN`, `Infinity` and `-Infinity` are refused (Python's json accepts them by default).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # jsonschema is imported only when a rule carries a schema (it costs ~0.1 s)
    from jsonschema.protocols import Validator

_FENCE = re.compile(r"\A```[ \t]*(?:json)?[ \t]*\r?\n(?P<body>.*?)\r?\n?```\Z", re.DOTALL | re.IGNORECASE)


class _NonFinite(ValueError):
    pass


def _refuse_constant(name: str) -> Any:
    raise _NonFinite(f"{name} is not JSON (RFC 8259 has no NaN or Infinity)")


#: Result codes of a check that could not be completed.
JSON_TOO_DEEP = "ERR_JSON_TOO_DEEP"  # nested too deeply to parse or validate
SCHEMA_UNAPPLIED = "ERR_SCHEMA_UNAPPLIED"  # the schema could not be applied (unresolvable $ref, bad pattern)


@dataclass(frozen=True)
class JsonVerdict:
    ok: bool
    reason: str = ""
    error: bool = False  # the check could not be completed (too deep): fails whatever the negation
    code: str = ""  # with `error`: JSON_TOO_DEEP or SCHEMA_UNAPPLIED


def json_text(response: str) -> str:
    """The text to parse: the body of a sole fenced block, else the response itself."""
    stripped = response.strip()
    m = _FENCE.match(stripped)
    return m.group("body") if m else stripped


def load_strict(text: str) -> Any:
    """json.loads, refusing NaN/Infinity. Raises ValueError (or RecursionError when too deep)."""
    return json.loads(text, parse_constant=_refuse_constant)


def make_validator(schema: Any) -> Validator:
    """A validator for the schema; jsonschema.SchemaError when the schema itself is invalid."""
    import jsonschema

    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    cls.check_schema(schema)
    return cls(schema)


def check_json(response: str, validator: Validator | None = None) -> JsonVerdict:
    text = json_text(response)
    if not text:
        return JsonVerdict(False, "the response is empty, not JSON")
    try:
        data = load_strict(text)
    except _NonFinite as exc:
        return JsonVerdict(False, str(exc))
    except RecursionError:
        return JsonVerdict(False, "JSON nested too deeply to check (RecursionError)", error=True, code=JSON_TOO_DEEP)
    except ValueError as exc:
        return JsonVerdict(False, f"not JSON: {exc}")
    if validator is None:
        return JsonVerdict(True)
    import jsonschema
    import referencing.exceptions

    try:
        err = jsonschema.exceptions.best_match(validator.iter_errors(data))
    except RecursionError:
        return JsonVerdict(False, "JSON nested too deeply to validate (RecursionError)", error=True, code=JSON_TOO_DEEP)
    except (referencing.exceptions.Unresolvable, re.error, ValueError, TypeError) as exc:
        # an unresolvable $ref, a bad "pattern" in the schema: the check cannot be completed
        return JsonVerdict(False, f"schema could not be applied: {exc}", error=True, code=SCHEMA_UNAPPLIED)
    if err is None:
        return JsonVerdict(True)
    where = "/".join(str(p) for p in err.absolute_path) or "(root)"
    return JsonVerdict(False, f"schema: at {where}: {err.message}")
