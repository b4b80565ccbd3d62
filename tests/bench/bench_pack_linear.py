"""Issue 29, deliverable 4 ("linear, then fast"), measured the way a user meets it: every pack is a
new `lorekeeper ctx pack` process, its CPU (user + system, the parse workers included) read from
RUSAGE_CHILDREN, so nothing warm in this process (token counts, parse results) helps a run.

Run: `LOREKEEPER_BENCH_TREES=/path python -m pytest -s -p no:cacheprovider tests/bench/bench_pack_linear.py`
with /path holding aiohttp, scrapy, trio and gin (checkouts or `git archive` extracts; see
tasks_pack_round3.json; LOREKEEPER_BENCH_FETCH=1 clones the missing ones as bench_pack_round3.py
does). LOREKEEPER_BENCH_SQLALCHEMY (a checkout) adds its lib/ to the large tree. Nothing is
committed; a missing tree skips with the reason.

Side by side, per tree (~1.1M tokens: aiohttp; ~4-5M: aiohttp+scrapy+trio+gin(+SQLAlchemy lib)):
- `--no-cache` (the baseline: every file parsed, nothing stored), best of two;
- first pack into an empty cache, then the same pack again (unchanged tree), then after one file
  is edited, then another task on the unchanged tree;
- the CPU of a process that only imports the packer (the fixed cost every run pays).
Then: input ratio vs CPU ratio of the `--no-cache` runs (goal: CPU ratio <= 1.1x the input ratio)
and first pack / re-pack (goal >= 5x). Asserted: the outputs with and without the cache are
byte-identical and every pack is within its budget. Nothing is asserted on time.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).parent
TASKS = json.loads((HERE / "tasks_pack_round3.json").read_text(encoding="utf-8"))
FETCH_DIR = Path.home() / ".cache" / "lorekeeper-bench" / "trees"
BUDGET = 8000


def _tree(name: str) -> Path | None:
    base = os.environ.get("LOREKEEPER_BENCH_TREES")
    if base and (Path(base) / name).is_dir():
        return Path(base) / name
    if (FETCH_DIR / name).is_dir():
        return FETCH_DIR / name
    if os.environ.get("LOREKEEPER_BENCH_FETCH") == "1" and shutil.which("git"):
        FETCH_DIR.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            ["git", "clone", "--depth", "1", TASKS["trees"][name], str(FETCH_DIR / name)], capture_output=True
        )
        if done.returncode == 0:
            return FETCH_DIR / name
    return None


def _build(into: Path, names: list[str], with_sqlalchemy: bool) -> Path | None:
    roots = [(n, _tree(n)) for n in names]
    if any(r is None for _n, r in roots):
        return None
    for n, r in roots:
        assert r is not None
        shutil.copytree(r, into / n, ignore=shutil.ignore_patterns(".git"))
    sqla = os.environ.get("LOREKEEPER_BENCH_SQLALCHEMY")
    if with_sqlalchemy and sqla and (Path(sqla) / "lib").is_dir():
        shutil.copytree(Path(sqla) / "lib", into / "sqlalchemy_lib")
    return into


def _cli() -> list[str]:
    script = Path(sys.executable).with_name("lorekeeper")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "lorekeeper"]


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _run(argv: list[str], env: dict[str, str]) -> tuple[float, float, dict[str, object]]:
    """(CPU, wall, the pack's JSON) of one fresh process."""
    c0, w0 = _children_cpu(), time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    cpu, wall = _children_cpu() - c0, time.perf_counter() - w0
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout) if done.stdout.strip().startswith("{") else {}
    return cpu, wall, out


def _pack(root: Path, task: str, env: dict[str, str], *extra: str) -> tuple[float, float, dict[str, object]]:
    return _run([*_cli(), "ctx", "pack", str(root), "--task", task, "--budget", str(BUDGET), "--json", *extra], env)


def test_cpu_per_token_and_repacking_in_fresh_processes(tmp_path: Path) -> None:
    small = _build(tmp_path / "small", ["aiohttp"], with_sqlalchemy=False)
    large = _build(tmp_path / "large", ["aiohttp", "scrapy", "trio", "gin"], with_sqlalchemy=True)
    if small is None or large is None:
        pytest.skip("aiohttp, scrapy, trio and gin are needed (LOREKEEPER_BENCH_TREES or LOREKEEPER_BENCH_FETCH=1)")
    task, other = TASKS["tasks"][0]["task"], TASKS["tasks"][1]["task"]
    env = {**os.environ, "LOREKEEPER_AGENTD": "off"}
    floor_cpu, _w, _o = _run([sys.executable, "-c", "import lorekeeper.context.pack, lorekeeper.cli"], env)
    print(f"\nload {os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs; importing the packer alone: {floor_cpu:.2f}s CPU")
    print(
        f"{'tree':<6} {'tokens':>11} | {'no-cache':>8} {'s/Mtok':>6} | {'first':>6} {'again':>6} {'x':>5} |"
        f" {'1 edit':>6} {'x':>5} | {'task 2':>6} {'x':>5}"
    )
    rows: list[tuple[int, float]] = []
    for root in (small, large):
        cache_env = {**env, "LOREKEEPER_PACK_CACHE_DIR": str(tmp_path / f"cache-{root.name}")}
        cold = []
        for _ in range(2):
            cpu, _wall, base = _pack(root, task, cache_env, "--no-cache")
            cold.append(cpu)
        first, _w, first_out = _pack(root, task, cache_env)
        again, _w, again_out = _pack(root, task, cache_env)
        assert again_out.get("cached") is True and first_out.get("cached") is False
        assert base["text"] == first_out["text"] == again_out["text"]  # the cache changes no byte
        victim = sorted(root.rglob("*.py"))[len(list(root.rglob("*.py"))) // 2]
        victim.write_text(victim.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
        edited, _w, edited_out = _pack(root, task, cache_env)
        _c, _w, edited_base = _pack(root, task, cache_env, "--no-cache")
        assert edited_out["text"] == edited_base["text"]
        task2, _w, other_out = _pack(root, other, cache_env)
        for out in (base, first_out, again_out, edited_out, other_out):
            assert int(str(out["output_tokens"])) <= BUDGET
        n = int(str(base["input_tokens"]))
        rows.append((n, min(cold)))
        print(
            f"{root.name:<6} {n:>11,} | {min(cold):7.2f}s {min(cold) / n * 1e6:6.2f} |"
            f" {first:5.2f}s {again:5.2f}s {first / again:5.1f} | {edited:5.2f}s {first / edited:5.1f} |"
            f" {task2:5.2f}s {first / task2:5.1f}"
        )
    (t1, c1), (t2, c2) = rows
    print(
        f"input x{t2 / t1:.2f} -> CPU x{c2 / c1:.2f}: {c2 / c1 / (t2 / t1):.2f} of linear (goal <= 1.1);"
        f" without the import floor x{(c2 - floor_cpu) / (c1 - floor_cpu):.2f}"
    )
