"""Facts at 10,000 (issue 26 d3): `facts add` <= 20 ms each, `facts list`/`pack` within 3x of the
plain SQL query of the same rows.

Run: `QT_QPA_PLATFORM=offscreen python -m pytest -s tests/bench/bench_facts_10k.py`.

Material: 10,000 signed facts of one project and type (the worst case of the dedup search: every
add compares with all of them), statements of 8-12 words drawn from a 2,000-word vocabulary (fixed
seed), inserted directly through the row signer in one transaction. Then, side by side:
- `ws.facts.add` in process (median of ADDS adds, a third of them near-duplicates that merge),
  against the same add at 100 facts (the growth) and one `lorekeeper facts add` process against
  `python -c pass`;
- `ws.facts.list` and `ws.facts.pack` (in process, warm: the second call), 7 rounds interleaved
  with a plain `SELECT` of the same rows (sqlite3, no verification);
- `facts list --json` and `facts pack` as one cold process, and warm: answered by the workspace's
  agent service (`lorekeeper agentd`, started by the first call), CPU counted for the client and
  for the service during the call (/proc/PID/stat), 5 rounds interleaved with the plain query as
  one process; the warm outputs must equal the cold ones byte for byte.
No timed assertion (machines are noisy): wall and CPU milliseconds and ratios are printed (CPU
too: on a shared machine the wall clock mostly measures the neighbours), and the CLI list also
against the plain query run as one process (Python, sqlite3, the rows printed as JSON).

Measured (issue 26 d3, 2 cores shared by ~6 sessions, load average 7-13 throughout; wall / CPU
ms, so trust the CPU column and the ratios more than single wall numbers). Before: add 81 ms wall
at 10k vs 38 at 100 (growth 2.15x), list 825 ms and pack 1187 ms vs a 65 ms plain SELECT (12.6x,
18.2x wall), `facts list --json` 6.0 s. After (four runs with CPU: the word index, Core rows with a
content-keyed memo, the ledger view advanced, floats on the C JCS encoder, one-line --json to a
pipe): add 22-39 ms CPU at 10k vs 22-29 at 100 (growth 1.0-1.5x CPU, 0.6-1.4x wall; what remains
is mostly the write path and the audit event's second transaction, the same at 100 facts); list
2.1-3.6x CPU and 1.8-4.7x wall the plain SELECT, pack 2.4-2.7x CPU (7.5x in the run before the per-info score cache); `facts list --json` 2.2-2.9 s
CPU, of which about 1.6 s is the CLI's fixed start (imports, workspace and audit session: the
same command on a 1-fact project), against 0.15-0.26 s for the plain query as one process.

The add's write path (issue 26 d3, deliverable 3; this bench against the previous commit's code,
run alternately on the same machine, CPU ms of the add's median at 10k / at 100). About 45% of an
add was the audit event's work after the commit (the outbox flush: the log checked against its
head, the line appended and fsync'ed, the witness written, then the head, its checkpoint and the
anchor in a second transaction; that transaction stays: the day file may only get a change's
event once the change committed, and the head may not name an event the file lacks). Now: the
head, checkpoint and outbox rows written with precompiled Core statements, the head row and the
outbox read on a Core connection, no second chain check inside a transaction the write guard
checked, the store revision bumped in one statement, no open-conflicts query for a fact the add
created. 30 SQL statements per add instead of 36, 15.3k Python calls instead of 18.5k (cProfile).
Before: 21.5, 19.0, 20.0, 21.3 / 15.9, 13.9, 19.3, 14.4; after: 12.4, 12.7, 12.9, 17.1 / 11.0,
11.0, 10.7, 17.1 (load average 4-7 on 2 cores). At a load average of 7-9 both sides read about
the same, 20-23 ms (base 20.2, 21.9; after 23.1, 21.5): on a loaded machine the CPU clock of one
process mostly measures its neighbours, and the 20 ms target is only met with headroom to spare
when the machine is not saturated. What remains per add (timed per step, quiet machine): the
witness file's atomic write ~1 ms (file creation and rename in the kernel), the row-ledger anchor
~0.9 ms (12 ledger heads read and verified per event, `audit/ledger.py`), the fact's own row
signing and ledger entry ~1 ms, the dedup search ~1.5 ms at 10k.

Round 3 (issue 26 d3: "as one CLI process"; bytecode allowed, as the suite runs; load average
4-9 on the 2 shared cores, so CPU columns). A cold process cannot get within 3x: importing
SQLAlchemy and the models alone is ~0.45 s CPU, and a cold process verifies every row once
(~0.6 s at 10k). The warm path can: `facts list`/`pack` join the agent service's commands; the
verdicts of accepted rows are shared by every verifier of a process (per key), as are the fact
infos, their dicts and JSON texts. Before (main 3e6ecff, the same machine): `facts list --json`
1.6-1.9 s CPU cold, 14-16x the plain query process (0.11-0.13 s); no warm path. After, four runs:
warm `facts list --json` 0.23-0.35 s CPU client + service = 1.8-2.5x the plain query process
(2.6-3.3x in four runs before the infos cached their dicts and JSON texts), warm `facts pack`
0.19-0.30 s = 1.6-1.7x; cold unchanged in kind (1.9-2.4 s, 11-16x, ~0.1 s less fixed start). In
process, interleaved: list 1.9-2.0x, pack 2.1-2.3x the SELECT (the earlier 3-sample measure gave
list 2.0-2.6x, pack 2.4-4.5x on a loaded machine, hence the interleaving).
"""

