"""`lorekeeper memory collect` of 20,000 memory files (issue 26 d3: <= 20 s CPU; 140 s when the
issue was filed), as one process, against a plain baseline doing the same reading run side by side.

The material (fixed seed, generated into the workspace, nothing committed): 18,900 research notes
under `sources/` (front matter verdict/impact/date/tags/domain/project, some with a summary, French
and English spellings, an H1, one to four sections, lists, code fences), 1,000 plain markdown
documents (no verdict: collect passes them by) and 100 hand-placed clarification files.

Three collects, each `lorekeeper --workspace WS memory collect --json` in its own process, CPU
(user + sys of the child) measured: the first (everything new), a second with nothing changed, a
third after 1,000 notes were edited and 200 removed. The baseline is the simplest program that does
the first collect's reading and storing: read every file, sha256 it, parse its front matter with
libyaml, take the H1, and insert one row per note into a plain sqlite3 table in one transaction (no
signing, no ledger, no change feed, no PII gate: what the ratio pays for is those).

Run: `python -m pytest -s -p no:cacheprovider -o norecursedirs= tests/bench/bench_memory_collect.py`.
No timed assertion; the counts are asserted.
"""

from __future__ import annotations

import json
import random
import resource
import subprocess
import sys
import textwrap
from pathlib import Path

from lorekeeper.workspace import Workspace

N_FILES = 20_000
N_CLARIFICATIONS = 100
DOC_EVERY = 20  # one file in 20 of sources/ is a plain document
TARGET_CPU = 20.0

TOPICS = [
    "postgres", "odoo", "vitest", "react", "ci", "secrets", "hmac", "faiss", "bm25", "pgbouncer",
    "partitioning", "autovacuum", "qweb", "csrf", "typescript", "accessibility", "caching", "flaky",
    "matrix", "keyring", "alembic", "sqlite", "embedding", "tokenizer", "retention",
]  # fmt: skip
_WORDS = (
    "index table query lock write read cache build test deploy release review migration schema replica backup "
    "restore latency throughput budget error retry queue worker session token signature audit ledger report chart "
    "metric trace span bundle router component render layout focus label requête verrou déploiement"
)
WORDS = _WORDS.split()
DOMAINS = ["backend", "frontend", "ops", "security", "data"]
PROJECTS = ["shop", "erp", "portal", "billing", ""]
VERDICTS = ["signal", "bruit", "veille", "noise", "watch"]
IMPACTS = ["fort", "modere", "faible", "moderate", "high", "modéré"]


def _sentence(rnd: random.Random, n: int) -> str:
    return " ".join(rnd.choice(WORDS) for _ in range(n)).capitalize() + "."


def _note(rnd: random.Random, i: int, topic: str) -> str:
    tags = ", ".join(rnd.sample(TOPICS, 3))
    fm = [
        f"verdict: {rnd.choice(VERDICTS)}",
        f"impact: {rnd.choice(IMPACTS)}",
        f"date: 20{rnd.randint(20, 26)}-{rnd.randint(1, 12):02d}-{rnd.randint(1, 28):02d}",
        f"tags: [{tags}]",
        f"domain: {rnd.choice(DOMAINS)}",
    ]
    project = rnd.choice(PROJECTS)
    if project:
        fm.append(f"project: {project}")
    if i % 3 == 0:
        fm.append(f"summary: {_sentence(rnd, 18)}")
    body = [f"# {topic.capitalize()} note {i}: {_sentence(rnd, 5)}", "", _sentence(rnd, 40), ""]
    for _ in range(rnd.randint(1, 4)):
        body += [f"## {_sentence(rnd, 3)}", "", _sentence(rnd, rnd.randint(20, 80)), ""]
        body += [f"- {_sentence(rnd, 8)}", f"- {_sentence(rnd, 8)}", ""]
    if i % 7 == 0:
        body += ["```sql", "SELECT 1;", "```", ""]
    return "---\n" + "\n".join(fm) + "\n---\n\n" + "\n".join(body)


def _clarification(rnd: random.Random, i: int) -> str:
    story = f"BENCH-{i:04d}"
    return (
        f"---\nstory: {story}\nstep: 0\ndate: 2026-{1 + i % 9:02d}-{10 + i % 9}\ndomain: {rnd.choice(DOMAINS)}\n"
        f"project: {rnd.choice(PROJECTS[:4])}\nretention_until: 2027-10-10\n---\n\n"
        f"# Clarifications PO — {story} (résumé structuré)\n\n"
        f"## Problème / besoin utilisateur\n{_sentence(rnd, 15)}\n\n## Critères de succès\n{_sentence(rnd, 12)}\n\n"
        f"## Contraintes connues\n{_sentence(rnd, 10)}\n\n## Priorités (must-have / nice-to-have)\n"
        f"{_sentence(rnd, 10)}\n"
    )


