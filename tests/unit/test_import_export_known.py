"""Issue 26 d3 / issue 28 d1: the import's export and the skill services' wiring.

An import writes the skills/ folders from what it committed itself (no blob read back, no second
verification), unless another writer changed a skill in between: that one is exported as the
store has it. The CLI shows progress on stderr only. `ws.skills` is a facade over services built
once with their collaborators (no setter injection).
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import event

from lorekeeper.cli import main
from lorekeeper.cli import skills as skills_cli
from lorekeeper.workspace import Workspace


def _collection(root: Path, n: int = 3) -> Path:
    for i in range(n):
        name = f"known-{i}"
        folder = root / name
        (folder / "scripts").mkdir(parents=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: Known skill {i}.\n---\n\n# Known {i}\n", encoding="utf-8"
        )
        script = folder / "scripts" / "run.sh"
        script.write_text(f"#!/bin/sh\necho {i}\n", encoding="utf-8")
        script.chmod(0o755)
        (folder / "logo.bin").write_bytes(bytes([i]) * 300)
    return root


@contextmanager
def _statements(ws: Workspace) -> Iterator[list[str]]:
    seen: list[str] = []

    def listener(_conn, _cursor, statement, *_a) -> None:  # type: ignore[no-untyped-def]
        seen.append(statement)

    event.listen(ws.store.engine, "before_cursor_execute", listener)
    try:
        yield seen
    finally:
        event.remove(ws.store.engine, "before_cursor_execute", listener)


def test_an_import_exports_what_it_committed_without_reading_the_blobs_back(workspace: Workspace, tmp_path: Path):
    src = _collection(tmp_path / "src")
    with _statements(workspace) as seen:
        report = workspace.skills.import_path(src)
    assert sorted(report.created) == ["known-0", "known-1", "known-2"]
    assert not [q for q in seen if "skill_blobs.data" in q]  # the export wrote from memory
    for i in range(3):
        out = workspace.root / "skills" / f"known-{i}"
        assert (out / "SKILL.md").read_bytes() == (src / f"known-{i}" / "SKILL.md").read_bytes()
        assert (out / "logo.bin").read_bytes() == bytes([i]) * 300
        assert stat.S_IMODE(os.stat(out / "scripts" / "run.sh").st_mode) == 0o755
    assert workspace.skills.folder.stale() == []
    assert workspace.skills.folder.recorded() == workspace.skills.folder.fingerprint()


def test_a_skill_changed_before_the_import_exports_is_written_as_the_store_has_it(
    workspace: Workspace, tmp_path: Path, monkeypatch
):
    src = _collection(tmp_path / "src", n=2)
    folder = workspace.skills.folder
    real = folder.export_after_commit
    edited = "---\nname: known-1\ndescription: Edited by another writer.\n---\n\n# Edited\n"
    calls: list[int] = []

    def export_after_another_save(skills, known=None):  # type: ignore[no-untyped-def]
        if not calls:  # the import's export: another writer commits version 2 of known-1 first
            calls.append(1)
            workspace.skills.save("known-1", None, edited, message="meanwhile")
        return real(skills, known)

    monkeypatch.setattr(folder, "export_after_commit", export_after_another_save)
    workspace.skills.import_path(src)
    out = workspace.root / "skills"
    assert (out / "known-1" / "SKILL.md").read_text(encoding="utf-8") == edited
    assert (out / "known-1" / "logo.bin").read_bytes() == bytes([1]) * 300  # the files came with v2
    assert (out / "known-0" / "SKILL.md").read_bytes() == (src / "known-0" / "SKILL.md").read_bytes()
    assert workspace.skills.folder.stale() == []


def test_import_progress_goes_to_stderr_and_json_stays_clean(workspace: Workspace, tmp_path: Path, monkeypatch):
    monkeypatch.setattr(skills_cli._ImportProgress, "DELAY", 0.0)  # as if it ran for a second already
    src = _collection(tmp_path / "src", n=4)
    workspace.close()
    r = CliRunner().invoke(main, ["--workspace", str(workspace.root), "skills", "import", str(src), "--json"])
    assert r.exit_code == 0, r.output
    assert sorted(json.loads(r.stdout)["created"]) == [f"known-{i}" for i in range(4)]
    assert "[4/4] writing 4 skill(s)" in r.stderr and "reading" in r.stderr


def test_the_library_is_a_facade_over_services_wired_once(workspace: Workspace) -> None:
    lib = workspace.skills
    assert lib.get == lib.reader.get and lib.save == lib.editor.save and lib.import_steps == lib.importer.import_steps
    # one rows service shared by all, the verifier given at construction (issue 28: no setter injection)
    assert lib.reader.rows is lib.rows and lib.editor.rows is lib.rows and lib.folder.rows is lib.rows
    assert lib.rows.verifier == workspace.audit.row_verifier
    assert lib.rows.key_loaded() == (workspace.audit.key_session is not None)


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="names an fd's file through /proc (Linux)")
def test_a_bulk_export_syncs_once_and_a_small_one_file_by_file(workspace: Workspace, tmp_path: Path, monkeypatch):
    from lorekeeper.skills import files as files_mod
    from lorekeeper.skills import folder as folder_mod

    synced: list[int] = []
    fsynced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(folder_mod.os, "sync", lambda: synced.append(1))
    skills_dir = str(workspace.root / "skills") + os.sep

    def fsync(fd: int) -> None:
        path = os.readlink(f"/proc/self/fd/{fd}")
        if path.startswith(skills_dir) and not path[len(skills_dir) :].startswith("."):  # not the marker
            fsynced.append(fd)
        real_fsync(fd)

    monkeypatch.setattr(files_mod.os, "fsync", fsync)
    workspace.skills.import_path(_collection(tmp_path / "small", n=2))
    assert synced == [] and len(fsynced) == 6  # under BULK folders: every file fsynced, as before
    fsynced.clear()
    monkeypatch.setattr(folder_mod.SkillFolder, "BULK", 2)
    src = tmp_path / "bulk"
    for i in range(3):
        folder = src / f"bulk-{i}"
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(f"---\nname: bulk-{i}\ndescription: Bulk {i}.\n---\n", encoding="utf-8")
        (folder / "notes.md").write_text(f"notes {i}\n", encoding="utf-8")
    workspace.skills.import_path(src)
    assert synced == [1] and fsynced == []  # one sync for the batch, before the marker
    assert (workspace.root / "skills" / "bulk-2" / "notes.md").read_text(encoding="utf-8") == "notes 2\n"
    assert workspace.skills.folder.stale() == []
