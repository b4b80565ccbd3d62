"""Issue 26 d3: the fast read paths of the facts stay fail-closed.

`facts list` verifies Core rows with a memo keyed by each row's whole content, and the row
ledger's view is advanced from the entries a write made instead of re-read whole. Neither can
hide a tamper: a row changed behind Lorekeeper's back after a warm list, a row written back from
its older signed state after the view moved on, and a ledger entry forged after a write are all
refused (the last one makes the whole table untrusted, as a full read of the ledger does).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import click
from click.testing import CliRunner

from lorekeeper.cli.common import emit_json
from lorekeeper.workspace import Workspace

QUOTE = "Rule: use the house way."


def _facts(ws: Workspace, tmp_path: Path, n: int = 3) -> list[str]:
    ws.audit.require_key()
    doc = tmp_path / "fast" / "rules.md"
    doc.parent.mkdir(parents=True, exist_ok=True)
    doc.write_text(QUOTE + "\n", encoding="utf-8")
    ws.facts.ingest(doc.parent, project="fast")
    did = ws.facts.documents("fast")[0].id
    statements = ["Pin every base image by digest.", "Name queues after their consumer.", "Log in UTC only."]
    return [ws.facts.add("fast", "convention", s, did, QUOTE).facts[0].id for s in statements[:n]]


def _sql(ws: Workspace, query: str, args: tuple[Any, ...] = ()) -> list[Any]:
    con = sqlite3.connect(ws.root / "lorekeeper.db")
    try:
        con.row_factory = sqlite3.Row
        rows = con.execute(query, args).fetchall()
        con.commit()
        return [dict(r) for r in rows]
    finally:
        con.close()


def _rejected(ws: Workspace) -> int:
    return ws.audit.row_verifier().rejected_by_table.get("facts", 0)


def test_a_row_changed_after_a_warm_list_is_refused(workspace: Workspace, tmp_path: Path) -> None:
    ws = workspace
    ids = _facts(ws, tmp_path)
    assert [f.id for f in ws.facts.list("fast")] == ids
    assert [f.id for f in ws.facts.list("fast")] == ids  # warm: every row verified from the memo
    before = _rejected(ws)
    _sql(ws, "UPDATE facts SET statement = 'Log in any time zone.' WHERE id = ?", (ids[2],))
    assert [f.id for f in ws.facts.list("fast")] == ids[:2]  # same id and signature, other content
    assert _rejected(ws) == before + 1
    # a column the signature does not cover (detail is covered, updated_at is not) changes nothing
    _sql(ws, "UPDATE facts SET updated_at = '2030-01-01 00:00:00' WHERE id = ?", (ids[0],))
    assert [f.id for f in ws.facts.list("fast")] == ids[:2]


def test_a_row_written_back_after_the_view_moved_on_is_refused(workspace: Workspace, tmp_path: Path) -> None:
    ws = workspace
    ids = _facts(ws, tmp_path)
    old = _sql(ws, "SELECT * FROM facts WHERE id = ?", (ids[0],))[0]
    ws.facts.list("fast")  # the facts ledger view is filled
    ws.facts.reject(ids[0], why="too vague")  # the head moves: the next read advances the view
    assert {f.id: f.status for f in ws.facts.list("fast")}[ids[0]] == "rejected"
    cols = ", ".join(f'"{k}" = ?' for k in old)
    _sql(ws, f"UPDATE facts SET {cols} WHERE id = ?", (*old.values(), ids[0]))  # validly signed, older
    assert [f.id for f in ws.facts.list("fast")] == ids[1:]
    ws.facts.approve(ids[1])  # another write: the advanced view still names the rejected version
    assert [f.id for f in ws.facts.list("fast")] == ids[1:]


def test_a_ledger_entry_forged_after_a_write_makes_the_table_untrusted(workspace: Workspace, tmp_path: Path) -> None:
    ws = workspace
    ids = _facts(ws, tmp_path, 2)
    assert len(ws.facts.list("fast")) == 2  # the facts ledger view is filled
    did = ws.facts.documents("fast")[0].id
    new = ws.facts.add("fast", "convention", "Log in UTC only.", did, QUOTE).facts[0]  # reads no fact after
    row = _sql(ws, "SELECT * FROM facts WHERE id = ?", (new.id,))[0]
    # the entry the add made (its version is past the cached view's clock) is rewritten to name
    # another signature: the advanced digest cannot match the signed head, so the view is read
    # whole again, fails its digest, and no fact of the table is shown (fail closed)
    _sql(ws, "UPDATE row_ledger SET sig = ? WHERE tbl = 'facts' AND version = ?", ("0" * 64, row["row_version"]))
    assert ws.facts.list("fast") == []
    assert ids


def test_emit_json_is_indented_on_a_terminal_only() -> None:
    data = {"facts": [{"id": "a:b:c", "statement": "Élan ✓", "confidence": 0.9, "merged_into": None}]}

    @click.command()
    def cmd() -> None:
        emit_json(data)

    out = CliRunner().invoke(cmd).output
    assert out.count("\n") == 1 and json.loads(out) == data  # a pipe: one line, the same value
    assert '"confidence": 0.9' in out and "Élan ✓" in out
    import lorekeeper.cli.common as common

    real = common._stdout_is_tty
    common._stdout_is_tty = lambda: True  # type: ignore[assignment]
    try:
        pretty = CliRunner().invoke(cmd).output
    finally:
        common._stdout_is_tty = real  # type: ignore[assignment]
    assert pretty == json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def test_facts_list_json_to_a_pipe_is_the_same_bytes_as_json_dumps_of_the_list() -> None:
    """`facts list --json` joins each fact's cached JSON text (issue 26 d3): the output is byte for
    byte `json.dumps({"facts": [f.to_dict() ...]}, ensure_ascii=False)`: accents, quotes, floats,
    nulls, provenance and an empty list alike."""
    from lorekeeper.cli.common import emit_json_items
    from lorekeeper.facts.model import FactInfo, Provenance

    facts = [
        FactInfo(
            id="p:convention:1",
            project="p",
            type="convention",
            statement='Écrire « UTC » — "always" ✓',
            scope=("src/**",),
            tags=("time",),
            confidence=0.1 + 0.2,
            provenance=(Provenance("d1", "docs/a.md", "Rule:\ttabs\n"),),
            conflict=3,
        ),
        FactInfo(id="p:stack:2", project="p", type="stack", statement="Python 3.11.", confidence=1.0),
    ]
    for items in (facts, []):

        @click.command()
        def cmd(items: list[FactInfo] = items) -> None:
            emit_json_items("facts", items)

        out = CliRunner().invoke(cmd).output
        assert out == json.dumps({"facts": [f.to_dict() for f in items]}, ensure_ascii=False) + "\n"
