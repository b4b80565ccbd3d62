"""Teams on one store (issue 25): the store's trust root, the fingerprint of the key that signs it.

Revision ID: 0018_trust_root
Revises: 0017_row_versions

Empty after the upgrade: the first signed write (or `audit init-key`) of a workspace whose key
verifies the store's signed rows records it.
"""

import sqlalchemy as sa
from alembic import op

revision = "0018_trust_root"
down_revision = "0017_row_versions"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "audit_trust_roots",
        sa.Column("key_version", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("provider", sa.String(16), nullable=False, server_default=""),
        sa.Column("location", sa.String(400), nullable=False, server_default=""),
        sa.Column("workspace", sa.String(64), nullable=False, server_default=""),
        sa.Column("recorded_at", sa.String(40), nullable=False, server_default=""),
        sa.Column("sig", sa.String(64), nullable=False, server_default=""),
    )


def downgrade() -> None:
    op.drop_table("audit_trust_roots")
