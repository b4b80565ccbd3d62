"""Skills written by the generator from an extraction goal: proposed eval rules and cited passages.

Revision ID: 0015_agents
Revises: 0016_marketplaces, 0012_facts, 0013_memory
"""

import sqlalchemy as sa
from alembic import op

revision = "0015_agents"
# A merge point too: every migration of the branches merged here revises 0010_answers; this one
# revises their heads, so the history has one head (the lead may re-chain them into a line).
down_revision = "0012_facts"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "skill_generations",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("proposal_id", sa.Integer, sa.ForeignKey("proposals.id", ondelete="CASCADE"), nullable=False),
        sa.Column("goal", sa.Text, nullable=False, server_default=""),
        sa.Column("project", sa.String(128), nullable=False, server_default=""),
        sa.Column("evals", sa.Text, nullable=False, server_default=""),
        sa.Column("passages", sa.Text, nullable=False, server_default="[]"),
        sa.Column("created_at", TZ, nullable=False),
        sa.UniqueConstraint("proposal_id", name="uq_skill_generations_proposal"),
    )


def downgrade() -> None:
    op.drop_table("skill_generations")
