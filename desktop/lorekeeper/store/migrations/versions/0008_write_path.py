"""One write path: the store revision counter, one pending proposal per skill scope, checkpoints
keyed by workspace and log file.

- `store_revision`: one row, bumped by every write transaction (`Store.revision()`).
- `uq_proposals_pending`: a partial unique index on proposals (skill, scope) WHERE status =
  'pending'. Existing duplicates are closed first, deterministically: the oldest pending proposal
  (lowest id) of each skill scope stays pending, the others become `rejected` with a reason.
- `skill_versions` already has a unique (skill_id, version) since 0001; nothing to add there.
- `audit_checkpoints` gains a `workspace` column (the workspace id, '' for the rows written
  before this migration, which keep verifying) and its key becomes (workspace, file), so several
  workspaces share one PostgreSQL store and each verifies its own logs.

Revision ID: 0008_write_path
Revises: 0007_merge
"""

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0008_write_path"
down_revision = "0007_merge"
branch_labels = None
depends_on = None

DUPLICATE_REASON = "closed by migration 0008: a second pending proposal for the same skill scope"


def _checkpoint_columns(with_workspace: bool) -> list[sa.Column[Any]]:
    cols: list[sa.Column[Any]] = [
        sa.Column("file", sa.String(64), nullable=False),
        sa.Column("events", sa.Integer, nullable=False, server_default="0"),
        sa.Column("head_seq", sa.Integer, nullable=False, server_default="0"),
        sa.Column("head_sig", sa.String(64), nullable=False, server_default=""),
        sa.Column("updated_at", sa.String(40), nullable=False, server_default=""),
        sa.Column("key_version", sa.Integer, nullable=True),
        sa.Column("sig", sa.String(64), nullable=True),
    ]
    if with_workspace:
        return [sa.Column("workspace", sa.String(64), nullable=False, server_default=""), *cols]
    return cols


def upgrade() -> None:
    op.create_table(
        "store_revision",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("value", sa.BigInteger, nullable=False, server_default="0"),
    )
    op.execute("INSERT INTO store_revision (id, value) VALUES (1, 1)")

    # one pending proposal per skill scope: close the younger duplicates, then enforce it
    op.execute(
        sa.text(
            "UPDATE proposals SET status = 'rejected', decided_by = 'migration', decision_reason = :why "
            "WHERE status = 'pending' AND id > ("
            "  SELECT MIN(p2.id) FROM proposals p2"
            "  WHERE p2.status = 'pending' AND p2.skill = proposals.skill AND p2.scope = proposals.scope)"
        ).bindparams(why=DUPLICATE_REASON)
    )
    op.create_index(
        "uq_proposals_pending",
        "proposals",
        ["skill", "scope"],
        unique=True,
        sqlite_where=sa.text("status = 'pending'"),
        postgresql_where=sa.text("status = 'pending'"),
    )

    # checkpoints keyed by (workspace, file); the existing rows keep workspace ''
    op.create_table(
        "audit_checkpoints_new",
        *_checkpoint_columns(True),
        sa.PrimaryKeyConstraint("workspace", "file", name="pk_audit_checkpoints_ws_file"),
    )
    op.execute(
        "INSERT INTO audit_checkpoints_new (workspace, file, events, head_seq, head_sig, updated_at, key_version, sig) "
        "SELECT '', file, events, head_seq, head_sig, updated_at, key_version, sig FROM audit_checkpoints"
    )
    op.drop_table("audit_checkpoints")
    op.rename_table("audit_checkpoints_new", "audit_checkpoints")


def downgrade() -> None:
    # one row per file again: the legacy ('') row when there is one, else the smallest workspace id
    op.create_table("audit_checkpoints_old", *_checkpoint_columns(False), sa.PrimaryKeyConstraint("file"))
    op.execute(
        "INSERT INTO audit_checkpoints_old (file, events, head_seq, head_sig, updated_at, key_version, sig) "
        "SELECT c.file, c.events, c.head_seq, c.head_sig, c.updated_at, c.key_version, c.sig "
        "FROM audit_checkpoints c WHERE c.workspace = ("
        "  SELECT MIN(c2.workspace) FROM audit_checkpoints c2 WHERE c2.file = c.file)"
    )
    op.drop_table("audit_checkpoints")
    op.rename_table("audit_checkpoints_old", "audit_checkpoints")
    op.drop_index("uq_proposals_pending", table_name="proposals")
    op.drop_table("store_revision")
