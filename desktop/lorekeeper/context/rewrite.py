"""Safe BPE-aligned rewrites: text changes that never change what the code means.

Each rule is a plain line-level replacement; lines inside multi-line string literals
(`ParsedFile.protected`) are never touched, so docstrings, SQL and templates keep every byte. A
rewrite is kept only when it does not cost more tokens than the original.

The rules were chosen by measurement (tests/bench/bench_rewrite.py: every rule alone on a
deterministic sample of the code files of click, httpx, SQLAlchemy, zod, cobra and ripgrep,
1.29M o200k tokens in all, counted exactly). Kept, in `safe_rewrite`:
- Windows line ends, trailing whitespace: 0 tokens on those (linted) trees, free on the others;
- blank-line runs cut to MAX_BLANK_LINES: 0.00-0.11% (o200k has tokens for "\n\n\n");
- comment rulers (`# -----------`) cut to RULER_KEEP characters: 0-12 tokens per corpus;
- a leading licence header folded to its copyright line: 2.72% on cobra, 0.21% on SQLAlchemy.
Together: 0.00% (ripgrep, zod), 0.06% (click), 0.11% (httpx), 0.22% (SQLAlchemy), 2.72% (cobra),
not the 3-8% seed 002 claims. Measured and left out:
- indentation as one space per level (`indent=" "`): 1.5-3.8% on Python, TypeScript and Rust (0
  on Go, which uses tabs), ASTs unchanged; off by default because the pack then no longer holds
  the file's own text, which an agent copies into its edits (a failed edit costs more than it
  saved). It saves only on depth-1 lines: o200k splits leading whitespace as one run plus the
  space before the word, so 2, 4 or 8 spaces cost the same one token and only a single space
  merges into the word (" return"); hence "2 spaces" saves exactly 0;
- indentation as tabs: +2.9% on SQLAlchemy, +1.3% on ripgrep (costs tokens);
- no blank lines at all: +0.06% on ripgrep, and code without paragraphs reads worse;
- `self.` and other code tokens: no rewrite of code keeps its meaning for the reader.
"""

from __future__ import annotations

import re

from lorekeeper.context import tokens

MAX_BLANK_LINES = 1  # consecutive empty lines kept between two code lines (PEP 8 uses up to 2)


def safe_rewrite(
    text: str, protected: list[tuple[int, int]] | None = None, language: str | None = None, indent: str | None = None
) -> str:
    """`text` with the kept rules applied outside multi-line strings: Windows line ends, trailing
    whitespace, blank-line runs shortened, comment rulers cut to RULER_KEEP characters, a leading
    licence header folded to its copyright line (`language` picks the comment marker; None: the
    block's own). Each was measured by tests/bench/bench_rewrite.py; see the module docstring.
    `indent` (off by default: the pack then no longer shows the file's own text, which an agent
    copies into its edits) rewrites each indentation level as that string, first, while the
    protected line numbers still hold; a Python file whose AST that would change keeps its own."""
    if not text:
        return text
    original = text
    if indent is not None:
        text = reindent(text.replace("\r\n", "\n"), protected, indent)
        if language == "python" and text != original and not _same_python(original, text):
            text = original
    inside = _protected_lines(protected or [])
    lines = text.replace("\r\n", "\n").split("\n")
    out: list[str] = []
    blank_run = 0
    for i, line in enumerate(lines):
        if i in inside:
            out.append(line)
            blank_run = 0
            continue
        stripped = shorten_ruler(line.rstrip())
        if not stripped:
            blank_run += 1
            if blank_run > MAX_BLANK_LINES:
                continue
        else:
            blank_run = 0
        out.append(stripped)
    result = fold_license("\n".join(out), language)
    if text.endswith("\n") and not result.endswith("\n"):
        result += "\n"
    if result != original and tokens.count(result) > tokens.count(original):
        return original
    return result


def _same_python(a: str, b: str) -> bool:
    import ast

    try:
        return ast.dump(ast.parse(a)) == ast.dump(ast.parse(b))
    except (SyntaxError, ValueError):
        return False