from __future__ import annotations

import json
import os
import random
import resource
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path

from lorekeeper.audit.rows import sign_row
from lorekeeper.facts.model import Provenance, dumps, fact_id
from lorekeeper.store.models import Fact, utcnow
from lorekeeper.workspace import Workspace

N = 10_000
ADDS = 15
VOCAB = [f"w{i:04d}" for i in range(2000)]


def _statement(rng: random.Random) -> str:
    return "Use " + " ".join(rng.sample(VOCAB, rng.randint(8, 12))) + "."


def fill(ws: Workspace, tmp_path: Path, n: int, *, project: str = "bench") -> tuple[str, Path]:
    """`n` signed facts of `project` (type convention) in one transaction; returns the document id."""
    doc = tmp_path / "docs" / "big.md"
    doc.parent.mkdir(parents=True, exist_ok=True)
    doc.write_text("Rule: use the house way.\n", encoding="utf-8")
    ws.facts.ingest(doc.parent, project=project)
    did = ws.facts.documents(project)[0].id
    signer = ws.audit.log.signer
    rng = random.Random(26)
    now = utcnow()
    with ws.store.write() as s:
        for i in range(n):
            statement = _statement(rng)
            row = Fact(
                id=fact_id(project, "convention", statement, i),
                project=project,
                type="convention",
                statement=statement,
                detail="",
                scope="[]",
                tags="[]",
                confidence=0.9 if i % 2 else 0.7,
                status="candidate",
                provenance=dumps([Provenance(did, "big.md", "Rule: use the house way.").to_dict()]),
                merged_into="",
                flag="",
                ordinal=i + 1,
                source="bench",
                created_at=now,
            )
            sign_row(signer, row)
            s.add(row)
    return did, doc


def _adds(
    ws: Workspace, project: str, did: str, rng: random.Random, existing: list[str], cpu: list[float] | None = None
) -> tuple[list[float], int]:
    times, merged = [], 0
    for k in range(ADDS):
        if k % 3 == 0 and existing:  # a near-duplicate: one word changed, it merges
            ws_ = existing[rng.randrange(len(existing))].rstrip(".").split()
            ws_[-1] = "extra"
            statement = " ".join(ws_) + "."
        else:
            statement = _statement(rng)
        t0, c0 = time.perf_counter(), time.process_time()
        d = ws.facts.add(project, "convention", statement, did, "Rule: use the house way.")
        times.append((time.perf_counter() - t0) * 1000)
        if cpu is not None:
            cpu.append((time.process_time() - c0) * 1000)
        merged += d.facts[0].statement != statement
    return times, merged


