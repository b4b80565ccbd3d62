"""Issue 18 with the Vault provider: the log's head is also kept in Vault KV (`<path>/audit-head`,
check-and-set), verify names the copy that is behind; learn commands fail closed with Vault dead."""

from __future__ import annotations

import json
from pathlib import Path

from audit_helpers import BaoServer, free_port, run_cli, session_files, set_audit_config
from sqlalchemy import text

from lorekeeper.workspace import Workspace


def test_head_is_witnessed_in_vault_and_a_store_rollback_is_named(vault_ws_root: Path, bao: BaoServer):
    ws = Workspace.open(vault_ws_root)
    try:
        ws.audit.init_key()
        ws.learnings.add("Signed, chained, witnessed")
        path = str(ws.config.get("audit.vault.path"))
        secret = bao.client().secrets.kv.v2.read_secret_version(path=f"{path}/audit-head", mount_point="kv")
        head = json.loads(secret["data"]["data"][ws.audit.workspace_id])
        assert head["count"] == 2 and head["epoch"] == 2 and head["sig"]
        with ws.store.session() as s:
            old = list(s.execute(text("SELECT * FROM audit_heads")))
            old_cp = list(s.execute(text("SELECT * FROM audit_checkpoints")))
        day = session_files(vault_ws_root)[0]
        old_lines = day.read_text(encoding="utf-8")
        ws.learnings.add("A second rule")
    finally:
        ws.close()
    # a file-system attacker cuts the last event and writes back the older, validly signed rows
    day.write_text(old_lines, encoding="utf-8")
    ws = Workspace.open(vault_ws_root)
    try:
        # the attacker writes behind the guards (which now refuse writes on the broken chain)
        with ws.store.unguarded(), ws.store.write() as s:
            s.execute(text("DELETE FROM audit_heads"))
            s.execute(
                text("INSERT INTO audit_heads VALUES (:a,:b,:c,:d,:e,:f,:g,:h,:i)"),
                dict(zip("abcdefghi", old[0], strict=True)),
            )
            s.execute(text("DELETE FROM audit_checkpoints"))
            for r in old_cp:
                s.execute(
                    text("INSERT INTO audit_checkpoints VALUES (:a,:b,:c,:d,:e,:f,:g,:h)"),
                    dict(zip("abcdefgh", r, strict=True)),
                )
    finally:
        ws.close()
    r = run_cli("--workspace", str(vault_ws_root), "audit", "verify")
    assert r.returncode == 1
    assert "store's head checkpoint is behind" in r.stdout and "Vault kv/" in r.stdout
    r = run_cli("--workspace", str(vault_ws_root), "learn", "add", "laundering attempt", "--json")
    assert r.returncode == 4 and "ERR_AUDIT_CHAIN_BROKEN" in r.stdout
    assert day.read_text(encoding="utf-8") == old_lines  # nothing written


def test_learn_commands_fail_closed_with_vault_dead(vault_ws_root: Path, bao: BaoServer):
    ws = Workspace.open(vault_ws_root)
    ws.audit.init_key()
    ws.close()
    set_audit_config(vault_ws_root, provider="vault", addr=f"http://127.0.0.1:{free_port()}")
    r = run_cli("--workspace", str(vault_ws_root), "learn", "add", "never unsigned", "--json")
    assert r.returncode == 4 and json.loads(r.stdout)["error"]["code"] == "ERR_AUDIT_KEY_UNAVAILABLE"
    r = run_cli("--workspace", str(vault_ws_root), "learn", "list", "--json")
    assert r.returncode == 0 and json.loads(r.stdout) == []
