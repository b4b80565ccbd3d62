"""The soak (issue 23): the GUI and several CLI/MCP processes on one workspace, every kind of write,
kill -9 of workers at random points; then integrity, `audit verify` and a presence check of
everything that reported success.

Qt-free: the GUI actor lives in `soak_gui.py`. This module holds
- the plan (what each actor may decide: its own proposals, conflicts, stories, facts), seeded by
  `prepare` through the services, as nightly and a recorded consolidation would;
- the worker process (`worker_main`): a loop of `lorekeeper` commands run in-process (each opens
  and closes the workspace as a terminal command does: its SQLite connections come and go) and
  MCP sessions (`lorekeeper mcp` over stdio, the official client); every operation is journaled
  before it starts and when it ends with what it reported;
- `Fleet`: starts the workers, kills one with SIGKILL at random moments and starts it again;
- `check`: PRAGMA integrity_check, `audit verify`, and every successful operation found in the
  store and its signed event in the log (a decision that said "ok" and is not there is lost).

Journals are JSON lines, one file per actor: {"n", "op", "target", "phase": "start"} then
{"n", "phase": "end", "ok", "code", "error", "out"}. A start without an end is an operation whose
outcome is unknown (killed): it is not counted as a success, and its target may be in either state.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parents[1]
PROJECT = "soak"
FACT_PROJECT = "soakfacts"
PLAN = "soak-plan.json"
STOP = "soak-stop"
# the outcome a decision leaves on its target
PROPOSAL_STATUS = {"approve": "approved", "reject": "rejected", "undo": "pending"}  # an undo re-queues it
PROPOSAL_EVENT = {"approve": "proposal_approved", "reject": "proposal_rejected", "undo": "proposal_undone"}


# --------------------------------------------------------------------------- journal
class Journal:
    """One actor's operations, appended and fsync'ed line by line (a kill -9 loses at most the line
    being written)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self.n = max((op.n for op in read_journal(path)), default=0)  # a restarted worker goes on

    def _write(self, row: dict[str, Any]) -> None:
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(row, default=str) + "\n")
            fh.flush()
            os.fsync(fh.fileno())

    def start(self, op: str, target: str, **extra: Any) -> int:
        self.n += 1
        self._write({"n": self.n, "op": op, "target": target, "phase": "start", "t": time.time(), **extra})
        return self.n

    def end(self, n: int, ok: bool, *, code: int | str = 0, error: str = "", out: Any = None) -> None:
        if isinstance(out, dict) and len(json.dumps(out, default=str)) > 3000:  # a pack's text: its figures only
            out = {k: v for k, v in out.items() if len(json.dumps(v, default=str)) < 300}
        self._write({"n": n, "phase": "end", "ok": ok, "code": code, "error": error[-600:], "out": out})

    def used_targets(self) -> set[str]:
        return {op.target for op in read_journal(self.path)}


@dataclass
class Op:
    actor: str
    n: int
    op: str
    target: str
    start: dict[str, Any]
    end: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return bool(self.end and self.end.get("ok"))

    @property
    def unknown(self) -> bool:
        return self.end is None

    @property
    def out(self) -> Any:
        return (self.end or {}).get("out")


def read_journal(path: Path) -> list[Op]:
    ops: dict[int, Op] = {}
    actor = path.stem
    if not path.exists():
        return []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue  # the line a kill -9 cut
        if row.get("phase") == "start":
            ops[row["n"]] = Op(actor, row["n"], row["op"], row["target"], row)
        elif row.get("n") in ops:
            ops[row["n"]].end = row
    return [ops[k] for k in sorted(ops)]


