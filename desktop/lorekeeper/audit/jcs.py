"""RFC 8785 (JSON Canonicalization Scheme) with strict input rules.

The canonical bytes come from the `rfc8785` package, the reference implementation; this module
only adds what signing needs on top of it:

- `loads` parses JSON text strictly: a duplicate key, NaN/Infinity, or an integer outside the
  I-JSON safe range (|n| <= 2**53 - 1) is an error naming where it is, instead of Python's
  silent "last key wins" and its non-standard NaN literals;
- `canonicalize` turns the reference library's errors into ERR_CANONICAL_JSON with the path of
  the offending value, and refuses values JSON cannot carry (bytes, sets, datetimes: timestamps
  are ISO 8601 strings by contract).
"""

from __future__ import annotations

import json
import math
from typing import Any

import rfc8785

from lorekeeper.audit.errors import CanonicalJSONError

MAX_SAFE_INT = 2**53 - 1


def _pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise CanonicalJSONError(f"duplicate key {key!r} in a JSON object: the signed form would be ambiguous")
        out[key] = value
    return out


def _reject_constant(name: str) -> Any:
    raise CanonicalJSONError(f"{name} is not JSON (RFC 8785 has no form for NaN or Infinity)")


def _parse_int(text: str) -> int:
    n = int(text)
    if abs(n) > MAX_SAFE_INT:
        raise CanonicalJSONError(
            f"integer {text} is beyond 2^53 and cannot be canonicalised exactly; write it as a string"
        )
    return n


def loads(text: str | bytes) -> Any:
    """Parse JSON strictly (see the module docstring)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise CanonicalJSONError("JSON input is not UTF-8") from None
    try:
        return json.loads(text, object_pairs_hook=_pairs_hook, parse_constant=_reject_constant, parse_int=_parse_int)
    except json.JSONDecodeError as exc:
        raise CanonicalJSONError(f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None


def _check(value: Any, path: str) -> None:
    """Reject what JSON cannot carry, naming the JSON path ($.a[2].b)."""
    if value is None or isinstance(value, (bool, str)):
        return
    if isinstance(value, int):
        if abs(value) > MAX_SAFE_INT:
            raise CanonicalJSONError(f"{path}: integer {value} is beyond 2^53; write it as a string")
        return
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise CanonicalJSONError(f"{path}: {value} is not representable in JSON")
        return
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            _check(item, f"{path}[{i}]")
        return
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                raise CanonicalJSONError(f"{path}: object key {k!r} is not a string")
            _check(v, f"{path}.{k}")
        return
    raise CanonicalJSONError(
        f"{path}: a {type(value).__name__} is not a JSON value (timestamps are ISO 8601 strings)"
    )


def canonicalize(value: Any) -> bytes:
    """The RFC 8785 canonical UTF-8 bytes of `value`."""
    _check(value, "$")
    try:
        return rfc8785.dumps(value)
    except rfc8785.CanonicalizationError as exc:  # e.g. lone surrogates in a string
        raise CanonicalJSONError(f"cannot canonicalise: {exc}") from None


def canonical_text(value: Any) -> str:
    return canonicalize(value).decode("utf-8")
