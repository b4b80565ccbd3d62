"""Learnings (reflect loop), the imported learnings.md preambles, and quality events.

Revision ID: 0003_learnings
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0003_learnings"
down_revision = "0001"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "learnings",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("project", sa.String(128), nullable=False, server_default=""),
        sa.Column("rule", sa.Text, nullable=False),
        sa.Column("source", sa.String(32), nullable=False, server_default="manual"),
        sa.Column("stamp", sa.String(64), nullable=False, server_default=""),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("updated_at", TZ, nullable=False),
        sa.Column("story", sa.String(128), nullable=False, server_default=""),
        sa.Column("domain", sa.String(128), nullable=False, server_default=""),
        sa.Column("tags", sa.Text, nullable=False, server_default=""),
        sa.Column("scope", sa.String(16), nullable=False, server_default="story"),
        sa.Column("status", sa.String(16), nullable=False, server_default="active"),
        sa.Column("extra", sa.Text, nullable=False, server_default=""),
    )
    op.create_index("ix_learnings_project_status", "learnings", ["project", "status"])
    op.create_index("ix_learnings_created", "learnings", ["created_at"])
    op.create_table(
        "learning_files",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("project", sa.String(128), nullable=False, unique=True),
        sa.Column("preamble", sa.Text, nullable=False, server_default=""),
        sa.Column("updated_at", TZ, nullable=False),
    )
    op.create_table(
        "quality_events",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("skill", sa.String(64), nullable=False, server_default=""),
        sa.Column("project", sa.String(128), nullable=False, server_default=""),
        sa.Column("interaction", sa.String(64), nullable=False, server_default=""),
        sa.Column("passed", sa.Boolean, nullable=True),
        sa.Column("positive", sa.Boolean, nullable=True),
        sa.Column("eval_run_id", sa.Integer, nullable=True),
        sa.Column("detail", sa.Text, nullable=False, server_default=""),
        sa.Column("created_at", TZ, nullable=False),
    )
    op.create_index("ix_quality_events_skill_created", "quality_events", ["skill", "created_at"])
    op.create_index("ix_quality_events_project_created", "quality_events", ["project", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_quality_events_project_created", table_name="quality_events")
    op.drop_index("ix_quality_events_skill_created", table_name="quality_events")
    op.drop_table("quality_events")
    op.drop_table("learning_files")
    op.drop_index("ix_learnings_created", table_name="learnings")
    op.drop_index("ix_learnings_project_status", table_name="learnings")
    op.drop_table("learnings")
