"""Audit chain round 2: signed learnings, quality events and proposals; the log's head; the outbox.

Revision ID: 0015_audit_head
Revises: 0010_answers

Existing rows get NULL signatures: they are not trusted (skipped and counted) until the operator
runs `lorekeeper audit sign-rows` once after upgrading (the seed's migration step).
"""

import sqlalchemy as sa
from alembic import op

revision = "0015_audit_head"
down_revision = "0015_agents"
branch_labels = None
depends_on = None

SIGNED_TABLES = ("learnings", "quality_events", "proposals")


def upgrade() -> None:
    for table in SIGNED_TABLES:
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("key_version", sa.Integer, nullable=True))
            batch.add_column(sa.Column("sig", sa.String(64), nullable=True))
    op.create_table(
        "audit_heads",
        sa.Column("workspace", sa.String(64), primary_key=True),
        sa.Column("epoch", sa.Integer, nullable=False, server_default="0"),
        sa.Column("count", sa.Integer, nullable=False, server_default="0"),
        sa.Column("file", sa.String(64), nullable=False, server_default=""),
        sa.Column("seq", sa.Integer, nullable=False, server_default="0"),
        sa.Column("head_sig", sa.String(64), nullable=False, server_default=""),
        sa.Column("updated_at", sa.String(40), nullable=False, server_default=""),
        sa.Column("key_version", sa.Integer, nullable=True),
        sa.Column("sig", sa.String(64), nullable=True),
    )
    op.create_table(
        "audit_outbox",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("workspace", sa.String(64), nullable=False, server_default=""),
        sa.Column("type", sa.String(64), nullable=False),
        sa.Column("story", sa.String(128), nullable=True),
        sa.Column("data", sa.Text, nullable=False, server_default="null"),
        sa.Column("salt", sa.String(32), nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False, server_default=""),
        sa.Column("key_version", sa.Integer, nullable=True),
        sa.Column("sig", sa.String(64), nullable=True),
    )
    op.create_index("ix_audit_outbox_workspace", "audit_outbox", ["workspace", "id"])


def downgrade() -> None:
    op.drop_index("ix_audit_outbox_workspace", table_name="audit_outbox")
    op.drop_table("audit_outbox")
    op.drop_table("audit_heads")
    for table in SIGNED_TABLES:
        with op.batch_alter_table(table) as batch:
            batch.drop_column("sig")
            batch.drop_column("key_version")
