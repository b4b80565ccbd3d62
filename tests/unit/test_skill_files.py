"""Issue 10: a skill is its whole folder, real layouts import, lenient validation, collisions ask."""

from __future__ import annotations

import json
import os
import stat
import zipfile
from pathlib import Path

import pytest
from sqlalchemy import func, select

from helpers.cli import run_lorekeeper
from lorekeeper.errors import InvalidSpecError
from lorekeeper.skills.files import Limits
from lorekeeper.skills.library import Resolution, SkillLibrary
from lorekeeper.skills.spec import check_skill_md
from lorekeeper.store import Store
from lorekeeper.store.models import SkillBlob

PNG = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + bytes(range(256))


@pytest.fixture(params=["sqlite", "postgres"])
def store(request):
    s = Store(request.getfixturevalue("migrated_sqlite_url" if request.param == "sqlite" else "migrated_pg_url"))
    yield s
    s.close()


def real_skill(root: Path, name: str = "pdf-tools", desc: str = "Fill PDF forms.") -> Path:
    """A skill as real collections ship them: CRLF SKILL.md, scripts with an exec bit, references, a binary asset."""
    d = root / name
    (d / "scripts").mkdir(parents=True)
    (d / "references").mkdir()
    (d / "assets").mkdir()
    front = f"---\nname: {name}\ndescription: {desc}\nlicense: MIT\nmetadata:\n  updated: 2026-02-06\n  version: 1.10\n---\n"
    (d / "SKILL.md").write_bytes((front + "# PDF\nRun `scripts/check.py`.\n").replace("\n", "\r\n").encode())
    (d / "scripts" / "check.py").write_text("#!/usr/bin/env python3\nprint('ok')\n")
    os.chmod(d / "scripts" / "check.py", 0o755)
    (d / "references" / "forms.md").write_text("# Forms\n")
    (d / "assets" / "logo.png").write_bytes(PNG)
    return d


def tree(d: Path) -> dict[str, tuple[bytes, int]]:
    return {
        p.relative_to(d).as_posix(): (p.read_bytes(), stat.S_IMODE(p.stat().st_mode) & 0o111)
        for p in sorted(d.rglob("*"))
        if p.is_file()
    }


def zip_dir(z: Path, src: Path, prefix: str) -> Path:
    with zipfile.ZipFile(z, "w") as zf:
        for p in sorted(src.rglob("*")):
            if p.is_file():
                zf.write(p, prefix + p.relative_to(src).as_posix())
    return z


def test_every_file_is_kept_through_folder_fork_restore_and_zip(store: Store, tmp_path: Path) -> None:
    out = tmp_path / "out"
    lib = SkillLibrary.wire(store, out)
    src = real_skill(tmp_path / "src")
    assert lib.import_path(src.parent).created == ["pdf-tools"]
    want = tree(src)
    assert tree(out / "pdf-tools") == want  # byte for byte (CRLF kept), exec bit kept
    assert (out / "pdf-tools" / "SKILL.md").read_bytes().count(b"\r\n") >= 8
    v1 = lib.get("pdf-tools")
    assert [f.path for f in v1.files] == ["assets/logo.png", "references/forms.md", "scripts/check.py"]
    lib.fork("pdf-tools", "shop")
    assert tree(out / "_forks" / "shop" / "pdf-tools") == want
    # an edit of SKILL.md keeps the other files; a new script version is diffed per file
    lib.save("pdf-tools", None, v1.content.replace("# PDF", "# PDF forms"), message="edit")
    assert tree(out / "pdf-tools")["scripts/check.py"] == want["scripts/check.py"]
    (src / "scripts" / "check.py").write_text("#!/usr/bin/env python3\nprint('better')\n")
    (src / "assets" / "logo.png").write_bytes(PNG + b"x")
    rep = lib.import_path(src.parent, on_conflict="new-version")
    assert rep.updated == ["pdf-tools"]
    diffs = lib.file_diffs("pdf-tools", None, 2, 3)
    assert "-print('ok')" in diffs["scripts/check.py"] and "+print('better')" in diffs["scripts/check.py"]
    assert diffs["assets/logo.png"].startswith("Binary file assets/logo.png differs")
    assert "SKILL.md" in diffs and "references/forms.md" not in diffs
    lib.restore("pdf-tools", None, 1)
    assert tree(out / "pdf-tools") == want
    # blobs are shared: v1, the fork and the restore hold the same bytes once
    with store.session() as s:
        assert s.scalar(select(func.count()).select_from(SkillBlob)) == 5  # 3 files + new script + new logo
    # through a zip, into a second library
    lib2 = SkillLibrary.wire(store, tmp_path / "out2")
    lib2.delete_fork("pdf-tools", "shop")
    z = zip_dir(tmp_path / "pdf.zip", src.parent, "bundle/")
    assert lib2.import_path(z, project="other").created == ["pdf-tools"]
    assert tree(tmp_path / "out2" / "_forks" / "other" / "pdf-tools") == tree(src)


