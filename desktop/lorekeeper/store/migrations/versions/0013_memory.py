"""Living memory (seed 004 B1-B5): stories, research notes, clarification summaries, signed
injection rows and signed reuse scores.

Revision ID: 0013_memory
Revises: 0010_answers
"""

import sqlalchemy as sa
from alembic import op

revision = "0013_memory"
down_revision = "0010_answers"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def _signed() -> list[sa.Column]:  # type: ignore[type-arg]
    return [sa.Column("key_version", sa.Integer, nullable=True), sa.Column("sig", sa.String(64), nullable=True)]


def upgrade() -> None:
    op.create_table(
        "stories",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("domain", sa.String(128), nullable=False, server_default=""),
        sa.Column("project", sa.String(128), nullable=False, server_default=""),
        sa.Column("state", sa.String(24), nullable=False, server_default="OPEN"),
        sa.Column("gate", sa.String(8), nullable=False, server_default=""),
        sa.Column("started_at", sa.String(40), nullable=False, server_default=""),
        sa.Column("closed_at", sa.String(40), nullable=False, server_default=""),
        *_signed(),
    )
    op.create_table(
        "research_notes",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("path", sa.String(512), nullable=False),
        sa.Column("title", sa.Text, nullable=False, server_default=""),
        sa.Column("summary", sa.Text, nullable=False, server_default=""),
        sa.Column("body", sa.Text, nullable=False, server_default=""),
        sa.Column("verdict", sa.String(16), nullable=False, server_default=""),
        sa.Column("impact", sa.String(16), nullable=False, server_default=""),
        sa.Column("date", sa.String(10), nullable=False, server_default=""),
        sa.Column("tags", sa.Text, nullable=False, server_default=""),
        sa.Column("domain", sa.String(128), nullable=False, server_default=""),
        sa.Column("project", sa.String(128), nullable=False, server_default=""),
        sa.Column("sha256", sa.String(64), nullable=False, server_default=""),
        sa.Column("collected_at", TZ, nullable=False),
        sa.UniqueConstraint("path", name="uq_research_notes_path"),
    )
    op.create_table(
        "clarifications",
        sa.Column("story", sa.String(64), primary_key=True),
        sa.Column("domain", sa.String(128), nullable=False, server_default=""),
        sa.Column("project", sa.String(128), nullable=False, server_default=""),
        sa.Column("date", sa.String(10), nullable=False),
        sa.Column("retention_until", sa.String(10), nullable=False),
        sa.Column("problem", sa.Text, nullable=False, server_default=""),
        sa.Column("criteria", sa.Text, nullable=False, server_default=""),
        sa.Column("constraints", sa.Text, nullable=False, server_default=""),
        sa.Column("priorities", sa.Text, nullable=False, server_default=""),
        sa.Column("created_at", TZ, nullable=False),
    )
    op.create_index("ix_clarifications_domain_project", "clarifications", ["domain", "project"])
    op.create_table(
        "memory_injections",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("trace", sa.String(64), nullable=False),
        sa.Column("story", sa.String(64), nullable=False),
        sa.Column("domain", sa.String(128), nullable=False, server_default=""),
        sa.Column("project", sa.String(128), nullable=False, server_default=""),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("item", sa.String(128), nullable=False),
        sa.Column("position", sa.Integer, nullable=False, server_default="0"),
        sa.Column("created_at", sa.String(40), nullable=False, server_default=""),
        *_signed(),
    )
    op.create_index("ix_memory_injections_story", "memory_injections", ["story"])
    op.create_index("ix_memory_injections_item", "memory_injections", ["kind", "item"])
    op.create_table(
        "learning_scores",
        sa.Column("learning_id", sa.Integer, primary_key=True),
        sa.Column("injections", sa.Integer, nullable=False, server_default="0"),
        sa.Column("gate_go", sa.Integer, nullable=False, server_default="0"),
        sa.Column("domains", sa.Integer, nullable=False, server_default="0"),
        sa.Column("reuse_score", sa.String(8), nullable=False, server_default="0.0000"),
        sa.Column("computed_at", sa.String(40), nullable=False, server_default=""),
        *_signed(),
    )


def downgrade() -> None:
    op.drop_table("learning_scores")
    op.drop_index("ix_memory_injections_item", table_name="memory_injections")
    op.drop_index("ix_memory_injections_story", table_name="memory_injections")
    op.drop_table("memory_injections")
    op.drop_index("ix_clarifications_domain_project", table_name="clarifications")
    op.drop_table("clarifications")
    op.drop_table("research_notes")
    op.drop_table("stories")
