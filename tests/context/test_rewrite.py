"""The BPE rewrites kept by measurement (tests/bench/bench_rewrite.py) are applied, never touch
strings, keep Python's AST, and the measured-but-off indentation rule is safe when asked for."""

from __future__ import annotations

import ast
from pathlib import Path

from lorekeeper.context import tokens
from lorekeeper.context.parse import parse_file
from lorekeeper.context.rewrite import RULER_KEEP, fold_license, reindent, safe_rewrite

SOURCE = '''#!/usr/bin/env python
# Copyright (c) 2020 The Example Authors
#
# Licensed under the MIT License: see LICENSE.
# ---------------------------------------------------------------------------
"""Module docstring.

# ======================================= (inside a string: kept)
"""


# --- helpers ----------------------------------------------------------------
def f(x):   
    query = """
        SELECT *   


        FROM t   """
    if x:
        return query



    return None
'''


def _protected(text: str) -> list[tuple[int, int]]:
    return parse_file("m.py", text).protected


def test_kept_rules_are_applied_outside_strings() -> None:
    out = safe_rewrite(SOURCE, _protected(SOURCE), "python")
    assert out.startswith(
        "#!/usr/bin/env python\n# Copyright (c) 2020 The Example Authors [licence header, 4 lines folded]\n"
    )
    assert "# --- helpers ---\n" in out  # a ruler cut to RULER_KEEP characters
    assert "-" * (RULER_KEEP + 1) not in out.split('"""')[2]
    assert "# ======================================= (inside a string: kept)" in out
    assert "SELECT *   \n\n\n        FROM t   " in out  # the SQL string keeps every byte
    assert "def f(x):\n" in out  # trailing spaces gone
    assert "return query\n\n    return None" in out  # one blank line left of three
    assert tokens.count(out) < tokens.count(SOURCE)
    assert ast.dump(ast.parse(out)) == ast.dump(ast.parse(SOURCE))


def test_licence_fold_needs_a_licence_block() -> None:
    plain = "// A helper.\n// It helps.\n// Really.\npackage x\n"
    assert fold_license(plain, "go") == plain
    go = "// Copyright 2023 The Authors\n//\n// Licensed under the Apache License 2.0.\n\npackage x\n"
    assert fold_license(go, "go") == "// Copyright 2023 The Authors [licence header, 3 lines folded]\n\npackage x\n"
    c_block = "/*\n * Copyright 2020 X\n * SPDX-License-Identifier: MIT\n */\nint x;\n"
    assert fold_license(c_block, "javascript").startswith(
        "// Copyright 2020 X [licence header, 4 lines folded]\nint x;"
    )


def test_one_space_indentation_keeps_every_python_ast(click_tree: Path) -> None:
    changed = 0
    for path in sorted(click_tree.rglob("*.py"))[::2]:  # every other module: half the CPU, same coverage of styles
        text = path.read_text(encoding="utf-8")
        pf = parse_file(path.name, text)
        out = safe_rewrite(text, pf.protected, "python", indent=" ")
        assert ast.dump(ast.parse(out)) == ast.dump(ast.parse(text)), path.name
        changed += out != text
        assert tokens.count(out) <= tokens.count(text)
    assert changed >= 3


def test_reindent_leaves_string_interiors_and_first_lines_consistent() -> None:
    src = 'def f():\n    x = """a\n    b"""\n    if x:\n        return x\n'
    out = reindent(src, [(1, 2)], " ")
    assert out == 'def f():\n x = """a\n    b"""\n if x:\n  return x\n'
    assert ast.dump(ast.parse(out)) == ast.dump(ast.parse(src))
    tabs = "def f():\n\treturn 1\n"
    assert reindent(tabs, [], " ") == tabs  # a file indented with tabs is left alone
