"""A skill is its whole folder: content-addressed file blobs and each version's file list.

Revision ID: 0011_skill_files
Revises: 0010_answers
"""

import sqlalchemy as sa
from alembic import op

revision = "0011_skill_files"
down_revision = "0016_marketplaces"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "skill_blobs",
        sa.Column("sha256", sa.String(64), primary_key=True),
        sa.Column("size", sa.BigInteger, nullable=False),
        sa.Column("data", sa.LargeBinary, nullable=False),
    )
    op.create_table(
        "skill_version_files",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("version_id", sa.Integer, sa.ForeignKey("skill_versions.id", ondelete="CASCADE"), nullable=False),
        sa.Column("path", sa.String(1024), nullable=False),
        sa.Column("sha256", sa.String(64), sa.ForeignKey("skill_blobs.sha256"), nullable=False),
        sa.Column("mode", sa.Integer, nullable=False, server_default="420"),
        sa.UniqueConstraint("version_id", "path", name="uq_skill_version_files_path"),
    )
    op.create_index("ix_skill_version_files_version_id", "skill_version_files", ["version_id"])
    op.create_index("ix_skill_version_files_sha256", "skill_version_files", ["sha256"])


def downgrade() -> None:
    op.drop_index("ix_skill_version_files_sha256", table_name="skill_version_files")
    op.drop_index("ix_skill_version_files_version_id", table_name="skill_version_files")
    op.drop_table("skill_version_files")
    op.drop_table("skill_blobs")
