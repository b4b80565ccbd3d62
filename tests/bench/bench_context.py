"""Lorekeeper's context packs side by side with `repomix --compress` and a naive dump.

Run: `python -m pytest -s tests/bench/bench_context.py` (not collected by `make test`).

Corpora: public Python packages already installed in the venv (click ~0.45 MB of Python, alembic
~1 MB), copied to a temp folder so both tools see the same files. repomix is installed with npm
into a cache folder outside the repository (`$LOREKEEPER_BENCH_CACHE`, default
`~/.cache/lorekeeper-bench`); without npm the repomix rows are skipped with a message.

More Python trees: `LOREKEEPER_BENCH_PY` (paths joined with `os.pathsep`, e.g. a checkout's
`httpx/httpx`). Signatures mode keeps constants and class attributes, which the naive dump does not
hold, so its ratio is printed against two floors: the naive dump plus the first line of each
constant and class attribute (tests/helpers/naive_floor.py; target <= 0.9x) and the naive dump alone.

Rows per corpus: the naive dump (path + every import line + every def/class header verbatim),
`repomix --compress`, and `lorekeeper ctx pack` in signatures and auto mode, each run as a
subprocess (wall time includes interpreter start-up). Quality is measured with Python's `ast`
(lorekeeper.context.bench), not with the tree-sitter extractor that builds the pack. Then the
task rows: for tasks of our own on click, the share of the function bodies a developer reads for
the fix that the pack holds whole, within the budget. Ratios are printed; nothing is asserted on
time (machines are noisy).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from helpers import naive_floor
from lorekeeper.context import bench, tokens
from lorekeeper.context.pack import pack

VENV_SITE = Path(pytest.__file__).resolve().parents[1]
CORPORA = ("click", "alembic")
CACHE = Path(os.environ.get("LOREKEEPER_BENCH_CACHE", Path.home() / ".cache" / "lorekeeper-bench"))
TASKS = [  # (task, budget, the functions whose whole body a developer reads to fix it)
    (
        "prompt ignores the default value when hide_input is set",
        8000,
        {"prompt", "Option.prompt_for_value", "_build_prompt"},
    ),
    (
        "the progress bar shows a wrong ETA when the length is unknown",
        8000,
        {"ProgressBar.format_eta", "ProgressBar.eta", "ProgressBar.render_progress"},
    ),
    (
        "shell completion of Choice parameters returns the wrong items",
        8000,
        {"Choice.shell_complete", "ShellComplete.get_completions", "_resolve_incomplete"},
    ),
    (
        "echo writes bytes to the wrong stream when err is true",
        6000,
        {"echo", "_make_cached_stream_func", "get_text_stderr"},
    ),
    (
        "Context.invoke forgets default values of the other command's parameters",
        10000,
        {"Context.invoke", "Parameter.get_default", "Context.lookup_default"},
    ),
]


def repomix_bin() -> Path | None:
    exe = CACHE / "node_modules" / ".bin" / "repomix"
    if exe.exists():
        return exe
    npm = shutil.which("npm")
    if npm is None:
        return None
    CACHE.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [npm, "install", "--prefix", str(CACHE), "--no-audit", "--no-fund", "repomix"], check=True, capture_output=True
    )
    return exe if exe.exists() else None


# More Python trees (a source checkout's package folder, e.g. httpx/httpx): `os.pathsep`-separated.
PY_TREES = [Path(p) for p in os.environ.get("LOREKEEPER_BENCH_PY", "").split(os.pathsep) if p]


def corpus(name: str, into: Path, source: Path | None = None) -> Path:
    dest = into / name
    shutil.copytree(source or VENV_SITE / name, dest, ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def timed(cmd: list[str], cwd: Path) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, check=True, capture_output=True)
    return time.perf_counter() - t0


def lorekeeper_cmd() -> list[str]:
    exe = Path(sys.executable).with_name("lorekeeper")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "lorekeeper.cli"]


def test_side_by_side_with_repomix() -> None:
    rx = repomix_bin()
    work = Path(tempfile.mkdtemp(prefix="lk-bench-"))
    print()
    try:
        trees: list[tuple[str, Path | None]] = [(n, None) for n in CORPORA]
        trees += [(f"{p.parent.name}-{p.name}", p) for p in PY_TREES]
        for name, source in trees:
            root = corpus(name, work, source)
            facts = bench.python_facts(root)
            size = sum(len(f.read_bytes()) for f in root.rglob("*.py"))
            tokens_in = sum(tokens.count_many([p.read_text(encoding="utf-8") for p in sorted(root.rglob("*.py"))]))
            rows = [bench.score("naive dump", bench.naive_dump(facts), facts, tokens_in, 0.0, naive=True)]
            if rx is not None:
                out = work / f"{name}.repomix.xml"
                secs = timed([str(rx), "--compress", "--no-security-check", "-o", str(out), "."], root)
                rows.append(bench.score("repomix --compress", out.read_text(encoding="utf-8"), facts, tokens_in, secs))
            for mode in ("signatures", "auto"):
                out = work / f"{name}.{mode}.txt"
                secs = timed([*lorekeeper_cmd(), "ctx", "pack", ".", "--mode", mode, "-o", str(out)], root)
                rows.append(bench.score(f"lorekeeper {mode}", out.read_text(encoding="utf-8"), facts, tokens_in, secs))
            print(f"\n== {name}: {len(facts)} Python files, {size / 1e6:.2f} MB, {tokens_in:,} o200k tokens")
            print(
                f"{'':<22}{'tokens':>9}{'reduct.':>9}{'names':>8}{'sigs':>8}{'multi':>8}{'imports':>8}"
                f"{'consts':>8}{'attrs':>8}{'decos':>8}{'time':>8}"
            )
            for r in rows:
                print(
                    f"{r.label:<22}{r.tokens_out:>9,}{r.reduction:>9.1%}{r.name_recall:>8.1%}{r.signature_recall:>8.1%}"
                    f"{r.multiline_signature_recall:>8.1%}{r.import_recall:>8.1%}{r.constant_recall:>8.1%}"
                    f"{r.attribute_recall:>8.1%}{r.decorator_recall:>8.1%}{r.seconds:>7.2f}s"
                )
            by = {r.label: r for r in rows}
            sig, naive = by["lorekeeper signatures"], by["naive dump"]
            # the naive dump holds imports and headers only; signatures mode also keeps constants
            # and class attributes, so the like-for-like floor adds their first lines (both printed)
            floor = naive.tokens_out + tokens.count(naive_floor.members_dump(root, facts))
            print(
                f"signatures / naive floor with members ({floor:,}): {sig.tokens_out / floor:.3f}x (target <= 0.9x); "
                f"/ imports-and-headers floor ({naive.tokens_out:,}): {sig.tokens_out / naive.tokens_out:.3f}x"
            )
            if rx is not None:
                ref = by["repomix --compress"]
                print(
                    f"signatures / repomix tokens: {sig.tokens_out / ref.tokens_out:.3f}x; "
                    f"name recall {sig.name_recall:.1%} vs {ref.name_recall:.1%}; "
                    f"multi-line signatures {sig.multiline_signature_recall:.1%} vs {ref.multiline_signature_recall:.1%}"
                )
                for label in ("lorekeeper signatures", "lorekeeper auto"):
                    print(f"{label} wall time / repomix: {by[label].seconds / ref.seconds:.2f}x (target <= 1.5x)")
            else:
                print("repomix rows skipped: npm is not installed (install Node.js to compare)")
        print("\n== task packs on click: needed function bodies sent whole")
        root = work / "click"
        shares = []
        for task, budget, needed in TASKS:
            t0 = time.perf_counter()
            result = pack(root, task=task, budget=budget)
            secs = time.perf_counter() - t0
            whole = {q for e in result.entries for q in e.bodies}
            for e in result.entries:
                if e.mode == "full" and e.rel.endswith(".py"):
                    from lorekeeper.context.parse import parse_file

                    whole |= {d.qualname for d in parse_file(e.rel, (root / e.rel).read_text()).definitions}
            share = len(needed & whole) / len(needed)
            shares.append(share)
            print(
                f"{share:>6.0%}  {result.output_tokens:>6,}/{budget:<6,} {secs:5.2f}s  {task}"
                + (f"  (missing: {', '.join(sorted(needed - whole))})" if share < 1 else "")
            )
            assert result.output_tokens <= budget
        print(f"mean share of needed bodies sent whole: {sum(shares) / len(shares):.0%}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


TS_TREES = [Path(p) for p in os.environ.get("LOREKEEPER_BENCH_TS", "").split(os.pathsep) if p]


@pytest.mark.skipif(not TS_TREES, reason="set LOREKEEPER_BENCH_TS to TypeScript trees (e.g. zod's packages/zod/src)")
def test_typescript_signatures_against_the_naive_floor() -> None:
    """TypeScript signatures mode against two baselines, named in each line: the naive floor (every
    import and every definition's text up to its body, verbatim: `bench.code_facts`, tree-sitter
    node types, not the packer's walker) and `repomix --compress` when npm can install it. Name
    recall: each definition name of a file appears as a word in that file's section."""
    import re

    rx = repomix_bin()
    print()
    for root in TS_TREES:
        facts = bench.code_facts(root)
        t0 = time.perf_counter()
        result = pack(root, mode="signatures")
        secs = time.perf_counter() - t0
        naive = sum(tokens.count(f.naive) for f in facts)
        out = sum(tokens.count(result.sections.get(f.rel, "")) for f in facts)
        found = total = 0
        for f in facts:
            words = set(re.findall(r"[A-Za-z_$][\w$]*", result.sections.get(f.rel, "")))
            found += len(f.names & words)
            total += len(f.names)
        print(
            f"== {root}: {len(facts)} TS files; lorekeeper signatures {out:,} tokens / naive floor {naive:,} = "
            f"{out / naive:.3f}x (target <= 1.0x); name recall {found / total:.2%} (target >= 99%); {secs:.2f}s"
        )
        if rx is not None:
            dest = Path(tempfile.mkdtemp(prefix="lk-bench-ts-")) / "repomix.xml"
            rsecs = timed([str(rx), "--compress", "--no-security-check", "-o", str(dest), "."], root)
            ref = tokens.count(dest.read_text(encoding="utf-8"))
            print(
                f"   baseline repomix --compress: {ref:,} tokens, {rsecs:.2f}s; lorekeeper / repomix = {out / ref:.3f}x"
            )
        else:
            print("   repomix baseline skipped: npm is not installed")
        assert result.output_tokens > 0