# --------------------------------------------------------------------------- the plan
def prepare(ws: Any, actors: list[str], *, proposals: int, conflicts: int) -> dict[str, Any]:
    """Seed the decisions the actors will make: `proposals` pending proposals and `conflicts` open
    conflicts, dealt round-robin to `actors`; each actor also gets a document to quote its facts
    from. Writes the plan to `<root>/soak-plan.json` and returns it."""
    from lorekeeper.improve.proposals import NewProposal

    root = Path(ws.root)
    plan: dict[str, Any] = {a: {"proposals": [], "conflicts": [], "document": ""} for a in actors}
    base = root.parent / "soak-proposal-skills"
    names = [f"soak-proposed-{i}" for i in range(proposals)]
    for i, name in enumerate(names):
        _skill_dir(base, name, f"proposal {i}")
    ws.skills.import_path(base, message="soak: skills to propose changes to")
    for i, name in enumerate(names):
        sk = ws.skills.get(name)
        info = ws.improve.proposals.create(
            NewProposal(
                skill=name,
                scope="",
                project="",
                source="template",
                reason="soak: a proposal to decide",
                summary="adds one line",
                metrics={},
                failing_rules=[],
                learnings=[],
                base_version=sk.version,
                current_content=sk.content,
                proposed_content=sk.content + f"\n\nSoak line {i}.\n",
            )
        )
        assert info is not None, name
        plan[actors[i % len(actors)]]["proposals"].append(info.id)
    docs = root.parent / "soak-docs"
    docs.mkdir(exist_ok=True)
    lines = [f"Soak rule {i}: the {i}th line of the soak conventions stays verbatim." for i in range(400)]
    for a in actors:
        doc = docs / f"{a}-conventions.md"
        doc.write_text(
            f"# Conventions of {a}\n\n" + "\n".join(f"{a} {line}" for line in lines) + "\n", encoding="utf-8"
        )
        plan[a]["document"] = str(doc)
    cdoc = docs / "conflicts.md"
    # each pair in words of its own: the lexical consolidation of `facts add` must not merge pairs
    vocab = [[word(1000 + i * 8 + k) for k in range(8)] for i in range(conflicts)]
    quotes = [(f"Deploy {' '.join(w[:4])} on Friday.", f"Never deploy {' '.join(w[4:])} on Friday.") for w in vocab]
    cdoc.write_text("# Conflicts\n\n" + "".join(f"{a}\n{b}\n" for a, b in quotes), encoding="utf-8")
    statements = []
    for a_quote, b_quote in quotes:
        a = ws.facts.add(FACT_PROJECT, "runbook", a_quote, str(cdoc), a_quote).fact
        b = ws.facts.add(FACT_PROJECT, "runbook", b_quote, str(cdoc), b_quote).fact
        statements.append((a, b))
    ws.facts.apply_recorded_consolidation(
        {
            "contradictions": [
                {"facts": [a.statement, b.statement], "reason": f"window {i}"} for i, (a, b) in enumerate(statements)
            ]
        },
        FACT_PROJECT,
    )
    by_pair = {}
    for c in ws.facts.conflicts(FACT_PROJECT):
        d = c.to_dict() if hasattr(c, "to_dict") else dict(c)
        by_pair[tuple(sorted(d["facts"]))] = d["id"]
    for i, (a, b) in enumerate(statements):
        cid = by_pair.get(tuple(sorted([a.id, b.id])))
        if cid is not None:
            plan[actors[i % len(actors)]]["conflicts"].append({"id": cid, "facts": [a.id, b.id]})
    src = root.parent / "soak-src"
    (src / "pkg").mkdir(parents=True, exist_ok=True)
    for i in range(6):
        (src / "pkg" / f"mod{i}.py").write_text(
            "\n".join(f"def f{i}_{j}(x):\n    return x + {j}\n" for j in range(30)), encoding="utf-8"
        )
    plan["_src"] = str(src)
    (root / PLAN).write_text(json.dumps(plan, indent=1), encoding="utf-8")
    return plan


# --------------------------------------------------------------------------- the worker process
def word(n: int) -> str:
    """A distinctive alphabetic word for `n` (a story's own vocabulary: summaries keep words, not digits)."""
    out = ""
    n = n * 7919 + 104729
    while n:
        n, r = divmod(n, 26)
        out += "bcdfghjklmnpqrstvwxz"[r % 20] + "aeiou"[r % 5]
    return out


