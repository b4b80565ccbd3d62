"""A key rotation refused because another process rotated first must leave no event (found by the
soak, issue 23): today its outbox row stays and the next process that flushes the outbox signs a
rotation that never happened ("1 -> 2" twice in the log). And a process whose key session is older
must not drop another process's rotation row while that rotation is under way (a rotation that
reported success without its event): it leaves a young row to the rotating process."""

from __future__ import annotations

import json

import pytest

from helpers.cli import run_lorekeeper
from lorekeeper.workspace import Workspace


def test_a_refused_rotation_leaves_no_rotation_event(workspace: Workspace) -> None:
    root = workspace.root
    assert workspace.audit.log is not None  # this process (the app) holds a key session on version 1
    assert run_lorekeeper("--workspace", str(root), "audit", "rotate", "--json").returncode == 0  # a terminal: v2
    with pytest.raises(Exception, match="rotated by another process"):
        workspace.audit.rotate()
    workspace.close()
    assert run_lorekeeper("--workspace", str(root), "learn", "add", "any rule", "--json").returncode == 0
    rotations = [
        (e["content"]["data"]["previous_version"], e["content"]["data"]["new_version"])
        for f in sorted((root / "sessions").glob("*.jsonl"))
        for e in map(json.loads, f.read_text(encoding="utf-8").splitlines())
        if e.get("content", {}).get("data", {}) and "new_version" in e["content"]["data"]
    ]
    assert rotations == [(1, 2)], rotations


def test_an_older_session_leaves_a_rotation_under_way_to_its_process(workspace: Workspace) -> None:
    from lorekeeper.store.models import AuditOutbox

    log = workspace.audit.log
    # another process holds the rotation lock: it has recorded its rotation to v2 and is asking the
    # provider for the key (flock conflicts across file descriptors, so this holder stands for it)
    with log.rotation_lock.exclusive():
        row_id = log.record(
            "audit_key_rotated", {"provider": "keyring", "previous_version": 1, "new_version": 2}, flush=False
        )
        log.flush_outbox()  # this process, still on v1, flushes (a learn add of its own, say)
        with workspace.store.session() as s:
            assert s.get(AuditOutbox, row_id) is not None, "the rotation under way lost its event"
    assert not [e for e in log.events() if e.type == "audit_key_rotated"]
    # the rotating process died before its flush (the kernel dropped its lock): the row is debris
    log.flush_outbox()
    with workspace.store.session() as s:
        assert s.get(AuditOutbox, row_id) is None, "a dead rotation's row was replayed or kept"
    assert not [e for e in log.events() if e.type == "audit_key_rotated"]


def _rotations(root) -> list[tuple[int, int]]:
    return [
        (e["content"]["data"]["previous_version"], e["content"]["data"]["new_version"])
        for f in sorted((root / "sessions").glob("*.jsonl"))
        for e in map(json.loads, f.read_text(encoding="utf-8").splitlines())
        if e.get("type") == "audit_key_rotated"
    ]


ROW = {"provider": "keyring", "previous_version": 1, "new_version": 2}


def test_a_rotation_killed_after_the_key_changed_gets_its_event_once(workspace: Workspace) -> None:
    root = workspace.root
    log = workspace.audit.log
    # a terminal's `audit rotate`, killed -9 after the provider made v2 and before its flush
    log.record("audit_key_rotated", ROW, flush=False)
    workspace.audit.provider().rotate(1)
    log.flush_outbox()  # this process holds v1 only: it cannot tell the story with v2's key, keeps the row
    assert _rotations(root) == [] and log.pending() == 1
    workspace.close()
    assert run_lorekeeper("--workspace", str(root), "learn", "add", "a rule", "--json").returncode == 0
    assert run_lorekeeper("--workspace", str(root), "learn", "add", "another", "--json").returncode == 0
    assert _rotations(root) == [(1, 2)]
    status = json.loads(run_lorekeeper("--workspace", str(root), "audit", "verify", "--json").stdout)
    assert status.get("ok") is True, status


def test_a_rotation_killed_before_the_key_changed_leaves_nothing(workspace: Workspace) -> None:
    log = workspace.audit.log
    row_id = log.record("audit_key_rotated", ROW, flush=False)  # killed before asking the provider
    log.flush_outbox()
    from lorekeeper.store.models import AuditOutbox

    with workspace.store.session() as s:
        assert s.get(AuditOutbox, row_id) is None
    assert _rotations(workspace.root) == []


def test_a_killed_refused_rotation_is_not_replayed_after_the_real_one(workspace: Workspace) -> None:
    root = workspace.root
    assert run_lorekeeper("--workspace", str(root), "audit", "rotate", "--json").returncode == 0  # v2, its event
    # this process (v1) starts its own rotation and is killed before the provider refuses it
    workspace.audit.log.record("audit_key_rotated", ROW, flush=False)
    workspace.close()
    assert run_lorekeeper("--workspace", str(root), "learn", "add", "any rule", "--json").returncode == 0
    assert _rotations(root) == [(1, 2)]


def test_a_rotation_killed_inside_the_provider_before_its_commit_point_leaves_nothing(workspace: Workspace) -> None:
    """Killed -9 after the keyring held the new key (`:v2`) and before `:version` moved (the commit
    point): the rotation never happened, so its row is debris, not "kept for a process holding v2"
    (found by tests/audit/test_kill9.py: the outbox never drained)."""
    import keyring

    from lorekeeper.audit.providers import KEYRING_SERVICE
    from lorekeeper.audit.signer import new_key_hex

    root = workspace.root
    log = workspace.audit.log
    log.record("audit_key_rotated", ROW, flush=False)
    keyring.set_password(KEYRING_SERVICE, f"audit-hmac:{workspace.audit.workspace_id}:v2", new_key_hex())
    workspace.close()
    assert run_lorekeeper("--workspace", str(root), "learn", "add", "a rule", "--json").returncode == 0
    ws = Workspace.open(root)
    try:
        assert ws.audit.log.pending() == 0, "a rotation that never happened stays in the outbox"
        assert ws.audit.require_key().version == 1
    finally:
        ws.close()
    assert _rotations(root) == []
