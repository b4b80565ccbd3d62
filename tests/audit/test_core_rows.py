"""Rows written through Core (issue 26 d3: a bulk import INSERTs its skills and versions at once,
no ORM object per row) are signed by the commit hook like the ORM's own: the same signature over
the same fields, a row version and a ledger entry each, in the same transaction, and nothing
written without the key. On both stores."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from audit_helpers import run_cli
from sqlalchemy import func, insert, select, text

from lorekeeper.audit.ledger import ledger_key
from lorekeeper.audit.rows import verify_row
from lorekeeper.errors import LorekeeperError
from lorekeeper.store.models import RowLedger, Skill, SkillVersion
from lorekeeper.store.signed import add_signed_rows
from lorekeeper.workspace import Workspace

SKILL_MD = (
    "---\nname: {name}\ndescription: Checks {name} before a release.\nmetadata:\n"
    '  triggers: "{name}, release"\n---\n\n# {name}\n\n1. Read the diff.\n2. Run the checks.\n'
)


def _collection(root: Path, n: int) -> Path:
    for i in range(n):
        name = f"bulk-skill-{i:02d}"
        d = root / f"group-{i % 3}" / name
        d.mkdir(parents=True)
        (d / "SKILL.md").write_text(SKILL_MD.format(name=name), encoding="utf-8")
        if i % 2:
            (d / "scripts").mkdir()
            (d / "scripts" / "check.sh").write_text(f"#!/bin/sh\necho {name}\n", encoding="utf-8")
    return root


def _workspace(root: Path, request: pytest.FixtureRequest, store: str) -> Path:
    Workspace.init(root, starter=False).close()
    if store == "postgres":
        url = request.getfixturevalue("pg_url")
        cfg = root / "lorekeeper.toml"
        text_ = re.sub(r'(?m)^url = "sqlite:///.*?"', f'url = "{url}"', cfg.read_text(encoding="utf-8"))
        cfg.write_text(text_, encoding="utf-8")
    return root


@pytest.mark.parametrize("store", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_an_import_signs_every_skill_and_version_with_its_ledger_entry(
    tmp_path: Path, request: pytest.FixtureRequest, store: str
):
    root = _workspace(tmp_path / "ws", request, store)
    src = _collection(tmp_path / "src", 12)
    out = run_cli("--workspace", str(root), "skills", "import", str(src), "--json")
    assert out.returncode == 0, out.stderr
    assert len(json.loads(out.stdout)["created"]) == 12
    ws = Workspace.open(root)
    try:
        signer = ws.audit.row_signer()
        with ws.store.session() as s:
            rows = [*s.scalars(select(Skill)), *s.scalars(select(SkillVersion))]
            entries = {(t, k): (v, sig) for t, k, v, sig in s.execute(select(RowLedger.__table__))}
            versions = {sk.name: v for sk, v in s.execute(select(Skill, SkillVersion).join(SkillVersion))}
        assert len(rows) == 24
        for row in rows:
            assert verify_row(signer, row), row
            entry = entries[(row.__tablename__, ledger_key(row.__tablename__, [row.id]))]
            assert entry == (row.row_version, row.sig)
        # the files manifest is signed as the store holds it (a version with a script, one without)
        assert versions["bulk-skill-01"].files_digest != versions["bulk-skill-00"].files_digest
        assert ws.skills.rows.forged() == {}
    finally:
        ws.close()
    assert run_cli("--workspace", str(root), "audit", "verify").returncode == 0
    # a version edited in the database afterwards is caught like any other
    ws = Workspace.open(root)
    try:
        with ws.store.write() as s:
            s.execute(
                text("UPDATE skill_versions SET content = 'forged' WHERE id = :i"),
                {"i": versions["bulk-skill-03"].id},
            )
        assert list(ws.skills.rows.forged()) == [("bulk-skill-03", "")]
    finally:
        ws.close()


def _core_skill(s, name: str) -> dict:
    now = datetime(2026, 12, 7, tzinfo=UTC)
    values = {"name": name, "project": "", "current_version": 1, "created_at": now, "updated_at": now}
    values["id"] = s.execute(insert(Skill.__table__).returning(Skill.__table__.c.id), [values]).scalar_one()
    return values


def test_a_core_row_changed_through_the_orm_in_its_transaction_is_signed_as_that_object(tmp_path: Path):
    ws = Workspace.init(tmp_path / "ws", starter=False)
    try:
        with ws.store.write() as s:
            values = _core_skill(s, "core-then-orm")
            add_signed_rows(s, Skill, [values])
            sk = s.get(Skill, values["id"])
            sk.current_version = 2  # a signed field: the ORM object's value is the one signed
        signer = ws.audit.row_signer()
        with ws.store.session() as s:
            sk = s.get(Skill, values["id"])
            (entry,) = s.execute(select(RowLedger.version, RowLedger.sig).where(RowLedger.tbl == "skills")).all()
        assert sk.current_version == 2 and verify_row(signer, sk)
        assert tuple(entry) == (sk.row_version, sk.sig)
    finally:
        ws.close()


def test_core_rows_are_not_written_without_the_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    ws = Workspace.init(tmp_path / "ws", starter=False)
    try:

        def no_key() -> None:
            raise LorekeeperError("the audit key is unavailable")

        monkeypatch.setattr(ws.audit, "require_key", no_key)
        with pytest.raises(LorekeeperError), ws.store.write() as s:
            add_signed_rows(s, Skill, [_core_skill(s, "never-written")])
        with ws.store.session() as s:
            assert s.scalar(select(func.count()).select_from(Skill)) == 0
            assert s.scalar(select(func.count()).select_from(RowLedger).where(RowLedger.tbl == "skills")) == 0
        # the session still writes once the key is back
        monkeypatch.undo()
        with ws.store.write() as s:
            add_signed_rows(s, Skill, [_core_skill(s, "written")])
        with ws.store.session() as s:
            (sk,) = s.scalars(select(Skill))
            assert verify_row(ws.audit.row_signer(), sk)
    finally:
        ws.close()


def test_the_ledger_key_of_an_integer_key_is_the_one_migration_0017_gives():
    import hashlib

    def reference(table: str, pk: list) -> str:  # migration 0017's ledger_key
        text_ = json.dumps([table, *pk], ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(text_.encode("utf-8")).hexdigest()[:40]

    cases = [("skills", [1]), ("skill_versions", [2**40]), ("skills", [-3]), ("row_x", [1, 2]), ("skills", [True])]
    cases += [("skills", ["1"]), ("learnings", ["a-b"]), ("Skills", [1]), ("skills", [1.5]), ("étoile", [1])]
    for table, pk in cases:
        assert ledger_key(table, pk) == reference(table, pk), (table, pk)
