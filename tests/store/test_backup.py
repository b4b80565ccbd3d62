"""Backups and recovery (issue 23, deliverable 3): `lorekeeper backup`, `restore`, the damaged-store
error, the daily copies of `schedule run`, and the PostgreSQL guidance.

The database files are only ever touched here on CLOSED workspaces (a truncated last page stands
for the damage of the issue); the live store is copied through SQLite's backup API by the code.
"""

from __future__ import annotations

import json
import os
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest

from helpers.cli import run_lorekeeper
from lorekeeper.store.backup import BackupService, BackupUnsupportedError, postgres_guidance
from lorekeeper.workspace import Workspace

SKIP_TABLES = {
    "store_revision",
    "store_changes",
    "audit_heads",
    "audit_checkpoints",
    "audit_outbox",
    "row_anchors",
}  # the anchor moves with the head


def _rows(db: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table but the bookkeeping the restore itself moves (read-only)."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return {
            t: sorted(con.execute(f'SELECT * FROM "{t}"').fetchall(), key=repr) for t in tables if t not in SKIP_TABLES
        }
    finally:
        con.close()


def _ws_args(root: Path, *args: str) -> list[str]:
    return ["--workspace", str(root), *args]


def test_backup_then_restore_gives_back_the_rows_and_a_workspace_that_signs_and_verifies(workspace) -> None:
    ws = workspace
    root = ws.root
    ws.learnings.add("keep the changelog in the same commit")
    made = ws.backups.create()
    assert made["integrity"] == "ok" and made["recorded"] and made["bytes"] > 0
    assert made["revision"] == json.loads((Path(made["path"]) / "manifest.json").read_text())["revision"]
    assert Path(made["path"]).parent == root / "backups" and Path(made["path"]).name.startswith("lorekeeper-")
    ws.learnings.add("a rule written after the backup")
    ws.close()

    r = run_lorekeeper(*_ws_args(root, "restore", made["path"], "--json"))
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    aside = [Path(m["to"]) for m in out["set_aside"]]
    assert aside and aside[0].name.startswith("lorekeeper.replaced-") and aside[0].is_file()  # kept, renamed
    assert out["audit"]["audit"] == "rolled_forward" and out["recorded"]
    assert _rows(root / "lorekeeper.db") == _rows(Path(made["database"]))  # the backup's rows, exactly

    with Workspace.open(root) as again:
        rules = [x.rule for x in again.learnings.list()]
        assert "keep the changelog in the same commit" in rules and "a rule written after the backup" not in rules
    r = run_lorekeeper(*_ws_args(root, "learn", "add", "a signed write after the restore"))
    assert r.returncode == 0, r.stderr
    v = run_lorekeeper(*_ws_args(root, "audit", "verify", "--json"))
    assert v.returncode == 0, v.stdout + v.stderr
    assert json.loads(v.stdout)["ok"]
    types = [e.type for e in Workspace.open(root).audit.log.events()]
    assert "store_backup" in types and types.index("store_restored") < len(types) - 1


def test_a_lost_session_log_comes_back_from_the_backup_and_still_verifies(workspace) -> None:
    ws = workspace
    root = ws.root
    ws.learnings.add("rule in the backup")
    made = ws.backups.create()
    ws.learnings.add("rule after it")
    ws.close()
    for p in (root / "sessions").iterdir():  # the log is lost too; the witness outside still knows its head
        p.unlink()
    r = run_lorekeeper(*_ws_args(root, "restore", made["path"], "--json"))
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["sessions"] == "replaced" and out["audit"]["audit"] == "adopted"
    assert run_lorekeeper(*_ws_args(root, "learn", "add", "after the restore")).returncode == 0
    v = run_lorekeeper(*_ws_args(root, "audit", "verify"))
    assert v.returncode == 0, v.stdout


