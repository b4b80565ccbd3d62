"""Audit chain throughput: signed events verified per second, side by side with a baseline.

Run: `make bench` (or `python -m pytest -s tests/bench/bench_audit.py`). The baseline is the bare
cryptographic floor measured in the same run: `rfc8785.dumps` + HMAC-SHA256 of the same event
headers, nothing else. Lorekeeper's verification also parses each line strictly (duplicate keys,
huge integers), hashes the content, checks the chain and the checkpoint, and reads the file under
a shared flock. We print events per second and the ratio (above 1: faster than the floor, thanks
to the C fast path of `lorekeeper.audit.jcs` for float-free values; floats take the reference). No timed assertion: machines are noisy.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import tempfile
import time
from pathlib import Path

import rfc8785

from lorekeeper.audit.log import SessionLog
from lorekeeper.audit.signer import Signer
from lorekeeper.store.engine import Store

KEY = bytes(range(32))


def _write_log(root: Path, n: int, floats: bool = True) -> SessionLog:
    store = Store(f"sqlite:///{root / 'bench.db'}")
    log = SessionLog(root / "sessions", root / "locks", store, Signer(KEY, 1))
    path = root / "sessions" / "2026-04-11.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    # write the file in one go (appending n events one fsync at a time measures the disk, not us)
    signer = log.signer
    prev, lines = "", []
    for i in range(n):
        content = {
            "data": {
                "story": f"PD-{i % 97}",
                "learnings": [f"L{j}" for j in range(5)],
                "score": i / 7 if floats else i,
            },
            "salt": f"{i:032x}",
        }
        header = {
            "v": 1,
            "seq": i + 1,
            "ts": f"2026-04-11T09:00:{i % 60:02d}.000000+00:00",
            "type": "memory_injected",
            "story": f"PD-{i % 97}",
            "content_sha256": hashlib.sha256(rfc8785.dumps(content)).hexdigest(),
            "prev": prev,
        }
        signed = signer.sign(header)
        prev = signed["sig"]
        lines.append(rfc8785.dumps({**signed, "content": content}).decode())
    path.write_text("\n".join(lines) + "\n")
    # the file's checkpoint and the log's head (issue 18), as appends would have left them
    from lorekeeper.audit.heads import Head

    log.heads.store_head(Head(n, n, path.name, n, prev), "2026-04-11T10:00:00+00:00")
    return log


def _baseline(path: Path) -> float:
    t0 = time.perf_counter()
    for line in path.read_text().splitlines():
        ev = json.loads(line)
        body = {k: v for k, v in ev.items() if k not in ("sig", "content")}
        expected = hmac.new(KEY, rfc8785.dumps(body), hashlib.sha256).hexdigest()
        assert hmac.compare_digest(expected, ev["sig"])
    return time.perf_counter() - t0


def test_verify_throughput() -> None:
    print()
    print(f"{'events':>7} {'data':>12} {'verify ev/s':>12} {'baseline ev/s':>14} {'ratio':>7}")
    for n, floats in ((1_000, True), (10_000, True), (10_000, False)):
        with tempfile.TemporaryDirectory() as tmp:
            log = _write_log(Path(tmp), n, floats)
            (path,) = log.files()
            base = min(_baseline(path) for _ in range(3))
            best = float("inf")
            for _ in range(3):
                t0 = time.perf_counter()
                report = log.verify()
                best = min(best, time.perf_counter() - t0)
                assert report.ok and report.files[0].valid == n
            log.store.close()
            kind = "with floats" if floats else "ints, text"
            print(f"{n:>7} {kind:>12} {n / best:>12,.0f} {n / base:>14,.0f} {base / best:>6.2f}x")
