"""Issue 28 d5: one error-log writer (logging, rotated), one format, never a shared temp folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from lorekeeper import errorlog


def test_every_block_has_one_format_and_the_log_rotates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "lorekeeper.toml").write_text("", encoding="utf-8")
    monkeypatch.setattr(errorlog, "MAX_BYTES", 2000)
    try:
        raise ValueError("boom")
    except ValueError as exc:
        path = errorlog.log_exception(tmp_path, "lorekeeper facts list", exc)
    assert path == tmp_path / "logs" / "errors.log"
    text = path.read_text(encoding="utf-8")
    assert text.startswith("--- ") and f" pid {os.getpid()} lorekeeper facts list\n" in text
    assert "ValueError: boom" in text
    for n in range(40):
        errorlog.append_error(tmp_path, f"block {n} " + "x" * 100)
    logs = sorted(p.name for p in (tmp_path / "logs").iterdir())
    assert logs == ["errors.log", "errors.log.1", "errors.log.2", "errors.log.3"]  # BACKUPS older files
    assert all(p.stat().st_size <= 2000 + 200 for p in (tmp_path / "logs").iterdir())
    assert "block 39" in path.read_text(encoding="utf-8")


def test_without_a_workspace_the_log_is_the_users_state_folders(tmp_path: Path) -> None:
    try:
        raise RuntimeError("no workspace here")
    except RuntimeError as exc:
        path = errorlog.log_exception(tmp_path / "not-a-workspace", "hook", exc, name=errorlog.HOOK_LOG)
    assert path == errorlog.state_log_dir() / "hooks.log"
    assert "no workspace here" in path.read_text(encoding="utf-8")
    assert not (tmp_path / "not-a-workspace").exists()


def test_a_fifo_in_the_logs_place_is_refused_never_waited_on(tmp_path: Path) -> None:
    (tmp_path / "logs").mkdir()
    os.mkfifo(tmp_path / "logs" / "errors.log")
    with pytest.raises(OSError, match="not a regular file"):
        errorlog.write(tmp_path / "logs" / "errors.log", "lorekeeper gui", "text")
    (tmp_path / "lorekeeper.toml").write_text("", encoding="utf-8")
    try:
        raise KeyError("x")
    except KeyError as exc:  # the workspace's log cannot be written: the state folder's has it
        assert errorlog.log_exception(tmp_path, "lorekeeper", exc) == errorlog.state_log_dir() / "errors.log"
