"""Issue 31 item 11: a killed `skills import` leaves a temp file in `skills/`; the next command of
any kind sweeps it at its end (not only the next start), and never a live export's temp file."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers.cli import run_lorekeeper
from lorekeeper.skills import debris
from lorekeeper.workspace import Workspace


def test_the_next_command_of_any_kind_sweeps_a_killed_exports_temp_file(workspace: Workspace) -> None:
    folder = next(p for p in sorted((workspace.root / "skills").iterdir()) if p.is_dir())
    root = str(workspace.root)
    # the app stays open (this workspace) while a terminal's import is killed mid-export
    for command in (("ctx", "read", str(workspace.root / "lorekeeper.toml")), ("skills", "list")):
        tmp = folder / ".SKILL.md.k1ll3d.tmp"
        tmp.write_text("half a SKILL.md", encoding="utf-8")
        debris.journal(workspace.root / "skills").touch()  # what the killed export leaves with it
        proc = run_lorekeeper("--workspace", root, *command)
        assert proc.returncode == 0, proc.stderr
        assert not tmp.exists(), command
    # a running export holds the lock: its temp file is live and stays
    live = folder / ".SKILL.md.l1v3ab.tmp"
    live.write_text("being written", encoding="utf-8")
    with workspace.skills.folder.writing():
        assert debris.sweep(workspace.root / "skills", timeout=0.05) == []
        assert live.exists()
    # the workspace's own close sweeps too (the export was killed before its temp file was renamed)
    debris.journal(workspace.root / "skills").touch()
    workspace.close()
    assert not live.exists()


def test_the_eager_options_and_a_subcommands_own_workspace_option_sweep_too(workspace: Workspace) -> None:
    """`--version`, `--help` (handled while the arguments are parsed, before any command runs) and
    a command given `--workspace` after its name (not the group's) left the temp file in place."""
    folder = next(p for p in sorted((workspace.root / "skills").iterdir()) if p.is_dir())
    root = str(workspace.root)
    workspace.close()
    commands = (
        ("--workspace", root, "--version"),
        ("--workspace", root, "--help"),
        ("--workspace", root, "--no-such-option"),
        ("skills", "validate", str(folder), "--workspace", root),
        ("route", "review this", "--workspace", root),
    )
    for command in commands:
        tmp = folder / ".SKILL.md.k1ll3d.tmp"
        tmp.write_text("half a SKILL.md", encoding="utf-8")
        debris.journal(workspace.root / "skills").touch()  # what the killed export left beside it
        run_lorekeeper(*command)
        assert not tmp.exists(), command


def test_a_clean_export_leaves_no_journal_and_commands_do_not_walk_the_folder(
    workspace: Workspace, monkeypatch
) -> None:
    """Issue 26: the walk of skills/ (one scandir per folder) runs only after a killed export."""
    skills = workspace.root / "skills"
    workspace.skills.folder.rebuild()
    assert not debris.journal(skills).exists()
    walked: list[Path] = []
    real = debris.sweep_temp_files
    monkeypatch.setattr(debris, "sweep_temp_files", lambda root: walked.append(root) or real(root))
    assert debris.sweep(skills) == [] and walked == []
    # an export that raises mid-way (or dies) leaves the journal: the next sweep walks and clears it
    with pytest.raises(RuntimeError), workspace.skills.folder.writing():
        (next(p for p in sorted(skills.iterdir()) if p.is_dir()) / ".SKILL.md.d1ed00.tmp").write_text("x")
        raise RuntimeError("killed")
    assert debris.journal(skills).exists()
    assert len(debris.sweep(skills)) == 1 and walked == [skills]
    assert not debris.journal(skills).exists()