def test_a_damaged_store_names_the_newest_backup_and_restore_keeps_the_damaged_file(workspace) -> None:
    ws = workspace
    root = ws.root
    ws.learnings.add("a rule worth keeping")
    made = ws.backups.create()
    ws.close()
    db = root / "lorekeeper.db"
    os.truncate(db, db.stat().st_size - 4096)  # the closed file loses its last page
    damaged = db.read_bytes()

    r = run_lorekeeper(*_ws_args(root, "learn", "list", "--json"))
    assert r.returncode == 4
    err = json.loads(r.stdout)["error"]
    assert err["code"] == "ERR_STORE_DAMAGED"
    assert err["backup"] == made["path"] and made["path"] in err["message"]
    assert err["restore_command"] in err["message"] and " restore " in err["restore_command"]

    # the exact command of the message, argument for argument
    argv = err["restore_command"].split()[1:]
    r = run_lorekeeper(*argv, "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    kept = Path(out["set_aside"][0]["to"])
    assert kept.read_bytes() == damaged  # renamed aside, byte for byte: never overwritten
    assert run_lorekeeper(*_ws_args(root, "learn", "list")).stdout.count("a rule worth keeping") == 1


def test_a_wrecked_file_without_a_backup_gets_the_sqlite3_recover_route(workspace) -> None:
    root = workspace.root
    workspace.close()
    db = root / "lorekeeper.db"
    with open(db, "r+b") as fh:  # closed workspace: its header overwritten ("file is not a database")
        fh.write(b"\0" * 100)
    r = run_lorekeeper(*_ws_args(root, "learn", "list", "--json"))
    assert r.returncode == 4
    err = json.loads(r.stdout)["error"]
    assert err["code"] == "ERR_STORE_DAMAGED" and "backup" not in err
    assert f"sqlite3 {db} .recover" in err["message"] and err["dump_command"] in err["message"]
    assert err["restore_command"].endswith("restore " + str(root / "recovered.db"))


def test_restore_is_refused_while_the_workspace_is_open(workspace) -> None:
    made = workspace.backups.create()
    before = sorted(p.name for p in workspace.root.iterdir())
    r = run_lorekeeper(*_ws_args(workspace.root, "restore", made["path"]))  # `workspace` is still open
    assert r.returncode == 4 and "ERR_WORKSPACE_IN_USE" in r.stderr
    assert sorted(p.name for p in workspace.root.iterdir()) == before  # nothing renamed
    assert workspace.learnings.list() is not None  # and the open one still works


def test_restore_refuses_what_is_not_a_lorekeeper_store(workspace, tmp_path: Path) -> None:
    root = workspace.root
    workspace.close()
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    r = run_lorekeeper(*_ws_args(root, "restore", str(other)))
    assert r.returncode == 2 and "ERR_BACKUP_INVALID" in r.stderr and "not a Lorekeeper store" in r.stderr
    assert not list(root.glob("lorekeeper.replaced-*"))


def test_daily_backups_keep_the_newest_n_and_skip_a_day_already_done(workspace) -> None:
    svc: BackupService = workspace.backups
    day = datetime(2026, 3, 1, 3, 0, tzinfo=UTC)
    manual = svc.create()  # the operator's own: never pruned
    statuses = []
    for n in range(4):
        svc.clock = lambda n=n: day + timedelta(days=n)
        statuses.append(svc.daily(keep=2)["status"])
    again = svc.daily(keep=2)
    assert statuses == ["ok"] * 4 and again["status"] == "skipped"
    dailies = sorted(b.day for b in svc.available() if b.kind == "daily")
    assert dailies == ["2026-03-03", "2026-03-04"]
    assert Path(manual["path"]).is_dir()


def test_postgresql_stores_get_the_pg_dump_command_without_the_password(workspace, tmp_path: Path) -> None:
    url = "postgresql+psycopg://lore:s3cret@db.example:5433/teamstore"
    text = postgres_guidance(url)
    assert "pg_dump --format=custom" in text and "postgresql://lore@db.example:5433/teamstore" in text
    assert "s3cret" not in text
    stub = SimpleNamespace(sqlite_path=None, url=url)
    svc = BackupService(stub, workspace.root / "backups", sessions_dir=workspace.root, config_path=workspace.root,
                        session_lock=workspace.backups.session_lock)  # fmt: skip
    with pytest.raises(BackupUnsupportedError, match="pg_dump") as caught:
        svc.create()
    assert caught.value.code == "ERR_BACKUP_UNSUPPORTED" and "s3cret" not in caught.value.message
    root = workspace.root
    workspace.close()
    cfg = root / "lorekeeper.toml"
    cfg.write_text(cfg.read_text().replace('url = "sqlite:///lorekeeper.db"', f'url = "{url}"'))
    r = run_lorekeeper(*_ws_args(root, "restore", str(tmp_path)))
    assert r.returncode == 4 and "ERR_BACKUP_UNSUPPORTED" in r.stderr and "pg_restore" in r.stderr
    assert "s3cret" not in r.stderr
