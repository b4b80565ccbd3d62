"""Does the intent change what a bug-fix pack holds? Task packs of a real tree at 8k tokens, with
and without the intent's strategy (`allocate.intent_focus`), side by side.

Run: `python -m pytest -s tests/bench/bench_intent.py` (not collected by `make test`), with
LOREKEEPER_BENCH_CLICK pointing at a checkout of pallets/click that has its tests/ folder, e.g.
`git --git-dir=<mirror of pallets/click> archive HEAD | tar -x -C /tmp/click`. The installed click
in the venv has no tests, so it is no substitute.

Per task: the function that raises the reported error (the one a developer changes), and the
test files where the fix's test goes; the rows say whether the raising function's body is in the
pack whole and how many test functions of those files are whole. Baseline: the same pipeline, same
tree and same classification, with the intent hook off (`pack_parsed(intent_hook=False)`).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from lorekeeper.context import tokens
from lorekeeper.context.pack import pack_parsed, parse_sources
from lorekeeper.context.parse import parse_file
from lorekeeper.context.scan import scan

ROOT = Path(os.environ.get("LOREKEEPER_BENCH_CLICK", "/tmp/ctxintent/click"))
BUDGET = 8000
# (task as a user reports it, functions raising the error, test files where its test belongs)
TASKS = [
    (
        "MissingParameter raised for a required option although its envvar is set to an empty string",
        {"Parameter.process_value"},
        {"tests/test_options.py"},
    ),
    (
        'Traceback (most recent call last):\n  File "site-packages/click/parser.py", line 371, in _match_long_opt\n'
        "click.exceptions.NoSuchOption: No such option: --verb",
        {"_OptionParser._match_long_opt"},
        {"tests/test_options.py", "tests/test_parser.py"},
    ),
    (
        "NoSuchCommand raised for an upper-case sub-command name although token_normalize_func is set",
        {"Group.resolve_command"},
        {"tests/test_normalization.py", "tests/test_commands.py"},
    ),
    (
        "ClickException 'Editing failed' when the editor path contains spaces",
        {"Editor.edit_files", "Editor.edit"},
        {"tests/test_termui.py"},
    ),
    (
        "BadParameter for a nargs=2 option when the default is a tuple of strings",
        {"Parameter.type_cast_value"},
        {"tests/test_options.py", "tests/test_arguments.py"},
    ),
    (
        "UsageError 'Got unexpected extra argument' when a command has nargs=-1 and a trailing option",
        {"Command.parse_args"},
        {"tests/test_arguments.py", "tests/test_basic.py"},
    ),
]


def _whole(root: Path, result: object) -> dict[str, set[str]]:
    """file -> qualnames whose body the pack holds whole."""
    out: dict[str, set[str]] = {}
    for e in result.entries:  # type: ignore[attr-defined]
        if e.mode == "full" and e.rel.endswith(".py"):
            out[e.rel] = {d.qualname for d in parse_file(e.rel, (root / e.rel).read_text()).definitions}
        elif e.bodies:
            out[e.rel] = set(e.bodies)
    return out


def test_intent_boost_on_click_bug_reports() -> None:
    if not (ROOT / "tests").is_dir() or not (ROOT / "src" / "click").is_dir():
        pytest.skip(f"no click checkout with tests at {ROOT} (set LOREKEEPER_BENCH_CLICK)")
    sources, skipped = scan(ROOT)
    gen = parse_sources([(s.rel, s.text) for s in sources], True)
    try:
        while True:
            next(gen)
    except StopIteration as stop:
        files = stop.value
    counts = tokens.count_many([f.text for f in files])
    print(f"\nclick checkout: {len(files)} files, {sum(counts):,} tokens; budget {BUDGET}")
    print(f"{'task':<60} {'hook':>4} {'raiser whole':>12} {'tests whole':>11} {'tokens':>7}")
    totals = {True: [0, 0, 0], False: [0, 0, 0]}
    for task, raisers, test_files in TASKS:
        for hook in (False, True):
            gen2 = pack_parsed(ROOT, files, counts, skipped, task=task, budget=BUDGET, intent_hook=hook)
            try:
                while True:
                    next(gen2)
            except StopIteration as stop:
                result = stop.value
            assert result.output_tokens <= BUDGET
            whole = _whole(ROOT, result)
            got = {q for qs in whole.values() for q in qs} & raisers
            n_tests = sum(
                len([q for q in whole.get(f, set()) if q.split(".")[-1].startswith("test")]) for f in test_files
            )
            totals[hook][0] += bool(got)
            totals[hook][1] += n_tests > 0
            totals[hook][2] += 1
            label = task.replace("\n", " ")[:58]
            print(
                f"{label:<60} {'on' if hook else 'off':>4} {len(got)}/{len(raisers):<10} {n_tests:>11} "
                f"{result.output_tokens:>7}  ({result.intent.task_type})"
            )
    for hook in (False, True):
        r, t, n = totals[hook]
        print(
            f"intent hook {'on ' if hook else 'off'}: raising function whole in {r}/{n} packs, a test of it whole in {t}/{n}"
        )
