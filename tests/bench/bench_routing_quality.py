"""Routing quality on REAL public skills (no router words), and speed at 10k skills.

Run: `python -m pytest -s tests/bench/bench_routing_quality.py`. The real skills are brought at
bench time (never committed): set LOREKEEPER_BENCH_SKILLS to a folder holding them, or let the
bench extract the bare mirrors the `fetch` tool leaves in /work/.mirror (anthropics/skills,
obra/superpowers, openai/skills, trailofbits/skills, wshobson/agents) into a temporary folder.
Without either, the quality test is skipped.

Baseline: the description-only word match the issue measured, i.e. a plain word match over name +
description (score = how many distinct message words, stop words aside, occur in them; ties by
name). Printed: top-1 and top-3 for both, and messages per second at 10k synthetic skills.
No timed assertion; the quality bound (right skill in the top 3 for >= 11 of 12) is asserted on
the first 12 messages, the rest are printed.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import tarfile
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import frontmatter
import pytest

from lorekeeper.skills.router import RoutableSkill, Router
from lorekeeper.skills.textindex import routing_stop_words
from lorekeeper.text import fold as normalise

MIRRORS = Path("/work/.mirror")
REPOS = ["anthropics+skills", "obra+superpowers", "openai+skills", "trailofbits+skills", "wshobson+agents"]

# (message an operator would type, the skill that should be hinted). The first 12 carry the bound.
MESSAGES: list[tuple[str, str]] = [
    ("Can you pull the tables out of this PDF invoice and merge it with last month's?", "pdf"),
    ("Make me a slide deck for the quarterly review, ten slides max", "pptx"),
    ("There's a bug: the checkout test fails randomly, help me find the root cause", "systematic-debugging"),
    ("Open the budget spreadsheet and add a column with the monthly totals formula", "xlsx"),
    ("Set up a GitHub Actions workflow that runs our tests on every pull request", "github-actions-templates"),
    ("Write a blameless postmortem for yesterday's outage", "postmortem-writing"),
    ("Fuzz this Rust crate with cargo to find crashes", "cargo-fuzz"),
    ("I want to build an MCP server so the model can call our internal API", "mcp-builder"),
    ("Écris une règle Semgrep pour détecter les injections SQL", "semgrep-rule-creator"),
    ("Crée un document Word avec le compte rendu de la réunion", "docx"),
    ("Design the PostgreSQL schema for orders and customers tables", "postgresql-table-design"),
    ("Configure Prometheus to scrape metrics from our services", "prometheus-configuration"),
    # more, printed only
    ("Review my Solana program for missing signer checks", "solana-vulnerability-scanner"),
    ("Add Stripe subscriptions and webhooks to the billing page", "stripe-integration"),
    ("Create a Helm chart for the API deployment", "helm-chart-scaffolding"),
    ("Our SQL query is slow, look at the EXPLAIN plan and suggest indexes", "sql-optimization-patterns"),
    ("Write Playwright end-to-end tests for the login flow", "e2e-testing-patterns"),
    ("Make an animated GIF for Slack celebrating the release", "slack-gif-creator"),
    ("Draft the changelog from the commits since the last release", "changelog-automation"),
    ("Fais une modélisation des menaces STRIDE pour notre API de paiement", "stride-analysis-patterns"),
    ("Rédige un runbook de réponse aux incidents pour la base de données", "incident-runbook-templates"),
    ("Migrate the database with zero downtime", "database-migration"),
    ("Write the implementation plan before we touch any code", "writing-plans"),
    ("Check the crypto code for timing side channels", "constant-time-analysis"),
]
BOUND_MESSAGES = 12
BOUND_TOP3 = 11


def _from_mirrors(dest: Path) -> bool:
    found = False
    for repo in REPOS:
        git_dir = MIRRORS / repo / "repo"
        if not git_dir.is_dir():
            continue
        target = dest / repo
        target.mkdir(parents=True)
        tar_path = dest / f"{repo}.tar"
        with open(tar_path, "wb") as fh:
            res = subprocess.run(["git", "--git-dir", str(git_dir), "archive", "HEAD"], stdout=fh, check=False)
        if res.returncode == 0:
            with tarfile.open(tar_path) as tf:
                tf.extractall(target, filter="data")
            found = True
    return found


def real_skills() -> Iterator[Path]:
    given = os.environ.get("LOREKEEPER_BENCH_SKILLS")
    if given:
        yield Path(given)
        return
    with tempfile.TemporaryDirectory(prefix="lk-bench-skills-") as tmp:
        if not _from_mirrors(Path(tmp)):
            pytest.skip("no real skills: set LOREKEEPER_BENCH_SKILLS or fetch the public skill repositories")
        yield Path(tmp)


def load_library(root: Path) -> list[RoutableSkill]:
    """Every SKILL.md's name and description (the first of a duplicated name wins); no router words."""
    out: dict[str, RoutableSkill] = {}
    for path in sorted(root.rglob("SKILL.md")):
        try:
            meta = frontmatter.loads(path.read_text(encoding="utf-8")).metadata
        except Exception:
            continue
        name, desc = meta.get("name"), meta.get("description")
        if isinstance(name, str) and isinstance(desc, str) and name not in out:
            out[name] = RoutableSkill(name, " ".join(desc.split()))
    return list(out.values())


