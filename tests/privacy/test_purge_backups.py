"""A purge and the backups the workspace keeps (issue 23): copies made before a purge still hold the
story; they are named in the run's notes (not residue the purge failed to erase, which would make
every purge incomplete once a backup exists), and restoring one erases the story again."""

from __future__ import annotations

import json

from purge_helpers import WORDS, files_holding, seed

from helpers.cli import run_lorekeeper
from lorekeeper.store.models import Clarification, Story
from lorekeeper.workspace import Workspace


def test_a_backup_does_not_block_the_purge_and_a_restore_erases_the_story_again(workspace: Workspace) -> None:
    ws = workspace
    seed(ws, "PD-1")
    seed(ws, "PD-2")
    with ws.store.write() as s:  # the summary row holds the summary's line as the file does
        row = s.get(Clarification, "PD-1")
        assert row is not None
        row.problem = WORDS["PD-1"] + "."
    made = ws.backups.create()
    result = ws.purge.purge_story("PD-1")
    assert result.verified, result.remaining
    note = next(n for n in result.notes if "retained cop" in n)
    assert made["path"].split("/")[-1] in note and WORDS["PD-1"] not in note
    root = ws.root
    ws.close()
    held = files_holding(root, "zanzibar-quokka")
    assert held and all(p.startswith("backups/") for p in held)  # only the backup keeps it

    r = run_lorekeeper("--workspace", str(root), "restore", made["path"], "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["repurged"] == ["PD-1"]
    with Workspace.open(root) as again, again.store.session() as s:
        assert s.get(Story, "PD-1") is None and s.get(Story, "PD-2") is not None
    outside = [p for p in files_holding(root, "zanzibar-quokka") if not p.startswith("backups/")]
    assert outside == [], outside