def answers_for(story: str, n: int) -> dict[str, str]:
    """Four clarification answers, each story's in words of its own, plus one generic sentence every
    story shares (issue 23 item 6: text another story also holds is not the purged story's residue)."""
    w = [word(n * 4 + k) for k in range(4)]
    return {
        "problem": f"Customers of {story} cannot export {w[0]} ledgers",
        "criteria": f"Export works for every {w[1]} row",
        "constraints": "No third party vendor",  # the same line in every story's summary
        "priorities": f"Speed of {w[3]} first",
    }


def _skill_dir(base: Path, name: str, tag: str) -> Path:
    d = base / name
    d.mkdir(parents=True, exist_ok=True)
    (d / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: A skill the soak imports ({tag}).\n---\n\n# {name}\n\nBody {tag}.\n",
        encoding="utf-8",
    )
    return d


class Worker:
    """One CLI/MCP process of the soak: picks operations at random among its own targets."""

    def __init__(self, root: Path, name: str, seed: int, role: str) -> None:
        from helpers.cli import run_lorekeeper

        self.root = root
        self.name = name
        self.role = role
        self.rng = random.Random(seed)
        self.run_cli = run_lorekeeper
        self.journal = Journal(root.parent / "journals" / f"{name}.jsonl")
        self.plan = json.loads((root / PLAN).read_text(encoding="utf-8"))
        mine = self.plan[name]
        used = self.journal.used_targets()
        self.proposals = [p for p in mine["proposals"] if f"proposal:{p}" not in used]
        self.conflicts = [c for c in mine["conflicts"] if f"conflict:{c['id']}" not in used]
        self.document = mine["document"]
        self.src = Path(self.plan["_src"])
        self.tmp = root.parent / "tmp" / f"{name}-{os.getpid()}"
        self.tmp.mkdir(parents=True, exist_ok=True)
        self.stories: list[str] = []  # clarified, not purged yet (this incarnation's)

    def tag(self) -> str:
        return f"{self.name}-{os.getpid()}-{self.journal.n + 1}"

    def lk(self, op: str, target: str, *args: str, input: str | None = None) -> tuple[bool, Any]:
        n = self.journal.start(op, target, args=list(args))
        try:
            proc = self.run_cli("--workspace", str(self.root), *args, input=input)
        except BaseException as exc:
            self.journal.end(n, False, code="exception", error=repr(exc))
            return False, None
        out: Any = None
        try:
            out = json.loads(proc.stdout) if proc.stdout.strip() else None
        except ValueError:
            out = proc.stdout[-300:]
        ok = proc.returncode == 0
        self.journal.end(
            n, ok, code=proc.returncode, error=proc.stderr if not ok or "Traceback" in proc.stderr else "", out=out
        )
        return ok, out

    # ---- operations
    def learn_add(self) -> None:
        rule = f"Soak rule {self.tag()}: keep this."
        self.lk("learn_add", f"rule:{rule}", "learn", "add", rule, "--project", PROJECT, "--json")

    def learn_import(self) -> None:
        tag = self.tag()
        rules = [f"Soak import {tag} {k}: keep it." for k in range(2)]
        f = self.tmp / f"learn-{tag}.md"
        f.write_text(
            "# L\n\n" + "".join(f"- [2026-01-01T00:00:0{k}Z] [fixit] {r}\n" for k, r in enumerate(rules)),
            encoding="utf-8",
        )
        self.lk("learn_import", "rules:" + json.dumps(rules), "learn", "import", str(f), "--project", PROJECT, "--json")

    def skills_import(self) -> None:
        tag = self.tag()
        name = f"soak-{tag}".lower().replace("_", "-")
        d = _skill_dir(self.tmp / "skills" / tag, name, tag)
        self.lk("skills_import", f"skill:{name}", "skills", "import", str(d.parent), "--json")

    def fact(self) -> None:
        line = self.rng.randrange(400)
        quote = f"{self.name} Soak rule {line}: the {line}th line of the soak conventions stays verbatim."
        statement = f"Soak fact {self.tag()} keeps line {line}."
        ok, out = self.lk(
            "fact_add", f"fact:{statement}", "facts", "add", "--project", PROJECT, "--type", "constraint",
            "--statement", statement, "--document", self.document, "--quote", quote, "--json",
        )  # fmt: skip
        if not ok or not isinstance(out, dict):
            return
        fid = (out.get("fact") or out).get("id")
        if not fid:
            return
        if self.rng.random() < 0.5:
            self.lk("fact_approve", f"factid:{fid}", "facts", "approve", fid, "--why", "soak", "--json")
        else:
            self.lk("fact_reject", f"factid:{fid}", "facts", "reject", fid, "--reason", "soak", "--json")

    def proposal(self) -> None:
        if not self.proposals:
            return self.learn_add()
        pid = self.proposals.pop(0)
        seq = self.rng.choice([["approve"], ["approve", "undo"], ["reject"], ["reject", "undo"]])
        for step in seq:
            args = ["proposals", step, str(pid), "--json"]
            if step != "approve":
                args += ["--why", "soak"]
            ok, _ = self.lk(f"proposal_{step}", f"proposal:{pid}", *args)
            if not ok:
                break
        return None

    def conflict(self) -> None:
        if not self.conflicts:
            return self.fact()
        c = self.conflicts.pop(0)
        how = self.rng.choice(["keep", "reject-all"])
        args = ["facts", "resolve", str(c["id"]), "--reason", "soak", "--json"]
        args += ["--keep", c["facts"][0]] if how == "keep" else ["--reject-all"]
        self.lk(f"conflict_{how}", f"conflict:{c['id']}", *args)
        return None

    def clarify(self) -> None:
        story = f"SOAK-{self.tag()}".upper()
        a = answers_for(story, os.getpid() * 1000 + self.journal.n)
        answers = "".join(a[k] + "\n" for k in ("problem", "criteria", "constraints", "priorities"))
        ok, _ = self.lk(
            "clarify", f"story:{story}", "clarify", story, "--domain", "billing", "--project", PROJECT, "--yes", "--json",
            input=answers,
        )  # fmt: skip
        if ok:
            self.stories.append(story)

    def purge(self) -> None:
        if not self.stories:
            return self.clarify()
        story = self.stories.pop(0)
        self.lk("purge", f"story:{story}", "purge", "--story", story, "--force", "--json", "-q")
        return None

    def rotate(self) -> None:
        self.lk("rotate", "key", "audit", "rotate", "--json")

    def ctx(self) -> None:
        tag = self.tag()
        if self.rng.random() < 0.5:
            out = self.tmp / f"pack-{tag}.md"
            self.lk(
                "ctx_pack", f"file:{out}", "ctx", "pack", str(self.src), "--budget", "1500", "-o", str(out), "--json"
            )
            return
        ok, out = self.lk("ctx_session_start", f"ctx:{tag}", "ctx", "session", "start", str(self.src), "--json")
        sid = out.get("id") or out.get("session") if ok and isinstance(out, dict) else None
        if sid:
            self.lk("ctx_session_pack", f"ctx:{tag}", "ctx", "session", "pack", str(sid), "--budget", "1500", "--json")
            self.lk("ctx_session_end", f"ctx:{tag}", "ctx", "session", "end", str(sid), "--json")

    def mcp(self) -> None:
        """One MCP session: evaluate an answer, thumbs down with a rule (a learning), start a story."""
        import anyio
        from mcp.client.session import ClientSession
        from mcp.client.stdio import StdioServerParameters, stdio_client

        tag = self.tag()
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "lorekeeper", "--workspace", str(self.root), "mcp"],
            env=dict(os.environ),
        )
        rule = f"Soak feedback {tag}: answer with the version."
        story = f"MCP-{tag}".upper()

        async def session() -> None:
            with open(os.devnull, "w") as errlog:
                async with (
                    stdio_client(params, errlog=errlog) as (read, write),
                    ClientSession(read, write) as s,
                ):
                    await s.initialize()
                    with anyio.fail_after(60):
                        await self._tool(s, "mcp_evaluate", f"answer:{tag}", "evaluate_response",
                                         {"response": f"Release notes {tag}", "message": "write the release notes", "project": PROJECT})  # fmt: skip
                        await self._tool(s, "mcp_feedback", f"rule:{rule}", "record_feedback",
                                         {"answer": "last", "positive": False, "reason": rule, "project": PROJECT})  # fmt: skip
                        await self._tool(s, "mcp_story_start", f"mcpstory:{story}", "story_start",
                                         {"story": story, "domain": "billing", "project": PROJECT})  # fmt: skip

        try:
            anyio.run(session)
        except BaseException as exc:
            n = self.journal.start("mcp_session", f"mcp:{tag}")
            self.journal.end(n, False, code="exception", error=repr(exc))

    async def _tool(self, s: Any, op: str, target: str, tool: str, args: dict[str, Any]) -> None:
        n = self.journal.start(op, target, args=args)
        try:
            result = await s.call_tool(tool, args)
        except BaseException as exc:
            self.journal.end(n, False, code="exception", error=repr(exc))
            raise
        text = result.content[0].text if result.content else ""
        if result.is_error:
            self.journal.end(n, False, code="tool_error", error=text)
            return
        data = result.structured_content if result.structured_content is not None else text
        self.journal.end(n, True, out=data if len(json.dumps(data, default=str)) < 2000 else None)

    def loop(self) -> None:
        weights = {
            "cli": {
                self.learn_add: 3, self.learn_import: 2, self.skills_import: 2, self.fact: 3, self.proposal: 3,
                self.conflict: 2, self.clarify: 2, self.purge: 2, self.rotate: 1, self.ctx: 1,
            },
            "mcp": {self.mcp: 3, self.ctx: 1, self.learn_add: 1},
        }[self.role]  # fmt: skip
        ops, w = list(weights), list(weights.values())
        stop = self.root.parent / STOP
        while not stop.exists():
            self.rng.choices(ops, w)[0]()


