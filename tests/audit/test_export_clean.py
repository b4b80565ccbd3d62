"""Issue 18: crash debris in skills/ (half-written temp files, a stale export) is swept at start and
by `lorekeeper repair`; the export's revision is recorded so a crash mid-export is noticed."""

from __future__ import annotations

import json

from click.testing import CliRunner

from lorekeeper.cli import main
from lorekeeper.skills import debris
from lorekeeper.workspace import Workspace


def test_half_files_and_a_stale_export_are_cleaned_at_start(workspace):
    root = workspace.root
    skill_md = root / "skills" / "code-review" / "SKILL.md"
    good = skill_md.read_text(encoding="utf-8")
    assert workspace.skills.folder.recorded() == workspace.skills.folder.fingerprint()
    workspace.close()
    half = skill_md.parent / ".SKILL.md.k3j2h1.tmp"
    half.write_text(good[:40], encoding="utf-8")
    skill_md.write_text(good[:40], encoding="utf-8")  # a crash between two exports ...
    (root / "skills" / ".lorekeeper-export.json").unlink()  # ... that had started (marker removed)
    ws = Workspace.open(root)
    try:
        assert not half.exists()
        assert skill_md.read_text(encoding="utf-8") == good
        assert ws.skills.folder.stale() == []
    finally:
        ws.close()


def test_repair_sweeps_temp_files(workspace):
    half = workspace.root / "skills" / "code-review" / ".SKILL.md.zz99yy.tmp"
    half.write_text("half", encoding="utf-8")
    assert any("half-written temp file" in s for s in workspace.skills.folder.stale())
    assert workspace.skills.folder.rebuild() == 1 and not half.exists()  # what `repair` runs
    half.write_text("half", encoding="utf-8")
    debris.journal(workspace.root / "skills").touch()  # an export killed mid-write leaves its journal
    r = CliRunner().invoke(main, ["repair", "--json", "--workspace", str(workspace.root)])
    assert r.exit_code == 0, r.output  # (opening the workspace already swept it)
    assert json.loads(r.stdout)["derived"][0]["stale"] == [] and not half.exists()
