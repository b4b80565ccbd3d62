"""Typed facts from documentation (issue 11, seed 003): documents, facts, conflicts, runs.

Revision ID: 0012_facts
Revises: 0010_answers
"""

import sqlalchemy as sa
from alembic import op

revision = "0012_facts"
down_revision = "0010_answers"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "fact_documents",
        sa.Column("id", sa.String(160), primary_key=True),
        sa.Column("project", sa.String(128), nullable=False),
        sa.Column("origin", sa.Text, nullable=False),
        sa.Column("path", sa.Text, nullable=False, server_default=""),
        sa.Column("kind", sa.String(16), nullable=False, server_default="text"),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=False, server_default=""),
        sa.Column("size", sa.Integer, nullable=False, server_default="0"),
        sa.Column("missing", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("extracted_sha256", sa.String(64), nullable=False, server_default=""),
        sa.Column("extracted_at", TZ, nullable=True),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("updated_at", TZ, nullable=False),
    )
    op.create_index("ix_fact_documents_project", "fact_documents", ["project", "origin"])
    op.create_table(
        "facts",
        sa.Column("id", sa.String(160), primary_key=True),
        sa.Column("project", sa.String(128), nullable=False),
        sa.Column("type", sa.String(16), nullable=False),
        sa.Column("statement", sa.Text, nullable=False),
        sa.Column("detail", sa.Text, nullable=False, server_default=""),
        sa.Column("scope", sa.Text, nullable=False, server_default="[]"),
        sa.Column("tags", sa.Text, nullable=False, server_default="[]"),
        sa.Column("confidence", sa.Float, nullable=False, server_default="0.9"),
        sa.Column("status", sa.String(16), nullable=False, server_default="candidate"),
        sa.Column("provenance", sa.Text, nullable=False, server_default="[]"),
        sa.Column("merged_into", sa.String(160), nullable=False, server_default=""),
        sa.Column("flag", sa.String(32), nullable=False, server_default=""),
        sa.Column("ordinal", sa.Integer, nullable=False, server_default="0"),
        sa.Column("source", sa.String(16), nullable=False, server_default="extraction"),
        sa.Column("prior_status", sa.String(16), nullable=False, server_default=""),
        sa.Column("decided_by", sa.String(128), nullable=False, server_default=""),
        sa.Column("decided_at", TZ, nullable=True),
        sa.Column("decision_reason", sa.Text, nullable=False, server_default=""),
        sa.Column("event_sig", sa.String(64), nullable=False, server_default=""),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("updated_at", TZ, nullable=False),
        sa.Column("key_version", sa.Integer, nullable=True),
        sa.Column("sig", sa.String(64), nullable=True),
    )
    op.create_index("ix_facts_project_status", "facts", ["project", "status"])
    op.create_table(
        "fact_conflicts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("project", sa.String(128), nullable=False),
        sa.Column("facts", sa.Text, nullable=False, server_default="[]"),
        sa.Column("reason", sa.Text, nullable=False, server_default=""),
        sa.Column("status", sa.String(16), nullable=False, server_default="open"),
        sa.Column("resolution", sa.String(16), nullable=False, server_default=""),
        sa.Column("result", sa.String(160), nullable=False, server_default=""),
        sa.Column("resolved_by", sa.String(128), nullable=False, server_default=""),
        sa.Column("resolved_at", TZ, nullable=True),
        sa.Column("resolution_reason", sa.Text, nullable=False, server_default=""),
        sa.Column("event_sig", sa.String(64), nullable=False, server_default=""),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("key_version", sa.Integer, nullable=True),
        sa.Column("sig", sa.String(64), nullable=True),
    )
    op.create_index("ix_fact_conflicts_project_status", "fact_conflicts", ["project", "status"])
    op.create_table(
        "fact_runs",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("project", sa.String(128), nullable=False, server_default=""),
        sa.Column("model", sa.String(128), nullable=False, server_default=""),
        sa.Column("report", sa.Text, nullable=False, server_default="{}"),
        sa.Column("started_at", TZ, nullable=False),
        sa.Column("finished_at", TZ, nullable=True),
    )
    op.create_index("ix_fact_runs_started", "fact_runs", ["started_at"])


def downgrade() -> None:
    op.drop_index("ix_fact_runs_started", table_name="fact_runs")
    op.drop_table("fact_runs")
    op.drop_index("ix_fact_conflicts_project_status", table_name="fact_conflicts")
    op.drop_table("fact_conflicts")
    op.drop_index("ix_facts_project_status", table_name="facts")
    op.drop_table("facts")
    op.drop_index("ix_fact_documents_project", table_name="fact_documents")
    op.drop_table("fact_documents")
