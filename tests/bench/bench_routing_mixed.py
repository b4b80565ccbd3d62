"""Routing quality on a MIXED library (issue 27): the 12 starters (with triggers/keywords) plus the
real public skills (name + description only), the case the seed-first ranking got wrong.

Run: `python -m pytest -s tests/bench/bench_routing_mixed.py`. Real skills come as in
bench_routing_quality (LOREKEEPER_BENCH_SKILLS, or the bare mirrors the `fetch` tool leaves in
/work/.mirror); without them the test is skipped. Nothing fetched is committed.

The messages were written before the fused router was run on this library: the 24 of
bench_routing_quality (aimed at imported skills) and 24 more, 12 aimed at each starter and 12 at
imported skills whose message also carries a generic starter word (review, lint, git, PR, ...).
Baseline, side by side: the seed-first order (every trigger/keyword match above every description
match), i.e. the router before issue 27. Printed: top-1 / top-3 for both. The bound asserted is
the issue's target for the fused router: top-1 >= 85 %, top-3 >= 95 %.
"""

from __future__ import annotations

from pathlib import Path

import frontmatter
from bench_routing_quality import MESSAGES as IMPORTED_MESSAGES
from bench_routing_quality import load_library, real_skills

from lorekeeper.skills.router import VIA_DESCRIPTION, RoutableSkill, Router

STARTERS = Path(__file__).resolve().parents[2] / "skills"

MESSAGES: list[tuple[str, str]] = [
    *IMPORTED_MESSAGES,
    # aimed at the starters
    ("Review my PR before I merge it, is it safe to merge?", "code-review"),
    ("Write a migration that adds a column for the customer's country", "db-migrations"),
    ("Bump all outdated packages to their latest major version", "dependency-upgrade"),
    ("Deploy the API to production with a canary", "deployment-flow"),
    ("I have a merge conflict after rebasing onto main", "git-manager"),
    ("The payments service is down, we need the on-call runbook", "incident-runbook"),
    ("This endpoint is too slow, profile it and find the bottleneck", "performance-profiling"),
    ("Refactor this module: extract function and remove dead code", "refactoring"),
    ("Draft the release notes for version 2.4", "release-notes"),
    ("Add unit tests for the invoice parser with pytest fixtures", "test-writer"),
    ("Design an API for the orders service, with the OpenAPI spec", "api-design"),
    ("Audit this Flask app for SQL injection and XSS vulnerabilities", "security-audit"),
    # aimed at imported skills, with a generic starter word in the message
    ("Scaffold a new Helm chart with values and templates for our API", "helm-chart-scaffolding"),
    ("Migrate our Python project from pip and requirements.txt to uv", "uv-package-manager"),
    ("Set up a devcontainer for this repo so new contributors get the same tools", "devcontainer-setup"),
    ("Review this Rust code for unsafe blocks and lifetime bugs", "rust-review"),
    ("Write a Grafana dashboard for the API latency metrics", "grafana-dashboards"),
    ("Use git worktrees so I can work on two branches at once", "using-git-worktrees"),
    ("Write a YARA rule to detect this malware family", "yara-rule-authoring"),
    ("Build a reusable Terraform module library for our VPCs", "terraform-module-library"),
    ("Set up mutual TLS between our services", "mtls-configuration"),
    ("Write property-based tests with Hypothesis for the parser", "property-based-testing"),
    ("Lint our shell scripts with ShellCheck in CI", "shellcheck-configuration"),
    ("Fix the failing CI checks on my GitHub PR", "gh-fix-ci"),
]


def _words(value: object) -> tuple[str, ...]:
    return tuple(w.strip() for w in str(value or "").split(",") if w.strip())


def starters() -> list[RoutableSkill]:
    out = []
    for path in sorted(STARTERS.glob("*/SKILL.md")):
        meta = frontmatter.loads(path.read_text(encoding="utf-8")).metadata
        extra = meta.get("metadata") or {}
        out.append(
            RoutableSkill(
                str(meta["name"]),
                " ".join(str(meta.get("description", "")).split()),
                _words(extra.get("triggers")),
                _words(extra.get("keywords")),
            )
        )
    return out


def _rank(names: list[str], want: str) -> int | None:
    return names.index(want) + 1 if want in names else None


