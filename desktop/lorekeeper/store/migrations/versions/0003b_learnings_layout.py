"""Learnings: keep the text around the rules of an imported learnings.md (lossless export).

Revision ID: 0003b_learnings_layout
Revises: 0003_learnings
"""

import sqlalchemy as sa
from alembic import op

revision = "0003b_learnings_layout"
down_revision = "0003_learnings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("learnings") as batch:
        batch.add_column(sa.Column("lead", sa.Text, nullable=False, server_default=""))
    with op.batch_alter_table("learning_files") as batch:
        batch.add_column(sa.Column("trailer", sa.Text, nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("learning_files") as batch:
        batch.drop_column("trailer")
    with op.batch_alter_table("learnings") as batch:
        batch.drop_column("lead")
