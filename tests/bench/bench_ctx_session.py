"""The context session on a real tree: tokens sent with the session vs without, RRF vs LRU eviction.

Run: `python -m pytest -s tests/bench/bench_ctx_session.py` (the tree: $CTX_SESSION_TREE, else a copy
of the installed click package, ~100k tokens).

A scripted 10-turn conversation of packs and reads for one task, in a small window (10k tokens) so
that the ledger reaches the evict level. Baselines, fair and in the same run:
- without a session: the same calls, each sending its whole text again (what `ctx pack`/`ctx read`
  do today), so "sent" is the sum of the plain texts;
- plain LRU eviction: the same session, the same script, evicting the least recently used files
  instead of RRF's fusion of recency, frequency and task relevance.
"Needed" files are the task's (core.py, parser.py): read early and again later; a re-read that
comes back as one line means the session kept the file, a re-send means eviction dropped it.
No timed assertion.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from lorekeeper.context.session import ContextSession

TASK = "fix the bug where an Option with multiple=True and nargs=2 loses its default value in the parser"
WINDOW = 10_000
NEEDED = ("core.py", "parser.py")
SCRIPT: list[tuple[str, str, int]] = [  # (kind, what, budget)
    ("pack", ".", 3000),
    ("read", "core.py", 2500),
    ("read", "parser.py", 2500),
    ("read", "types.py", 1500),
    ("pack", ".", 3000),
    ("read", "core.py", 2500),
    ("read", "testing.py", 1500),
    ("read", "termui.py", 1500),
    ("read", "decorators.py", 1500),
    ("read", "parser.py", 2500),
]


# $CTX_SESSION_TREE=.../lib/sqlalchemy: a 1.7M-token tree, its own script (packs at 8k, a 20k window)
SQLA_TASK = "fix the bug where Session.merge loses pending changes of a relationship collection"
SQLA_WINDOW = 20_000
SQLA_NEEDED = ("orm/session.py", "orm/relationships.py")
SQLA_SCRIPT: list[tuple[str, str, int]] = [
    ("pack", ".", 8000),
    ("read", "orm/session.py", 3000),
    ("read", "orm/relationships.py", 3000),
    ("read", "orm/unitofwork.py", 2000),
    ("pack", ".", 8000),
    ("read", "orm/session.py", 3000),
    ("read", "orm/attributes.py", 2000),
    ("read", "orm/state.py", 2000),
    ("read", "orm/dependency.py", 2000),
    ("read", "orm/relationships.py", 3000),
]


def _tree(tmp: Path) -> Path:
    env = os.environ.get("CTX_SESSION_TREE")
    if env:
        return Path(env)
    import click

    dest = tmp / "click"
    shutil.copytree(Path(click.__file__).parent, dest, ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def _setup(root: Path) -> tuple[str, int, tuple[str, ...], list[tuple[str, str, int]]]:
    if (root / "orm" / "session.py").is_file():
        return SQLA_TASK, SQLA_WINDOW, SQLA_NEEDED, SQLA_SCRIPT
    return TASK, WINDOW, NEEDED, SCRIPT


def run_script(root: Path, policy: str) -> tuple[ContextSession, list[str]]:
    task, window, _, script = _setup(root)
    s = ContextSession(f"bench-{policy}", root, window=window, task=task, policy=policy)
    log = []
    for kind, what, budget in script:
        if kind == "pack":
            d = s.pack(task=task, budget=budget)
        else:
            d = s.read(root / what, task=task, budget=budget)
        ev = ",".join(e["path"] for e in d.evicted) or "-"
        log.append(
            f"{d.turn:>4} {kind:<5}{what:<23}{d.sent_tokens:>7,}{d.plain_tokens:>8,} {len(d.unchanged):>4} "
            f"{d.used:>7,} {d.pressure:<9}{ev}"
        )
    return s, log


def test_session_vs_resending_and_rrf_vs_lru(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    results = {}
    for policy in ("rrf", "lru"):
        s, log = run_script(root, policy)
        results[policy] = s
        print(f"\n[{policy}] turn kind what                   sent   plain same    used pressure evicted")
        print("\n".join(log))
    for policy, s in results.items():
        t = s.totals()
        kept = [n for n in _setup(root)[2] if n in s.items]
        rereads = [
            (t2.what, "kept" if t2.what in t2.unchanged else "re-sent")
            for i, t2 in enumerate(s.turns)
            if t2.kind == "read" and any(t1.what == t2.what for t1 in s.turns[:i])
        ]
        print(
            f"{policy}: sent {t['sent_tokens']:,} tokens vs {t['plain_tokens']:,} without a session "
            f"({t['ratio']:.1%}); {t['evicted']} evictions; re-reads {rereads}; needed files held at the end {kept}"
        )
    r, lru = results["rrf"].totals(), results["lru"].totals()
    print(f"RRF / LRU tokens sent: {r['sent_tokens'] / max(1, lru['sent_tokens']):.3f}")
