"""Task packs on a large tree the planner was not tuned on: mypy's own sources.

Run: `LOREKEEPER_BENCH_MYPY=/path/to/mypy-checkout python -m pytest -s tests/bench/bench_pack_unseen.py`
(not collected by `make test`; skipped without the variable; LOREKEEPER_BENCH_SPHINX adds the same
rows on a checkout of sphinx-doc/sphinx: `sphinx/` and `tests/` without the test roots). The checkout is any clone or
`git archive` of github.com/python/mypy; its `mypy/` package is copied without `typeshed/` (stubs,
not code a fix reads): ~5 MB, ~1.2M o200k tokens of Python.

Recall rows: ten tasks written down before running the tool, each a bug report naming what a
developer reads to fix it: the function at fault, its callees on the path, and its unit test where
mypy has one in Python (most of mypy's tests are data files). A needed body counts when the
largest definition of that qualified name appears verbatim in the pack (whitespace ignored), as in
bench_pack_scale.py; the budget is checked with the exact o200k count.

Scale rows: one task at 8k tokens on ~1.2M tokens (the mypy package) and on a tree of distinct
content about three times larger (mypy + mypyc + typeshed's stubs + SQLAlchemy's lib when
LOREKEEPER_BENCH_SQLALCHEMY names a checkout of it), best of two runs, the parse cache cleared.
Printed: input ratio, wall and CPU ratios (goal: wall ratio <= 3.6 for 3x the input, i.e. at most
1.2x linear). Nothing is asserted on time.
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

MYPY = Path(os.environ.get("LOREKEEPER_BENCH_MYPY", "")) if os.environ.get("LOREKEEPER_BENCH_MYPY") else None
SQLALCHEMY = Path(os.environ["LOREKEEPER_BENCH_SQLALCHEMY"]) if os.environ.get("LOREKEEPER_BENCH_SQLALCHEMY") else None
TASKS = [  # (task, the bodies a developer reads for the fix), written before running the tool
    (
        "the files option of mypy.ini with a trailing comma matches no files",
        {"split_and_match_files", "split_and_match_files_list", "split_commas", "expand_path"},
    ),
    (
        "python_version = 3.10 written as a float in the config file is read as 3.1",
        {"parse_version", "VersionTypeError.__init__"},
    ),
    (
        "destructure_overrides fails when a pyproject.toml override gives module as a single string",
        {"destructure_overrides"},
    ),
    (
        "split_directive breaks an inline # mypy: comment on a comma inside quotes",
        {"split_directive", "mypy_comments_to_config_map", "parse_mypy_comments"},
    ),
    (
        "erase_type drops the fallback of a TypedDict type",
        {"erase_type", "EraseTypeVisitor.visit_typeddict_type", "EraseTypeVisitor.visit_instance"},
    ),
    (
        "SourceFinder.crawl_up returns the wrong module name for a namespace package without __init__.py",
        {
            "SourceFinder.crawl_up",
            "SourceFinder._crawl_up_helper",
            "SourceFinder.get_init_file",
            "SourceFinderSuite.test_crawl_namespace",
        },
    ),
    (
        "FileSystemCache.isfile_case says a file exists when only the case of its name differs",
        {
            "FileSystemCache.isfile_case",
            "FileSystemCache.listdir",
            "FileSystemCache.isfile",
            "TestFileSystemCache.test_isfile_case_1",
        },
    ),
    (
        "Errors.is_ignored_error ignores an error whose code is not in the type: ignore list",
        {"Errors.is_ignored_error", "Errors._add_error_info"},
    ),
    (
        "joining two Literal types gives object instead of their common fallback",
        {"TypeJoinVisitor.visit_literal_type", "join_types"},
    ),
    (
        "FindModuleCache.find_module misses a module of a parent directory that is not on the search path",
        {"FindModuleCache.find_module", "FindModuleCache._can_find_module_in_parent_dir", "get_search_dirs"},
    ),
]
SPHINX = Path(os.environ["LOREKEEPER_BENCH_SPHINX"]) if os.environ.get("LOREKEEPER_BENCH_SPHINX") else None
SPHINX_TASKS = [  # sphinx/ and tests/ of a sphinx checkout (~1.1M tokens); its tests are pytest functions
    (
        "object_description of a set whose items cannot be sorted raises instead of falling back to unsorted output",
        {"object_description", "test_set_sorting_fallback"},
    ),
    (
        "safe_getattr raises when the class overrides __dict__",
        {"safe_getattr", "test_safe_getattr_with___dict___override"},
    ),
    ("unwrap_all does not unwrap a partial wrapping a decorated function", {"unwrap_all", "unpartial", "unwrap"}),
    ("getslots fails for a class whose __slots__ is a single string", {"getslots"}),
    (
        "_translate_pattern turns ** of an exclude pattern into a regex that does not match nested folders",
        {"_translate_pattern", "compile_matchers", "test_compile_matchers"},
    ),
    ("relative_uri gives a wrong path when the target is in a parent folder", {"relative_uri"}),
    (
        "format_date ignores the timezone when SOURCE_DATE_EPOCH is set",
        {"format_date", "babel_format_date", "test_format_date_timezone"},
    ),
    (
        "prepare_docstring strips the indentation of a docstring indented with tabs wrongly",
        {"prepare_docstring", "test_prepare_docstring"},
    ),
    (
        "the rst_prolog is inserted before the docinfo fields instead of after them",
        {"_prepend_prologue", "test_prepend_prologue"},
    ),
    ("make_id produces an empty id for a term made only of non-ASCII characters", {"make_id", "_make_id"}),
]
SCALE_TASK = "FileSystemCache.isfile_case says a file exists when only the case of its name differs"
_IGNORE = shutil.ignore_patterns("__pycache__", "*.so", "*.pyc", "typeshed")


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


@pytest.mark.skipif(MYPY is None, reason="set LOREKEEPER_BENCH_MYPY to a checkout of python/mypy")
def test_needed_bodies_on_mypy(tmp_path: Path) -> None:
    assert MYPY is not None
    root = tmp_path / "mypy"
    shutil.copytree(MYPY / "mypy", root / "mypy", ignore=_IGNORE)
    _needed_bodies("mypy", root, TASKS)


@pytest.mark.skipif(SPHINX is None, reason="set LOREKEEPER_BENCH_SPHINX to a checkout of sphinx-doc/sphinx")
def test_needed_bodies_on_sphinx(tmp_path: Path) -> None:
    assert SPHINX is not None
    root = tmp_path / "sphinx"
    for part in ("sphinx", "tests"):
        shutil.copytree(SPHINX / part, root / part, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "roots"))
    _needed_bodies("sphinx", root, SPHINX_TASKS)


def _needed_bodies(name: str, root: Path, tasks: list[tuple[str, set[str]]]) -> None:
    sources, skipped = scan(root)
    files = [parse_file(s.rel, s.text, detail=True) for s in sources]
    counts = tokens.count_many([f.text for f in files])
    print(f"\n{name}: {len(files)} files, {sum(counts):,} tokens")
    for q in sorted({q for _, needed in tasks for q in needed}):
        assert any(d.qualname == q for pf in files for d in pf.definitions), f"{q} is not in this {name}"
    for budget in (4000, 8000):
        got = total = present = over = 0
        for task, needed in tasks:
            t0 = time.perf_counter()
            r = _run(pack_parsed(root, files, counts, skipped, task=task, budget=budget))
            secs = time.perf_counter() - t0
            n = tokens.count(r.text)
            over += n > budget
            found = _whole(files, r.text, needed)
            holders = {pf.rel for pf in files for d in pf.definitions if d.qualname in needed}
            present += any(e.rel in holders and e.mode != "omitted" for e in r.entries)
            got, total = got + len(found), total + len(needed)
            missing = sorted(needed - found)
            print(
                f"  {budget:>5} {len(found)}/{len(needed)} {n:>5} tokens {secs:5.2f}s  {task}"
                + (f"  (missing: {', '.join(missing)})" if missing else "")
            )
        print(
            f"budget {budget}: needed bodies in full {got}/{total} = {got / total:.0%}; "
            f"target file present {present}/{len(tasks)}; over budget {over}"
        )
        assert over == 0


@pytest.mark.skipif(MYPY is None, reason="set LOREKEEPER_BENCH_MYPY to a checkout of python/mypy")
def test_time_from_mypy_to_three_times_as_much(tmp_path: Path) -> None:
    assert MYPY is not None
    one = tmp_path / "one"
    shutil.copytree(MYPY / "mypy", one / "mypy", ignore=_IGNORE)
    three = tmp_path / "three"
    shutil.copytree(MYPY / "mypy", three / "mypy", ignore=_IGNORE)
    shutil.copytree(MYPY / "mypyc", three / "mypyc", ignore=_IGNORE)
    shutil.copytree(MYPY / "mypy" / "typeshed", three / "typeshed", ignore=shutil.ignore_patterns("__pycache__"))
    if SQLALCHEMY is not None:
        shutil.copytree(SQLALCHEMY / "lib", three / "sqlalchemy", ignore=_IGNORE)
    rows = {}
    for name, root in (("1x", one), ("3x", three)):
        best = None
        for _ in range(2):
            parse_cache.clear()
            wall, cpu = time.perf_counter(), time.process_time()
            r = pack(root, task=SCALE_TASK, budget=8000)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            assert tokens.count(r.text) <= 8000
            best = (wall, cpu, r.input_tokens, r.layers) if best is None or wall < best[0] else best
        rows[name] = best
        print(f"\n{name}: {best[2]:,} tokens, wall {best[0]:.1f} s, cpu {best[1]:.1f} s, load {os.getloadavg()[0]:.1f}")
        for layer in best[3]:
            print(f"   {layer['layer']:<18}{layer['seconds']:>8.2f}s  {layer['note']}")
    ratio = rows["3x"][2] / rows["1x"][2]
    wall = rows["3x"][0] / rows["1x"][0]
    print(
        f"3x/1x: input {ratio:.2f}x, wall {wall:.2f}x, cpu {rows['3x'][1] / rows['1x'][1]:.2f}x; "
        f"wall per input token {wall / ratio:.2f}x linear (goal <= 1.2x, i.e. 3.6x for 3x the input)"
    )
