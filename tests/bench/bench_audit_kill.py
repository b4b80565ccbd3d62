"""kill -9 at random points during skill imports, key rotations and learnings imports: 50 runs.

Run: `python -m pytest -s tests/bench/bench_audit_kill.py` (or `make bench`). Prints, per run, what
the workspace held after start-up recovery; every run checks the invariants of
`tests/audit/kill_support.py` (no change without its signed event, the log verifies, no half file
in skills/, the export not stale). No timed assertion.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "audit"))


def test_kill_9_fifty_runs(workspace, tmp_path):
    from kill_support import run, use_atomic_keyring

    restore = use_atomic_keyring(workspace.audit.workspace_id, tmp_path / "keyring.json")
    root = workspace.root
    workspace.close()
    try:
        results = run(root, iterations=50, seed=50)
        last = results[-1]
        print(
            f"\n50 kill -9 runs ({dict(Counter(r['op'] for r in results))}): invariants held in all; "
            f"final state {last['learnings']} learnings, {last['imports']} skill imports, "
            f"key version {last['key_version']}, {last['events']} events"
        )
    finally:
        restore()