def _run(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """(wall ms, CPU ms of the child, stdout) of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=300, env=env)
    wall = (time.perf_counter() - t0) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    return wall, cpu, out.stdout


def _proc_cpu(pid: int) -> float:
    """CPU ms (user + system) a running process has used so far, from the kernel."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def _warm_service(lk: list[str], env: dict[str, str]) -> int:
    """Start the workspace's agent service (the first warm call does) and return its pid."""
    _run([*lk, "facts", "list", "--project", "bench", "--json"], env)  # cold; starts the service
    off = {**env, "LOREKEEPER_AGENTD": "off"}
    for _ in range(240):
        info = json.loads(_run([*lk, "agentd", "status", "--json"], off)[2])
        if info.get("running"):
            return int(info["pid"])
        time.sleep(0.5)
    raise AssertionError("the agent service did not start")


def _warm(cmd: list[str], env: dict[str, str], pid: int) -> tuple[float, float, str]:
    """(wall ms, CPU ms of the client and of the service during the call, stdout) of a warm call."""
    before = _proc_cpu(pid)
    wall, cpu, out = _run(cmd, env)
    return wall, cpu + _proc_cpu(pid) - before, out


def _ms(fn) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """(wall ms, CPU ms) of one call."""
    t0, c0 = time.perf_counter(), time.process_time()
    fn()
    return (time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000


def _med(samples: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(w for w, _ in samples), statistics.median(c for _, c in samples)


def test_facts_at_10k(demo_workspace: Workspace, tmp_path: Path) -> None:
    ws = demo_workspace
    ws.audit.require_key()
    small_did, _ = fill(ws, tmp_path / "small", 100, project="small")
    small_existing = [f.statement for f in ws.facts.list("small")]
    rng = random.Random(7)
    small_cpu: list[float] = []
    small_times, _ = _adds(ws, "small", small_did, rng, small_existing[:50], small_cpu)

    did, _ = fill(ws, tmp_path / "big", N)
    existing = [f.statement for f in ws.facts.list("bench")][:500]
    ws.facts.list("bench")  # warm: the verified rows are cached
    big_cpu: list[float] = []
    big_times, merged = _adds(ws, "bench", did, rng, existing, big_cpu)

    db = str(ws.store.engine.url.database)
    select_sql = "SELECT * FROM facts WHERE project = 'bench' AND merged_into = '' ORDER BY ordinal, id"
    con = sqlite3.connect(db)

    def plain() -> None:
        con.execute(select_sql).fetchall()

    plain()
    count = len(ws.facts.list("bench"))
    ws.facts.pack("bench")  # warm
    rounds: list[tuple[tuple[float, float], ...]] = [
        (_ms(plain), _ms(lambda: ws.facts.list("bench")), _ms(lambda: ws.facts.pack("bench"))) for _ in range(7)
    ]  # interleaved, so a neighbour's burst weighs on the baseline as on the measure
    sql_ms, list_ms, pack_ms = (_med([r[i] for r in rounds]) for i in range(3))
    con.close()

    lk = [sys.executable, "-m", "lorekeeper", "--workspace", str(ws.root)]
    _run([sys.executable, "-c", "pass"])
    floor = _med([_run([sys.executable, "-c", "pass"])[:2] for _ in range(3)])
    # the plain query as one process: Python, sqlite3 and the rows printed as JSON
    probe = f"import json, sqlite3; print(json.dumps(sqlite3.connect({db!r}).execute({select_sql!r}).fetchall()))"
    sql_proc = _med([_run([sys.executable, "-c", probe])[:2] for _ in range(3)])
    cli_list = _run([*lk, "facts", "list", "--project", "bench", "--json"])[:2]
    cli_add = _run(
        [
            *lk,
            "facts",
            "add",
            "--project",
            "bench",
            "--type",
            "convention",
            "--statement",
            "Use the brand new cli rule here today.",
            "--document",
            did,
            "--quote",
            "Rule: use the house way.",
            "--json",
        ]
    )[:2]
    # the warm path (issue 26 d3): the workspace's agent service answers `facts list`/`pack`; CPU is
    # the client's plus the service's during the call (from /proc), against the plain query process
    warm_env = {k: v for k, v in os.environ.items() if k != "LOREKEEPER_AGENTD"}
    pid = _warm_service(lk, warm_env)
    list_cmd = [*lk, "facts", "list", "--project", "bench", "--json"]
    pack_cmd = [*lk, "facts", "pack", "--project", "bench"]
    try:
        _warm(list_cmd, warm_env, pid)  # the service's first call of each: its memo fills
        _warm(pack_cmd, warm_env, pid)
        warm_list, warm_pack, plain_proc, cold_pack = [], [], [], []
        for _ in range(5):  # interleaved with the baseline
            plain_proc.append(_run([sys.executable, "-c", probe])[:2])
            wall, cpu, out_list = _warm(list_cmd, warm_env, pid)
            warm_list.append((wall, cpu))
            wall, cpu, out_pack = _warm(pack_cmd, warm_env, pid)
            warm_pack.append((wall, cpu))
        wall, cpu, cold_pack_out = _run(pack_cmd)
        cold_pack.append((wall, cpu))
        cold_out = _run(list_cmd)[2]
    finally:
        _run([*lk, "agentd", "stop"], {**warm_env, "LOREKEEPER_AGENTD": "off"})
    assert out_list == cold_out and out_pack == cold_pack_out  # the warm answers are the cold ones
    assert len(json.loads(out_list)["facts"]) >= count
    wl, wp, pp = _med(warm_list), _med(warm_pack), _med(plain_proc)
    s50, b50 = statistics.median(small_times), statistics.median(big_times)
    sc, bc = statistics.median(small_cpu), statistics.median(big_cpu)

    def met(ratio: float) -> str:
        return f"{ratio:.1f}x {'met' if ratio <= 3 else 'NOT met'}"

    print(
        f"\nfacts at {N:,} ({count} listed; {merged} of {ADDS} adds merged); wall ms / CPU ms\n"
        f"  facts add in process: median {b50:.1f} / {bc:.1f} ms at {N:,} vs {s50:.1f} / {sc:.1f} ms at 100 "
        f"(growth {b50 / s50:.2f}x wall, {bc / sc:.2f}x CPU; target <= 20 ms)\n"
        f"  facts list (in process, warm) {list_ms[0]:.0f} / {list_ms[1]:.0f} ms, pack {pack_ms[0]:.0f} / "
        f"{pack_ms[1]:.0f} ms; plain SELECT {sql_ms[0]:.0f} / {sql_ms[1]:.0f} ms (CPU: list "
        f"{met(list_ms[1] / sql_ms[1])}, pack {met(pack_ms[1] / sql_ms[1])}; target <= 3x; wall "
        f"{list_ms[0] / sql_ms[0]:.1f}x, {pack_ms[0] / sql_ms[0]:.1f}x)\n"
        f"  CLI cold: facts add {cli_add[0]:.0f} / {cli_add[1]:.0f} ms, facts list --json {cli_list[0]:.0f} / "
        f"{cli_list[1]:.0f} ms, facts pack {cold_pack[0][0]:.0f} / {cold_pack[0][1]:.0f} ms; python -c pass "
        f"{floor[0]:.0f} / {floor[1]:.0f} ms (add {cli_add[0] / floor[0]:.1f}x, list {cli_list[0] / floor[0]:.1f}x "
        f"wall); the plain SELECT as one process {sql_proc[0]:.0f} / {sql_proc[1]:.0f} ms (list "
        f"{cli_list[1] / sql_proc[1]:.1f}x CPU)\n"
        f"  CLI warm (agent service; CPU = client + service): facts list --json {wl[0]:.0f} / {wl[1]:.0f} ms, "
        f"facts pack {wp[0]:.0f} / {wp[1]:.0f} ms; the plain SELECT as one process {pp[0]:.0f} / {pp[1]:.0f} ms "
        f"(CPU: list {met(wl[1] / pp[1])}, pack {met(wp[1] / pp[1])}; target <= 3x)"
    )
    assert count >= N
