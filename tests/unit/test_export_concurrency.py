"""Two processes exporting one skill folder at once (CI failure of stop 35: `skills import
--on-conflict new-version` x3 ended in ERR_DERIVED_WRITE_FAILED "No such file or directory"): one
export's clean-up removed the other's live temp file before its rename. Exports now serialise
under the export lock, and a clean-up never removes a temp file."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from lorekeeper.skills.files import write_folder
from lorekeeper.workspace import Workspace


def test_a_clean_up_leaves_another_writers_temp_file(tmp_path: Path) -> None:
    folder = tmp_path / "skills" / "race-save"
    folder.mkdir(parents=True)
    live = folder / ".SKILL.md.k3j2h1.tmp"  # another process's write, between its write and its rename
    live.write_bytes(b"the other writer's version")
    (folder / "old.txt").write_text("stale", encoding="utf-8")
    write_folder(folder, {"SKILL.md": b"---\nname: race-save\n---\n"}, [], {})
    assert live.read_bytes() == b"the other writer's version"  # its rename can still succeed
    assert not (folder / "old.txt").exists()  # what the store does not hold is still removed
    assert (folder / "SKILL.md").read_bytes() == b"---\nname: race-save\n---\n"


def test_an_export_waits_for_another_processs_export(workspace: Workspace) -> None:
    entered: list[float] = []
    held, release = threading.Event(), threading.Event()

    def other_export() -> None:
        with workspace.skills.folder.writing():  # another export (each hold is its own file description)
            held.set()
            release.wait(5)

    def ours() -> None:
        with workspace.skills.folder.writing():
            entered.append(time.monotonic())

    t = threading.Thread(target=other_export)
    t.start()
    assert held.wait(5)
    u = threading.Thread(target=ours)
    u.start()
    time.sleep(0.3)
    assert not entered, "an export waits while another holds the export lock"
    release.set()
    t.join(5)
    u.join(5)
    assert entered, "it goes on once the other export ends"
