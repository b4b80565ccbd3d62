"""Issue 28 d5: `facts settings` edits lorekeeper.toml with tomlkit, in the form the operator wrote."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from lorekeeper.errors import InvalidSpecError
from lorekeeper.facts.settings import write_include_candidates

HEAD = '[workspace]\nname = "client" # the client\'s name\n\n'


@pytest.mark.parametrize(
    "facts_table",
    [
        "[facts.projects.nord]\ninclude_candidates = true # by hand\n",
        '[facts.projects."nord"]\ninclude_candidates = true # by hand\n',
        "[facts]\nprompt_budget = 600 # by hand\nprojects = { nord = { include_candidates = true } }\n",
        "[facts]\nprompt_budget = 600 # by hand\nprojects.nord.include_candidates = true\n",
    ],
    ids=["table", "quoted", "inline", "dotted"],
)
def test_one_key_changes_in_whatever_form_the_table_was_written(tmp_path: Path, facts_table: str) -> None:
    cfg = tmp_path / "lorekeeper.toml"
    tail = '\n[llm]\nprovider = "none" # no model\n'
    cfg.write_text(HEAD + facts_table + tail, encoding="utf-8")
    write_include_candidates(cfg, "nord", False)
    text = cfg.read_text(encoding="utf-8")
    assert tomllib.loads(text)["facts"]["projects"]["nord"]["include_candidates"] is False
    assert text.startswith(HEAD) and text.endswith(tail) and "# by hand" in text  # the rest as it was
    assert text.count("include_candidates") == 1
    write_include_candidates(cfg, "other.proj", True)  # a second project joins in the same form
    data = tomllib.loads(cfg.read_text(encoding="utf-8"))
    assert data["facts"]["projects"] == {
        "nord": {"include_candidates": False},
        "other.proj": {"include_candidates": True},
    }
    assert data["llm"] == {"provider": "none"} and data["workspace"] == {"name": "client"}


def test_a_file_that_does_not_parse_is_never_rewritten(tmp_path: Path) -> None:
    cfg = tmp_path / "lorekeeper.toml"
    cfg.write_text("[facts\ninclude_candidates = true\n", encoding="utf-8")
    with pytest.raises(InvalidSpecError, match="not valid TOML"):
        write_include_candidates(cfg, "nord", False)
    assert cfg.read_text(encoding="utf-8") == "[facts\ninclude_candidates = true\n"
