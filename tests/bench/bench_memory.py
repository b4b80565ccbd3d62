"""Memory search quality (nDCG@5 of BM25 alone, vectors alone, and both fused by RRF) on a small
labelled set written for it, and index build / search times at 10k research notes.

Run: `make bench` (or `python -m pytest -s tests/bench/bench_memory.py`). Vectors are the default
`hashing` embedder (no model); with `nomic-embed-text` through ollama the vector column changes.
The timing baseline is a brute-force numpy cosine over the same embeddings (what FAISS's flat
index does in C++). No timed assertion: machines are noisy; the quality assertions are loose
(fusion must not be worse than the best single ranking by more than 0.05).
"""

from __future__ import annotations

import random
import statistics
import time
from datetime import UTC, datetime

import numpy as np

from lorekeeper.memory.search import ndcg_at
from lorekeeper.workspace import Workspace

# (key, title, summary) — research notes of a small engineering team, several per topic, worded
# differently on purpose (synonyms, inflections), so that neither ranking has it easy.
NOTES = [
    (
        "pg-concurrent",
        "CREATE INDEX CONCURRENTLY on large tables",
        "Building an index concurrently avoids locking writes on sale_order_line.",
    ),
    (
        "pg-vacuum",
        "Autovacuum tuning for busy tables",
        "Lower the scale factor so dead tuples are cleaned before bloat slows queries.",
    ),
    (
        "pg-explain",
        "Reading EXPLAIN ANALYZE output",
        "Sequential scans on big relations show where an index is missing.",
    ),
    ("pg-pool", "Connection pooling with PgBouncer", "Transaction pooling cut connection counts by 90 percent."),
    (
        "pg-partition",
        "Partitioning the events table by month",
        "Monthly partitions make retention a DROP instead of a slow DELETE.",
    ),
    (
        "odoo-upgrade",
        "Upgrading Odoo modules on staging",
        "Run -u per addon with --stop-after-init on a restored copy.",
    ),
    ("odoo-qweb", "QWeb translations with t-call", "Translated report fragments must be called, not copied."),
    ("odoo-csrf", "CSRF on Odoo controllers", "Only signed webhooks may disable csrf protection."),
    (
        "js-vitest",
        "Vitest browser mode for component tests",
        "Real Chromium catches focus and layout bugs jsdom misses.",
    ),
    (
        "js-money",
        "Money as integer cents in TypeScript",
        "Floating point totals drifted by a cent on discounted carts.",
    ),
    (
        "js-rsc",
        "React Server Components for the catalogue",
        "Server rendering would shrink the bundle; the router is not ready.",
    ),
    ("js-a11y", "Accessible names before test ids", "getByRole with a name makes tests match what users perceive."),
    ("ci-cache", "Caching dependencies in CI", "Restoring the pip and npm caches halved pipeline duration."),
    ("ci-flaky", "Quarantining flaky tests", "Retried failures hide real races; quarantine and fix within a week."),
    ("ci-matrix", "Trimming the CI test matrix", "Testing every Python minor on every push wasted runner hours."),
    ("sec-secrets", "Secrets out of environment files", "Keyring storage stopped tokens leaking into shell history."),
    (
        "sec-deps",
        "Dependency vulnerability scanning",
        "Weekly audits of pinned packages found two critical advisories.",
    ),
    ("sec-hmac", "HMAC signatures over canonical JSON", "RFC 8785 canonicalisation makes signatures reproducible."),
    (
        "ml-rag",
        "Hybrid retrieval for documentation",
        "Lexical plus semantic ranking beat either alone on support questions.",
    ),
    ("ml-embed", "Choosing an embedding model", "nomic-embed-text gave good recall at 768 dimensions on a laptop."),
    (
        "ml-faiss",
        "FAISS flat index is enough below a million vectors",
        "Exact inner-product search stays under 10 ms at 100k.",
    ),
    (
        "ops-deploy",
        "Blue-green deployments for the storefront",
        "Switching traffic atomically removed deploy downtime.",
    ),
    ("ops-rollback", "Rolling back a failed release", "Keep the previous image warm so rollback takes seconds."),
    ("ops-alerts", "Alert fatigue on the on-call rotation", "Paging only on symptoms cut night pages by two thirds."),
    ("ops-logs", "Structured logging in JSON", "Machine-parsable logs made incident timelines trivial."),
    ("git-rebase", "Force-with-lease after rebasing", "Never plain force-push a shared branch."),
    ("git-alembic", "Never edit a merged Alembic revision", "Add a new migration instead; history must stay linear."),
    ("doc-adr", "Architecture decision records", "Short ADRs kept the why behind choices findable."),
    ("perf-cache", "HTTP caching for catalogue pages", "Cache-Control with revalidation cut origin load in half."),
    ("perf-n1", "N+1 queries in the order list", "Prefetching partners removed 300 queries per page."),
]
# query -> {note key: relevance (2 = answers it, 1 = related)}
QUERIES = {
    "add an index without blocking writes": {"pg-concurrent": 2, "pg-explain": 1},
    "database queries getting slow because of bloat": {"pg-vacuum": 2, "pg-explain": 1, "perf-n1": 1},
    "too many database connections": {"pg-pool": 2},
    "drop old events data quickly": {"pg-partition": 2, "pg-vacuum": 1},
    "upgrade odoo addons safely": {"odoo-upgrade": 2},
    "translate report templates": {"odoo-qweb": 2},
    "component testing in a real browser": {"js-vitest": 2, "js-a11y": 1},
    "rounding errors in cart totals": {"js-money": 2},
    "speed up the pipeline": {"ci-cache": 2, "ci-matrix": 2, "ci-flaky": 1},
    "signing audit events": {"sec-hmac": 2, "sec-secrets": 1},
    "semantic search over notes": {"ml-rag": 2, "ml-embed": 2, "ml-faiss": 2},
    "deploying without downtime": {"ops-deploy": 2, "ops-rollback": 1},
    "too many pages at night": {"ops-alerts": 2},
    "publishing a rebased branch": {"git-rebase": 2},
    "schema migration history": {"git-alembic": 2, "pg-partition": 1},
    "fewer queries per page": {"perf-n1": 2, "perf-cache": 1},
}


