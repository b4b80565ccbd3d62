"""Boltzmann token allocation: how many tokens each file may use, and the mode that fits.

budget_i = total x exp(beta x E_i) / sum_j exp(beta x E_j), with E_i the file's relevance and the
inverse temperature beta growing with the task's specificity: a precise task concentrates the
budget on its few files, a broad one spreads it. Budgets are clamped per file, then each file
gets the richest mode whose exact token cost fits its budget.

`intent_focus` is how the task type changes the plan before that (`STRATEGIES`): a bug fix
promotes traceback frames, raisers of the named exception and error paths, and pins the tests of
the matched code; measured by tests/bench/bench_intent.py.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lorekeeper.context.intent import StructuredIntent
    from lorekeeper.context.parse import ParsedFile

BETA_PER_SPECIFICITY = 5.0  # beta = 5 x specificity (seed 002: specificity 0.85 -> beta ~4.2)
BETA_MIN = 0.5  # even a broad task prefers relevant files a little
MIN_FILE_BUDGET = 128  # seed 002's per-file floor...
MAX_FILE_BUDGET = 4096  # ...and ceiling, for budgets up to MAX_FILE_SHARE of the total
MAX_FILE_SHARE = 0.35  # with a large total, one file may take up to this share instead


def temperature(specificity: float) -> float:
    """The inverse temperature beta for a task of this specificity (0..1)."""
    return max(BETA_MIN, BETA_PER_SPECIFICITY * max(0.0, min(1.0, specificity)))


def boltzmann(relevance: list[float], total: int, beta: float) -> list[int]:
    """Token budget per file (sums to at most `total`)."""
    n = len(relevance)
    if n == 0 or total <= 0:
        return [0] * n
    top = max(relevance)
    weights = [math.exp(beta * (r - top)) for r in relevance]  # shifted: no overflow
    z = sum(weights)
    ceiling = max(MAX_FILE_BUDGET, int(total * MAX_FILE_SHARE))
    floor = min(MIN_FILE_BUDGET, total // n)
    budgets = [min(ceiling, max(floor, int(total * w / z))) for w in weights]
    over = sum(budgets) - total
    if over > 0:  # the floors pushed the sum over: take it back from the largest budgets
        for i in sorted(range(n), key=lambda k: (-budgets[k], k)):
            take = min(over, max(0, budgets[i] - floor))
            budgets[i] -= take
            over -= take
            if over <= 0:
                break
    return budgets


def choose_mode(costs: dict[str, int], budget: int) -> str:
    """The richest of full / map / signatures / reference whose cost fits `budget`."""
    for mode in ("full", "map", "signatures"):
        if mode in costs and costs[mode] <= budget:
            return mode
    return "reference"


# -- the intent drives the plan (seed 002: "FixBug prioritises error lines and test files") -------


@dataclass(frozen=True)
class Strategy:
    """What a task type changes in a task pack."""

    error_paths: bool  # definitions that raise or handle errors rank higher, traceback frames first
    tests: bool  # the tests of the target's code are sent as whole bodies
    body_share: float  # multiplier of the budget share first spent on whole bodies (1: unchanged)


STRATEGIES: dict[str, Strategy] = {
    "fix_bug": Strategy(error_paths=True, tests=True, body_share=1.0),
    "test": Strategy(error_paths=False, tests=True, body_share=1.0),
    # documentation reads signatures and docstrings: fewer bodies, a wider outline
    "document": Strategy(error_paths=False, tests=False, body_share=0.5),
}
DEFAULT_STRATEGY = Strategy(error_paths=False, tests=False, body_share=1.0)
ERROR_PATH_BOOST = 0.3  # relevance multiplier bonus (x1.3) of a relevant definition on an error path
RAISER_SHARE = 0.9  # a definition raising an exception the task names matches this share of the best match
FRAME_SHARE = 1.05  # a traceback frame's definition matches above the best word match: it is the bug
MAX_RAISERS = 3  # a named exception raised by more relevant definitions than this points at none
MAX_FRAMES = 4  # the innermost frames of a pasted traceback (the ones in the tree)
MAX_TESTS = 2  # test functions sent whole for fix_bug / test tasks
TEST_MIN_RELEVANCE = 0.05  # ...among the test definitions at least this relevant
TEST_DEMOTION = 0.5  # other task types: a test definition's relevance is multiplied by this
_ERROR_CODE = re.compile(
    r"\braise\b|\bexcept\b|\bthrow\b|\bcatch\s*\(|\bpanic!?\(|\bErr\(|errors\.New\(|fmt\.Errorf\(|\.fail\("
    r"|\bError\(|\bbail!\("
)


def strategy(task_type: str) -> Strategy:
    return STRATEGIES.get(task_type, DEFAULT_STRATEGY)


@dataclass
class IntentFocus:
    """The intent's changes to the relevance the planner reads (`intent_focus`)."""

    def_rel: dict[tuple[int, int], float]
    matches: dict[tuple[int, int], float]
    tests: list[tuple[int, int]]  # test functions to send whole, best first
    body_share: float
    notes: list[str]


