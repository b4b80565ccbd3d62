"""The change feed: `store_changes` records what each committed write transaction touched.

One row per store revision (written in the same transaction as the `store_revision` bump), the
kinds as JSON ({"skills": ["plan"], ...}), pruned to the most recent rows. Long-lived processes
(the GUI) read the rows after the revision they last saw to learn what other processes changed.

Revision ID: 0009_changes
Revises: 0008_write_path
"""

import sqlalchemy as sa
from alembic import op

revision = "0009_changes"
down_revision = "0008_write_path"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "store_changes",
        sa.Column("revision", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("kinds", sa.Text, nullable=False, server_default="{}"),
        sa.Column("at", sa.DateTime(timezone=True), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("store_changes")