def _protected_lines(spans: list[tuple[int, int]]) -> set[int]:
    """Every line a multi-line string touches (0-based): the end of its first line is already
    inside the literal, so even trailing spaces there belong to the string."""
    inside: set[int] = set()
    for s, e in spans:
        inside.update(range(s, e + 1))
    return inside


# -- candidate rules measured by tests/bench/bench_rewrite.py ---------------------------------

INDENT_UNITS = (4, 2)  # the indentation unit of a file: the first that 90% of its indented lines use
INDENT_SHARE = 0.9
RULER_MIN = 8  # a run of this many identical ruler characters in a comment...
RULER_KEEP = 3  # ...keeps this many (`# ---`, `// ===`: still a ruler, in Markdown too)
_RULER = re.compile(r"([=\-*#~_+/])\1{" + str(RULER_MIN - 1) + ",}")
_COMMENT_START = ("#", "//", "/*", "*", "--", ";")
_LICENSE = re.compile(r"copyright|licen[cs]e|spdx-license-identifier", re.I)


def _string_interior(spans: list[tuple[int, int]]) -> set[int]:
    """Lines that start inside a multi-line string (its first line starts in code)."""
    inside: set[int] = set()
    for s, e in spans:
        inside.update(range(s + 1, e + 1))
    return inside


def reindent(text: str, protected: list[tuple[int, int]] | None = None, to: str = "\t") -> str:
    """Each indentation level (the file's unit of 4 or 2 spaces) written as `to`; lines inside
    multi-line strings keep their bytes. Unchanged when the file has no clear unit or mixes tabs."""
    interior = _string_interior(protected or [])
    lines = text.split("\n")
    widths = [
        len(line) - len(line.lstrip(" "))
        for i, line in enumerate(lines)
        if i not in interior and line.startswith(" ") and line.strip()
    ]
    if not widths or any(line.startswith("\t") for i, line in enumerate(lines) if i not in interior):
        return text
    unit = next((u for u in INDENT_UNITS if sum(w % u == 0 for w in widths) >= INDENT_SHARE * len(widths)), 0)
    if not unit:
        return text
    out = []
    for i, line in enumerate(lines):
        n = len(line) - len(line.lstrip(" "))
        if i in interior or not n:
            out.append(line)
        else:
            out.append(to * (n // unit) + " " * (n % unit) + line[n:])
    return "\n".join(out)


def shorten_ruler(line: str) -> str:
    """A comment line's runs of RULER_MIN+ identical ruler characters cut to RULER_KEEP."""
    stripped = line.lstrip()
    if not stripped.startswith(_COMMENT_START):
        return line
    return _RULER.sub(lambda m: m.group(1) * RULER_KEEP, line)


def fold_license(text: str, language: str | None = None) -> str:
    """A leading comment block (`#` or `//` lines, or one `/* */` block, after a shebang) of 3+
    lines that is a licence header, folded to its copyright line and a note of what was folded."""
    lines = text.split("\n")
    k = 0
    if lines and lines[0].startswith("#!"):
        k = 1
    start = k
    in_block = False
    while k < len(lines):
        s = lines[k].strip()
        if in_block:
            in_block = "*/" not in s
        elif s.startswith("/*"):
            in_block = "*/" not in s[2:]
        elif not s.startswith(_line_marker(language, lines[start].strip())):
            break
        k += 1
    block = lines[start:k]
    if len(block) < 3 or not _LICENSE.search("\n".join(block)):
        return text
    marker = _line_marker(language, block[0].strip())
    marker = "//" if marker == "/*" else marker
    first = next((b for b in block if "copyright" in b.lower()), block[0])
    first = first.strip().lstrip("#/* ").rstrip("*/ ")
    folded = f"{marker} {first} [licence header, {len(block)} lines folded]"
    return "\n".join([*lines[:start], folded, *lines[k:]])


def _line_marker(language: str | None, first: str) -> str:
    """The line-comment marker of a licence block: the language's, else the block's first line's."""
    if language == "python":
        return "#"
    if language is not None and language not in ("markdown", "text"):
        return "//"
    return "#" if first.startswith("#") and not first.startswith("#!") else "//"
