"""Issue 17: a learning longer than the LEARNINGS budget is refused (naming the limit) instead of
emptying the block; Fix It routes its follow-up on the original request."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from lorekeeper.errors import InvalidInputError
from lorekeeper.learnings.block import BUDGET, HEADER
from lorekeeper.learnings.service import MAX_RULE_CHARS


def test_a_rule_over_the_budget_is_refused_and_the_block_keeps_the_others(workspace):
    ws = workspace
    ws.learnings.add("Always run the linter before pushing", source="manual")
    assert BUDGET - len(HEADER) - 3 == MAX_RULE_CHARS
    long_rule = "x" * 1950
    with pytest.raises(InvalidInputError) as err:
        ws.learnings.add(long_rule, source="manual")
    assert err.value.code == "ERR_INVALID_INPUT" and str(MAX_RULE_CHARS) in str(err.value)
    fits = "y" * MAX_RULE_CHARS  # exactly the limit: the block holds it alone
    assert len(HEADER) + 1 + 2 + len(fits) == BUDGET
    block = ws.learnings.block(None)
    assert "- Always run the linter before pushing" in block.text
    # the CLI says the same with the error code
    from lorekeeper.cli import main

    r = CliRunner().invoke(main, ["learn", "add", long_rule, "--workspace", str(ws.root)])
    assert r.exit_code != 0 and "ERR_INVALID_INPUT" in r.output + (r.stderr if r.stderr_bytes else "")
    assert str(MAX_RULE_CHARS) in r.output + (r.stderr if r.stderr_bytes else "")
    edited = ws.learnings.list()[0]
    with pytest.raises(InvalidInputError):
        ws.learnings.edit(edited.id, rule=long_rule)
    assert "- Always run the linter before pushing" in ws.learnings.block(None).text


def test_fixit_routes_on_the_original_request(workspace):
    from lorekeeper.learnings.service import LearningInfo  # noqa: F401 - the type fix_prompt takes
    from lorekeeper.reflect import Answer

    ws = workspace
    original = ws.reflect.prepare("Write the release notes for version 2.3", None)
    assert "release-notes" in original.skills
    # a previous answer that talks about database migrations (an unrelated skill)
    answer = Answer(
        "i1",
        "",
        original,
        "Before release, write an Alembic migration: add a column, backfill, CREATE INDEX, schema change.",
        (),
        "",
    )
    learning = ws.reflect.save_fix(answer, "Release notes list user-visible changes only")
    fixed = ws.reflect.fix_prompt(answer, learning)
    assert "db-migrations" not in fixed.skills
    assert fixed.skills == original.skills
    assert "Previous answer:" in fixed.text and "Alembic migration" in fixed.text
