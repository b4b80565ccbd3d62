"""Written files follow the umask (a team shares skills and config through git); the signed session
logs stay 0600 whatever the umask."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from lorekeeper.fsutil import atomic_write_text


@pytest.fixture
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize(("umask", "expected"), [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_atomic_write_follows_the_umask(tmp_path: Path, umask: int, expected: int) -> None:
    old = os.umask(umask)
    try:
        atomic_write_text(tmp_path / "a.txt", "x")
        atomic_write_text(tmp_path / "a.txt", "y")  # a rewrite too
    finally:
        os.umask(old)
    assert mode(tmp_path / "a.txt") == expected and (tmp_path / "a.txt").read_text() == "y"


def test_private_files_are_0600_whatever_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o000)
    try:
        atomic_write_text(tmp_path / "secret", "k", private=True)
    finally:
        os.umask(old)
    assert mode(tmp_path / "secret") == 0o600


def test_workspace_files_shareable_session_logs_private(
    tmp_path: Path, umask_022: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyrings.alt.file.PlaintextKeyring")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    from lorekeeper.workspace import Workspace

    with Workspace.init(tmp_path / "ws") as ws:
        assert ws.audit.key_session is not None
        ws.audit.log.append("test_event", {"x": 1}, story="S-1")
        logs = ws.audit.log.files()
        assert logs
        ws.audit.log.tombstone_story("S-1", reason="test purge")  # a rewrite of the log
    root = tmp_path / "ws"
    assert mode(root / "lorekeeper.toml") == 0o644
    skill_files = list((root / "skills").rglob("SKILL.md"))
    assert skill_files and all(mode(p) == 0o644 for p in skill_files)
    for log in logs:
        assert mode(log) == 0o600, log