def _workspace(tmp_path, notes) -> Workspace:
    from lorekeeper.store.models import ResearchNote

    ws = Workspace.init(tmp_path / "ws", starter=False)
    now = datetime.now(UTC)
    with ws.store.write() as s:
        for key, title, summary in notes:
            s.add(
                ResearchNote(
                    path=key,
                    title=title,
                    summary=summary,
                    body=summary,
                    verdict="signal",
                    impact="modere",
                    date="2026-11-01",
                    tags="",
                    collected_at=now,
                )
            )
    return ws


def test_search_quality_ndcg_at_5(tmp_path) -> None:
    ws = _workspace(tmp_path, NOTES)
    ws.memory.build("notes")
    table = {}
    for mode in ("bm25", "vector", "hybrid"):
        scores = [
            ndcg_at([h.doc.key for h in ws.memory.search(q, "notes", top=5, mode=mode)], rel, 5)
            for q, rel in QUERIES.items()
        ]
        table[mode] = statistics.mean(scores)
    print(f"\nnDCG@5 on {len(QUERIES)} labelled queries over {len(NOTES)} notes (hashing embedder):")
    for mode, v in table.items():
        print(f"  {mode:<7} {v:.3f}")
    assert table["hybrid"] >= max(table["bm25"], table["vector"]) - 0.05
    ws.close()


def _synthetic(n: int, seed: int = 7) -> list[tuple[str, str, str]]:
    rng = random.Random(seed)
    words = sorted({w.lower().strip(".,;") for _, t, s in NOTES for w in f"{t} {s}".split() if len(w) > 3})
    out = []
    for i in range(n):
        title = " ".join(rng.choices(words, k=6))
        summary = " ".join(rng.choices(words, k=30))
        out.append((f"note-{i:05d}", title, summary))
    return out


def test_index_build_and_search_at_10k_notes(tmp_path) -> None:
    ws = _workspace(tmp_path, _synthetic(10_000))
    t0 = time.perf_counter()
    meta = ws.memory.build("notes")
    build = time.perf_counter() - t0
    queries = list(QUERIES) * 3
    t0 = time.perf_counter()
    ws.memory.search(queries[0], "notes", top=5)  # first search builds the BM25 index (cached per revision)
    first = time.perf_counter() - t0
    times = []
    for q in queries:
        t0 = time.perf_counter()
        ws.memory.search(q, "notes", top=5)
        times.append(time.perf_counter() - t0)
    # baseline for the vector part: brute-force numpy cosine over the same embeddings
    emb = np.load(ws.memory.index("notes").paths.embeddings)
    qv = ws.memory.embedder().embed(queries)
    t0 = time.perf_counter()
    for v in qv:
        np.argsort(-(emb @ v))[:100]
    brute = (time.perf_counter() - t0) / len(qv)
    t0 = time.perf_counter()
    for v in qv:
        ws.memory.index("notes").search(v, 100)
    faiss_t = (time.perf_counter() - t0) / len(qv)
    print(
        f"\n10k notes: index build {build:.2f} s ({meta['count']} vectors, {meta['dimension']} dims); "
        f"first hybrid search {first * 1000:.0f} ms (builds BM25); hybrid search median "
        f"{statistics.median(times) * 1000:.1f} ms, p95 {sorted(times)[int(len(times) * 0.95)] * 1000:.1f} ms; "
        f"vector top-100: FAISS (file load + search) {faiss_t * 1000:.1f} ms vs numpy brute force {brute * 1000:.1f} ms"
    )
    ws.close()
