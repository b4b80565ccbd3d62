"""Issue 25 d1: one trust root per store. Two workspaces on one PostgreSQL database: each with its
own keyring key, the second is refused with ERR_STORE_KEY_MISMATCH (exit 4) and writes nothing;
with one shared Vault KV path (a real OpenBao dev server), both verify each other's rows, a key
rotation in one is followed by the other, and a third workspace with its own key is refused."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path

import pytest
from audit_helpers import BaoServer, run_cli, session_files, set_audit_config
from sqlalchemy import create_engine, text

from lorekeeper.workspace import Workspace

pytestmark = pytest.mark.postgres


def set_store(root: Path, url: str) -> None:
    cfg = root / "lorekeeper.toml"
    cfg.write_text(re.sub(r'(?m)^url = "sqlite:///.*?"', f'url = "{url}"', cfg.read_text(encoding="utf-8")), "utf-8")


def new_ws(root: Path, url: str) -> Path:
    Workspace.init(root, starter=False).close()
    set_store(root, url)
    return root


def count(url: str, sql: str) -> int:
    engine = create_engine(url)
    try:
        with engine.connect() as c:
            return int(c.execute(text(sql)).scalar() or 0)
    finally:
        engine.dispose()


def status(root: Path) -> tuple[int, dict]:
    out = run_cli("--workspace", str(root), "audit", "status", "--json")
    return out.returncode, json.loads(out.stdout)


def test_own_keyring_keys_on_one_store_the_second_is_refused_and_writes_nothing(tmp_path: Path, pg_url: str):
    a, b = new_ws(tmp_path / "a", pg_url), new_ws(tmp_path / "b", pg_url)
    assert run_cli("--workspace", str(a), "learn", "add", "Rule of A", "--scope", "global").returncode == 0
    rows_before = count(pg_url, "SELECT count(*) FROM learnings")
    changes_before = count(pg_url, "SELECT count(*) FROM audit_outbox")

    out = run_cli("--workspace", str(b), "learn", "add", "Rule of B", "--scope", "global")

    assert out.returncode == 4, out.stderr
    assert "ERR_STORE_KEY_MISMATCH" in out.stderr
    assert "lorekeeper audit setup --provider vault" in out.stderr  # says what to do
    assert count(pg_url, "SELECT count(*) FROM learnings") == rows_before == 1
    assert count(pg_url, "SELECT count(*) FROM audit_outbox") == changes_before
    assert not session_files(b) or all(not p.read_text() for p in session_files(b))
    # B's status names the mismatch, and A's rows as signed by another key, not tampered
    code, data = status(b)
    assert code == 4
    assert data["trust_root"]["state"] == "mismatch"
    assert data["trust_root"]["code"] == "ERR_STORE_KEY_MISMATCH"
    assert data["unsigned_entries"]["by_table"]["learnings"] == 1
    assert data["unsigned_entries"]["reason"] == "signed_by_another_key"
    # A, the store's trust root, still works and verifies everything
    code, data = status(a)
    assert code == 0 and data["trust_root"]["state"] == "trusted"
    assert data["unsigned_entries"]["total"] == 0
    assert run_cli("--workspace", str(a), "learn", "add", "Another rule of A").returncode == 0


def test_one_shared_vault_path_both_workspaces_verify_each_other(
    tmp_path: Path, pg_url: str, bao: BaoServer, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("VAULT_TOKEN", bao.token)
    monkeypatch.delenv("VAULT_ADDR", raising=False)
    path = f"lk-team/{uuid.uuid4().hex}"
    a, b = new_ws(tmp_path / "a", pg_url), new_ws(tmp_path / "b", pg_url)
    for root in (a, b):
        set_audit_config(root, provider="vault", addr=bao.addr, path=path)
    assert run_cli("--workspace", str(a), "audit", "init-key").returncode == 0
    assert run_cli("--workspace", str(a), "learn", "add", "Rule of team A", "--scope", "global").returncode == 0
    out = run_cli("--workspace", str(b), "learn", "add", "Rule of team B", "--scope", "global")
    assert out.returncode == 0, out.stderr

    for root in (a, b):
        code, data = status(root)
        assert code == 0 and data["trust_root"]["state"] == "trusted", data["trust_root"]
        assert data["unsigned_entries"]["total"] == 0
        assert run_cli("--workspace", str(root), "audit", "verify").returncode == 0
        prompt = run_cli("--workspace", str(root), "prompt", "review this change")
        assert "Rule of team A" in prompt.stdout and "Rule of team B" in prompt.stdout

    # A rotates: B loads the new version from Vault and the store's root follows
    assert run_cli("--workspace", str(a), "audit", "rotate").returncode == 0
    out = run_cli("--workspace", str(b), "learn", "add", "Rule of team B after rotation", "--scope", "global")
    assert out.returncode == 0, out.stderr
    assert count(pg_url, "SELECT max(key_version) FROM audit_trust_roots") == 2
    assert count(pg_url, "SELECT count(DISTINCT fingerprint) FROM audit_trust_roots") == 2
    code, data = status(a)
    assert code == 0 and data["unsigned_entries"]["total"] == 0 and data["key_version"] == 2

    # a third workspace with a keyring key of its own cannot join by accident
    c = new_ws(tmp_path / "c", pg_url)
    before = count(pg_url, "SELECT count(*) FROM learnings")
    out = run_cli("--workspace", str(c), "learn", "add", "Rule of a stray workspace")
    assert out.returncode == 4 and "ERR_STORE_KEY_MISMATCH" in out.stderr
    assert path in out.stderr  # names the team's Vault path to use
    assert count(pg_url, "SELECT count(*) FROM learnings") == before