def worker_main() -> None:
    root, name, seed, role = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
    print("ready", flush=True)
    Worker(root, name, seed, role).loop()


CHILD = (
    "import sys; sys.path[:0] = [{tests!r}, {audit!r}]\nfrom helpers.soak import worker_main\nworker_main()\n"
).format(tests=str(TESTS), audit=str(TESTS / "audit"))


# --------------------------------------------------------------------------- the fleet
@dataclass
class Fleet:
    """The worker processes: started, killed with SIGKILL at random, started again."""

    root: Path
    roles: dict[str, str]  # name -> role
    seed: int = 23
    procs: dict[str, subprocess.Popen[str]] = field(default_factory=dict)
    kills: Counter[str] = field(default_factory=Counter)
    starts: Counter[str] = field(default_factory=Counter)
    crashed: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def env(self) -> dict[str, str]:
        from kill_support import child_env

        return child_env()

    def start(self, name: str) -> None:
        self.starts[name] += 1
        seed = self.rng.randrange(1 << 30)
        log = (self.root.parent / "journals" / f"{name}.stderr").open("a")
        self.procs[name] = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(self.root), name, str(seed), self.roles[name]],
            stdout=subprocess.DEVNULL,
            stderr=log,
            text=True,
            env=self.env(),
            start_new_session=True,  # its MCP server dies with it
        )
        log.close()

    def start_all(self) -> None:
        (self.root.parent / STOP).unlink(missing_ok=True)
        for name in self.roles:
            self.start(name)

    def kill_one(self) -> str:
        name = self.rng.choice(sorted(self.procs))
        proc = self.procs[name]
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(30)
            self.kills[name] += 1
        else:
            self.crashed.append(f"{name} exited {proc.returncode}")
        self.start(name)
        return name

    def tend(self) -> None:
        """A worker that stopped by itself (it should not) is noted and started again."""
        for name, proc in list(self.procs.items()):
            if proc.poll() is not None:
                self.crashed.append(f"{name} exited {proc.returncode}")
                self.start(name)

    def stop(self, grace: float = 30) -> None:
        (self.root.parent / STOP).write_text("stop", encoding="utf-8")
        deadline = time.monotonic() + grace
        for proc in self.procs.values():
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(30)
        for name, proc in self.procs.items():
            if proc.returncode not in (0, -signal.SIGKILL):
                self.crashed.append(f"{name} exited {proc.returncode}")


