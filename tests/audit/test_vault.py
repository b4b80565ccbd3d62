"""The Vault provider against a real OpenBao dev server: load, init-key, rotate (more than KV's
10 kept versions), verify old versions, and fail closed when Vault is dead, sealed or empty."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from audit_helpers import (
    BaoServer,
    free_port,
    make_vault_workspace,
    run_cli,
    session_files,
    set_audit_config,
)

from lorekeeper.audit.errors import AuditKeyInvalidError, AuditKeyUnavailableError
from lorekeeper.workspace import Workspace


def open_ws(root: Path) -> Workspace:
    return Workspace.open(root)


def kv_path(root: Path) -> str:
    ws = open_ws(root)
    try:
        return str(ws.config.get("audit.vault.path"))
    finally:
        ws.close()


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in session_files(root)}


def checkpoints(root: Path) -> int:
    ws = open_ws(root)
    try:
        from sqlalchemy import func, select

        from lorekeeper.store.models import AuditCheckpoint

        with ws.store.session() as s:
            return s.scalar(select(func.count()).select_from(AuditCheckpoint))
    finally:
        ws.close()


def test_a_vault_path_without_key_fails_closed_until_init_key(vault_ws_root: Path, bao: BaoServer):
    before = snapshot(vault_ws_root)
    r = run_cli("--workspace", str(vault_ws_root), "audit", "append", "x", "--json")
    assert r.returncode == 4
    err = json.loads(r.stdout)["error"]
    assert err["code"] == "ERR_AUDIT_KEY_UNAVAILABLE" and err["cause"] == "missing" and "init-key" in err["message"]
    assert snapshot(vault_ws_root) == before
    r = run_cli("--workspace", str(vault_ws_root), "audit", "init-key", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["key_version"] == 1
    stored = bao.client().secrets.kv.v2.read_secret_version(
        path=kv_path(vault_ws_root), mount_point="kv", raise_on_deleted_version=True
    )
    assert len(stored["data"]["data"]["key"]) == 64
    r = run_cli("--workspace", str(vault_ws_root), "audit", "status", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["provider"] == "vault"
    # a second init-key never overwrites the key
    r = run_cli("--workspace", str(vault_ws_root), "audit", "init-key")
    assert r.returncode == 4 and "already exists" in r.stderr


def test_more_than_ten_rotations_stay_verifiable(vault_ws_root: Path, bao: BaoServer):
    ws = open_ws(vault_ws_root)
    ws.audit.init_key()
    ws.audit.log.append("signed_with", {"version": 1})
    ws.close()
    for n in range(12):
        ws = open_ws(vault_ws_root)
        session = ws.audit.require_key()
        assert session.version == n + 1
        ws.audit.rotate()
        ws.close()
        ws = open_ws(vault_ws_root)
        ws.audit.log.append("signed_with", {"version": n + 2})
        ws.close()
    # KV v2 keeps 10 versions: version 1 is gone from its history, but archived
    client = bao.client()
    path = kv_path(vault_ws_root)
    meta = client.secrets.kv.v2.read_secret_metadata(path=path, mount_point="kv")["data"]
    assert meta["current_version"] == 13 and "1" not in meta["versions"]
    ws = open_ws(vault_ws_root)
    try:
        assert ws.audit.require_key().version == 13
        report = ws.audit.verify()
        assert report.ok, report.text()
        versions = [e.key_version for e in ws.audit.log.events() if e.type == "signed_with"]
        assert versions == list(range(1, 14))
        rotated = [e for e in ws.audit.log.events() if e.type == "audit_key_rotated"]
        assert len(rotated) == 12 and all(e.key_version == e.data["new_version"] for e in rotated)
    finally:
        ws.close()


def test_dead_vault_stops_everything_before_any_write(vault_ws_root: Path, bao: BaoServer):
    ws = open_ws(vault_ws_root)
    ws.audit.init_key()
    ws.close()
    set_audit_config(vault_ws_root, provider="vault", addr=f"http://127.0.0.1:{free_port()}")
    before, cps = snapshot(vault_ws_root), checkpoints(vault_ws_root)
    for args in (["audit", "append", "x"], ["audit", "rotate"], ["audit", "verify"], ["audit", "status"]):
        r = run_cli("--workspace", str(vault_ws_root), *args, "--json")
        assert r.returncode == 4, (args, r.stdout, r.stderr)
        err = json.loads(r.stdout)["error"]
        assert err["code"] == "ERR_AUDIT_KEY_UNAVAILABLE" and err["cause"] == "unreachable"
    assert snapshot(vault_ws_root) == before and checkpoints(vault_ws_root) == cps


def test_sealed_vault_fails_closed_and_retry_works_after_unseal(tmp_path: Path, bao_factory, monkeypatch):
    server = bao_factory()
    root = make_vault_workspace(tmp_path / "sealed", server.addr, "lk/sealed")
    monkeypatch.setenv("VAULT_TOKEN", server.token)
    ws = open_ws(root)
    ws.audit.init_key()
    ws.close()
    r = server.bao("operator", "seal")
    assert r.returncode == 0, r.stderr
    before = snapshot(root)
    r = run_cli("--workspace", str(root), "audit", "append", "x", "--json")
    assert r.returncode == 4
    err = json.loads(r.stdout)["error"]
    assert err["cause"] == "sealed" and "unseal" in err["message"]
    assert snapshot(root) == before
    ws = open_ws(root)
    try:
        with pytest.raises(AuditKeyUnavailableError):
            ws.audit.require_key()
        assert server.bao("operator", "unseal", server.unseal_key()).returncode == 0
        assert ws.audit.require_key().version == 1  # the app's Retry: a new attempt at session start
    finally:
        ws.close()


def test_no_token_and_bad_token(vault_ws_root: Path, monkeypatch):
    env = {k: v for k, v in os.environ.items() if k != "VAULT_TOKEN"}
    r = run_cli("--workspace", str(vault_ws_root), "audit", "status", "--json", env=env)
    assert r.returncode == 4 and json.loads(r.stdout)["error"]["cause"] == "no_token"
    r = run_cli("--workspace", str(vault_ws_root), "audit", "status", "--json", env={**env, "VAULT_TOKEN": "nope"})
    assert r.returncode == 4 and json.loads(r.stdout)["error"]["cause"] == "denied"


def test_token_from_the_keyring(vault_ws_root: Path, bao: BaoServer):
    env = {k: v for k, v in os.environ.items() if k != "VAULT_TOKEN"}
    r = run_cli("--workspace", str(vault_ws_root), "audit", "set-secret", env=env, input=bao.token + "\n")
    assert r.returncode == 0 and bao.token not in r.stdout + r.stderr
    r = run_cli("--workspace", str(vault_ws_root), "audit", "init-key", env=env)
    assert r.returncode == 0, r.stderr


def test_invalid_key_in_vault(vault_ws_root: Path, bao: BaoServer):
    bao.client().secrets.kv.v2.create_or_update_secret(
        path=kv_path(vault_ws_root), secret={"key": "abc"}, mount_point="kv"
    )
    ws = open_ws(vault_ws_root)
    try:
        with pytest.raises(AuditKeyInvalidError) as exc:
            ws.audit.require_key()
        assert exc.value.code == "ERR_AUDIT_KEY_INVALID"
    finally:
        ws.close()
    r = run_cli("--workspace", str(vault_ws_root), "audit", "append", "x")
    assert r.returncode == 4 and "ERR_AUDIT_KEY_INVALID" in r.stderr
    assert session_files(vault_ws_root) == [] or all(b'"x"' not in p.read_bytes() for p in session_files(vault_ws_root))


def test_approle_login(vault_ws_root: Path, bao: BaoServer, monkeypatch):
    client = bao.client()
    if "approle/" not in client.sys.list_auth_methods()["data"]:
        client.sys.enable_auth_method("approle")
    client.sys.create_or_update_policy("lk-audit", 'path "kv/*" { capabilities = ["create", "read", "update"] }')
    client.auth.approle.create_or_update_approle("lk", token_policies=["lk-audit"])
    role_id = client.auth.approle.read_role_id("lk")["data"]["role_id"]
    secret_id = client.auth.approle.generate_secret_id("lk")["data"]["secret_id"]
    cfg = vault_ws_root / "lorekeeper.toml"
    cfg.write_text(cfg.read_text().replace('mount = "kv"', f'mount = "kv"\nauth = "approle"\nrole_id = "{role_id}"', 1))
    monkeypatch.delenv("VAULT_TOKEN")
    monkeypatch.setenv("VAULT_SECRET_ID", secret_id)
    ws = open_ws(vault_ws_root)
    try:
        assert ws.audit.init_key()["key_version"] == 1
        assert ws.audit.verify().ok
    finally:
        ws.close()
