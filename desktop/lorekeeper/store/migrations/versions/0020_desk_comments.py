"""Review at scale (issue 30 d3): comments on review items and their assignment to an operator.

Revision ID: 0020_desk_comments
Revises: 0019_team_memory

- `review_comments`: a signed, append-only comment on a proposal, a fact or a conflict (kind +
  the item's id as text), with its author and the content hash of its audit event.
- `review_assignments`: the named operator who reviews an item (one per item), who assigned it
  and when; the "mine" view of a review panel lists the items assigned to its operator.
Both are new, empty tables of signed, versioned rows (the commit hook signs what is written).
"""

import sqlalchemy as sa
from alembic import op

revision = "0020_desk_comments"
down_revision = "0019_team_memory"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "review_comments",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("item", sa.String(160), nullable=False),
        sa.Column("author", sa.String(128), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("event_sig", sa.String(64), nullable=False),
        sa.Column("key_version", sa.Integer, nullable=True),
        sa.Column("sig", sa.String(64), nullable=True),
        sa.Column("row_version", sa.BigInteger, nullable=True),
    )
    op.create_index("ix_review_comments_item", "review_comments", ["kind", "item"])
    op.create_table(
        "review_assignments",
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("item", sa.String(160), primary_key=True),
        sa.Column("assignee", sa.String(128), nullable=False),
        sa.Column("assigned_by", sa.String(128), nullable=False),
        sa.Column("assigned_at", TZ, nullable=False),
        sa.Column("event_sig", sa.String(64), nullable=False),
        sa.Column("key_version", sa.Integer, nullable=True),
        sa.Column("sig", sa.String(64), nullable=True),
        sa.Column("row_version", sa.BigInteger, nullable=True),
    )
    op.create_index("ix_review_assignments_assignee", "review_assignments", ["kind", "assignee"])


def downgrade() -> None:
    op.drop_index("ix_review_assignments_assignee", "review_assignments")
    op.drop_table("review_assignments")
    op.drop_index("ix_review_comments_item", "review_comments")
    op.drop_table("review_comments")
