"""JSON from outside, parsed with a bound on its nesting (issue 24 d6).

`json.loads` recurses once per `[` or `{`: 50,000 of them raise RecursionError (an internal error
to the CLI), and a few thousand that parse still break every recursive walker after it (JCS
canonicalisation, schema checks, `_plain` copies). `loads` measures the nesting first, on the
text with its strings blanked out (one regex pass, stopping at the first bracket past the limit),
and refuses anything deeper than `max_depth` with ERR_INPUT_TOO_DEEP naming what was read. Invalid
JSON still raises `ValueError` (json.JSONDecodeError) as `json.loads` does, so callers keep their
own messages for it.
"""

from __future__ import annotations

import json
import re
from typing import Any

from lorekeeper.errors import UnsafeInputError

#: far deeper than any rules file, hook payload, recording or schema a person writes
MAX_DEPTH = 100

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


def too_deep(what: str | None, limit: int, kind: str = "JSON") -> UnsafeInputError:
    return UnsafeInputError(
        f"{kind} is nested more than {limit} levels deep: refused", code="ERR_INPUT_TOO_DEEP", file=what
    )


def nesting(text: str, stop_after: int | None = None) -> int:
    """The deepest nesting of arrays and objects in a JSON text (strings do not count); stops
    counting once past `stop_after`. Unbalanced text is measured as far as it goes."""
    depth = deepest = 0
    for m in _BRACKET.finditer(_STRING.sub('""', text)):
        if m.group() in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if stop_after is not None and deepest > stop_after:
                    break
        elif depth:
            depth -= 1
    return deepest


def check_depth(text: str, *, max_depth: int = MAX_DEPTH, what: str | None = None) -> None:
    """Raise ERR_INPUT_TOO_DEEP when `text` nests deeper than `max_depth`."""
    if nesting(text, stop_after=max_depth) > max_depth:
        raise too_deep(what, max_depth)


def loads(text: str | bytes | bytearray, *, max_depth: int = MAX_DEPTH, what: str | None = None, **kwargs: Any) -> Any:
    """`json.loads` (same keyword arguments) that refuses nesting deeper than `max_depth`."""
    s = text if isinstance(text, str) else bytes(text).decode(json.detect_encoding(text), "surrogatepass")
    check_depth(s, max_depth=max_depth, what=what)
    try:
        return json.loads(s, **kwargs)
    except RecursionError:  # a deep Python stack before the call: still the input's fault
        raise too_deep(what, max_depth) from None
