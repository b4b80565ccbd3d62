"""Learnings in the store, per project, and what the prompt of each project carries."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from lorekeeper.cli import main
from lorekeeper.errors import InvalidInputError, NotFoundError
from lorekeeper.learnings.block import HEADER


def run(ws, *args):
    return CliRunner().invoke(main, [*args, "--workspace", str(ws.root)], catch_exceptions=False)


def _exercise(ws):
    odoo = ws.learnings.add("Always use t-call for translations", project="citadel-v2", source="fixit")
    react = ws.learnings.add("Use Testing Library queries by role", project="storefront")
    shared = ws.learnings.add("Never commit secrets", project="storefront", scope="global")
    p = ws.prompts.build("please review this code", "citadel-v2")
    assert p.learnings.used == (shared.id, odoo.id)
    assert react.rule not in p.text
    ws.learnings.archive([odoo.id])
    assert odoo.rule not in ws.prompts.build("x", "citadel-v2").text
    ws.learnings.restore([odoo.id])
    assert odoo.rule in ws.prompts.build("x", "citadel-v2").text
    return odoo, react, shared


def test_each_project_sees_its_own_rules_and_the_global_ones(workspace):
    _exercise(workspace)


@pytest.mark.postgres
def test_the_same_on_postgresql(tmp_path, pg_url):
    from lorekeeper.workspace import Workspace

    ws = Workspace.init(tmp_path / "pgws", starter=True)
    ws.close()
    cfg = ws.root / "lorekeeper.toml"
    cfg.write_text(cfg.read_text().replace('url = "sqlite:///lorekeeper.db"', f'url = "{pg_url}"'))
    with Workspace.open(ws.root) as pg:
        assert pg.store.url.startswith("postgresql")
        _exercise(pg)
        pg.learnings.import_text("# L\n\n- [2026-04-04T09:00:00+02:00] [fixit] Offset kept\n", "p")
        row = pg.learnings.list(project="p")[0]
        assert row.stamp == "2026-04-04T09:00:00+02:00" and row.created_at.isoformat() == "2026-04-04T07:00:00+00:00"
        pg.quality.log_applied(["code-review"], "p")
        assert pg.quality.metrics()[0].applied_count == 1


def test_the_prompt_layout(workspace):
    workspace.learnings.add("Rule one")
    p = workspace.prompts.build("please review this code")
    hint, learn, message = p.text.split("\n\n")
    assert hint.startswith("SKILLS_HINT (focus on these):")
    assert learn == f"{HEADER}\n- Rule one"
    assert message == "please review this code"


def test_the_memory_extension_point(workspace):
    seen = []

    def memory(req):
        seen.append((req.message, req.project, [m.name for m in req.route.skills]))
        return "MEMORY:\n- a note"

    workspace.prompts.register("memory", memory)
    p = workspace.prompts.build("review the diff", "citadel-v2")
    assert p.text.endswith("MEMORY:\n- a note\n\nreview the diff")
    assert seen[0][0] == "review the diff" and seen[0][1] == "citadel-v2"
    workspace.prompts.unregister("memory")
    assert "MEMORY" not in workspace.prompts.build("review the diff").text


def test_validation(workspace):
    with pytest.raises(InvalidInputError):
        workspace.learnings.add("   ")
    with pytest.raises(InvalidInputError):
        workspace.learnings.add("x", source="gossip")
    with pytest.raises(InvalidInputError):
        workspace.learnings.add("x", project="bad name!")
    a = workspace.learnings.add("multi\nline   rule")
    assert a.rule == "multi line rule"
    with pytest.raises(NotFoundError):
        workspace.learnings.archive([a.id, 9999])
    assert workspace.learnings.get(a.id).status == "active"  # all or nothing


def test_cli_add_list_edit_archive_restore(workspace):
    r = run(
        workspace,
        "learn",
        "add",
        "Avoid sudo in deployment scripts",
        "--project",
        "citadel-v2",
        "--tags",
        "ops,deploy",
        "--json",
    )
    lid = json.loads(r.output)["id"]
    run(workspace, "learn", "add", "Something else", "--project", "storefront")
    rows = json.loads(run(workspace, "learn", "list", "--project", "citadel-v2", "--json").output)
    assert [x["rule"] for x in rows] == ["Avoid sudo in deployment scripts"] and rows[0]["tags"] == ["ops", "deploy"]
    assert (
        run(
            workspace, "learn", "edit", str(lid), "--rule", "Never use sudo in deploy scripts", "--scope", "domain"
        ).exit_code
        == 0
    )
    assert run(workspace, "learn", "archive", str(lid)).exit_code == 0
    assert json.loads(run(workspace, "learn", "list", "--project", "citadel-v2", "--json").output) == []
    rows = json.loads(run(workspace, "learn", "list", "--status", "archived", "--json").output)
    assert rows[0]["rule"] == "Never use sudo in deploy scripts" and rows[0]["scope"] == "domain"
    assert run(workspace, "learn", "restore", str(lid)).exit_code == 0
    out = run(workspace, "prompt", "deploy it", "--project", "citadel-v2").output
    assert "- Never use sudo in deploy scripts" in out
    assert run(workspace, "learn", "archive", "424242").exit_code == 3
    rows = json.loads(run(workspace, "learn", "list", "--search", "else", "--json").output)
    assert [x["rule"] for x in rows] == ["Something else"]


def test_the_block_reads_only_what_can_fit_but_counts_what_was_left_out(workspace):
    from datetime import UTC, datetime, timedelta

    from lorekeeper.learnings.mdformat import format_stamp

    t0 = datetime(2026, 1, 1, tzinfo=UTC)  # 600 rules a second apart, in one transaction (one import)
    text = "".join(f"- [{format_stamp(t0 + timedelta(seconds=i))}] [manual] r{i}\n" for i in range(600))
    assert workspace.learnings.import_text(text, "big").added == 600
    block = workspace.learnings.block("big")
    assert len(block.text) <= 2000
    assert block.used[0] == workspace.learnings.list(project="big", limit=1)[0].id  # newest first
    assert len(block.used) + block.dropped == 600
    # the full newest-first list gives the same block
    from lorekeeper.learnings.block import learnings_block

    full = learnings_block((i.id, i.rule) for i in workspace.learnings.for_prompt("big"))
    assert full.text == block.text