# --------------------------------------------------------------------------- the verdict
@dataclass
class Verdict:
    integrity: str = ""
    verify_ok: bool = False
    verify_text: str = ""
    ops: Counter[str] = field(default_factory=Counter)
    successes: Counter[str] = field(default_factory=Counter)
    failures: Counter[str] = field(default_factory=Counter)
    unknown: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)  # error code -> count (failed ops)
    internal: list[str] = field(default_factory=list)  # ERR_INTERNAL, raw driver errors, tracebacks
    corrupt: list[str] = field(default_factory=list)  # an operation that met a malformed database
    # found by the soak and fixed (tests/audit/test_rotation_outbox.py): a rotation that reported
    # success whose `audit_key_rotated` event a staler process dropped, and rotation events of
    # refused rotations; either is now a failure of the run
    rotation_log: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    unlogged: list[str] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return (
            self.integrity == "ok"
            and self.verify_ok
            and not (self.lost or self.unlogged or self.rotation_log or self.internal or self.corrupt)
        )

    def text(self) -> str:
        lines = [
            f"integrity_check: {self.integrity}; audit verify: {'ok' if self.verify_ok else 'FAILED ' + self.verify_text}",
            "operations (ok/failed/unknown): "
            + ", ".join(f"{k} {self.successes[k]}/{self.failures[k]}/{self.unknown[k]}" for k in sorted(self.ops)),
            f"total {sum(self.ops.values())}, ok {sum(self.successes.values())}, failed {sum(self.failures.values())}, "
            f"unknown (killed) {sum(self.unknown.values())}; failure codes {dict(self.errors)}",
        ]
        lines += [f"LOST: {x}" for x in self.lost[:30]] + (
            [f"... {len(self.lost)} lost"] if len(self.lost) > 30 else []
        )
        lines += [f"NOT IN THE LOG: {x}" for x in self.unlogged[:30]]
        lines += [f"ROTATION EVENTS WRONG: {x}" for x in self.rotation_log[:10]]
        lines += [f"INTERNAL: {x}" for x in self.internal[:10]]
        lines += [f"MALFORMED DATABASE SEEN: {x}" for x in self.corrupt[:10]]
        lines += [f"... {len(self.corrupt)} operations met a malformed database"] if self.corrupt else []
        return "\n".join(lines)