def intent_focus(
    files: list[ParsedFile],
    intent: StructuredIntent,
    def_rel: dict[tuple[int, int], float],
    matches: dict[tuple[int, int], float],
) -> IntentFocus:
    """Apply the task type's strategy: for a bug fix, the definitions a pasted traceback points at
    and those raising an exception the task names become the best matches, relevant definitions on
    an error path (raise / except / throw / Err) rank higher, and the best tests of the matched
    code are pinned whole; a test task pins the tests too; documentation spends less on bodies."""
    plan = strategy(intent.task_type)
    def_rel, matches = dict(def_rel), dict(matches)
    notes: list[str] = []
    if not intent.task or not files:
        return IntentFocus(def_rel, matches, [], plan.body_share, notes)
    best = max(matches.values(), default=1.0) or 1.0
    if plan.error_paths:
        for key in _frame_defs(files, intent.frames[-MAX_FRAMES:]):
            matches[key] = max(matches.get(key, 0.0), FRAME_SHARE * best)
            def_rel[key] = max(def_rel.get(key, 0.0), 1.0)
            notes.append(f"traceback frame {_qual(files, key)}")
        named = set(intent.exceptions)
        boosted = 0
        raisers: dict[str, list[tuple[int, int]]] = {}
        encoded: dict[int, bytes] = {}
        for key, v in list(def_rel.items()):
            code = _body(files, key, encoded)
            if not _ERROR_CODE.search(code):
                continue
            def_rel[key] = min(1.0, v * (1 + ERROR_PATH_BOOST))
            boosted += 1
            # a class holds every raise of its methods; a test raising it only checks it is raised
            code_fn = files[key[0]].definitions[key[1]].kind == "function" and not _is_test_file(files[key[0]].rel)
            for n in named if code_fn else ():
                if re.search(rf"\b(?:raise|throw new|throw)\s+(?:\w+\.)*{re.escape(n)}\b", code):
                    raisers.setdefault(n, []).append(key)
        defined = {d.name for pf in files for d in pf.definitions if d.kind == "class" and d.name in raisers}
        for n, keys in sorted(raisers.items()):
            if len(keys) > MAX_RAISERS:
                if n not in defined:  # TypeError, ValueError: raised everywhere, it points nowhere
                    continue
                # the tree's own exception raised in many places: the places the task's words match best
                keys = sorted(keys, key=lambda k: (-matches.get(k, 0.0), -def_rel.get(k, 0.0), k))[:MAX_RAISERS]
            for key in keys:
                matches[key] = max(matches.get(key, 0.0), RAISER_SHARE * best)
                notes.append(f"raises {n}: {_qual(files, key)}")
        if boosted:
            notes.append(f"{boosted} relevant definitions on error paths ranked higher")
    tests: list[tuple[int, int]] = []
    if plan.tests:
        tests = _target_tests(files, def_rel, matches)
        notes.extend(f"test {_qual(files, k)}" for k in tests)
    else:  # the code the task is about comes before its tests (which share its words)
        demoted = 0
        for rel in (def_rel, matches):
            for key in list(rel):
                if _is_test_file(files[key[0]].rel):
                    rel[key] *= TEST_DEMOTION
                    demoted += rel is def_rel
        if demoted:
            notes.append(f"{demoted} test definitions ranked after the code")
    return IntentFocus(def_rel, matches, tests, plan.body_share, notes)


