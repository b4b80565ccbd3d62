"""Router throughput at 25, 1k and 10k skills, side by side with a naive baseline.

Run: `make bench` (or `python -m pytest -s tests/bench/bench_router.py`). The baseline is the
seed's straightforward algorithm: for every skill, test every trigger and keyword against the
message with a whole-word regex. Both must return the same ranking; we print messages per second
and the ratio. No timed assertion: machines are noisy.
"""

from __future__ import annotations

import random
import re
import time

from lorekeeper.skills.router import RoutableSkill, Router
from lorekeeper.text import fold as normalise

VOCAB = [
    "deploy",
    "review",
    "audit",
    "docker",
    "kubernetes",
    "migration",
    "schema",
    "test",
    "pytest",
    "release",
    "incident",
    "rollback",
    "latency",
    "profile",
    "refactor",
    "api",
    "graphql",
    "security",
    "xss",
    "owasp",
    "commit",
    "rebase",
    "branch",
    "merge",
    "changelog",
    "version",
    "upgrade",
    "dependency",
    "cache",
    "queue",
    "terraform",
    "helm",
    "postgres",
    "index",
    "query",
    "lint",
    "format",
    "typescript",
    "python",
    "rust",
]
MESSAGES = [
    "Please review this pull request for XSS and SQL injection issues",
    "Deploy the new docker image to kubernetes and roll back if latency grows",
    "Write pytest tests for the payment queue and the cache layer",
    "We need a database migration adding an index on orders",
    "Draft the release notes and changelog for version 2.4",
    "What is the weather like today?",
    "Upgrade every dependency of the python service and run the linter",
    "Profile the graphql api, the p99 latency doubled after the merge",
]


def library(n: int, seed: int = 7) -> list[RoutableSkill]:
    rnd = random.Random(seed)
    out = []
    for i in range(n):
        words = rnd.sample(VOCAB, 6)
        triggers = (words[0], f"{words[1]} {words[2]}", f"{words[3]}-{i}")
        keywords = (words[4], words[5], f"kw{i}")
        out.append(RoutableSkill(f"skill-{i:05d}", f"Skill {i} about {' '.join(words)}", triggers, keywords))
    return out


class NaiveRouter:
    def __init__(self, skills: list[RoutableSkill]) -> None:
        self.skills = skills

    @staticmethod
    def _pat(term: str) -> re.Pattern[str]:
        return re.compile(r"(?<!\w)" + r"\s+".join(map(re.escape, normalise(term).split())) + r"(?!\w)")

    def route(self, message: str, top: int = 5) -> list[tuple[str, int]]:
        norm = normalise(message)
        scored = []
        for s in self.skills:
            t = sum(1 for x in dict.fromkeys(normalise(x) for x in s.triggers) if self._pat(x).search(norm))
            k = sum(1 for x in dict.fromkeys(normalise(x) for x in s.keywords) if self._pat(x).search(norm))
            if 2 * t + k:
                scored.append((s.name, 2 * t + k))
        scored.sort(key=lambda p: (-p[1], p[0]))
        return scored[:top]


def rate(fn, messages: list[str], min_seconds: float = 0.5) -> float:
    n, start = 0, time.perf_counter()
    while True:
        for m in messages:
            fn(m)
        n += len(messages)
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return n / elapsed


def test_router_throughput() -> None:
    print()
    print(f"{'skills':>7} {'build ms':>9} {'router msg/s':>13} {'naive msg/s':>12} {'ratio':>8}")
    for n in (25, 1_000, 10_000):
        lib = library(n)
        t0 = time.perf_counter()
        router = Router(lib)
        build_ms = (time.perf_counter() - t0) * 1000
        naive = NaiveRouter(lib)
        for m in MESSAGES:  # same answers as the baseline
            assert [(x.name, x.score) for x in router.route(m).skills] == naive.route(m)
        fast = rate(router.route, MESSAGES)
        slow = rate(naive.route, MESSAGES[:2] if n >= 10_000 else MESSAGES, min_seconds=0.3)
        print(f"{n:>7} {build_ms:>9.1f} {fast:>13,.0f} {slow:>12,.1f} {fast / slow:>7.0f}x")
