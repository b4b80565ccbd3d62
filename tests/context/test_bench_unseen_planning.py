"""What the unseen-tree check (mypy, tests/bench/bench_pack_unseen.py) found missing, on a small tree.

The target (`pkg/joins.py`) holds the function the task names (`join_all`), an overloaded callee
(two `@overload` stubs and the implementation: mypy's `join_types`), a helper it calls, and a caller
whose other callee is on the same path. Sixty noise modules share the task's words, so at a small
budget their weak matches compete for the bodies' share, as the long tail of tree-wide matches
did on mypy.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lorekeeper.context import tokens
from lorekeeper.context.pack import pack

TASK = "join_all drops the last value of a list of literal values"

TARGET = '''"""Joining values."""

from typing import overload


@overload
def join_values(a: int, b: int) -> int: ...


@overload
def join_values(a: str, b: str) -> str: ...


def join_values(a, b):
    """Join two values of one kind: numbers add up, strings concatenate with a space."""
    if isinstance(a, int) and isinstance(b, int):
        total = a + b
        if total > 10_000:
            raise OverflowError("joined value too large")
        return total
    left, right = str(a).strip(), str(b).strip()
    if not left:
        return right
    if not right:
        return left
    return left + " " + right


def _prepare(values):
    """Drop the empty entries and keep the original order."""
    kept = []
    for v in values:
        if v is None or v == "":
            continue
        kept.append(v)
    return kept


def join_all(values):
    prepared = _prepare(values)
    out = prepared[0]
    for v in prepared[1:-1]:
        out = join_values(out, v)
    return out


def _format_report(joined, count):
    """One line: the joined value and how many entries went in."""
    unit = "entry" if count == 1 else "entries"
    return "{} ({} {})".format(joined, count, unit)


def join_report(values):
    joined = join_all(values)
    return _format_report(joined, len(values))
'''


def _noise(k: int) -> str:
    lines = [f'"""Module {k} about lists and literal values."""', ""]
    for j in range(4):
        lines += [
            "",
            f"def values_{k}_{j}(items, last=None):",
            f'    """Values of list {k}.{j}: the last one kept."""',
            "    values = [str(item).strip() for item in items if item]",
            "    if last is not None:",
            "        values.append(str(last))",
            "    joined = ','.join(values)",
            f"    return joined.lower() + '{k}{j}'",
            "",
        ]
    return "\n".join(lines)


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("unseen")
    pkg = root / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text('"""The package."""\n', encoding="utf-8")
    (pkg / "joins.py").write_text(TARGET, encoding="utf-8")
    for k in range(60):
        (pkg / f"lists_{k:02d}.py").write_text(_noise(k), encoding="utf-8")
    return root


def _flat(text: str) -> str:
    return "".join(text.split())


def _body(name: str) -> str:
    """The whole text of the last definition called `name` in the target (the implementation)."""
    start = TARGET.rindex(f"def {name}(")
    end = TARGET.find("\n\n\n", start)
    return _flat(TARGET[start : end if end > 0 else len(TARGET)])


def test_the_overloaded_callee_and_the_callers_path_get_their_bodies(tree: Path) -> None:
    result = pack(tree, task=TASK, budget=1600)
    assert tokens.count(result.text) <= 1600
    flat = _flat(result.text)
    assert _body("join_all") in flat
    assert _body("_prepare") in flat
    # the implementation, not only the one-line @overload stubs that match the task alike
    assert _body("join_values") in flat, "the overloaded callee's implementation is missing"
    # the caller's other callee, on the same path as the target
    assert _body("_format_report") in flat, "the caller's same-file callee is missing"