def _body(files: list[ParsedFile], key: tuple[int, int], cache: dict[int, bytes] | None = None) -> str:
    """The body of a definition (its offsets are in UTF-8 bytes)."""
    pf = files[key[0]]
    d = pf.definitions[key[1]]
    if d.body_start >= d.end:
        return ""
    if pf.text.isascii():
        return pf.text[d.body_start : d.end]
    src = cache.setdefault(key[0], pf.text.encode("utf-8")) if cache is not None else pf.text.encode("utf-8")
    return src[d.body_start : d.end].decode("utf-8", "replace")


def _qual(files: list[ParsedFile], key: tuple[int, int]) -> str:
    return f"{files[key[0]].rel}:{files[key[0]].definitions[key[1]].qualname}"


def _frame_defs(files: list[ParsedFile], frames: list[tuple[str, int, str]]) -> list[tuple[int, int]]:
    """The definition of the tree each traceback frame points at: in the file whose path ends like
    the frame's (site-packages/pkg/core.py matches src/pkg/core.py), the definition named like the
    frame's function nearest its line (the installed version may differ), else the innermost one
    holding the line. Innermost frame (where the error was raised) first."""
    out: list[tuple[int, int]] = []
    for path, line, func in reversed(frames):
        tail = "/".join(path.replace("\\", "/").split("/")[-2:]).lower()
        for fi, pf in enumerate(files):
            rel = pf.rel.lower()
            if not (rel.endswith(tail) or tail.endswith(rel)):
                continue
            defs = pf.definitions
            named = [di for di, d in enumerate(defs) if func and d.name == func]
            if named:
                di = min(named, key=lambda k: abs(defs[k].start_line + 1 - line))
            else:
                holding = [di for di, d in enumerate(defs) if d.start_line + 1 <= line <= d.end_line + 1]
                if not holding:
                    continue
                di = max(holding, key=lambda k: defs[k].start_line)
            if (fi, di) not in out:
                out.append((fi, di))
            break
    return out


def _is_test_file(rel: str) -> bool:
    name = rel.rsplit("/", 1)[-1]
    stem = name.rsplit(".", 1)[0]
    return (
        name.startswith("test_")
        or stem.endswith(("_test", ".test", ".spec", "_spec"))
        or "/tests/" in f"/{rel}"
        or "/test/" in f"/{rel}"
        or "/__tests__/" in f"/{rel}"
    )


def _target_tests(
    files: list[ParsedFile], def_rel: dict[tuple[int, int], float], matches: dict[tuple[int, int], float]
) -> list[tuple[int, int]]:
    """The test functions that exercise the best-matched code: among relevant test definitions,
    those naming one of the best matches' functions or living in the test file named after the
    best match's file (test_core.py, core_test.go, core.test.ts) come first, then by relevance."""
    ranked = [
        k for k, _ in sorted(matches.items(), key=lambda kv: (-kv[1], kv[0])) if not _is_test_file(files[k[0]].rel)
    ]
    seeds = ranked[:3]
    names = {files[fi].definitions[di].name for fi, di in seeds}
    stems = {files[fi].rel.rsplit("/", 1)[-1].rsplit(".", 1)[0].lower() for fi, _ in seeds}
    scored: list[tuple[float, tuple[int, int]]] = []
    for key, v in def_rel.items():
        pf = files[key[0]]
        d = pf.definitions[key[1]]
        if d.kind != "function" or v < TEST_MIN_RELEVANCE or not _is_test_file(pf.rel):
            continue
        if not d.name.lower().startswith("test") and pf.language in ("python", "go", "java", "rust"):
            continue  # a helper or a fake class inside a test file, not a test
        stem = pf.rel.rsplit("/", 1)[-1].rsplit(".", 1)[0].lower()
        own_file = any(stem in (f"test_{s}", f"{s}_test", f"{s}.test", f"{s}.spec") for s in stems)
        calls = bool(names & (d.calls | set(d.identifiers)))
        scored.append((v + (1.0 if calls else 0.0) + (0.5 if own_file else 0.0), key))
    scored.sort(key=lambda sk: (-sk[0], sk[1]))
    return [k for _s, k in scored[:MAX_TESTS]]
