"""`route --json` and `prompt --json` at 10,000 skills (issue 26 d2: <= 12x `python -c pass`), cold
(`LOREKEEPER_AGENTD=off`) and warm (through `lorekeeper agentd`), interleaved with the interpreter
floor; and, in-process, the router's p50/p95 against a plain inverted index giving the same top-5.

Run: `python -m pytest -s -p no:cacheprovider -o norecursedirs= tests/bench/bench_route_10k.py`.
The library is generated into a temp folder (10,000 SKILL.md folders, the vocabulary of
bench_router) and imported once (about a minute); nothing is committed. No timed assertion.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from bench_router import MESSAGES, VOCAB
from bench_warm import _env, _run

from lorekeeper.text import fold as normalise
from lorekeeper.workspace import Workspace

N = 10_000
REPEAT = 3


def write_library(dest: Path, n: int, seed: int = 7) -> None:
    rnd = random.Random(seed)
    for i in range(n):
        words = rnd.sample(VOCAB, 6)
        name = f"skill-{i:05d}"
        (dest / name).mkdir(parents=True)
        triggers = ", ".join([words[0], f"{words[1]} {words[2]}", f"{words[3]} {i}"])
        keywords = ", ".join([words[4], words[5], f"kw{i}"])
        (dest / name / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: Skill {i} about {' '.join(words)}. Use when the operator asks "
            f'about {words[0]} or {words[1]}.\nmetadata:\n  triggers: "{triggers}"\n  keywords: "{keywords}"\n'
            f"---\n\n# Skill {i}\n\nDo the {words[0]} work carefully.\n",
            encoding="utf-8",
        )


def _words(text: str) -> list[str]:
    """The normalised text's words (`api,` is the word `api`, as the router reads it)."""
    return re.findall(r"\w+", normalise(text))


class InvertedIndex:
    """The plain baseline: term -> skills, whole-word phrases checked on the normalised message."""

    def __init__(self, skills) -> None:
        self.by_word: dict[str, list[tuple[str, str, int]]] = defaultdict(list)
        for s in skills:
            for weight, terms in ((2, s.triggers), (1, s.keywords)):
                for term in dict.fromkeys(" ".join(_words(t)) for t in terms):
                    if term:
                        self.by_word[term.split()[0]].append((s.name, term, weight))

    def route(self, message: str, top: int = 5) -> list[tuple[str, int]]:
        words = _words(message)
        text = f" {' '.join(words)} "
        scores: dict[str, int] = defaultdict(int)
        for w in set(words):
            for name, term, weight in self.by_word.get(w, ()):
                if f" {term} " in text:
                    scores[name] += weight
        return sorted(scores.items(), key=lambda p: (-p[1], p[0]))[:top]


def _percentiles(fn, messages: list[str], rounds: int = 20) -> tuple[float, float]:
    times = []
    for _ in range(rounds):
        for m in messages:
            t0 = time.perf_counter()
            fn(m)
            times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95)]


def test_route_at_10k_skills(workspace: Workspace) -> None:
    lib = Path(tempfile.mkdtemp(prefix="lk-10k-"))
    runtime = Path(tempfile.mkdtemp(prefix="lkrt-"))
    try:
        write_library(lib, N)
        t0 = time.process_time()
        workspace.skills.import_path(lib, message="bench")
        import_cpu = time.process_time() - t0
        cold_env, warm_env = _env(runtime, warm=False), _env(runtime, warm=True)
        lk = [sys.executable, "-m", "lorekeeper", "--workspace", str(workspace.root)]
        message = MESSAGES[1]
        calls = {"route --json": [*lk, "route", message, "--json"], "prompt --json": [*lk, "prompt", message, "--json"]}
        _run(calls["route --json"], warm_env)  # bytecode; starts the service
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not json.loads(
            _run([*lk, "agentd", "status", "--json"], warm_env)[1]
        ).get("running"):
            time.sleep(0.3)
        for cmd in calls.values():
            _run(cmd, warm_env)  # the service builds its routers once
        floor: list[float] = []
        rows: dict[str, tuple[list[float], list[float]]] = {k: ([], []) for k in calls}
        for _ in range(REPEAT):
            for name, cmd in calls.items():
                ms, cold_out = _run(cmd, cold_env)
                rows[name][0].append(ms)
                floor.append(_run([sys.executable, "-c", "pass"], cold_env)[0])
                ms, warm_out = _run(cmd, warm_env)
                rows[name][1].append(ms)
                floor.append(_run([sys.executable, "-c", "pass"], cold_env)[0])
                assert warm_out == cold_out, name
        router = workspace.routers.get()
        index = InvertedIndex(workspace.skills.routable())
        same = sum([(x.name, x.score) for x in router.route(m).skills] == index.route(m) for m in MESSAGES)
        r50, r95 = _percentiles(lambda m: router.route(m, top=5), MESSAGES)
        i50, i95 = _percentiles(index.route, MESSAGES)
    finally:
        subprocess.run([*lk, "agentd", "stop"], env=warm_env, capture_output=True, check=False, timeout=60)
        shutil.rmtree(lib, ignore_errors=True)
        shutil.rmtree(runtime, ignore_errors=True)
    f = statistics.median(floor)
    lines = [
        f"\nroute/prompt at {N:,} skills, medians of {REPEAT}; python -c pass {f:.0f} ms; import {import_cpu:.1f} s CPU",
        f"  {'call':<16}{'cold ms':>9}{'warm ms':>9}{'cold/floor':>12}{'warm/floor':>12}{'target':>8}",
    ]
    for name, (cold, warm) in rows.items():
        c, w = statistics.median(cold), statistics.median(warm)
        lines.append(f"  {name:<16}{c:>9.0f}{w:>9.0f}{c / f:>11.1f}x{w / f:>11.1f}x{12:>7}x")
    lines.append(f"  top-5 equal to the inverted index's on {same} of {len(MESSAGES)} messages")
    lines.append(
        f"  in-process router p50 {r50:.2f} ms p95 {r95:.2f} ms; inverted index p50 {i50:.2f} ms p95 {i95:.2f} ms"
    )
    print("\n".join(lines))