def _error_code(end: dict[str, Any]) -> str:
    out = end.get("out")
    if isinstance(out, dict) and isinstance(out.get("error"), dict):
        return str(out["error"].get("code", "?"))
    err = str(end.get("error") or "")
    for word in err.replace(":", " ").split():
        if word.startswith("ERR_"):
            return word
    return str(end.get("code"))


def integrity(root: Path, url: str | None) -> str:
    if url and not url.startswith("sqlite"):
        from sqlalchemy import create_engine, text

        eng = create_engine(url)
        try:
            with eng.connect() as c:  # PostgreSQL has no integrity_check: every table must read
                names = [r[0] for r in c.execute(text("SELECT tablename FROM pg_tables WHERE schemaname = 'public'"))]
                for n in names:
                    c.execute(text(f'SELECT count(*) FROM "{n}"')).scalar()
            return "ok"
        finally:
            eng.dispose()
    import sqlite3

    con = sqlite3.connect(root / "lorekeeper.db")
    try:
        rows = con.execute("PRAGMA integrity_check").fetchall()
        return "ok" if rows == [("ok",)] else "; ".join(str(r[0]) for r in rows[:10])
    finally:
        con.close()


def check(root: Path, url: str | None = None) -> Verdict:
    """Every journal's operations against the store and the log (all processes stopped first)."""
    from sqlalchemy import select

    from helpers.cli import run_lorekeeper
    from lorekeeper.store.models import Fact, FactConflict, Learning, Proposal, PurgeRun, Skill
    from lorekeeper.workspace import Workspace

    v = Verdict()
    ops = [op for j in sorted((root.parent / "journals").glob("*.jsonl")) for op in read_journal(j)]
    for op in ops:
        v.ops[op.op] += 1
        if op.ok:
            v.successes[op.op] += 1
        elif op.unknown:
            v.unknown[op.op] += 1
        else:
            v.failures[op.op] += 1
            assert op.end is not None
            code = _error_code(op.end)
            v.errors[code] += 1
            if "malformed" in str(op.end.get("error")) or "not a database" in str(op.end.get("error")):
                v.corrupt.append(f"{op.actor}#{op.n} {op.op} {op.target}: {str(op.end.get('error'))[:300]}")
            elif code in ("ERR_INTERNAL", "5", "exception", "4xp6", "e3q8") or "Traceback" in str(op.end.get("error")):
                v.internal.append(f"{op.actor}#{op.n} {op.op} {op.target}: {str(op.end.get('error'))[-400:]}")
    try:
        v.integrity = integrity(root, url)
    except Exception as exc:
        v.integrity = f"cannot check: {exc}"
    from kill_support import child_env

    proc = run_lorekeeper("--workspace", str(root), "audit", "verify", "--json", env=child_env())
    v.verify_ok = proc.returncode == 0
    v.verify_text = (proc.stdout + proc.stderr)[-800:] if not v.verify_ok else ""
    try:  # a damaged store may still open: what it lost is evidence too
        ws = Workspace.open(root)
    except Exception as exc:
        v.lost.append(f"the workspace does not open: {exc}")
        return v
    try:
        ws.audit.require_key()
        log = ws.audit.log
        events = log.events()
        by_type: dict[str, list[Any]] = defaultdict(list)
        for e in events:
            by_type[e.type].append({**(e.data if isinstance(e.data, dict) else {}), "_story": e.story})
        with ws.store.session() as s:
            rules = set(s.scalars(select(Learning.rule)))
            skills = set(s.scalars(select(Skill.name)))
            facts = {f.id: f.status for f in s.scalars(select(Fact))}
            statements = {f.statement for f in s.scalars(select(Fact))}
            proposals = {p.id: p.status for p in s.scalars(select(Proposal))}
            conflicts = {c.id: c.status for c in s.scalars(select(FactConflict))}
            runs = list(s.scalars(select(PurgeRun)))
        purged = {st for r in runs if r.status == "done" for st in json.loads(r.stories or "[]")}
        clarified = {c.story for c in ws.clarifications.list()}
        key_version = ws.audit.key_session.version if ws.audit.key_session else 0
        ids_in = lambda t, k: {str(d.get(k)) for d in by_type[t]}  # noqa: E731
        _presence(v, ops, rules, skills, facts, statements, proposals, conflicts, purged, clarified, by_type, ids_in)
        rotated = Counter(str(d.get("new_version")) for d in by_type["audit_key_rotated"])
        for nv, n in rotated.items():
            if n > 1:
                v.rotation_log.append(f"{n} events say the key was rotated to v{nv}")
        for op in ops:
            if op.op == "rotate" and op.ok:
                nv = str((op.out or {}).get("new_version"))
                if nv not in rotated:
                    v.rotation_log.append(f"{op.actor}#{op.n} rotation to v{nv} reported success, no event")
                if int(nv) > key_version:
                    v.lost.append(f"{op.actor}#{op.n} rotation to v{nv} (the store's key is v{key_version})")
    except Exception as exc:
        v.lost.append(f"the presence check could not read the store: {str(exc)[:300]}")
    finally:
        ws.close()
    return v


