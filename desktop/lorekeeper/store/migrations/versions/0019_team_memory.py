"""Teams on one store (issue 25 d3): which workspace collected each research note.

Revision ID: 0019_team_memory
Revises: 0018_trust_root

A workspace's `memory collect` reads its own `sources/` and only removes the notes it collected
itself: on a shared store another workspace's notes are the team's memory, not files gone missing.
Rows collected before this revision keep an empty `workspace` (claimed by the next collect that
still has the file).
"""

import sqlalchemy as sa
from alembic import op

revision = "0019_team_memory"
down_revision = "0018_trust_root"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("research_notes") as batch:
        batch.add_column(sa.Column("workspace", sa.String(64), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("research_notes") as batch:
        batch.drop_column("workspace")
