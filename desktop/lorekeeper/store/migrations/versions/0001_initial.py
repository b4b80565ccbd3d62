"""Initial schema: projects, skills with versions and forks, eval runs.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "projects",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(128), nullable=False, unique=True),
        sa.Column("description", sa.Text, nullable=False, server_default=""),
        sa.Column("created_at", TZ, nullable=False),
    )
    op.create_table(
        "skills",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("project", sa.String(128), nullable=False, server_default=""),
        sa.Column("current_version", sa.Integer, nullable=False, server_default="1"),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("updated_at", TZ, nullable=False),
        sa.UniqueConstraint("name", "project", name="uq_skills_name_project"),
    )
    op.create_index("ix_skills_name", "skills", ["name"])
    op.create_table(
        "skill_versions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("skill_id", sa.Integer, sa.ForeignKey("skills.id", ondelete="CASCADE"), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("content", sa.Text, nullable=False),
        sa.Column("evals", sa.Text, nullable=False, server_default=""),
        sa.Column("description", sa.Text, nullable=False, server_default=""),
        sa.Column("triggers", sa.Text, nullable=False, server_default=""),
        sa.Column("keywords", sa.Text, nullable=False, server_default=""),
        sa.Column("message", sa.Text, nullable=False, server_default=""),
        sa.Column("author", sa.String(128), nullable=False, server_default=""),
        sa.Column("created_at", TZ, nullable=False),
        sa.UniqueConstraint("skill_id", "version", name="uq_skill_versions_skill_version"),
    )
    op.create_table(
        "eval_runs",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("skill", sa.String(64), nullable=True),
        sa.Column("project", sa.String(128), nullable=False, server_default=""),
        sa.Column("skill_version", sa.Integer, nullable=True),
        sa.Column("source", sa.String(32), nullable=False, server_default="cli"),
        sa.Column("response", sa.Text, nullable=False),
        sa.Column("passed", sa.Boolean, nullable=False),
        sa.Column("rules_total", sa.Integer, nullable=False, server_default="0"),
        sa.Column("rules_failed", sa.Integer, nullable=False, server_default="0"),
        sa.Column("results", sa.Text, nullable=False, server_default="[]"),
        sa.Column("footnote", sa.Text, nullable=False, server_default=""),
        sa.Column("created_at", TZ, nullable=False),
    )
    op.create_index("ix_eval_runs_created", "eval_runs", ["created_at"])
    op.create_index("ix_eval_runs_skill", "eval_runs", ["skill"])


def downgrade() -> None:
    op.drop_table("eval_runs")
    op.drop_table("skill_versions")
    op.drop_index("ix_skills_name", table_name="skills")
    op.drop_table("skills")
    op.drop_table("projects")
