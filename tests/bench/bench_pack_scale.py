"""Task packs on a large tree: needed bodies at 4k/8k tokens, and time at 1M vs 3M tokens.

Run: `python -m pytest -s tests/bench/bench_pack_scale.py` (not collected by `make test`).

Corpus: SQLAlchemy as installed in the venv (a dependency of alembic; ~1.8M o200k tokens of
Python, 255 files), copied to a temp folder.

Recall rows: ten tasks of our own, each naming a bug or change and, written down before running
the tool, the functions a developer has to read to make it ("needed bodies"). A needed body counts
when the implementation (the largest definition of that name) appears verbatim in the pack
(whitespace ignored). The budget is checked with the exact o200k count.

Scale rows: the whole pipeline (scan, parse, rank, plan, render, exact count) for one task at 8k
tokens on ~1M tokens (orm, sql, pool, event) and on ~3M tokens (three copies of it in sibling
folders), best of two runs each. The ratio is what matters: linear is 3.0, the goal is <= 3.6.
Wall and CPU seconds are printed with the load average: nothing is asserted on time. The
content cache of the parser is cleared before each run, but the 3M tree's three copies are
identical, so within a run each file is parsed once: a tree of distinct content is the harder
case (LOREKEEPER_BENCH_1M / LOREKEEPER_BENCH_3M name two folders to time instead, e.g. SQLAlchemy's
orm+sql+pool+event and its lib/ + test/orm: 4.7 s and 12.4 s here, 2.66x).
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from lorekeeper.context import tokens
from lorekeeper.context.pack import PackResult, pack, pack_parsed
from lorekeeper.context.parse import ParsedFile, parse_file
from lorekeeper.context.parse import _cache as parse_cache
from lorekeeper.context.scan import scan

SQLALCHEMY = Path(pytest.__file__).resolve().parents[1] / "sqlalchemy"
ONE_MILLION = ("orm", "sql", "pool", "event")  # ~1.0M tokens of SQLAlchemy 2.x
TASKS = [  # (task, functions whose whole body a developer reads for it), picked before running
    ("Session.merge loses pending changes when load=False", {"Session.merge", "Session._merge"}),
    (
        "Session.get ignores with_for_update when the object is already in the identity map",
        {"Session.get", "Session._get_impl"},
    ),
    ("make_url fails to parse a password that contains an @ sign", {"make_url", "_parse_url"}),
    (
        "QueuePool overflow counter goes negative when connecting fails",
        {"QueuePool._do_get", "QueuePool._inc_overflow", "QueuePool._dec_overflow"},
    ),
    (
        "Enum with validate_strings accepts unknown string values",
        {"Enum._db_value_for_elem", "Enum._object_value_for_elem"},
    ),
    (
        "SQLite get_columns reports the wrong nullable and type affinity for columns",
        {"SQLiteDialect.get_columns", "SQLiteDialect._get_column_info", "SQLiteDialect._resolve_type_affinity"},
    ),
    (
        "hybrid_property setter is lost when the expression is redefined with inplace",
        {"hybrid_property.setter", "hybrid_property._copy", "hybrid_property.inplace"},
    ),
    (
        "the validates decorator is not called on collection removes when include_removes is True",
        {"validates", "_validator_events"},
    ),
    ("create_engine ignores pool_size when poolclass is given", {"create_engine"}),
    (
        "Select.limit with a bound parameter is rendered as a literal",
        {"GenerativeSelect.limit", "GenerativeSelect._offset_or_limit_clause"},
    ),
]
SCALE_TASK = "QueuePool overflow counter goes negative when connecting fails"


def _copy(dest: Path, parts: tuple[str, ...] | None = None) -> Path:
    if parts is None:
        shutil.copytree(SQLALCHEMY, dest, ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyc"))
    else:
        dest.mkdir(parents=True)
        for part in parts:
            shutil.copytree(
                SQLALCHEMY / part, dest / part, ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyc")
            )
    return dest


def _run(gen: object) -> PackResult:
    while True:
        try:
            next(gen)  # type: ignore[call-overload]
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]


def _whole(files: list[ParsedFile], text: str, needed: set[str]) -> set[str]:
    flat = "".join(text.split())
    found = set()
    for q in needed:
        cands = [(d.end - d.start, pf, d) for pf in files for d in pf.definitions if d.qualname == q]
        if not cands:
            continue
        _, pf, d = max(cands, key=lambda c: c[0])
        if "".join(pf.text.encode("utf-8")[d.start : d.end].decode("utf-8").split()) in flat:
            found.add(q)
    return found


@pytest.mark.skipif(not SQLALCHEMY.is_dir(), reason="SQLAlchemy is not installed in this venv")
def test_needed_bodies_on_sqlalchemy(tmp_path: Path) -> None:
    root = _copy(tmp_path / "sqlalchemy")
    sources, skipped = scan(root)
    files = [parse_file(s.rel, s.text, detail=True) for s in sources]
    counts = tokens.count_many([f.text for f in files])
    print(f"\nSQLAlchemy: {len(files)} files, {sum(counts):,} tokens")
    for budget in (4000, 8000):
        got = total = present = over = 0
        for task, needed in TASKS:
            r = _run(pack_parsed(root, files, counts, skipped, task=task, budget=budget))
            n = tokens.count(r.text)
            over += n > budget
            found = _whole(files, r.text, needed)
            holders = {pf.rel for pf in files for d in pf.definitions if d.qualname in needed}
            present += any(e.rel in holders and e.mode != "omitted" for e in r.entries)
            got, total = got + len(found), total + len(needed)
            print(f"  {budget:>5} {len(found)}/{len(needed)} {n:>5} tokens  {task}")
        print(
            f"budget {budget}: needed bodies in full {got}/{total} = {got / total:.0%}; "
            f"target file present {present}/{len(TASKS)}; over budget {over}"
        )
        assert over == 0


@pytest.mark.skipif(not SQLALCHEMY.is_dir(), reason="SQLAlchemy is not installed in this venv")
def test_time_grows_linearly_from_1m_to_3m_tokens(tmp_path: Path) -> None:
    if os.environ.get("LOREKEEPER_BENCH_1M") and os.environ.get("LOREKEEPER_BENCH_3M"):
        one, three = Path(os.environ["LOREKEEPER_BENCH_1M"]), Path(os.environ["LOREKEEPER_BENCH_3M"])
    else:
        one = _copy(tmp_path / "one", ONE_MILLION)
        three = tmp_path / "three"
        for k in "abc":
            _copy(three / k, ONE_MILLION)
    rows = {}
    for name, root in (("1M", one), ("3M", three)):
        best = None
        for _ in range(2):
            parse_cache.clear()  # parse results are cached per content hash: time the parsing too
            wall, cpu = time.perf_counter(), time.process_time()
            r = pack(root, task=SCALE_TASK, budget=8000)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            assert tokens.count(r.text) <= 8000
            best = (wall, cpu, r.input_tokens) if best is None or wall < best[0] else best
        rows[name] = best
        print(f"\n{name}: {best[2]:,} tokens, wall {best[0]:.1f} s, cpu {best[1]:.1f} s, load {os.getloadavg()[0]:.1f}")
    print(
        f"3M/1M: input {rows['3M'][2] / rows['1M'][2]:.2f}x, wall {rows['3M'][0] / rows['1M'][0]:.2f}x, "
        f"cpu {rows['3M'][1] / rows['1M'][1]:.2f}x (goal <= 3.6x; linear = the input ratio)"
    )