def test_real_layouts_import(tmp_path: Path, store: Store) -> None:
    lib = SkillLibrary.wire(store, tmp_path / "out")
    repo = tmp_path / "repo"
    real_skill(repo / "plugins" / "docs" / "skills", "pdf-tools")
    real_skill(repo / "skills" / ".curated", "gh-fix-ci", "Fix CI.")
    real_skill(repo / "collections" / "a" / "b" / "c", "deep-one", "Deep.")
    gh = zip_dir(tmp_path / "repo-main.zip", repo, "repo-main/")
    with zipfile.ZipFile(gh, "a") as zf:
        zf.writestr("__MACOSX/repo-main/skills/._junk/SKILL.md", "binary junk")
    rep = lib.import_path(gh, strict=False)
    assert sorted(rep.created) == ["deep-one", "gh-fix-ci", "pdf-tools"] and not rep.invalid
    assert tree(tmp_path / "out" / "deep-one") == tree(repo / "collections" / "a" / "b" / "c" / "deep-one")
    # a flat zip (the skill at its root, named by its `name`) and a `.skill` file (a zip of the folder)
    solo = real_skill(tmp_path / "solo", "solo-skill", "Solo.")
    flat = zip_dir(tmp_path / "download.zip", solo, "")
    assert lib.import_path(flat).created == ["solo-skill"]
    packed = real_skill(tmp_path / "packed", "packed-skill", "Packed.")
    dot_skill = zip_dir(tmp_path / "packed-skill.skill", packed.parent, "")
    assert lib.import_path(dot_skill).created == ["packed-skill"]
    assert tree(tmp_path / "out" / "packed-skill") == tree(packed)


