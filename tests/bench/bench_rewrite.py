"""Which BPE-aligned text rewrites earn their place? Each candidate rule is applied alone to the
source files of real trees and the o200k_base tokens it saves are counted exactly.

Run: `python tests/bench/bench_rewrite.py [ROOT ...]` or `python -m pytest -s tests/bench/bench_rewrite.py`
(not collected by `make test`). Without arguments the corpora are the checkouts under
$LOREKEEPER_BENCH_CORPORA (default /tmp/ctxintent): click, httpx, sqlalchemy, zod, cobra, ripgrep,
made with `git --git-dir=<mirror> archive HEAD | tar -x -C <dir>`. Each corpus is sampled
deterministically (every k-th code file, at most SAMPLE_BYTES) to keep the run short.

Baseline: the file as it is on disk. Every rule sees the same protected spans (multi-line string
literals from lorekeeper's parser) that the pack's rewrite honours, so the numbers are what the
pack would save. A Python file a rule makes unparseable, or whose AST changes, counts as a
failure of that rule (and the rule is not kept).
"""

from __future__ import annotations

import ast
import os
import sys
from collections.abc import Callable
from pathlib import Path

from lorekeeper.context import rewrite, tokens
from lorekeeper.context.parse import parse_file
from lorekeeper.context.scan import scan

CORPORA = ("click", "httpx", "sqlalchemy", "zod", "cobra", "ripgrep")
BASE = Path(os.environ.get("LOREKEEPER_BENCH_CORPORA", "/tmp/ctxintent"))
SAMPLE_BYTES = 1_500_000
CODE = frozenset({"python", "typescript", "tsx", "javascript", "go", "rust", "java"})

Rule = Callable[[str, list[tuple[int, int]], str], str]


def _per_line(fn: Callable[[str], str]) -> Rule:
    def apply(text: str, protected: list[tuple[int, int]], language: str) -> str:
        inside = rewrite._protected_lines(protected)
        lines = text.split("\n")
        return "\n".join(line if i in inside else fn(line) for i, line in enumerate(lines))

    return apply


def _blank_runs(limit: int) -> Rule:
    def apply(text: str, protected: list[tuple[int, int]], language: str) -> str:
        inside = rewrite._protected_lines(protected)
        out: list[str] = []
        run = 0
        for i, line in enumerate(text.split("\n")):
            if i not in inside and not line.strip():
                run += 1
                if run > limit:
                    continue
            else:
                run = 0
            out.append(line)
        return "\n".join(out)

    return apply


def _indent(unit_to: str) -> Rule:
    def apply(text: str, protected: list[tuple[int, int]], language: str) -> str:
        return rewrite.reindent(text, protected, unit_to)

    return apply


RULES: dict[str, Rule] = {
    "crlf -> lf": lambda t, p, lang: t.replace("\r\n", "\n"),
    "trailing whitespace": _per_line(str.rstrip),
    "blank runs -> 1": _blank_runs(1),
    "blank lines -> 0": _blank_runs(0),
    "indent unit -> tab": _indent("\t"),
    "indent unit -> 1 space": _indent(" "),
    "indent unit -> 2 spaces": _indent("  "),
    "comment rulers -> 3 chars": _per_line(rewrite.shorten_ruler),
    "license header -> 1 line": lambda t, p, lang: rewrite.fold_license(t, lang),
    "safe_rewrite (kept rules)": lambda t, p, lang: rewrite.safe_rewrite(t, p, lang),
    "kept + indent -> 1 space": lambda t, p, lang: rewrite.safe_rewrite(t, p, lang, indent=" "),
}


def sample(root: Path) -> list[tuple[str, str, str, list[tuple[int, int]]]]:
    sources, _skipped = scan(root)
    code = []
    for s in sources:
        pf = parse_file(s.rel, s.text, detail=False)
        if pf.language in CODE:
            code.append((s.rel, s.text, pf.language, pf.protected))
    total = sum(len(c[1]) for c in code)
    step = max(1, -(-total // SAMPLE_BYTES))
    return code[::step]


def _ast_same(a: str, b: str) -> bool:
    try:
        return ast.dump(ast.parse(a)) == ast.dump(ast.parse(b))
    except (SyntaxError, ValueError):
        return False


def measure(root: Path) -> dict[str, tuple[int, int, int]]:
    """rule -> (tokens before, tokens after, python files broken)."""
    files = sample(root)
    before = tokens.count_many([f[1] for f in files])
    out: dict[str, tuple[int, int, int]] = {}
    for name, rule in RULES.items():
        texts = [rule(text, prot, lang) for _rel, text, lang, prot in files]
        after = tokens.count_many(texts)
        broken = 0
        for (_rel, text, lang, _p), new in zip(files, texts, strict=True):
            if lang == "python" and new != text and _ast_same(text, text) and not _ast_same(text, new):
                broken += 1
        out[name] = (sum(before), sum(after), broken)
    return out


def main(roots: list[Path]) -> None:
    tokens.preload()
    header = f"{'rule':<28}" + "".join(f"{r.name[:10]:>17}" for r in roots)
    results = {r.name: measure(r) for r in roots}
    print("o200k tokens saved by each rule alone: % of the sampled code files / tokens (broken .py files [n])")
    print(f"{'sample tokens':<28}" + "".join(f"{results[r.name][next(iter(RULES))][0]:>17,}" for r in roots))
    print(header)
    for name in RULES:
        cells = []
        for r in roots:
            b, a, broken = results[r.name][name]
            cell = f"{100 * (b - a) / b:.2f}%/{b - a}" if b else "-"
            cells.append(f"{cell + (f' [{broken}]' if broken else ''):>17}")
        print(f"{name:<28}" + "".join(cells))


def test_rule_savings_per_corpus() -> None:
    import pytest

    roots = [BASE / c for c in CORPORA if (BASE / c).is_dir()]
    if not roots:
        pytest.skip(f"no corpora under {BASE} (set LOREKEEPER_BENCH_CORPORA)")
    main(roots)


if __name__ == "__main__":
    args = [Path(a) for a in sys.argv[1:]] or [BASE / c for c in CORPORA if (BASE / c).is_dir()]
    main(args)
