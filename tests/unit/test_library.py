"""The skill library on both stores: versions, forks, diff, restore, import (folder and zip), export."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from sqlalchemy import func, select

from lorekeeper.errors import InvalidSpecError, NotFoundError
from lorekeeper.skills.library import SkillLibrary
from lorekeeper.store import Store
from lorekeeper.store.models import SkillVersion


@pytest.fixture(params=["sqlite", "postgres"])
def store(request):
    s = Store(request.getfixturevalue("migrated_sqlite_url" if request.param == "sqlite" else "migrated_pg_url"))
    yield s
    s.close()


def skill_md(name: str, desc: str = "A skill.", triggers: str = "review", body: str = "# Body\n") -> str:
    return (
        f'---\nname: {name}\ndescription: {desc}\nmetadata:\n  triggers: "{triggers}"\n  keywords: "xss"\n---\n{body}'
    )


RULES = json.dumps(
    {
        "rules": [
            {"id": "r-1", "name": "No force", "type": "string_not_contains", "value": "--force", "severity": "warning"}
        ]
    }
)


def make_dir(root: Path, name: str, **kw: str) -> Path:
    d = root / name
    d.mkdir(parents=True)
    (d / "SKILL.md").write_text(skill_md(name, **kw), encoding="utf-8")
    (d / f"{name}.evals.json").write_text(RULES, encoding="utf-8")
    return d


def test_versions_diff_restore(store: Store, tmp_path: Path) -> None:
    lib = SkillLibrary.wire(store, tmp_path / "out")
    v1 = lib.save("alpha", None, skill_md("alpha"), RULES, "first")
    assert v1.version == 1
    same = lib.save("alpha", None, skill_md("alpha"), RULES, "no change")
    assert same.version == 1  # identical content creates no version
    v2 = lib.save("alpha", None, skill_md("alpha", body="# Better body\n"), None, "edit")
    assert v2.version == 2
    assert [v.version for v in lib.versions("alpha")] == [2, 1]
    assert lib.versions("alpha")[0].current
    assert "-# Body" in lib.diff("alpha", None, 1, 2) and "+# Better body" in lib.diff("alpha", None, 1, 2)
    v3 = lib.restore("alpha", None, 1)
    assert v3.version == 3 and v3.content == v1.content
    assert lib.get("alpha").version == 3
    # The workspace folder holds the current version for agents and git.
    assert (tmp_path / "out" / "alpha" / "SKILL.md").read_text(encoding="utf-8") == v1.content
    assert json.loads((tmp_path / "out" / "alpha" / "alpha.evals.json").read_text())["rules"][0]["id"] == "r-1"


def test_invalid_save_writes_nothing(store: Store, tmp_path: Path) -> None:
    lib = SkillLibrary.wire(store, tmp_path / "out")
    lib.save("alpha", None, skill_md("alpha"), RULES)
    with pytest.raises(InvalidSpecError):
        lib.save("alpha", None, "---\nname: alpha\n---\nno description", None)
    with pytest.raises(InvalidSpecError) as ei:
        lib.save(
            "alpha", None, skill_md("alpha", body="x"), '{"rules": [{"id": "bad", "type": "zzz", "severity": "info"}]}'
        )
    assert ei.value.rule_id == "bad"
    with store.session() as s:
        assert s.scalar(select(func.count(SkillVersion.id))) == 1


def test_forks_override_for_their_project_only(store: Store, tmp_path: Path) -> None:
    lib = SkillLibrary.wire(store, tmp_path / "out")
    lib.save("alpha", None, skill_md("alpha", triggers="review"), RULES)
    lib.fork("alpha", "shop")
    lib.save(
        "alpha", "shop", skill_md("alpha", desc="Shop flavour.", triggers="inspect"), '{"rules": []}', "shop rules"
    )
    assert lib.get("alpha").content != lib.get("alpha", "shop").content
    assert lib.get("alpha", "other").project == ""  # no fork there: the global serves
    assert lib.rules("alpha", "shop").rules == ()
    assert len(lib.rules("alpha").rules) == 1
    assert [s.triggers for s in lib.routable("shop")] == [("inspect",)]
    assert [s.triggers for s in lib.routable()] == [("review",)]
    listing = lib.list()
    assert {(i.name, i.project) for i in listing} == {("alpha", ""), ("alpha", "shop")}
    assert next(i for i in listing if not i.project).has_fork
    assert lib.projects() == ["shop"]
    assert (tmp_path / "out" / "_forks" / "shop" / "alpha" / "SKILL.md").exists()
    lib.delete_fork("alpha", "shop")
    assert lib.get("alpha", "shop").project == ""
    with pytest.raises(NotFoundError):
        lib.get("missing")


def test_import_folder_and_zip_in_one_transaction(store: Store, tmp_path: Path) -> None:
    lib = SkillLibrary.wire(store, tmp_path / "out")
    src = tmp_path / "src"
    make_dir(src, "alpha")
    make_dir(src, "beta")
    rep = lib.import_path(src)
    assert sorted(rep.created) == ["alpha", "beta"]
    # A zip with one valid and one invalid skill imports nothing, and the error names the file.
    bad = tmp_path / "bad"
    make_dir(bad, "gamma")
    d = make_dir(bad, "delta")
    (d / "SKILL.md").write_text("---\nname: delta\n---\n", encoding="utf-8")
    z = tmp_path / "skills.zip"
    with zipfile.ZipFile(z, "w") as zf:
        for f in bad.rglob("*"):
            zf.write(f, Path("pack") / f.relative_to(bad))
    with pytest.raises(InvalidSpecError) as ei:
        lib.import_path(z)
    assert "delta" in str(ei.value) and ei.value.field == "description"
    assert not lib.exists("gamma")
    # A valid zip (wrapped in a folder) imports, reimport is unchanged.
    (d / "SKILL.md").write_text(skill_md("delta"), encoding="utf-8")
    with zipfile.ZipFile(z, "w") as zf:
        for f in bad.rglob("*"):
            zf.write(f, Path("pack") / f.relative_to(bad))
    assert sorted(lib.import_path(z).created) == ["delta", "gamma"]
    assert sorted(lib.import_path(z).unchanged) == ["delta", "gamma"]


def test_zip_with_path_traversal_is_refused(store: Store, tmp_path: Path) -> None:
    lib = SkillLibrary.wire(store, tmp_path / "out")
    z = tmp_path / "evil.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("../../evil/SKILL.md", skill_md("evil"))
    with pytest.raises(InvalidSpecError, match="unsafe path"):
        lib.import_path(z)


def test_set_rules_validates_whole_set(store: Store, tmp_path: Path) -> None:
    lib = SkillLibrary.wire(store, None)
    lib.save("alpha", None, skill_md("alpha"), RULES)
    v = lib.set_rules("alpha", None, [{"id": "n-1", "name": "Has JSON", "type": "is_json", "severity": "info"}])
    assert v.version == 2 and [r.id for r in lib.rules("alpha").rules] == ["n-1"]
    with pytest.raises(InvalidSpecError):
        lib.set_rules("alpha", None, [{"id": "x", "type": "regex_match", "pattern": "(", "severity": "info"}])
    assert lib.get("alpha").version == 2
    # Editing rules in a project's context makes a fork for that project.
    lib.set_rules("alpha", "shop", [])
    assert lib.get("alpha", "shop").project == "shop" and len(lib.rules("alpha").rules) == 1


def test_an_import_leaves_the_collector_as_it_found_it(store: Store, tmp_path: Path) -> None:
    """An import raises the young-collection threshold while it runs (issue 26: 10,000 skills ran
    the collector 1,200 times); the process gets its own setting back, whether the import succeeds
    or is refused."""
    import gc

    lib = SkillLibrary.wire(store, tmp_path / "out")
    src = tmp_path / "src"
    make_dir(src, "alpha")
    before = gc.get_threshold()
    assert lib.import_path(src).created == ["alpha"]
    assert gc.get_threshold() == before
    (src / "alpha" / "SKILL.md").write_text("---\nname: alpha\n---\n", encoding="utf-8")
    with pytest.raises(InvalidSpecError):
        lib.import_path(src)
    assert gc.get_threshold() == before
