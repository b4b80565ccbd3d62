"""Issue 27 d4: `skills validate` and `skills import` agree on every skill of a folder (validate
said 30 valid / 4 errors where import took 24 and refused 10: a name present twice refuses both
copies in the import only); a skill named unlike its folder can be imported (`--rename-to-folder`);
field warnings are grouped and counted, and `--quiet-warnings` prints one line."""

from __future__ import annotations

import json
from pathlib import Path

from helpers.cli import run_lorekeeper
from lorekeeper.workspace import Workspace


def _skill(root: Path, folder: str, name: str, extra: str = "") -> None:
    d = root / folder
    d.mkdir(parents=True)
    (d / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: Does {name} things for the operator.\n{extra}---\n# {name}\n",
        encoding="utf-8",
    )


def _library(tmp_path: Path) -> Path:
    lib = tmp_path / "lib"
    _skill(lib, "alpha", "alpha")
    _skill(lib, "one/twin", "twin")
    _skill(lib, "two/twin", "twin")  # the same name twice: both copies refused, by both commands
    _skill(lib, "folder-name", "other-name")  # named unlike its folder
    for n in range(4):  # fields outside the spec: warnings, kept
        _skill(lib, f"extra-{n}", f"extra-{n}", "version: 1.0\nauthor: someone\n")
    return lib


def _refused(invalid: list[dict]) -> dict[str, list[str]]:
    return {Path(i["path"]).name: sorted(e["message"] for e in i["errors"]) for i in invalid}


def test_validate_and_import_refuse_the_same_skills_for_the_same_reasons(workspace: Workspace, tmp_path: Path):
    lib = _library(tmp_path)
    root = str(workspace.root)
    workspace.close()
    v = run_lorekeeper("skills", "validate", str(lib), "--json")
    assert v.returncode == 2
    checked = json.loads(v.stdout)
    i = run_lorekeeper("skills", "import", str(lib), "--workspace", root, "--json")
    assert i.returncode == 0, i.stderr
    imported = json.loads(i.stdout)
    assert (
        sorted(checked["skills"])
        == sorted(imported["created"])
        == ["alpha", "extra-0", "extra-1", "extra-2", "extra-3"]
    )
    assert _refused(checked["invalid"]) == _refused(imported["invalid"])
    assert set(_refused(imported["invalid"])) == {"twin", "folder-name"}
    assert any("present twice" in m for m in _refused(checked["invalid"])["twin"])
    text = run_lorekeeper("skills", "validate", str(lib))
    assert "5 valid, 3 invalid" in text.stdout


def test_rename_to_folder_imports_a_skill_named_unlike_its_folder(workspace: Workspace, tmp_path: Path):
    lib = tmp_path / "lib"
    _skill(lib, "folder-name", "other-name")
    _skill(lib, "Not_A_Name", "fine-name")
    root = str(workspace.root)
    workspace.close()
    plain = run_lorekeeper("skills", "import", str(lib / "folder-name"), "--workspace", root)
    assert plain.returncode == 2 and "must match its folder name" in plain.stderr
    v = run_lorekeeper("skills", "validate", str(lib), "--rename-to-folder", "--json")
    assert json.loads(v.stdout)["skills"] == ["folder-name"]
    r = run_lorekeeper("skills", "import", str(lib), "--rename-to-folder", "--workspace", root, "--json")
    out = json.loads(r.stdout)
    assert r.returncode == 0 and out["created"] == ["folder-name"]
    assert out["folder_renames"] == [{"from": "other-name", "to": "folder-name", "path": str(lib / "folder-name")}]
    assert "not a valid skill name" in out["invalid"][0]["errors"][0]["message"]  # Not_A_Name cannot be the name
    shown = json.loads(run_lorekeeper("skills", "show", "folder-name", "--workspace", root, "--json").stdout)
    assert "name: folder-name\n" in shown["content"] and "# other-name" in shown["content"]  # only the name line
    exported = (Path(root) / "skills" / "folder-name" / "SKILL.md").read_text(encoding="utf-8")
    assert exported.startswith("---\nname: folder-name\n")


def test_warnings_are_grouped_counted_and_can_be_quieted(workspace: Workspace, tmp_path: Path):
    lib = tmp_path / "lib"
    for n in range(6):
        _skill(lib, f"extra-{n}", f"extra-{n}", "version: 1.0\nauthor: someone\n")
    root = str(workspace.root)
    workspace.close()
    loud = run_lorekeeper("skills", "import", str(lib), "--workspace", root, "--dry-run")
    lines = [ln for ln in loud.stderr.splitlines() if ln.startswith("warning")]
    assert len(lines) == 3, lines  # one per group (version, author) and the count, not 12 lines
    assert any("6x" in ln for ln in lines) and "warnings: 12" in lines[-1]
    quiet = run_lorekeeper("skills", "import", str(lib), "--workspace", root, "--quiet-warnings", "--json")
    assert quiet.stderr.strip().splitlines() == [lines[-1].split(";")[0]]
    groups = json.loads(quiet.stdout)["warning_groups"]
    assert [g["count"] for g in groups] == [6, 6]
    assert json.loads(quiet.stdout)["created"] == [f"extra-{n}" for n in range(6)]
