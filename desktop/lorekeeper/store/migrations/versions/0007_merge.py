"""Merge the feature branches (audit, learnings, improve) into one history: one head from here on.

Revision ID: 0007_merge
Revises: 0002_audit, 0003b_learnings_layout, 0006_improve
"""

revision = "0007_merge"
down_revision = ("0002_audit", "0003b_learnings_layout", "0006_improve")
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
