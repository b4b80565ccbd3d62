r"""RFC 8785 (JSON Canonicalization Scheme) with strict input rules.

The canonical bytes come from the `rfc8785` package, the reference implementation; this module
only adds what signing needs on top of it:

- `loads` parses JSON text strictly: a duplicate key, NaN/Infinity, or an integer outside the
  I-JSON safe range (|n| <= 2**53 - 1) is an error naming where it is, instead of Python's
  silent "last key wins" and its non-standard NaN literals;
- `canonicalize` turns the reference library's errors into ERR_CANONICAL_JSON with the path of
  the offending value, and refuses values JSON cannot carry (bytes, sets, datetimes: timestamps
  are ISO 8601 strings by contract).

Fast path. For a value without object keys beyond U+FFFF, RFC 8785 and
`json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False)` produce the same text:
integers, `true`/`false`/`null` and string escapes (`\"`, `\\`, `\b\f\n\r\t`, other
controls as lowercase `\u00xx`, nothing else escaped) are identical, and sorting by code point
equals sorting by UTF-16 code unit when no key holds a surrogate pair. Floats too, when their
`repr` has no exponent and is not integral (0.9, -12.5, 0.30000000000000004): the reference
starts from that very `repr` (`str(f)`) and only rewrites exponents and a trailing `.0` (issue
26: every fact row carries its confidence, a float, and 10k of them went through the reference).
The C encoder is several times faster than the pure-Python reference, so such values take it;
everything else (an exponent or integral float, an astral key) goes to `rfc8785`. The tests prove the fast path byte-identical on the official
vectors and on thousands of random documents against the reference.
"""

from __future__ import annotations

import json
import math
from typing import Any

import rfc8785

from lorekeeper.audit.errors import CanonicalJSONError

MAX_SAFE_INT = 2**53 - 1
# Bounds that hold on read as on write, so one hostile line cannot exhaust the reader: nesting depth
# of arrays/objects, and the length of one number literal (an ES6 double never needs more than ~25).
MAX_DEPTH = 64
MAX_NUMBER_CHARS = 40


def _pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise CanonicalJSONError(f"duplicate key {key!r} in a JSON object: the signed form would be ambiguous")
        out[key] = value
    return out


def _reject_constant(name: str) -> Any:
    raise CanonicalJSONError(f"{name} is not JSON (RFC 8785 has no form for NaN or Infinity)")


def _parse_int(text: str) -> int | float:
    if len(text) > MAX_NUMBER_CHARS:
        raise CanonicalJSONError(f"a number of {len(text)} digits is too long (at most {MAX_NUMBER_CHARS} characters)")
    n = int(text)
    if abs(n) > MAX_SAFE_INT:
        # RFC 8785 writes a double in 2^53..1e21 with integer value as plain digits (1e20 is
        # "100000000000000000000"): that text reads back as the double it came from. Any other
        # big integer has no exact canonical form.
        f = float(n)
        if abs(f) < 1e21 and rfc8785.dumps(f).decode("ascii") == text:
            return f
        raise CanonicalJSONError(
            f"integer {text} is beyond 2^53 and cannot be canonicalised exactly; write it as a string"
        )
    return n


def _parse_float(text: str) -> float:
    if len(text) > MAX_NUMBER_CHARS:
        raise CanonicalJSONError(f"a number of {len(text)} characters is too long (at most {MAX_NUMBER_CHARS})")
    f = float(text)
    if math.isinf(f):
        raise CanonicalJSONError(f"number {text} is beyond the range of a double")
    return f


