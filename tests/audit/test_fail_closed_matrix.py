"""Issue 24 (5): fail closed, everywhere. With the key unavailable (missing, garbled, a failing
keyring backend) or the chain broken, every command that writes exits 4 and writes nothing: the
database rows and the workspace files are identical before and after. Deterministic commands
(`route`, `eval --no-record`, `ctx`) never load the key and keep working.

One prepared workspace per module (the setup runs with the key); each case breaks the key or the
chain, runs one command in-process and puts the key or the day file back.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Self

import pytest

from helpers.cli import run_lorekeeper

STORY = "PD-900"
PROJECT = "citadel-v2"
ANSWERS = (
    "The invoice export is too slow for the month-end close.\n---\n"
    "It finishes under five minutes.\n---\nNo new database.\n---\nMust-have: CSV export.\n"
)
SKILL_MD = "---\nname: {name}\ndescription: A skill imported by the fail-closed matrix.\n---\n\n# {name}\n\nSteps.\n"


class Prepared:
    """The workspace and the ids the commands name (made with the key, before any case)."""

    def __init__(self, root: Path, tmp: Path, ids: dict[str, str]) -> None:
        self.root = root
        self.tmp = tmp
        self.ids = ids


def _lk(root: Path, *args: str, env: dict[str, str] | None = None, input: str | None = None) -> Any:
    where = [] if args[0] == "ctx" else ["--workspace", str(root)]  # ctx works on a folder, no workspace
    return run_lorekeeper(*args, *where, env=env, input=input)


def _ok(root: Path, *args: str, input: str | None = None) -> dict[str, Any]:
    r = _lk(root, *args, "--json", input=input)
    assert r.returncode == 0, (args, r.stdout, r.stderr)
    return json.loads(r.stdout) if r.stdout.strip() else {}


@pytest.fixture(scope="module")
def prepared(tmp_path_factory: pytest.TempPathFactory, workspace_templates) -> Iterator[Prepared]:
    tmp = tmp_path_factory.mktemp("failclosed")
    ws = workspace_templates.copy(tmp / "ws", demo=True)
    try:
        # evidence for a proposal, an answer for feedback, a learning to promote
        ws.quality.log_applied(["code-review"] * 4, None)
        for _ in range(4):
            ws.quality.log_eval("code-review", None, False)
        (created,) = [c for c in ws.improve.run_nightly().created if c["skill"] == "code-review"]
        prompt = ws.reflect.prepare("please review this pull request before I push", PROJECT)
        answer = ws.reflect.check(prompt, "Looks good. Push it with --force.", model="fake:model")
        learning = ws.learnings.add("Keep the matrix rule", project=PROJECT)
        # a second conflict, resolved: what `facts reopen-conflict` undoes
        fdoc = tmp / "release.md"
        fdoc.write_text("# Releases\n\nWe deploy on Friday evenings.\nNo deploys on Fridays.\n", encoding="utf-8")
        friday = ws.facts.add(
            PROJECT, "runbook", "Deploy on Friday evenings.", str(fdoc), "We deploy on Friday evenings."
        )
        never = ws.facts.add(PROJECT, "runbook", "Never deploy on a Friday.", str(fdoc), "No deploys on Fridays.")
        pair = [friday.facts[0].id, never.facts[0].id]
        (resolved,) = ws.facts.apply_recorded_consolidation(
            {"contradictions": [{"facts": pair, "reason": "Friday"}]}, PROJECT
        ).conflicts
        ws.facts.resolve(resolved, keep=pair[1], why="matrix: an arbitration to undo")
        root = ws.root
    finally:
        ws.close()
    doc = tmp / "conventions.md"
    doc.write_text("# Conventions\n\nEvery export is written atomically.\n", encoding="utf-8")
    fact = _ok(
        root, "facts", "add", "--project", PROJECT, "--type", "convention", "--statement",
        "Exports are written atomically", "--document", str(doc), "--quote", "Every export is written atomically.",
    )  # fmt: skip
    fact_id = (fact.get("fact") or fact)["id"]
    decided = _ok(
        root, "facts", "add", "--project", PROJECT, "--type", "convention", "--statement",
        "Exports are signed", "--document", str(doc), "--quote", "Every export is written atomically.",
    )  # fmt: skip
    decided_id = (decided.get("fact") or decided)["id"]
    _ok(root, "facts", "approve", decided_id, "--reason", "matrix: a decision to reopen")
    (conflict,) = [c for c in _ok(root, "facts", "conflicts")["conflicts"] if c["id"] != resolved]
    archived = _ok(root, "learn", "add", "An archived rule to restore", "--project", PROJECT)["id"]
    _ok(root, "learn", "archive", str(archived))
    undone = next(p for p in _ok(root, "proposals", "list") if p["id"] != created["proposal"])
    _ok(root, "proposals", "reject", str(undone["id"]), "--reason", "matrix: a decision to undo")
    _ok(root, "clarify", STORY, "--domain", "billing", "--project", PROJECT, "--yes", input=ANSWERS)
    _ok(root, "story", "start", STORY, "--domain", "billing", "--project", PROJECT)
    from market.market_fixture import make_marketplace

    market = make_marketplace(tmp / "team-market")
    _ok(root, "market", "add", str(market))
    market2 = make_marketplace(tmp / "second" / "team-market-2")
    listing = market2 / ".claude-plugin" / "marketplace.json"
    listing.write_text(
        listing.read_text(encoding="utf-8").replace('"team-market"', '"second-market"'), encoding="utf-8"
    )
    doc2 = tmp / "runbook.md"
    doc2.write_text("# Runbook\n\nRestart the exporter before the close.\n", encoding="utf-8")
    new_skill = tmp / "import" / "matrix-skill"
    new_skill.mkdir(parents=True)
    (new_skill / "SKILL.md").write_text(SKILL_MD.format(name="matrix-skill"), encoding="utf-8")
    edited = tmp / "edited-SKILL.md"
    current = (root / "skills" / "code-review" / "SKILL.md").read_text(encoding="utf-8")
    edited.write_text(current + "\nOne more step.\n", encoding="utf-8")
    rules = tmp / "rules.json"
    rules.write_text(
        json.dumps(
            {
                "version": 1,
                "skill": "x",
                "rules": [{"id": "r1", "type": "min_length", "value": 1, "severity": "warning"}],
            }
        ),
        encoding="utf-8",
    )
    response = tmp / "response.md"
    response.write_text("An answer.\n", encoding="utf-8")
    src = tmp / "src"
    src.mkdir()
    from lorekeeper.audit import failclosed

    shutil.copy(failclosed.__file__, src / "a.py")  # a real module (a 2-line file trips `ctx pack`)
    made = _ok(root, "backup")  # what `restore` names (with the key: the backup is recorded)
    day = sorted((root / "sessions").glob("*.jsonl"))[-1]  # `audit tombstone` rewrites one of its events
    md = tmp / "learnings.md"
    md.write_text("# L\n\n- [2026-01-01T00:00:00Z] [fixit] Imported by the matrix\n", encoding="utf-8")
    note = tmp / "note.json"
    note.write_text('{"note": "written by the matrix"}', encoding="utf-8")
    ids = {
        "proposal": str(created["proposal"]),
        "answer": answer.interaction,
        "learning": str(learning.id),
        "fact": fact_id,
        "import": str(new_skill),
        "edited": str(edited),
        "rules": str(rules),
        "response": str(response),
        "src": str(src),
        "md": str(md),
        "out": str(tmp / "pack.md"),
        "doc": str(doc),
        "doc2": str(doc2),
        "market2": str(market2),
        "scenario": "Review this diff: it force-pushes to main.",
        "backup": str(made["path"]),
        "day": day.name,
        "decided_fact": decided_id,
        "conflict": str(conflict["id"]),
        "resolved_conflict": str(resolved),
        "keep": conflict["facts"][0],
        "archived": str(archived),
        "undone": str(undone["id"]),
        "data": str(note),
    }
    yield Prepared(root, tmp, ids)


# ---------------------------------------------------------------------------- the commands

QUOTE = ["--document", "{doc}", "--quote", "Every export is written atomically."]
WRITING: dict[str, list[str]] = {
    "skills import": ["skills", "import", "{import}"],
    "skills fork": ["skills", "fork", "code-review", "--project", "other-project"],
    "skills restore": ["skills", "restore", "code-review", "1"],
    "skills edit": ["skills", "edit", "code-review", "--file", "{edited}", "--message", "matrix"],
    "skills rules add": ["skills", "rules", "add", "code-review", "--id", "m1", "--type", "min_length", "--value", "1"],
    "market install": ["market", "install", "pdf-forms"],
    "story start": ["story", "start", "PD-901", "--domain", "billing", "--project", PROJECT],
    "story close": ["story", "close", STORY, "--state", "DONE", "--gate", "GO"],
    "purge --force": ["purge", "--story", STORY, "--force", "-q"],
    "schedule run": ["schedule", "run"],
    "facts approve": ["facts", "approve", "{fact}", "--reason", "matrix"],
    "facts reject": ["facts", "reject", "{fact}", "--reason", "matrix"],
    "proposals approve": ["proposals", "approve", "{proposal}", "--reason", "matrix"],
    "proposals reject": ["proposals", "reject", "{proposal}", "--reason", "matrix"],
    "memory search --trace": [
        "memory",
        "search",
        "invoice",
        "--corpus",
        "clarifications",
        "--domain",
        "billing",
        "--project",
        PROJECT,
        "--trace",
        STORY,
    ],
    "feedback down": ["feedback", "down", "{answer}", "--reason", "Never force push", "--project", PROJECT],
    "feedback up": ["feedback", "up", "{answer}", "--project", PROJECT],
    "fixit": ["fixit", "{answer}", "--rule", "Never force push", "--project", PROJECT],
    "learn add": ["learn", "add", "Matrix rule"],
    "learn archive": ["learn", "archive", "{learning}"],
    "learn import": ["learn", "import", "{md}"],
    "learn promote": ["learn", "promote"],
    "eval (recorded)": ["eval", "--skill", "code-review", "--response", "{response}"],
    "nightly": ["nightly", "--all-time"],
    "facts add": ["facts", "add", "--project", PROJECT, "--type", "pitfall", "--statement", "Matrix pitfall", *QUOTE],
    "facts edit": ["facts", "edit", "{fact}", "--statement", "Exports are always written atomically"],
    "facts ingest": ["facts", "ingest", "{doc2}", "--project", PROJECT, "--no-extract"],
    "facts settings": ["facts", "settings", "--project", PROJECT, "--approved-only"],
    "learn edit": ["learn", "edit", "{learning}", "--rule", "Edited by the matrix"],
    "skills unfork": ["skills", "unfork", "code-review", "--project", PROJECT],
    "market add": ["market", "add", "{market2}"],
    "market remove": ["market", "remove", "team-market"],
    "memory collect": ["memory", "collect"],
    "memory index": ["memory", "index"],
    "purge --retention": ["purge", "--retention", "--today", "2099-01-01", "-q"],
    "backup": ["backup"],
    "repair": ["repair"],
    "bench scenarios --add": ["bench", "scenarios", "code-review", "--add", "{scenario}"],
    "audit tombstone": ["audit", "tombstone", "{day}", "1", "--reason", "matrix"],
    # the rest of the command tree's writing leaves (`lorekeeper --help`, walked to its leaves)
    "facts resolve": ["facts", "resolve", "{conflict}", "--keep", "{keep}", "--reason", "matrix"],
    "facts reopen": ["facts", "reopen", "{decided_fact}", "--reason", "matrix"],
    "facts reopen-conflict": ["facts", "reopen-conflict", "{resolved_conflict}", "--reason", "matrix"],
    "facts consolidate": ["facts", "consolidate", "--project", PROJECT],
    "learn restore": ["learn", "restore", "{archived}"],
    "learn archive-stale": ["learn", "archive-stale", "--today", "2099-01-01"],
    "proposals undo": ["proposals", "undo", "{undone}", "--reason", "matrix"],
    "skills rules delete": ["skills", "rules", "delete", "code-review", "cr-001"],
    "skills rules edit": ["skills", "rules", "edit", "code-review", "cr-001", "--name", "Renamed by the matrix"],
    "skills suggest --triggers": ["skills", "suggest", "code-review", "--no-model", "--triggers"],
    "audit sign-rows": ["audit", "sign-rows"],
    "audit append": ["audit", "append", "operator_note", "--data", "{data}"],
    "audit rotate": ["audit", "rotate"],
}
# `restore` without the key: refused before anything moves (the log could neither record it nor
# name the stories purged since the backup, which a restore must erase again). With a broken
# chain it stays the operator's repair (it reconciles the log, or puts the backup's log back, and
# signs an `audit_head_adopted` event saying so), so it is not in the broken-chain set.
KEYLESS_ONLY: dict[str, list[str]] = {"restore": ["restore", "{backup}"]}
CLARIFY = ["clarify", "PD-902", "--domain", "billing", "--project", PROJECT, "--yes"]

DETERMINISTIC: dict[str, list[str]] = {
    "route": ["route", "review this pull request"],
    "eval --rules --no-record": ["eval", "--rules", "{rules}", "--response", "{response}", "--no-record"],
    "eval --skill --no-record": ["eval", "--skill", "code-review", "--response", "{response}", "--no-record"],
    "ctx pack": ["ctx", "pack", "{src}", "--budget", "4000", "-o", "{out}"],
    "ctx overview": ["ctx", "overview", "{src}"],
}


def _args(p: Prepared, template: list[str]) -> list[str]:
    return [a.format(**p.ids) for a in template]


# ---------------------------------------------------------------------------- snapshots


def snapshot(root: Path) -> dict[str, Any]:
    """Every row of every table (read through SQLite) and the bytes of every workspace file but the
    live database files and the lock files (a lock is taken and released by any command)."""
    con = sqlite3.connect(f"file:{root / 'lorekeeper.db'}?mode=ro", uri=True)
    try:
        dump = list(con.iterdump())
    finally:
        con.close()
    files: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if not path.is_file() or rel.startswith(("locks/", "lorekeeper.db")):
            continue
        files[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return {"rows": dump, "files": files}


def diff(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    out = [f"row added: {r[:160]}" for r in sorted(set(after["rows"]) - set(before["rows"]))]
    out += [f"row gone: {r[:160]}" for r in sorted(set(before["rows"]) - set(after["rows"]))]
    for name in sorted(set(before["files"]) | set(after["files"])):
        if before["files"].get(name) != after["files"].get(name):
            out.append(f"file changed: {name}")
    return out


# ---------------------------------------------------------------------------- breaking the key or chain

KEYLESS_ENV = {**os.environ, "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}


def _key_entries(root: Path) -> tuple[str, dict[str, str | None]]:
    import tomllib

    import keyring

    from lorekeeper.audit.providers import KEYRING_SERVICE

    ws_id = tomllib.loads((root / "lorekeeper.toml").read_text(encoding="utf-8"))["workspace"]["id"]
    entry = f"audit-hmac:{ws_id}"
    saved = {}
    for suffix in ("", ":version", ":v1", ":v2"):
        saved[entry + suffix] = keyring.get_password(KEYRING_SERVICE, entry + suffix)
    return KEYRING_SERVICE, saved


class Broken:
    def __init__(self, mode: str, root: Path) -> None:
        self.mode, self.root = mode, root
        self.env: dict[str, str] | None = KEYLESS_ENV if mode == "failing backend" else None

    def __enter__(self) -> Self:
        import keyring

        if self.mode in ("missing", "garbled"):
            self.service, self.saved = _key_entries(self.root)
            for name, value in self.saved.items():
                if value is None:
                    continue
                if self.mode == "missing":
                    keyring.delete_password(self.service, name)
                elif not name.endswith(":version"):
                    keyring.set_password(self.service, name, "not-a-key")
        if self.mode == "broken chain":
            days = sorted((self.root / "sessions").glob("*.jsonl"))
            self.day = days[-1]
            self.kept = self.day.with_suffix(".kept")
            shutil.copy2(self.day, self.kept)
            lines = self.day.read_text(encoding="utf-8").splitlines(keepends=True)
            assert len(lines) >= 2
            self.day.write_text("".join(lines[:-1]), encoding="utf-8")  # the last event cut off
        return self

    def __exit__(self, *exc: object) -> None:
        import keyring

        if self.mode in ("missing", "garbled"):
            for name, value in self.saved.items():
                if value is not None:
                    keyring.set_password(self.service, name, value)
        if self.mode == "broken chain":
            os.replace(self.kept, self.day)


# every command with a failing keyring backend and with a broken chain; a missing or garbled key
# takes the same path (the key session refuses to start), so a sample of commands covers them
SAMPLE = ["skills import", "market install", "story start", "purge --force", "facts approve", "feedback down"]
CASES = [(c, m) for c in [*WRITING, "clarify"] for m in ("failing backend", "broken chain")]
CASES += [(c, m) for c in SAMPLE for m in ("missing", "garbled")]
CASES += [(c, m) for c in KEYLESS_ONLY for m in ("failing backend", "missing", "garbled")]


@pytest.mark.parametrize(("command", "mode"), CASES)
def test_a_writing_command_exits_4_and_writes_nothing(prepared: Prepared, mode: str, command: str) -> None:
    args = _args(prepared, CLARIFY if command == "clarify" else {**WRITING, **KEYLESS_ONLY}[command])
    with Broken(mode, prepared.root) as broken:
        before = snapshot(prepared.root)
        r = _lk(prepared.root, *args, env=broken.env, input=ANSWERS if command == "clarify" else None)
        after = snapshot(prepared.root)
    assert r.returncode == 4, (r.returncode, r.stdout[-400:], r.stderr[-800:])
    assert "Traceback" not in r.stderr
    assert diff(before, after) == []


@pytest.mark.parametrize("command", list(DETERMINISTIC))
def test_deterministic_commands_never_load_the_key(
    prepared: Prepared, command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lorekeeper.audit.service import AuditService

    def no_key(_self: AuditService) -> None:
        raise AssertionError(f"{command} asked for the audit key")

    monkeypatch.setattr(AuditService, "require_key", no_key)
    args = _args(prepared, DETERMINISTIC[command])
    before = snapshot(prepared.root)
    r = _lk(prepared.root, *args, env=KEYLESS_ENV)
    assert r.returncode == 0, (r.stdout[-400:], r.stderr[-800:])
    assert diff(before, snapshot(prepared.root)) == []


def test_a_sealed_vault_fails_every_write_closed(tmp_path: Path, bao_factory, monkeypatch) -> None:
    """The Vault provider, sealed after the key was made: the same refusal, nothing written."""
    from audit_helpers import make_vault_workspace

    from lorekeeper.workspace import Workspace

    server = bao_factory()
    root = make_vault_workspace(tmp_path / "sealed", server.addr, "lk/failclosed")
    monkeypatch.setenv("VAULT_TOKEN", server.token)
    with Workspace.open(root) as ws:
        ws.audit.init_key()
        ws.learnings.add("Signed while Vault was open")
    assert server.bao("operator", "seal").returncode == 0
    skill = tmp_path / "import" / "sealed-skill"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(SKILL_MD.format(name="sealed-skill"), encoding="utf-8")
    for args in (
        ["skills", "import", str(skill)],
        ["story", "start", "PD-903", "--domain", "billing", "--project", PROJECT],
        ["learn", "add", "Written while sealed"],
        ["schedule", "run"],
    ):
        before = snapshot(root)
        r = _lk(root, *args)
        assert r.returncode == 4 and "ERR_AUDIT_KEY_UNAVAILABLE" in r.stdout + r.stderr, (args, r.stderr[-400:])
        assert diff(before, snapshot(root)) == [], args
