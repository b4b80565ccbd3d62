"""Issue 25 d2: the Vault set-up order. `init DIR` (a keyring key, signed starter skills) then a
switch to Vault works without the undocumented `audit verify --adopt`: `audit setup --provider
vault --path P` in one step, or the hand edit followed by `audit init-key`, move the workspace's
key into the empty Vault path; a path holding another key is joined only when that key signs the
store. Against the real OpenBao dev server of the suite."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from audit_helpers import BaoServer, run_cli, set_audit_config

from lorekeeper.workspace import Workspace


@pytest.fixture
def vault_env(bao: BaoServer, monkeypatch: pytest.MonkeyPatch) -> BaoServer:
    monkeypatch.setenv("VAULT_TOKEN", bao.token)
    monkeypatch.delenv("VAULT_ADDR", raising=False)
    return bao


def lk(root: Path, *args: str):
    return run_cli("--workspace", str(root), *args)


def works_and_verifies(root: Path) -> dict:
    out = lk(root, "learn", "add", "Check the migration order", "--scope", "global")
    assert out.returncode == 0, out.stderr
    status = lk(root, "audit", "status", "--json")
    assert status.returncode == 0, status.stderr
    data = json.loads(status.stdout)
    assert data["unsigned_entries"]["total"] == 0, data["unsigned_entries"]  # starter skills still verify
    assert lk(root, "audit", "verify").returncode == 0
    assert "--adopt" not in (out.stderr + status.stderr)
    return data


def test_init_then_audit_setup_vault_in_one_step(tmp_path: Path, vault_env: BaoServer):
    root = tmp_path / "ws"
    Workspace.init(root).close()  # keyring key, starter skills signed with it
    assert lk(root, "learn", "add", "Written before the switch").returncode == 0
    path = f"lk-setup/{uuid.uuid4().hex}"

    out = lk(root, "audit", "setup", "--provider", "vault", "--addr", vault_env.addr, "--path", path, "--json")

    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["setup"] == "moved"
    config = (root / "lorekeeper.toml").read_text(encoding="utf-8")
    assert 'provider = "vault"' in config and path in config
    data = works_and_verifies(root)
    assert data["provider"] == "vault" and data["witness"].startswith("Vault ")
    stored = vault_env.client().secrets.kv.v2.read_secret_version(
        path=path, mount_point="kv", raise_on_deleted_version=True
    )
    assert len(stored["data"]["data"]["key"]) == 64
    # once more: nothing to do, still fine
    again = lk(root, "audit", "setup", "--provider", "vault", "--path", path, "--json")
    assert again.returncode == 0 and json.loads(again.stdout)["setup"] == "same_key"


def test_init_then_hand_edit_then_init_key_works(tmp_path: Path, vault_env: BaoServer):
    root = tmp_path / "ws"
    Workspace.init(root).close()
    set_audit_config(root, provider="vault", addr=vault_env.addr, path=f"lk-setup/{uuid.uuid4().hex}")
    out = lk(root, "audit", "init-key", "--json")
    assert out.returncode == 0, out.stderr
    works_and_verifies(root)


def test_a_path_holding_another_key_is_not_joined_by_a_store_it_does_not_sign(tmp_path: Path, vault_env: BaoServer):
    team = f"lk-setup/{uuid.uuid4().hex}"
    first = tmp_path / "first"
    Workspace.init(first, starter=False).close()
    set_audit_config(first, provider="vault", addr=vault_env.addr, path=team)
    assert lk(first, "audit", "init-key").returncode == 0
    root = tmp_path / "ws"
    Workspace.init(root).close()  # its own SQLite store, signed by its keyring key
    config_before = (root / "lorekeeper.toml").read_text(encoding="utf-8")

    out = lk(root, "audit", "setup", "--provider", "vault", "--addr", vault_env.addr, "--path", team)

    assert out.returncode == 4 and "ERR_STORE_KEY_MISMATCH" in out.stderr
    assert (root / "lorekeeper.toml").read_text(encoding="utf-8") == config_before  # nothing changed
    works_and_verifies(root)  # still on its keyring key, still whole