def _depth_ok(value: Any) -> bool:
    """No array/object nested deeper than MAX_DEPTH (iterative: a hostile value cannot recurse us)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if type(v) is dict:
            if d > MAX_DEPTH:
                return False
            stack.extend((x, d + 1) for x in v.values() if type(x) in (dict, list))
        elif type(v) is list:
            if d > MAX_DEPTH:
                return False
            stack.extend((x, d + 1) for x in v if type(x) in (dict, list))
    return True


def loads(text: str | bytes) -> Any:
    """Parse JSON strictly (see the module docstring)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise CanonicalJSONError("JSON input is not UTF-8") from None
    try:
        value = json.loads(
            text,
            object_pairs_hook=_pairs_hook,
            parse_constant=_reject_constant,
            parse_int=_parse_int,
            parse_float=_parse_float,
        )
    except json.JSONDecodeError as exc:
        raise CanonicalJSONError(f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise CanonicalJSONError(f"JSON nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:  # e.g. Python's own limit on integer digits
        raise CanonicalJSONError(f"not valid JSON: {exc}") from None
    if not _depth_ok(value):
        raise CanonicalJSONError(f"JSON nested deeper than {MAX_DEPTH} levels")
    return value


def _check(value: Any, path: str, depth: int = 0) -> bool:
    """Reject what JSON cannot carry, naming the JSON path ($.a[2].b).

    Returns True when the fast path gives the canonical form (no astral key, floats only as the
    module docstring says).
    """
    t = type(value)
    if value is None or t is bool or t is str:
        return True
    if t is int:
        if value > MAX_SAFE_INT or value < -MAX_SAFE_INT:
            raise CanonicalJSONError(f"{path}: integer {value} is beyond 2^53; write it as a string")
        return True
    if t is float:
        if math.isnan(value) or math.isinf(value):
            raise CanonicalJSONError(f"{path}: {value} is not representable in JSON")
        # the C encoder writes repr(value); RFC 8785 writes that same text unless it has an
        # exponent (1e-05, 1e+16) or is integral ("1.0" is "1", "-0.0" is "0"): those take the reference
        text = float.__repr__(value)
        return "e" not in text and not text.endswith(".0")
    if t is list or t is tuple:
        if depth >= MAX_DEPTH:
            raise CanonicalJSONError(f"{path}: nested deeper than {MAX_DEPTH} levels")
        fast = True
        for i, item in enumerate(value):
            fast = _check(item, f"{path}[{i}]", depth + 1) and fast
        return fast
    if t is dict:
        if depth >= MAX_DEPTH:
            raise CanonicalJSONError(f"{path}: nested deeper than {MAX_DEPTH} levels")
        fast = True
        for k, v in value.items():
            if type(k) is not str:
                raise CanonicalJSONError(f"{path}: object key {k!r} is not a string")
            if fast and not k.isascii() and max(k) > "\uffff":
                fast = False
            fast = _check(v, f"{path}.{k}", depth + 1) and fast
        return fast
    if isinstance(value, (int, float, str, list, tuple, dict)):  # subclasses: the reference decides
        if isinstance(value, (list, tuple, dict)) and depth >= MAX_DEPTH:
            raise CanonicalJSONError(f"{path}: nested deeper than {MAX_DEPTH} levels")
        if isinstance(value, (list, tuple)):
            for i, item in enumerate(value):
                _check(item, f"{path}[{i}]", depth + 1)
        elif isinstance(value, dict):
            for k, v in value.items():
                if not isinstance(k, str):
                    raise CanonicalJSONError(f"{path}: object key {k!r} is not a string")
                _check(v, f"{path}.{k}", depth + 1)
        elif isinstance(value, int) and not isinstance(value, bool) and abs(int(value)) > MAX_SAFE_INT:
            raise CanonicalJSONError(f"{path}: integer {value} is beyond 2^53; write it as a string")
        return False
    raise CanonicalJSONError(f"{path}: a {type(value).__name__} is not a JSON value (timestamps are ISO 8601 strings)")


_fast_dumps = json.JSONEncoder(
    ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False, check_circular=False
).encode


def _flat(value: Any) -> bool:
    """A dict of str/int/bool/None/fast-path floats under BMP keys (a signed row's payload):
    the fast path's answer without `_check`'s recursion; False sends it to `_check`."""
    if type(value) is not dict:
        return False
    for k, v in value.items():
        if type(k) is not str or (not k.isascii() and max(k) > "\uffff"):
            return False
        t = type(v)
        if t is str or v is None or t is bool:
            continue
        if t is int:
            if v > MAX_SAFE_INT or v < -MAX_SAFE_INT:
                return False
            continue
        if t is float:
            if v != v or v in (math.inf, -math.inf):
                return False
            text = float.__repr__(v)
            if "e" in text or text.endswith(".0"):
                return False
            continue
        return False
    return True


def canonicalize(value: Any) -> bytes:
    """The RFC 8785 canonical UTF-8 bytes of `value`."""
    fast = _flat(value) or _check(value, "$")
    try:
        if fast:
            return _fast_dumps(value).encode("utf-8")
        return rfc8785.dumps(value)
    except UnicodeEncodeError:  # lone surrogates
        raise CanonicalJSONError("cannot canonicalise: the input contains unpaired surrogates (not UTF-8)") from None
    except rfc8785.CanonicalizationError as exc:
        raise CanonicalJSONError(f"cannot canonicalise: {exc}") from None


def reference_canonicalize(value: Any) -> bytes:
    """The reference implementation alone (benchmarks and the equivalence tests)."""
    _check(value, "$")
    return rfc8785.dumps(value)


def canonical_text(value: Any) -> str:
    return canonicalize(value).decode("utf-8")
