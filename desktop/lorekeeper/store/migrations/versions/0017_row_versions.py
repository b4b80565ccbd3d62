"""Integrity round 3 (issue 24): rollback-proof signed rows, and signed skills, notes and clarifications.

Revision ID: 0017_row_versions
Revises: 0015_audit_head

- Every decision-driving table gets `row_version`, a per-table monotonic number the row's
  signature covers (NULL: a row signed before this migration, whose signature covers no version).
- `row_ledger` keeps, per table and row (by a hash of the primary key, so a purged story's id is
  not kept in clear), the version and signature the row must carry; `row_ledger_heads` keeps per
  table a signed digest of its ledger and a clock; `row_anchors` binds those clocks to the signed
  head of the session log (itself kept by the witness). A row written back from an older state
  no longer matches its ledger entry and is skipped on read like an unsigned one.
- `skills`, `skill_versions` (with `files_digest`, the digest of its files manifest),
  `research_notes` and `clarifications` become signed rows.
- The baseline: every row that exists now gets its ledger entry here, without the key: version 0
  for a signed row, -1 for a row that is not signed yet (a legacy row that `audit sign-rows` may
  sign). A row that appears later without a signature has no entry: `sign-rows` never signs it.
"""

import hashlib
import json

import sqlalchemy as sa
from alembic import op

revision = "0017_row_versions"
down_revision = "0015_audit_head"
branch_labels = None
depends_on = None

# table -> primary key columns (must match the models)
VERSIONED = {
    "learnings": ("id",),
    "facts": ("id",),
    "fact_conflicts": ("id",),
    "proposals": ("id",),
    "stories": ("id",),
    "memory_injections": ("id",),
    "learning_scores": ("learning_id",),
    "skills": ("id",),
    "skill_versions": ("id",),
    "research_notes": ("id",),
    "clarifications": ("story",),
}
NEWLY_SIGNED = ("skills", "skill_versions", "research_notes", "clarifications")


def ledger_key(table: str, pk: list[object]) -> str:
    """Keep in step with `lorekeeper.audit.rows.ledger_key`."""
    text = json.dumps([table, *pk], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:40]


def upgrade() -> None:
    for table in VERSIONED:
        with op.batch_alter_table(table) as batch:
            if table in NEWLY_SIGNED:
                batch.add_column(sa.Column("key_version", sa.Integer, nullable=True))
                batch.add_column(sa.Column("sig", sa.String(64), nullable=True))
            if table == "skill_versions":
                batch.add_column(sa.Column("files_digest", sa.String(64), nullable=False, server_default=""))
            batch.add_column(sa.Column("row_version", sa.BigInteger, nullable=True))
    op.create_table(
        "row_ledger",
        sa.Column("tbl", sa.String(64), primary_key=True),
        sa.Column("key", sa.String(40), primary_key=True),
        sa.Column("version", sa.BigInteger, nullable=False),
        sa.Column("sig", sa.String(64), nullable=False, server_default=""),
    )
    op.create_table(
        "row_ledger_heads",
        sa.Column("tbl", sa.String(64), primary_key=True),
        sa.Column("clock", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("count", sa.Integer, nullable=False, server_default="0"),
        sa.Column("digest", sa.String(64), nullable=False, server_default=""),
        sa.Column("key_version", sa.Integer, nullable=True),
        sa.Column("sig", sa.String(64), nullable=True),
    )
    op.create_table(
        "row_anchors",
        sa.Column("workspace", sa.String(64), primary_key=True),
        sa.Column("epoch", sa.Integer, nullable=False, server_default="0"),
        sa.Column("head_sig", sa.String(64), nullable=False, server_default=""),
        sa.Column("clocks", sa.Text, nullable=False, server_default="{}"),
        sa.Column("key_version", sa.Integer, nullable=True),
        sa.Column("sig", sa.String(64), nullable=True),
    )
    bind = op.get_bind()
    ledger = sa.table(
        "row_ledger",
        sa.column("tbl", sa.String),
        sa.column("key", sa.String),
        sa.column("version", sa.BigInteger),
        sa.column("sig", sa.String),
    )
    for table, pk in VERSIONED.items():
        cols = ", ".join(pk)
        rows = bind.execute(sa.text(f"SELECT {cols}, sig FROM {table}")).all()
        entries = [
            {
                "tbl": table,
                "key": ledger_key(table, list(r[: len(pk)])),
                "version": 0 if r[-1] else -1,
                "sig": r[-1] or "",
            }
            for r in rows
        ]
        for i in range(0, len(entries), 1000):
            op.bulk_insert(ledger, entries[i : i + 1000])


def downgrade() -> None:
    op.drop_table("row_anchors")
    op.drop_table("row_ledger_heads")
    op.drop_table("row_ledger")
    for table in VERSIONED:
        with op.batch_alter_table(table) as batch:
            batch.drop_column("row_version")
            if table == "skill_versions":
                batch.drop_column("files_digest")
            if table in NEWLY_SIGNED:
                batch.drop_column("sig")
                batch.drop_column("key_version")
