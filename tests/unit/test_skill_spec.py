"""Agent Skills front matter validation: errors name the file and the field."""

from __future__ import annotations

from pathlib import Path

import pytest

from lorekeeper.errors import InvalidSpecError
from lorekeeper.paths import starter_skills_dir
from lorekeeper.skills.spec import find_skill_dirs, parse_skill_md, read_skill_dir


def md(front: str, body: str = "# Body\n") -> str:
    return f"---\n{front}---\n{body}"


def test_valid_skill_with_metadata_terms() -> None:
    doc = parse_skill_md(
        md(
            'name: git-manager\ndescription: Git help.\nmetadata:\n  triggers: "commit, rebase, force push"\n  keywords: "branch"\n'
        ),
        folder="git-manager",
    )
    assert doc.triggers == ("commit", "rebase", "force push")
    assert doc.keywords == ("branch",)


@pytest.mark.parametrize(
    ("front", "field"),
    [
        ("description: x\n", "name"),
        ("name: Git-Manager\ndescription: x\n", "name"),
        ("name: -git\ndescription: x\n", "name"),
        ("name: git--manager\ndescription: x\n", "name"),
        ("name: git_manager\ndescription: x\n", "name"),
        (f"name: {'a' * 65}\ndescription: x\n", "name"),
        ("name: git-manager\n", "description"),
        (f"name: git-manager\ndescription: {'d' * 1025}\n", "description"),
        ("name: git-manager\ndescription: x\nname: other\n", "name"),  # duplicate key
        ("name: git-manager\ndescription: x\nallowed-tools: {Read: yes}\n", "allowed-tools"),
        ("name: git-manager\ndescription: x\nmetadata: [a, b]\n", "metadata"),
        (f"name: git-manager\ndescription: x\ncompatibility: {'c' * 501}\n", "compatibility"),
    ],
)
def test_invalid_front_matter_names_the_field(front: str, field: str) -> None:
    with pytest.raises(InvalidSpecError) as ei:
        parse_skill_md(md(front), file="skills/git-manager/SKILL.md")
    assert ei.value.field == field
    assert "skills/git-manager/SKILL.md" in str(ei.value)


def test_description_at_limit_is_valid() -> None:
    parse_skill_md(md(f"name: a\ndescription: {'d' * 1024}\n"))


def test_name_must_match_folder_and_front_matter_required(tmp_path: Path) -> None:
    with pytest.raises(InvalidSpecError, match="match its folder"):
        parse_skill_md(md("name: alpha\ndescription: x\n"), folder="beta")
    with pytest.raises(InvalidSpecError, match="front matter"):
        parse_skill_md("# no front matter")
    with pytest.raises(InvalidSpecError, match="YAML"):
        parse_skill_md("---\nname: [unclosed\n---\n")


def test_evals_file_errors_name_the_evals_file(tmp_path: Path) -> None:
    d = tmp_path / "alpha"
    d.mkdir()
    (d / "SKILL.md").write_text(md("name: alpha\ndescription: x\n"), encoding="utf-8")
    (d / "alpha.evals.json").write_text(
        '{"rules": [{"id": "a-1", "type": "nope", "severity": "info"}]}', encoding="utf-8"
    )
    with pytest.raises(InvalidSpecError) as ei:
        read_skill_dir(d)
    assert "alpha.evals.json" in str(ei.value) and ei.value.rule_id == "a-1"


def test_starter_library_is_valid_and_useful() -> None:
    dirs = find_skill_dirs(starter_skills_dir())
    assert len(dirs) >= 8
    for d in dirs:
        doc = read_skill_dir(d)
        rules = doc.rules()
        assert len(doc.triggers) >= 2, doc.name
        assert len(doc.keywords) >= 2, doc.name
        assert len(rules.rules) >= 2, doc.name
        assert len(doc.body.splitlines()) >= 20, doc.name