_WORD = re.compile(r"[^\W_]+")


class WordMatchBaseline:
    """A plain word match over name + description: distinct message words found, then name."""

    def __init__(self, skills: list[RoutableSkill]) -> None:
        self.docs = [(s.name, set(_WORD.findall(normalise(s.name + " " + s.description)))) for s in skills]

    def route(self, message: str, top: int = 5) -> list[str]:
        words = {w for w in _WORD.findall(normalise(message)) if w not in routing_stop_words() and len(w) > 1}
        scored = [(len(words & doc), name) for name, doc in self.docs]
        scored = [p for p in scored if p[0] > 0]
        scored.sort(key=lambda p: (-p[0], p[1]))
        return [n for _, n in scored[:top]]


def _rank(names: list[str], want: str) -> int | None:
    return names.index(want) + 1 if want in names else None


def test_routing_quality_on_real_skills() -> None:
    for root in real_skills():
        lib = load_library(root)
        names = {s.name for s in lib}
        missing = [w for _, w in MESSAGES if w not in names]
        assert not missing, f"expected skills absent from the library: {missing}"
        router, base = Router(lib), WordMatchBaseline(lib)
        print(f"\n{len(lib)} real skills (no router words); {len(MESSAGES)} messages")
        print(f"{'router':>7} {'baseline':>8}  expected skill  /  message")
        tallies = {"r1": 0, "r3": 0, "b1": 0, "b3": 0, "r3_bound": 0}
        for n, (msg, want) in enumerate(MESSAGES):
            got = [m.name for m in router.route(msg).skills]
            r = _rank(got, want)
            b = _rank(base.route(msg), want)
            tallies["r1"] += r == 1
            tallies["r3"] += r is not None and r <= 3
            tallies["b1"] += b == 1
            tallies["b3"] += b is not None and b <= 3
            if n < BOUND_MESSAGES:
                tallies["r3_bound"] += r is not None and r <= 3
            print(f"{r or '-':>7} {b or '-':>8}  {want}  /  {msg}")
        total = len(MESSAGES)
        print(
            f"top-1: router {tallies['r1']}/{total}, baseline {tallies['b1']}/{total}; "
            f"top-3: router {tallies['r3']}/{total}, baseline {tallies['b3']}/{total}; "
            f"first {BOUND_MESSAGES}: router top-3 {tallies['r3_bound']}/{BOUND_MESSAGES}"
        )
        assert tallies["r3_bound"] >= BOUND_TOP3


WORDS = [
    "pdf", "spreadsheet", "slides", "deploy", "kubernetes", "docker", "review", "security", "audit", "fuzz",
    "rust", "python", "test", "database", "schema", "migration", "postgres", "query", "index", "cache",
    "queue", "payment", "stripe", "billing", "helm", "terraform", "grafana", "prometheus", "metrics",
    "logging", "tracing", "react", "angular", "design", "typography", "accessibility", "api", "graphql",
    "rest", "openapi", "changelog", "release", "commit", "branch", "merge", "rebase", "incident", "runbook",
    "postmortem", "threat", "model",
]  # fmt: skip


def synthetic(n: int, seed: int = 11) -> list[RoutableSkill]:
    rnd = random.Random(seed)
    return [
        RoutableSkill(f"skill-{i:05d}-{rnd.choice(WORDS)}", " ".join(rnd.choices(WORDS, k=25)) + f" topic{i}")
        for i in range(n)
    ]


def _rate(fn, messages: list[str], min_seconds: float = 0.5) -> float:
    n, start = 0, time.perf_counter()
    while True:
        for m in messages:
            fn(m)
        n += len(messages)
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return n / elapsed


def test_description_routing_speed_10k() -> None:
    msgs = [m for m, _ in MESSAGES]
    print(f"\n{'skills':>7} {'build ms':>9} {'router msg/s':>13} {'baseline msg/s':>15} {'ratio':>7}")
    for n in (300, 10_000):
        lib = synthetic(n)
        t0 = time.perf_counter()
        router = Router(lib)
        build_ms = (time.perf_counter() - t0) * 1000
        base = WordMatchBaseline(lib)
        fast = _rate(router.route, msgs)
        slow = _rate(base.route, msgs)
        print(f"{n:>7} {build_ms:>9.1f} {fast:>13,.0f} {slow:>15,.0f} {fast / slow:>6.1f}x")
