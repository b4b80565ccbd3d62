"""learnings.md import/export: the seed's format both ways, without loss."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from lorekeeper.cli import main
from lorekeeper.errors import InvalidSpecError
from lorekeeper.learnings import mdformat

SEED_FILE = """# Learnings

> Auto-généré. Injecté dans le prompt GSD au début de la session.

## Règles

- [2026-04-03T14:22:00Z] [fixit] Always use t-call for translations in Odoo QWeb
- [2026-04-03T15:10:00Z] [negative] Avoid sudo in deployment scripts
"""

ODD_FILE = """# Learnings

## Rules

- [2026-04-03T15:10:00.123Z] [negative] Trailing spaces and  double  spaces kept   
- [2026-04-04T09:00:00+02:00] [sage] An offset timestamp and a source we do not know
- [2026-04-02T08:00:00Z] [fixit] Older but later in the file: the file order is kept
- [2026-04-05T10:00:00Z] [manual] With fields <!-- lorekeeper {"story":"ST-7","domain":"odoo","tags":["i18n","qweb"],"scope":"domain","status":"archived","reviewer":"ana"} -->
"""


def run(ws, *args, input=None):
    return CliRunner().invoke(main, [*args, "--workspace", str(ws.root)], input=input, catch_exceptions=False)


DUP_FILE = SEED_FILE + "- [2026-04-03T15:10:00Z] [negative] Avoid sudo in deployment scripts\n"


CRLF_FILE = "\ufeff" + SEED_FILE.replace("\n", "\r\n")
NO_PREAMBLE = "- [2026-04-03T14:22:00Z] [thumbs down] A source with a space\n- [2026-04-03T14:23:00Z] [fixit] U+2028 \u2028 inside\n"


INTERLEAVED = (
    SEED_FILE
    + "\n## Archived by hand\n\n- [2026-04-05T10:00:00Z] [manual] After a heading\n\n<!-- a note at the end -->\n"
)


@pytest.mark.parametrize(
    "text",
    [SEED_FILE, ODD_FILE, DUP_FILE, CRLF_FILE, NO_PREAMBLE, INTERLEAVED, INTERLEAVED.replace("\n", "\r\n")],
    ids=["seed", "odd", "repeated-line", "bom-crlf", "no-preamble", "interleaved", "interleaved-crlf"],
)
def test_import_then_export_gives_back_the_same_bytes(workspace, tmp_path, text):
    src = tmp_path / "learnings.md"
    src.write_bytes(text.encode("utf-8"))
    r = run(workspace, "learn", "import", str(src), "--project", "citadel-v2")
    assert r.exit_code == 0, r.output
    out = tmp_path / "out.md"
    r = run(workspace, "learn", "export", "--project", "citadel-v2", "-o", str(out))
    assert r.exit_code == 0, r.output
    assert out.read_bytes() == text.encode("utf-8")


def test_fields_from_the_comment_land_in_the_store(workspace):
    workspace.learnings.import_text(ODD_FILE, "p")
    rows = {r.rule: r for r in workspace.learnings.list(project="p", status="all")}
    withf = rows["With fields"]
    assert (withf.story, withf.domain, withf.tags, withf.scope, withf.status) == (
        "ST-7",
        "odoo",
        ("i18n", "qweb"),
        "domain",
        "archived",
    )
    assert withf.extra == {"reviewer": "ana"}
    assert rows["An offset timestamp and a source we do not know"].source == "sage"
    assert rows["An offset timestamp and a source we do not know"].created_at.isoformat() == "2026-04-04T07:00:00+00:00"
    assert "Trailing spaces and  double  spaces kept   " in rows


def test_store_to_file_to_store_keeps_every_field(workspace, tmp_path):
    ws = workspace
    a = ws.learnings.add(
        "Use t-call", project="p", source="fixit", story="S-1", domain="odoo", tags="i18n, qweb", scope="domain"
    )
    b = ws.learnings.add("Avoid sudo", project="p", source="negative")
    ws.learnings.archive([b.id])
    f = tmp_path / "l.md"
    ws.learnings.export_file(f, "p")
    ws.learnings.import_file(f, "q")
    got = {r.rule: r for r in ws.learnings.list(project="q", status="all")}
    for orig in (ws.learnings.get(a.id), ws.learnings.get(b.id)):
        copy = got[orig.rule]
        for attr in ("rule", "source", "stamp", "created_at", "story", "domain", "tags", "scope", "status"):
            assert getattr(copy, attr) == getattr(orig, attr), attr


def test_reimporting_adds_nothing_even_with_repeated_lines(workspace):
    assert workspace.learnings.import_text(DUP_FILE, "d").added == 3
    again = workspace.learnings.import_text(DUP_FILE, "d")
    assert (again.added, again.unchanged) == (0, 3)


def test_reimporting_adds_nothing(workspace):
    r1 = workspace.learnings.import_text(SEED_FILE, "p")
    r2 = workspace.learnings.import_text(SEED_FILE, "p")
    assert (r1.added, r2.added, r2.unchanged) == (2, 0, 2)
    assert workspace.learnings.count(project="p") == 2


def test_an_invalid_line_rejects_the_whole_file_and_names_the_line(workspace, tmp_path):
    bad = SEED_FILE + "- [yesterday] [fixit] not a timestamp\n"
    src = tmp_path / "bad.md"
    src.write_text(bad, encoding="utf-8")
    r = run(workspace, "learn", "import", str(src), "--project", "p")
    assert r.exit_code == 2
    assert "ERR_INVALID_SPEC" in r.output and "line 9" in r.output and "bad.md" in r.output
    assert workspace.learnings.count(project="p", status="all") == 0


def test_lines_that_are_not_rules_are_reported_and_kept(workspace):
    text = SEED_FILE + "\nSome note someone wrote\n"
    rep = workspace.learnings.import_text(text, "p")
    assert rep.added == 2 and rep.skipped_lines == [(10, "Some note someone wrote")]
    workspace.learnings.add("Added later", project="p")
    out = workspace.learnings.export_text("p")
    assert out.startswith(SEED_FILE) and out.endswith("\nSome note someone wrote\n")
    assert "- [" in out.splitlines()[-3] and out.splitlines()[-3].endswith("Added later")


def test_the_seed_parser_reads_our_export(workspace):
    """Another tool reading `- [ts] [source] rule` lines gets every rule of an export."""
    import re

    workspace.learnings.add("Plain rule", project="p")
    workspace.learnings.add("Scoped rule", project="p", scope="global")
    text = workspace.learnings.export_text("p")
    seed_re = re.compile(r"^- \[(.+?)\] \[(.+?)\] (.+)$", re.MULTILINE)
    rules = [m.group(3) for m in seed_re.finditer(text)]
    assert rules[0] == "Plain rule" and rules[1].startswith("Scoped rule <!-- lorekeeper ")


def test_mdformat_rejects_a_bad_scope():
    with pytest.raises(InvalidSpecError, match="scope"):
        mdformat.parse('# L\n\n- [2026-01-01T00:00:00Z] [fixit] x <!-- lorekeeper {"scope":"planet"} -->\n')


def test_export_of_an_empty_project_is_the_seed_skeleton(workspace):
    assert workspace.learnings.export_text("nobody") == "# Learnings\n\n## Rules\n\n"
