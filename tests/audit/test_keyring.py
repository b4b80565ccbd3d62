"""The keyring provider and the fail-closed key session (in process and through the real CLI)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import keyring
import pytest
from audit_helpers import run_cli, run_cli_process, session_files

from lorekeeper.audit.errors import AuditKeyInvalidError, AuditKeyUnavailableError
from lorekeeper.audit.providers import KEYRING_SERVICE
from lorekeeper.workspace import Workspace

NO_BACKEND = {**os.environ, "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}


@pytest.fixture
def no_keyring():
    from keyring.backends import fail

    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    yield
    keyring.set_keyring(previous)


def entry(ws: Workspace, suffix: str = "") -> str:
    return f"audit-hmac:{ws.audit.workspace_id}{suffix}"


def test_init_creates_a_per_workspace_key_in_the_keyring(tmp_path: Path):
    a = Workspace.init(tmp_path / "a", starter=False)
    b = Workspace.init(tmp_path / "b", starter=False)
    try:
        assert a.audit.workspace_id and a.audit.workspace_id != b.audit.workspace_id
        ka = keyring.get_password(KEYRING_SERVICE, entry(a))
        kb = keyring.get_password(KEYRING_SERVICE, entry(b))
        assert len(ka) == 64 and len(kb) == 64 and ka != kb
        assert 'id = "' in (a.root / "lorekeeper.toml").read_text()
        assert ka not in (a.root / "lorekeeper.toml").read_text()
        # init creates the key but writes no event (the log starts with the first decision)
        assert a.audit.log.events() == [] and session_files(a.root) == []
    finally:
        a.close()
        b.close()


def test_key_session_is_loaded_once_and_immutable(workspace: Workspace):
    reopened = Workspace.open(workspace.root)
    try:
        s1 = reopened.audit.require_key()
        keyring.set_password(KEYRING_SERVICE, entry(reopened, ":v1"), "ab" * 32)  # changed behind its back
        s2 = reopened.audit.require_key()
        assert s1 is s2
        event = reopened.audit.log.append("x", {})
        assert reopened.audit.log.signer.verify({k: v for k, v in event.items() if k != "content"})
    finally:
        reopened.close()


def test_missing_key_fails_closed_and_nothing_is_written(workspace: Workspace):
    for suffix in ("", ":v1", ":version"):
        keyring.delete_password(KEYRING_SERVICE, entry(workspace, suffix))
    before = [p.read_bytes() for p in session_files(workspace.root)]
    r = run_cli_process("--workspace", str(workspace.root), "audit", "append", "x", "--json")
    assert r.returncode == 4
    err = json.loads(r.stdout)["error"]
    assert err["code"] == "ERR_AUDIT_KEY_UNAVAILABLE" and err["cause"] == "missing"
    assert "init-key" in err["message"]
    assert [p.read_bytes() for p in session_files(workspace.root)] == before


def test_invalid_key_is_err_audit_key_invalid(workspace: Workspace):
    keyring.set_password(KEYRING_SERVICE, entry(workspace, ":v1"), "not-hex")
    fresh = Workspace.open(workspace.root)
    try:
        with pytest.raises(AuditKeyInvalidError) as exc:
            fresh.audit.require_key()
        assert exc.value.code == "ERR_AUDIT_KEY_INVALID"
        assert fresh.audit.status().state == "failed"
    finally:
        fresh.close()
    r = run_cli("--workspace", str(workspace.root), "audit", "verify")
    assert r.returncode == 4 and "ERR_AUDIT_KEY_INVALID" in r.stderr


def test_no_keyring_backend_fails_closed_in_process(workspace: Workspace, no_keyring):
    fresh = Workspace.open(workspace.root)
    try:
        with pytest.raises(AuditKeyUnavailableError) as exc:
            fresh.audit.require_key()
        assert exc.value.cause == "no_backend"
        st = fresh.audit.status()
        assert st.state == "failed" and st.title == "No keyring backend"
    finally:
        fresh.close()


def test_init_without_keyring_backend_warns_and_deterministic_commands_still_work(tmp_path: Path):
    root = tmp_path / "nokr"
    r = run_cli("init", str(root), env=NO_BACKEND)
    assert r.returncode == 0, r.stderr
    assert "ERR_AUDIT_KEY_UNAVAILABLE" in r.stderr and "init-key" in r.stderr
    r = run_cli("--workspace", str(root), "route", "review this code", "--json", env=NO_BACKEND)
    assert r.returncode == 0, r.stderr
    r = run_cli("--workspace", str(root), "skills", "list", env=NO_BACKEND)
    assert r.returncode == 0, r.stderr
    r = run_cli("--workspace", str(root), "audit", "status", env=NO_BACKEND)
    assert r.returncode == 4 and "ERR_AUDIT_KEY_UNAVAILABLE" in r.stderr and "keyring" in r.stderr
    assert session_files(root) == []
    # once a keyring exists, the explicit operator action creates the key
    r = run_cli("--workspace", str(root), "audit", "init-key")
    assert r.returncode == 0, r.stderr
    r = run_cli("--workspace", str(root), "audit", "status", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["key_version"] == 1
    # issue 24: the starter skills written before the key existed are its legacy rows, signed by init-key
    assert json.loads(r.stdout)["unsigned_entries"]["total"] == 0
    r = run_cli("--workspace", str(root), "skills", "verify", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["ok"], r.stdout


def test_unknown_provider_is_a_configuration_error_not_a_fallback(workspace: Workspace):
    cfg = workspace.root / "lorekeeper.toml"
    cfg.write_text(cfg.read_text().replace('provider = "keyring"', 'provider = "files"', 1))
    r = run_cli("--workspace", str(workspace.root), "audit", "status", "--json")
    assert r.returncode == 4 and json.loads(r.stdout)["error"]["cause"] == "config"


def test_cli_rotate_then_verify_old_events(workspace: Workspace):
    root = str(workspace.root)
    assert run_cli("--workspace", root, "audit", "append", "before", "--story", "PD-1").returncode == 0
    r = run_cli("--workspace", root, "audit", "rotate", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["new_version"] == 2
    assert run_cli("--workspace", root, "audit", "append", "after").returncode == 0
    r = run_cli("--workspace", root, "audit", "events", "--json")
    evs = json.loads(r.stdout)["events"]
    assert [(e["type"], e["key_version"], e["status"]) for e in evs] == [
        ("before", 1, "valid"),
        ("audit_key_rotated", 2, "valid"),
        ("after", 2, "valid"),
    ]
    r = run_cli("--workspace", root, "audit", "verify", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["ok"]
    assert keyring.get_password(KEYRING_SERVICE, entry(workspace, ":version")) == "2"


def test_cli_verify_names_file_and_line_and_exits_1(workspace: Workspace):
    root = str(workspace.root)
    for i in range(3):
        assert run_cli("--workspace", root, "audit", "append", "e", "--story", f"PD-{i}").returncode == 0
    (path,) = session_files(workspace.root)
    ls = path.read_text().splitlines()
    ls[1] = ls[1].replace('"PD-1"', '"PD-7"')
    path.write_text("\n".join(ls) + "\n")
    r = run_cli("--workspace", root, "audit", "verify")
    assert r.returncode == 1
    assert f"{path.name}:2:" in r.stdout and f"{path.name}:2:" in r.stderr
    r = run_cli("--workspace", root, "audit", "verify", str(path), "--json")
    assert r.returncode == 1 and json.loads(r.stdout)["files"][0]["issues"][0]["line"] == 2


def test_rotation_starts_a_new_session_on_the_new_key_at_once(workspace: Workspace):
    """One key per session (seed 004 §3.12.5): after a rotation the same process signs with the new
    key (a skill save's signed event included), and a second rotation goes on from there."""
    ws = workspace
    first = ws.audit.require_key()
    ws.audit.log.append("before")
    out = ws.audit.rotate()
    assert (out["previous_version"], out["new_version"], out["session_version"]) == (1, 2, 2)
    session = ws.audit.require_key()
    assert session.version == 2 and session is not first and ws.audit.status().key_version == 2
    name = ws.skills.list()[0].name
    content = ws.skills.get(name).content
    ws.skills.save(name, None, content + "\nOne more line.\n", None, "after the rotation")
    assert ws.audit.rotate()["new_version"] == 3
    ws.audit.log.append("last")
    evs = [(e.type, e.key_version) for e in ws.audit.log.events()]
    assert evs[0] == ("before", 1)
    assert all(v == 2 for _t, v in evs[evs.index(("audit_key_rotated", 2)) : -2])
    assert len(evs) >= 5 and evs[-2:] == [("audit_key_rotated", 3), ("last", 3)]
    assert ws.audit.verify().ok