def write_memory_files(root: Path, n: int = N_FILES, clarifications: int = N_CLARIFICATIONS, seed: int = 26) -> dict:
    """`n` files: `clarifications` clarification files, the rest under sources/ (one in DOC_EVERY a plain
    document, the others research notes)."""
    rnd = random.Random(seed)
    counts = {"notes": 0, "documents": 0, "clarifications": clarifications}
    for i in range(n - clarifications):
        topic = rnd.choice(TOPICS)
        d = root / "sources" / topic / f"{i // 500:03d}"
        d.mkdir(parents=True, exist_ok=True)
        if i % DOC_EVERY == DOC_EVERY - 1:
            (d / f"doc-{i:05d}.md").write_text(f"# Conventions {i}\n\n{_sentence(rnd, 30)}\n", encoding="utf-8")
            counts["documents"] += 1
        else:
            (d / f"note-{i:05d}.md").write_text(_note(rnd, i, topic), encoding="utf-8")
            counts["notes"] += 1
    (root / "clarifications").mkdir(exist_ok=True)
    for i in range(clarifications):
        (root / "clarifications" / f"BENCH-{i:04d}-clarifications.md").write_text(
            _clarification(rnd, i), encoding="utf-8"
        )
    return counts


BASELINE = textwrap.dedent(
    """
    import hashlib, re, sqlite3, sys
    from pathlib import Path
    import yaml

    root = Path(sys.argv[1]); db = sqlite3.connect(sys.argv[2])
    db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, path TEXT UNIQUE, title TEXT, body TEXT, meta TEXT, sha TEXT)")
    fence = re.compile(r"^---[ \\t]*$", re.M); h1 = re.compile(r"^#\\s+(.+?)\\s*$", re.M)
    rows = []
    for p in sorted(root.rglob("*.md")):
        data = p.read_bytes(); text = data.decode("utf-8"); sha = hashlib.sha256(data).hexdigest()
        m = fence.match(text); end = fence.search(text, m.end() + 1) if m else None
        meta = yaml.load(text[m.end() + 1 : end.start()], Loader=yaml.CSafeLoader) if end else {}
        if not isinstance(meta, dict) or "verdict" not in meta:
            continue
        body = text[end.end():]; t = h1.search(body)
        rows.append((p.relative_to(root).as_posix(), t.group(1) if t else "", body, repr(meta), sha))
    with db:
        db.executemany("INSERT INTO notes (path, title, body, meta, sha) VALUES (?, ?, ?, ?, ?)", rows)
    print(len(rows))
    """
)


def _cpu_run(cmd: list[str]) -> tuple[float, str]:
    """(user + sys CPU seconds of the child, its stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=1800, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert res.returncode == 0, res.stderr
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), res.stdout


def test_memory_collect_20k(workspace: Workspace, tmp_path: Path) -> None:
    root = workspace.root
    counts = write_memory_files(root)
    lk = [sys.executable, "-m", "lorekeeper", "--workspace", str(root), "memory", "collect", "--json"]
    floor, _ = _cpu_run([sys.executable, "-c", "pass"])
    base_cpu, base_out = _cpu_run([sys.executable, "-c", BASELINE, str(root / "sources"), str(tmp_path / "b.db")])
    assert int(base_out) == counts["notes"]
    first_cpu, out = _cpu_run(lk)
    first = json.loads(out)
    assert first["added"] == counts["notes"] and first["clarifications_imported"] == counts["clarifications"]
    again_cpu, out = _cpu_run(lk)
    again = json.loads(out)
    assert again["unchanged"] == counts["notes"] and again["added"] == again["updated"] == 0
    notes = sorted((root / "sources").rglob("note-*.md"))
    rnd = random.Random(9)
    for p in rnd.sample(notes, 1000):
        p.write_text(p.read_text(encoding="utf-8") + "\nEdited for the bench.\n", encoding="utf-8")
    removed = [p for p in rnd.sample(notes, 400) if p.read_text(encoding="utf-8").find("Edited for") < 0][:200]
    for p in removed:
        p.unlink()
    edit_cpu, out = _cpu_run(lk)
    edit = json.loads(out)
    edited = f"1,000 edited, {len(removed)} removed"
    assert edit["removed"] == len(removed) and edit["updated"] == 1000 and edit["added"] == 0
    print(
        f"\nmemory collect of {N_FILES:,} files ({counts['notes']:,} notes, {counts['documents']:,} plain "
        f"documents, {counts['clarifications']} clarification files), CPU seconds (user + sys) of one process each;"
        f" python -c pass {floor:.2f} s\n"
        f"  {'run':<34}{'CPU s':>8}{'/ baseline':>12}{'target':>9}\n"
        f"  {'baseline (read, hash, insert)':<34}{base_cpu:>8.2f}{1:>11.1f}x\n"
        f"  {'first collect':<34}{first_cpu:>8.2f}{first_cpu / base_cpu:>11.1f}x{TARGET_CPU:>8.0f}s\n"
        f"  {'second collect (nothing changed)':<34}{again_cpu:>8.2f}{again_cpu / base_cpu:>11.1f}x\n"
        f"  {edited:<34}{edit_cpu:>8.2f}{edit_cpu / base_cpu:>11.1f}x"
    )
