"""The one write path: a single Alembic head, ERR_STORE_BUSY after the busy timeout, ERR_INTERNAL
with a log file, `repair` after a failed folder write, the store revision seen across processes,
the constraints behind the invariants, and two workspaces sharing one PostgreSQL database."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import create_engine, select, text
from store_helpers import make_demo, set_store, write_skill

from helpers import forkcli
from lorekeeper.cli import main
from lorekeeper.errors import EXIT_INTERNAL, EXIT_UNAVAILABLE
from lorekeeper.store import Store
from lorekeeper.store.engine import ADVISORY_KEY, StoreConflictError
from lorekeeper.store.migrate import alembic_config, downgrade, upgrade
from lorekeeper.store.models import Proposal
from lorekeeper.workspace import Workspace


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def backend(request) -> str:
    return str(request.param)


def lk(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`lorekeeper --workspace ROOT ARGS` in another process (forked warm: tests/helpers/forkcli.py)."""
    return forkcli.run("--workspace", str(root), *args, timeout=120)


def test_the_migration_history_has_one_head() -> None:
    from alembic.script import ScriptDirectory

    heads = ScriptDirectory.from_config(alembic_config()).get_heads()
    assert len(heads) == 1, f"several Alembic heads {heads}: add a merge migration"


def test_busy_store_is_err_store_busy_exit_4(backend: str, tmp_path: Path, request) -> None:
    root = tmp_path / "ws"
    Workspace.init(root, starter=False).close()
    if backend == "postgres":
        url = request.getfixturevalue("pg_url")
        set_store(root, url=url)
        Workspace.open(root).close()  # migrated
        holder = create_engine(url).connect()
        holder.execute(
            text("SELECT pg_advisory_xact_lock(:k)"),
            {"k": ADVISORY_KEY},
        )
    else:
        holder = sqlite3.connect(root / "lorekeeper.db", isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    set_store(root, busy_timeout=0.5)
    src = write_skill(tmp_path / "src", "busy-skill", "Waiting for the lock.")
    try:
        r = lk(root, "skills", "import", str(src), "--json")
        reads = lk(root, "skills", "list", "--json")  # reads never wait for the writer
    finally:
        holder.rollback() if backend == "postgres" else holder.execute("ROLLBACK")
        holder.close()
    assert r.returncode == EXIT_UNAVAILABLE, r.stderr
    assert "ERR_STORE_BUSY" in r.stderr and "busy_timeout" in r.stderr and "Traceback" not in r.stderr
    assert json.loads(r.stdout)["error"]["code"] == "ERR_STORE_BUSY"
    assert reads.returncode == 0, reads.stderr
    assert "busy-skill" not in reads.stdout
    # once the lock is free, the same command works
    assert lk(root, "skills", "import", str(src)).returncode == 0


def test_unexpected_error_is_err_internal_exit_5_with_a_log(workspace: Workspace, monkeypatch) -> None:
    from lorekeeper.skills.reading import SkillReader

    def boom(*_a: object, **_k: object) -> None:
        raise RuntimeError("disk gremlin")

    monkeypatch.setattr(SkillReader, "list", boom)
    runner = CliRunner()
    r = runner.invoke(main, ["--workspace", str(workspace.root), "skills", "list", "--json"])
    assert r.exit_code == EXIT_INTERNAL
    log = workspace.root / "logs" / "errors.log"
    err = r.stderr.strip()
    assert len(err.splitlines()) == 1 and "ERR_INTERNAL" in err and str(log) in err and "Traceback" not in err
    assert json.loads(r.stdout)["error"]["code"] == "ERR_INTERNAL"
    logged = log.read_text(encoding="utf-8")
    assert "Traceback" in logged and "disk gremlin" in logged
    # a command without the decorator is covered by the top-level mapping too
    import click

    @click.command()
    @click.option("--json", "as_json", is_flag=True)
    def undecorated(as_json: bool) -> None:
        boom()

    monkeypatch.setitem(main.commands, "undecorated", undecorated)
    r = runner.invoke(main, ["--workspace", str(workspace.root), "undecorated", "--json"])
    assert r.exit_code == EXIT_INTERNAL and "Traceback" not in r.stderr and str(log) in r.stderr
    assert json.loads(r.stdout)["error"]["code"] == "ERR_INTERNAL"
    assert log.read_text(encoding="utf-8").count("RuntimeError: disk gremlin") == 2


def test_repair_rebuilds_the_skills_folder_after_a_failed_write(workspace: Workspace, tmp_path: Path) -> None:
    root = workspace.root
    workspace.close()
    blocked = root / "skills" / "code-review"
    import shutil

    shutil.rmtree(blocked)
    blocked.write_text("not a folder", encoding="utf-8")  # the folder write after commit will fail
    src = tmp_path / "src"
    shutil.copytree(Path(__file__).resolve().parents[2] / "skills" / "code-review", src / "code-review")
    skill_md = src / "code-review" / "SKILL.md"
    skill_md.write_text(skill_md.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    r = lk(root, "skills", "import", str(src), "--on-conflict", "new-version")  # a name collision asks by default
    assert r.returncode == EXIT_UNAVAILABLE and "Traceback" not in r.stderr
    assert "ERR_DERIVED_WRITE_FAILED" in r.stderr and "lorekeeper repair" in r.stderr
    with Workspace.open(root) as ws:
        assert "One more line." in ws.skills.get("code-review").content  # the store change stands
    r = lk(root, "repair", "--json")
    assert r.returncode == 0, r.stderr
    folder = json.loads(r.stdout)["derived"][0]
    assert folder["name"] == "skills-folder" and folder["rewritten"] >= 1
    assert any("code-review" in s for s in folder["stale"])
    assert "One more line." in (root / "skills" / "code-review" / "SKILL.md").read_text(encoding="utf-8")
    again = json.loads(lk(root, "repair", "--json").stdout)["derived"][0]
    assert again == {"name": "skills-folder", "stale": [], "rewritten": 0}  # idempotent


def test_another_process_write_moves_the_revision_and_the_router(workspace: Workspace, tmp_path: Path) -> None:
    before = workspace.store.revision()
    router = workspace.routers.get()
    assert "zebra" not in [m.name for m in router.score_all("zebra crossing")]
    src = write_skill(tmp_path / "src", "zebra", "Stripes.")
    (src / "SKILL.md").write_text(
        (src / "SKILL.md").read_text(encoding="utf-8").replace('"race, zebra"', '"zebra crossing"'), encoding="utf-8"
    )
    r = lk(workspace.root, "skills", "import", str(src))
    assert r.returncode == 0, r.stderr
    assert workspace.store.revision() > before
    assert workspace.routers.get() is not router
    assert [m.name for m in workspace.routers.get().score_all("zebra crossing")][:1] == ["zebra"]


def test_one_pending_proposal_per_skill_scope_is_a_constraint(backend: str, tmp_path: Path, request) -> None:
    url = f"sqlite:///{tmp_path / 'lk.db'}" if backend == "sqlite" else request.getfixturevalue("pg_url")
    store = Store(url)
    try:
        with store.write() as s:
            s.add(Proposal(skill="a", scope="", source="template", status="pending"))
            s.add(Proposal(skill="a", scope="", source="template", status="rejected"))
            s.add(Proposal(skill="a", scope="p1", source="template", status="pending"))
        with pytest.raises(StoreConflictError), store.write() as s:
            s.add(Proposal(skill="a", scope="", source="template", status="pending"))
    finally:
        store.close()


def test_migration_closes_duplicate_pending_proposals(backend: str, tmp_path: Path, request) -> None:
    url = f"sqlite:///{tmp_path / 'lk.db'}" if backend == "sqlite" else request.getfixturevalue("pg_url")
    store = Store(url)
    try:
        downgrade(store.engine, "0007_merge")
        with store.engine.begin() as c:
            for skill in ("a", "a", "a", "b"):
                c.execute(
                    text(
                        "INSERT INTO proposals (skill, scope, project, source, status, reason, summary, metrics, "
                        "failing_rules, learnings, base_version, current_content, proposed_content, model, prompt, "
                        "answer, created_at, decided_by, decision_reason, event_sig) VALUES (:s, '', '', 'template', "
                        "'pending', '', '', '{}', '[]', '[]', 1, '', '', '', '', '', CURRENT_TIMESTAMP, '', '', '')"
                    ),
                    {"s": skill},
                )
        upgrade(store)
        with store.session() as s:
            rows = [(p.id, p.skill, p.status) for p in s.scalars(select(Proposal).order_by(Proposal.id))]
        assert rows == [(1, "a", "pending"), (2, "a", "rejected"), (3, "a", "rejected"), (4, "b", "pending")]
        assert store.revision() >= 1
    finally:
        store.close()


@pytest.mark.postgres
def test_two_workspaces_on_one_postgres_database_both_verify(pg_url: str, tmp_path: Path) -> None:
    a = make_demo(tmp_path / "a", pg_url)
    b = tmp_path / "b"
    Workspace.init(b, starter=False).close()
    set_store(b, url=pg_url)
    # issue 25: one trust root per store, so B signs with A's key (as with one shared Vault path);
    # its own keyring key would be refused (tests/audit/test_store_trust.py)
    import tomllib

    import keyring

    with Workspace.open(a) as ws_a:
        a_key = ws_a.audit.require_key().signer.key_for(1)
        assert a_key is not None
    entry = "audit-hmac:" + tomllib.loads((b / "lorekeeper.toml").read_text(encoding="utf-8"))["workspace"]["id"]
    for name in (entry, f"{entry}:v1"):
        keyring.set_password("lorekeeper", name, a_key.hex())
    with Workspace.open(a) as ws:
        ws.audit.log.append("work_in_a", {"n": 1})
        pending = ws.improve.proposals.list("pending")
        ws.improve.proposals.approve(pending[0].id, why="reviewed in workspace a")
    with Workspace.open(b) as ws:
        ws.audit.log.append("work_in_b", {"n": 1})
        ws.audit.log.append("work_in_b", {"n": 2})
    with Workspace.open(a) as ws:
        ws.audit.log.append("more_work_in_a", {"n": 2})
    for root in (a, b):
        r = lk(root, "audit", "verify", "--json")
        assert r.returncode == 0, (root.name, r.stdout, r.stderr)
        assert json.loads(r.stdout)["ok"] is True
