"""Fixtures of the audit tests: a real OpenBao dev server for the whole session (stopped at the
end), extra servers for tests that seal them, and a workspace on the Vault provider.
Helpers live in `audit_helpers`."""

from __future__ import annotations

import shutil
import tempfile
import uuid
from pathlib import Path

import pytest
from audit_helpers import BaoServer, make_vault_workspace, start_bao


@pytest.fixture(scope="session")
def bao():
    work = Path(tempfile.mkdtemp(prefix="lk-bao-"))
    server = start_bao(work)
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)


@pytest.fixture
def bao_factory(tmp_path: Path):
    """Start extra servers for tests that seal or kill them; all stopped afterwards."""
    started: list[BaoServer] = []

    def make() -> BaoServer:
        s = start_bao(tmp_path)
        started.append(s)
        return s

    yield make
    for s in started:
        s.stop()


@pytest.fixture
def vault_ws_root(tmp_path: Path, bao: BaoServer, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A workspace configured for the Vault provider at a fresh KV path (no key yet); VAULT_TOKEN set."""

    root = make_vault_workspace(tmp_path / "vws", bao.addr, f"lk-tests/{uuid.uuid4().hex}")
    monkeypatch.setenv("VAULT_TOKEN", bao.token)
    monkeypatch.delenv("VAULT_ADDR", raising=False)
    return root