def test_mixed_library_quality() -> None:
    for root in real_skills():
        lib = {s.name: s for s in starters()}
        for s in load_library(root):
            lib.setdefault(s.name, s)  # a starter keeps its name
        router = Router(list(lib.values()))
        missing = [w for _, w in MESSAGES if w not in lib]
        assert not missing, f"expected skills absent from the library: {missing}"
        t = {"f1": 0, "f3": 0, "b1": 0, "b3": 0}
        print(f"\n{len(lib)} skills (12 starters with router words); {len(MESSAGES)} messages")
        for msg, want in MESSAGES:
            ranked = router.score_all(msg)
            fused = [m.name for m in ranked[:3]]
            seed_first = sorted(ranked, key=lambda m: (m.via == VIA_DESCRIPTION, -m.score, m.name))
            base = [m.name for m in seed_first[:3]]
            rf, rb = _rank(fused, want), _rank(base, want)
            t["f1"] += rf == 1
            t["f3"] += rf is not None
            t["b1"] += rb == 1
            t["b3"] += rb is not None
            print(f"  fused {rf or '-'} seed-first {rb or '-'}  {want:28} {msg[:60]}  -> {fused}")
        n = len(MESSAGES)
        print(f"seed-first: top-1 {t['b1']}/{n}, top-3 {t['b3']}/{n}")
        print(f"fused:      top-1 {t['f1']}/{n}, top-3 {t['f3']}/{n}")
        assert t["f1"] >= 0.85 * n and t["f3"] >= 0.95 * n


# Written after the calibration constant was chosen on MESSAGES, before running the router on them
# (issue 27 check, router helper): an honest held-out measure of the fused ranking. On the same 313
# skills: fused top-1 31/35, top-3 34/35; seed-first top-1 25/35, top-3 34/35.
FRESH_MESSAGES: list[tuple[str, str]] = [
    ("Fill in this Word document template and keep the tracked changes", "docx"),
    ("Extract the text and tables from these scanned PDF forms", "pdf"),
    ("Create an Excel spreadsheet with formulas for the monthly budget", "xlsx"),
    ("Build an MCP server that exposes our ticket system to the model", "mcp-builder"),
    ("Test our web app in a headless browser with Playwright and take screenshots", "webapp-testing"),
    ("Brainstorm the design of a new feature with me before we write code", "brainstorming"),
    ("Execute the implementation plan we wrote yesterday, task by task", "executing-plans"),
    ("Address the review comments on my GitHub pull request", "gh-address-comments"),
    ("Create a Linear issue for this bug and link it to the project", "linear"),
    ("Scan this Solana program for common vulnerabilities", "solana-vulnerability-scanner"),
    ("Set up cargo-fuzz for our Rust parser crate", "cargo-fuzz"),
    ("Parse this SARIF file from CodeQL and list the high findings", "sarif-parsing"),
    ("Write Airflow DAGs for our nightly ETL jobs", "airflow-dag-patterns"),
    ("Optimise our slow Spark jobs, they shuffle too much", "spark-optimization"),
    ("Set up Stripe checkout and webhooks for subscriptions", "stripe-integration"),
    ("Make our app compliant with PCI DSS for card data", "pci-compliance"),
    ("Define SLOs and error budgets for the checkout service", "slo-implementation"),
    ("Write Prometheus scrape configs and recording rules", "prometheus-configuration"),
    ("Implement a RAG pipeline over our docs with a vector database", "rag-implementation"),
    ("Fine-tune a model with LoRA on a single GPU", "lora-qlora-recipes"),
    ("Write Bats tests for our shell scripts", "bats-testing-patterns"),
    ("Do a STRIDE threat model of the login flow", "stride-analysis-patterns"),
    ("Set up Kubernetes network policies and pod security for the cluster", "k8s-security-policies"),
    ("Write a handoff note for the next on-call shift", "on-call-handoff-patterns"),
    ("Record an architecture decision record for choosing Postgres", "architecture-decision-records"),
    ("Type this TypeScript utility with conditional and mapped types", "typescript-advanced-types"),
    ("Use Go channels and worker pools without leaking goroutines", "go-concurrency-patterns"),
    ("Check this diff for bugs before I approve the pull request", "code-review"),
    ("Roll back the failed deploy and promote the previous release", "deployment-flow"),
    ("Rename the column in the users table without downtime", "db-migrations"),
    ("Write tests for the date parsing function", "test-writer"),
    ("Our API returns 503s since ten minutes, what do we do", "incident-runbook"),
    ("Cherry-pick the fix onto the release branch", "git-manager"),
    ("Find the memory leak that makes the worker slow after an hour", "performance-profiling"),
    ("Write the changelog for this release", "release-notes"),
]


def test_mixed_library_quality_on_fresh_messages() -> None:
    for root in real_skills():
        lib = {s.name: s for s in starters()}
        for s in load_library(root):
            lib.setdefault(s.name, s)
        router = Router(list(lib.values()))
        assert not [w for _, w in FRESH_MESSAGES if w not in lib]
        top1 = top3 = 0
        for msg, want in FRESH_MESSAGES:
            fused = [m.name for m in router.score_all(msg)[:3]]
            top1 += fused[:1] == [want]
            top3 += want in fused
            if fused[:1] != [want]:
                print(f"  miss {want:28} {msg[:60]}  -> {fused}")
        n = len(FRESH_MESSAGES)
        print(f"fresh messages: fused top-1 {top1}/{n}, top-3 {top3}/{n}")
        assert top1 >= 0.85 * n and top3 >= 0.95 * n
