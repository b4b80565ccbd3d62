"""Safe BPE-aligned rewrites: whitespace changes that never change what the code means.

Each rule is a plain line-level replacement chosen because the o200k_base tokenizer spends tokens
on it for nothing: trailing spaces, runs of blank lines, Windows line ends. Lines inside
multi-line string literals (`ParsedFile.protected`) are never touched, so docstrings, SQL and
templates keep every byte. The rewrite is kept only when it does not cost more tokens than the
original (a BPE merge can, in theory, make a shorter text longer).
"""

from __future__ import annotations

from lorekeeper.context import tokens

MAX_BLANK_LINES = 1  # consecutive empty lines kept between two code lines (PEP 8 uses up to 2)


def safe_rewrite(text: str, protected: list[tuple[int, int]] | None = None) -> str:
    """`text` with trailing whitespace removed and blank-line runs shortened, outside strings."""
    if not text:
        return text
    inside = _protected_lines(protected or [])
    lines = text.replace("\r\n", "\n").split("\n")
    out: list[str] = []
    blank_run = 0
    for i, line in enumerate(lines):
        if i in inside:
            out.append(line)
            blank_run = 0
            continue
        stripped = line.rstrip()
        if not stripped:
            blank_run += 1
            if blank_run > MAX_BLANK_LINES:
                continue
        else:
            blank_run = 0
        out.append(stripped)
    result = "\n".join(out)
    if text.endswith("\n") and not result.endswith("\n"):
        result += "\n"
    if result != text and tokens.count(result) > tokens.count(text):
        return text
    return result


def _protected_lines(spans: list[tuple[int, int]]) -> set[int]:
    """Every line a multi-line string touches (0-based): the end of its first line is already
    inside the literal, so even trailing spaces there belong to the string."""
    inside: set[int] = set()
    for s, e in spans:
        inside.update(range(s, e + 1))
    return inside
