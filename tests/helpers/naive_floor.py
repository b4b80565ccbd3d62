"""The naive floor of signatures mode, with the members both sides now keep.

`lorekeeper.context.bench.naive_dump` is the floor the issue set first: per Python file, its path,
every import statement and every def/class header, verbatim. Signatures mode now also keeps the
module-level constants and type aliases and the class attributes (enum members, dataclass fields),
which that floor does not hold, so it is no longer a like-for-like baseline. `members_floor` adds
what a naive dump of those would print: the first line of each such statement, verbatim (what
`grep` of `^\\s*NAME\\s*[:=]` shows), for exactly the statements the bench counts as constants and
attributes. Both numbers are printed by the benchmarks; the old one is never dropped.
"""

from __future__ import annotations

import ast
from pathlib import Path

from lorekeeper.context import bench, tokens


def _member_statements(tree: ast.Module) -> list[ast.stmt]:
    def assigns(body: list[ast.stmt]) -> list[ast.stmt]:
        return [s for s in body if bench._assigned(s)]

    out = assigns(tree.body)
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            out.extend(assigns(node.body))
    return out


def members_dump(root: Path, facts: list[bench.FileFacts]) -> str:
    """The first line of every module-level and class-level assignment or type alias, per file."""
    parts = []
    for f in facts:
        text = (Path(root) / f.rel).read_text(encoding="utf-8")
        lines = text.splitlines(keepends=True)
        for stmt in _member_statements(ast.parse(text)):
            line = lines[stmt.lineno - 1]
            parts.append(line if line.endswith("\n") else line + "\n")
    return "".join(parts)


def floors(root: Path, facts: list[bench.FileFacts]) -> tuple[int, int]:
    """(the old floor: imports and headers, the floor with the members) in o200k tokens."""
    old = tokens.count(bench.naive_dump(facts))
    return old, old + tokens.count(members_dump(root, facts))
