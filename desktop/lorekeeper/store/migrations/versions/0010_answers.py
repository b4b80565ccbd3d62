"""Answers kept by interaction id, so the CLI can rate or fix what the Playground or `llm ask` produced.

Revision ID: 0010_answers
Revises: 0009_changes
"""

import sqlalchemy as sa
from alembic import op

revision = "0010_answers"
down_revision = "0009_changes"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "answers",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("interaction", sa.String(64), nullable=False),
        sa.Column("project", sa.String(128), nullable=False, server_default=""),
        sa.Column("message", sa.Text, nullable=False, server_default=""),
        sa.Column("prompt", sa.Text, nullable=False, server_default=""),
        sa.Column("answer", sa.Text, nullable=False, server_default=""),
        sa.Column("skills", sa.Text, nullable=False, server_default="[]"),
        sa.Column("model", sa.String(128), nullable=False, server_default=""),
        sa.Column("footnote", sa.Text, nullable=False, server_default=""),
        sa.Column("passed", sa.Boolean, nullable=False, server_default=sa.true()),
        sa.Column("truncated", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("eval_runs", sa.Text, nullable=False, server_default="[]"),
        sa.Column("created_at", TZ, nullable=False),
        sa.UniqueConstraint("interaction", name="uq_answers_interaction"),
    )
    op.create_index("ix_answers_created", "answers", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_answers_created", table_name="answers")
    op.drop_table("answers")
