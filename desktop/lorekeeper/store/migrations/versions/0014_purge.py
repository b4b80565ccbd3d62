"""GDPR purge runs and their journal (issue 13): resumable runs, counts per artefact, verification.

Revision ID: 0014_purge
Revises: 0010_answers
"""

import sqlalchemy as sa
from alembic import op

revision = "0014_purge"
down_revision = "0013_memory"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "purge_runs",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("stories", sa.Text, nullable=False, server_default="[]"),
        sa.Column("today", sa.String(10), nullable=False, server_default=""),
        sa.Column("status", sa.String(16), nullable=False, server_default="running"),
        sa.Column("counts", sa.Text, nullable=False, server_default="{}"),
        sa.Column("verified", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("remaining", sa.Text, nullable=False, server_default="[]"),
        sa.Column("notes", sa.Text, nullable=False, server_default="[]"),
        sa.Column("by", sa.String(128), nullable=False, server_default=""),
        sa.Column("started_at", TZ, nullable=False),
        sa.Column("finished_at", TZ, nullable=True),
        sa.Column("verified_at", TZ, nullable=True),
    )
    op.create_index("ix_purge_runs_started", "purge_runs", ["started_at"])
    op.create_table(
        "purge_steps",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("run_id", sa.Integer, sa.ForeignKey("purge_runs.id", ondelete="CASCADE"), nullable=False),
        sa.Column("story", sa.String(128), nullable=False),
        sa.Column("purgeable", sa.String(64), nullable=False),
        sa.Column("artefact", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False, server_default="pending"),
        sa.Column("planned", sa.Integer, nullable=False, server_default="0"),
        sa.Column("erased", sa.Integer, nullable=False, server_default="0"),
        sa.UniqueConstraint("run_id", "story", "purgeable", name="uq_purge_steps_run_story_purgeable"),
    )
    op.create_index("ix_purge_steps_run_id", "purge_steps", ["run_id"])


def downgrade() -> None:
    op.drop_index("ix_purge_steps_run_id", table_name="purge_steps")
    op.drop_table("purge_steps")
    op.drop_index("ix_purge_runs_started", table_name="purge_runs")
    op.drop_table("purge_runs")