def test_default_import_keeps_the_valid_and_names_every_error_in_the_source(tmp_path: Path, workspace) -> None:
    src = tmp_path / "pack"
    real_skill(src / "skills", "good-one", "Fine.")
    bad = src / "skills" / "bad-one"
    bad.mkdir(parents=True)
    (bad / "SKILL.md").write_text(f"---\nname: Bad_One\ndescription: {'d' * 1100}\n---\n")
    z = zip_dir(tmp_path / "pack.zip", src, "pack-main/")
    ws = str(workspace.root)
    dry = run_lorekeeper("--workspace", ws, "skills", "import", str(z), "--dry-run", "--json")
    assert dry.returncode == 0 and json.loads(dry.stdout)["created"] == ["good-one"]
    assert not (workspace.root / "skills" / "good-one").exists()
    strict = run_lorekeeper("--workspace", ws, "skills", "import", str(z), "--strict")
    assert strict.returncode == 2 and not (workspace.root / "skills" / "good-one").exists()
    r = run_lorekeeper("--workspace", ws, "skills", "import", str(z), "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["created"] == ["good-one"]
    [invalid] = out["invalid"]
    assert invalid["path"] == f"{z}:pack-main/skills/bad-one"
    fields = [e["field"] for e in invalid["errors"]]
    assert fields.count("name") == 3 and "description" in fields  # every error, not only the first
    assert "lk-import-" not in r.stdout + r.stderr  # never the temporary folder


def test_lenient_front_matter_matches_the_reference() -> None:
    text = (
        "---\nname: dated\ndescription: Dated.\nversion: 1.2.0\nargument-hint: '[file]'\nuser-invocable: true\n"
        "allowed-tools:\n  - Read\n  - Bash(git:*)\nmetadata:\n  updated: 2026-02-06\n  ratio: 1.10\n  flag: true\n"
        "  nested:\n    a: 1\n---\n# Body\n"
    )
    check = check_skill_md(text, file="dated/SKILL.md")
    assert check.doc is not None and check.doc.content == text
    assert check.doc.metadata["updated"] == "2026-02-06" and check.doc.metadata["ratio"] == "1.10"
    assert check.doc.metadata["flag"] == "true" and check.doc.metadata["nested"] == "a: 1"
    assert check.doc.allowed_tools == "Read Bash(git:*)"
    assert [w.field for w in check.warnings] == ["version", "argument-hint", "user-invocable"]
    dup = check_skill_md("---\nname: a\ndescription: x\ndescription: y\n---\n", file="a/SKILL.md")
    assert dup.doc is None and dup.errors[0].field == "description" and dup.errors[0].line == 4


def test_validate_lists_every_error_with_file_field_and_line(tmp_path: Path) -> None:
    d = tmp_path / "lib" / "Bad"
    d.mkdir(parents=True)
    (d / "SKILL.md").write_text(f"---\nname: Bad\ncompatibility: {'c' * 501}\n---\n")
    r = run_lorekeeper("skills", "validate", str(tmp_path / "lib"), "--json")
    assert r.returncode == 2
    errs = {(e["field"], e.get("line")) for e in json.loads(r.stdout)["errors"]}
    assert {("name", 2), ("description", None), ("compatibility", 3)} <= errs
    assert all(e["file"].endswith("Bad/SKILL.md") for e in json.loads(r.stdout)["errors"])


def test_name_collisions_ask(tmp_path: Path, workspace) -> None:
    ws = str(workspace.root)
    before = workspace.skills.get("code-review")
    mine = real_skill(tmp_path / "mine", "code-review", "Someone else's code review.")
    r = run_lorekeeper("--workspace", ws, "skills", "import", str(mine.parent), "--json")
    out = json.loads(r.stdout)
    assert (
        r.returncode == 0 and out["exists"][0]["name"] == "code-review" and "Someone else" in out["exists"][0]["diff"]
    )
    assert workspace.skills.get("code-review").version == before.version  # nothing replaced
    r = run_lorekeeper("--workspace", ws, "skills", "import", str(mine.parent), "--on-conflict", "skip", "--json")
    assert json.loads(r.stdout)["skipped"] == ["code-review"]
    r = run_lorekeeper(
        "--workspace", ws, "skills", "import", str(mine.parent), "--on-conflict", "fork", "--project", "shop"
    )
    assert r.returncode == 0, r.stderr
    assert workspace.skills.get("code-review", "shop").project == "shop"
    assert workspace.skills.get("code-review").version == before.version
    r = run_lorekeeper("--workspace", ws, "skills", "import", str(mine.parent), "--on-conflict", "rename", "my-review")
    assert r.returncode == 0, r.stderr
    assert "name: my-review\r\n" in workspace.skills.get("my-review").content
    assert tree(workspace.root / "skills" / "my-review")["scripts/check.py"] == tree(mine)["scripts/check.py"]
    r = run_lorekeeper("--workspace", ws, "skills", "import", str(mine.parent), "--on-conflict", "new-version")
    assert "updated: code-review" in r.stdout
    assert tree(workspace.root / "skills" / "code-review") == tree(mine)
    assert workspace.skills.get("code-review", version=before.version).content == before.content


def test_symlinks_escapes_and_size_caps_are_refused(tmp_path: Path, store: Store) -> None:
    lib = SkillLibrary.wire(store, tmp_path / "out", limits=Limits(max_file=1000, max_skill=1200))
    src = real_skill(tmp_path / "src")
    (src / "link.md").symlink_to(src / "references" / "forms.md")
    with pytest.raises(InvalidSpecError, match="symlinks are refused") as ei:
        lib.import_path(src.parent)
    assert str(ei.value.file).endswith("pdf-tools/link.md")
    (src / "link.md").unlink()
    (src / "assets" / "big.bin").write_bytes(b"\0" * 1200)
    with pytest.raises(InvalidSpecError, match="per file"):
        lib.import_path(src.parent)
    (src / "assets" / "big.bin").write_bytes(b"\0" * 900)
    with pytest.raises(InvalidSpecError, match="per skill"):
        lib.import_path(src.parent)
    z = tmp_path / "evil.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("ok/SKILL.md", "---\nname: ok\ndescription: x\n---\n")
        zf.writestr("ok/../../escape.txt", "x")
    with pytest.raises(InvalidSpecError, match="unsafe path"):
        lib.import_path(z)
    assert not lib.list()
    assert Resolution("fork", project="p").project == "p"
