"""Signed audit chain: the session-log checkpoints (a signed row per log file).

Revision ID: 0002_audit
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002_audit"
down_revision = "0001"
branch_labels = ("audit",)
depends_on = None


def upgrade() -> None:
    op.create_table(
        "audit_checkpoints",
        sa.Column("file", sa.String(64), primary_key=True),
        sa.Column("events", sa.Integer, nullable=False, server_default="0"),
        sa.Column("head_seq", sa.Integer, nullable=False, server_default="0"),
        sa.Column("head_sig", sa.String(64), nullable=False, server_default=""),
        sa.Column("updated_at", sa.String(40), nullable=False, server_default=""),
        sa.Column("key_version", sa.Integer, nullable=True),
        sa.Column("sig", sa.String(64), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("audit_checkpoints")