def _presence(
    v, ops, rules, skills, facts, statements, proposals, conflicts, purged, clarified, by_type, ids_in
) -> None:  # type: ignore[no-untyped-def]
    """Each successful operation's effect in the store, and its decision in the log."""
    last: dict[str, list[Op]] = defaultdict(list)
    for op in ops:
        last[op.target].append(op)
    for op in ops:
        if not op.ok:
            continue
        who = f"{op.actor}#{op.n} {op.op}"
        kind, _, key = op.target.partition(":")
        if op.op in ("learn_add", "mcp_feedback") and key not in rules:
            v.lost.append(f"{who}: learning {key!r}")
        elif op.op == "learn_import":
            missing = [r for r in json.loads(key) if r not in rules]
            if missing:
                v.lost.append(f"{who}: imported learnings {missing}")
        elif op.op == "ctx_pack" and not Path(key).is_file():
            v.lost.append(f"{who}: the pack file {key}")
        elif op.op == "skills_import" and key not in skills:
            v.lost.append(f"{who}: skill {key}")
        elif op.op == "fact_add" and key not in statements:
            v.lost.append(f"{who}: fact {key!r}")
        elif op.op == "mcp_story_start" and key not in {str(d.get("_story")) for d in by_type["memory_injected"]}:
            v.unlogged.append(f"{who}: the injection of story {key}")
        elif op.op == "clarify":
            later = [o for o in last[op.target] if o.n > op.n and o.op == "purge"]
            if not later and key not in clarified:
                v.lost.append(f"{who}: clarification {key}")
    # decisions: the target's state is the last successful decision's, unless an operation after it
    # has an unknown outcome (then either); each successful decision has its signed event
    for target, seq in last.items():
        kind, _, key = target.partition(":")
        if kind not in ("proposal", "factid", "conflict", "story"):
            continue
        done = [o for o in seq if o.ok]
        if not done:
            continue
        final = done[-1]
        after = [o for o in seq if o.n > final.n and o.unknown]
        who = f"{final.actor}#{final.n} {final.op} {target}"
        if kind == "proposal":
            state, want = proposals.get(int(key)), PROPOSAL_STATUS[final.op.split("_", 1)[1]]
            ok_states = {want} | ({PROPOSAL_STATUS[o.op.split("_", 1)[1]] for o in after})
            if state not in ok_states:
                v.lost.append(f"{who}: proposal is {state}, expected {sorted(ok_states)}")
            for o in done:
                if str(key) not in ids_in(PROPOSAL_EVENT[o.op.split("_", 1)[1]], "proposal"):
                    v.unlogged.append(f"{o.actor}#{o.n} {o.op} {target}")
        elif kind == "factid":
            state, want = facts.get(key), "approved" if final.op == "fact_approve" else "rejected"
            if state != want and not after:
                v.lost.append(f"{who}: fact is {state}, expected {want}")
            event = "fact_approved" if final.op == "fact_approve" else "fact_rejected"
            if not any(key in json.dumps(d) for d in by_type[event]):
                v.unlogged.append(who)
        elif kind == "conflict":
            if conflicts.get(int(key)) != "resolved" and not after:
                v.lost.append(f"{who}: conflict is {conflicts.get(int(key))}")
            if key not in ids_in("fact_conflict_resolved", "conflict"):
                v.unlogged.append(who)
        elif kind == "story" and final.op == "purge":
            if key in clarified:
                v.lost.append(f"{who}: the purged story's clarification is back")
            if key not in purged:
                v.lost.append(f"{who}: no finished purge run names {key}")
            if key not in {str(d.get("_story")) for d in by_type["clarification_purged"]}:
                v.unlogged.append(who)
