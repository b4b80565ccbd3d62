"""Marketplace sources: where skills are discovered (a folder, a git checkout, a zip, a marketplace.json).

Revision ID: 0016_marketplaces
Revises: 0010_answers
"""

import sqlalchemy as sa
from alembic import op

revision = "0016_marketplaces"
down_revision = "0010_answers"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "market_sources",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("location", sa.Text, nullable=False),
        sa.Column("origin", sa.Text, nullable=False, server_default=""),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("name", name="uq_market_sources_name"),
    )


def downgrade() -> None:
    op.drop_table("market_sources")
