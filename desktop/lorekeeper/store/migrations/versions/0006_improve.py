"""The improvement loop: nightly/Sage runs, proposals, benchmark scenarios, runs and results.

Revision ID: 0006_improve
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0006_improve"
down_revision = "0001"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "improvement_runs",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("project", sa.String(128), nullable=True),
        sa.Column("started_at", TZ, nullable=False),
        sa.Column("finished_at", TZ, nullable=True),
        sa.Column("model", sa.String(128), nullable=False, server_default=""),
        sa.Column("summary", sa.Text, nullable=False, server_default="{}"),
    )
    op.create_index("ix_improvement_runs_started", "improvement_runs", ["started_at"])
    op.create_table(
        "proposals",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("skill", sa.String(64), nullable=False),
        sa.Column("scope", sa.String(128), nullable=False, server_default=""),
        sa.Column("project", sa.String(128), nullable=False, server_default=""),
        sa.Column("source", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False, server_default="pending"),
        sa.Column("reason", sa.Text, nullable=False, server_default=""),
        sa.Column("summary", sa.Text, nullable=False, server_default=""),
        sa.Column("metrics", sa.Text, nullable=False, server_default="{}"),
        sa.Column("failing_rules", sa.Text, nullable=False, server_default="[]"),
        sa.Column("learnings", sa.Text, nullable=False, server_default="[]"),
        sa.Column("base_version", sa.Integer, nullable=False, server_default="1"),
        sa.Column("current_content", sa.Text, nullable=False, server_default=""),
        sa.Column("proposed_content", sa.Text, nullable=False, server_default=""),
        sa.Column("model", sa.String(128), nullable=False, server_default=""),
        sa.Column("prompt", sa.Text, nullable=False, server_default=""),
        sa.Column("answer", sa.Text, nullable=False, server_default=""),
        sa.Column("run_id", sa.Integer, nullable=True),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("decided_at", TZ, nullable=True),
        sa.Column("decided_by", sa.String(128), nullable=False, server_default=""),
        sa.Column("decision_reason", sa.Text, nullable=False, server_default=""),
        sa.Column("applied_version", sa.Integer, nullable=True),
        sa.Column("event_sig", sa.String(64), nullable=False, server_default=""),
    )
    op.create_index("ix_proposals_status", "proposals", ["status"])
    op.create_index("ix_proposals_skill_scope", "proposals", ["skill", "scope"])
    op.create_table(
        "benchmark_scenarios",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("skill", sa.String(64), nullable=False),
        sa.Column("scope", sa.String(128), nullable=False, server_default=""),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("source", sa.String(16), nullable=False, server_default="operator"),
        sa.Column("model", sa.String(128), nullable=False, server_default=""),
        sa.Column("created_at", TZ, nullable=False),
    )
    op.create_index("ix_benchmark_scenarios_skill", "benchmark_scenarios", ["skill", "scope"])
    op.create_table(
        "benchmark_runs",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("proposal_id", sa.Integer, nullable=False),
        sa.Column("skill", sa.String(64), nullable=False, server_default=""),
        sa.Column("scope", sa.String(128), nullable=False, server_default=""),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("provider", sa.String(32), nullable=False, server_default=""),
        sa.Column("model", sa.String(128), nullable=False, server_default=""),
        sa.Column("judge_model", sa.String(128), nullable=False, server_default=""),
        sa.Column("seed", sa.Integer, nullable=False, server_default="0"),
        sa.Column("verdict", sa.String(8), nullable=False, server_default="TIE"),
        sa.Column("wins_new", sa.Integer, nullable=False, server_default="0"),
        sa.Column("wins_old", sa.Integer, nullable=False, server_default="0"),
        sa.Column("ties", sa.Integer, nullable=False, server_default="0"),
        sa.Column("old_avg", sa.Float, nullable=False, server_default="0"),
        sa.Column("new_avg", sa.Float, nullable=False, server_default="0"),
        sa.Column("improvement_pct", sa.Float, nullable=True),
        sa.Column("config", sa.Text, nullable=False, server_default="{}"),
    )
    op.create_index("ix_benchmark_runs_proposal", "benchmark_runs", ["proposal_id"])
    op.create_table(
        "benchmark_results",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("run_id", sa.Integer, sa.ForeignKey("benchmark_runs.id", ondelete="CASCADE"), nullable=False),
        sa.Column("position", sa.Integer, nullable=False, server_default="0"),
        sa.Column("scenario_id", sa.Integer, nullable=True),
        sa.Column("scenario", sa.Text, nullable=False),
        sa.Column("old_output", sa.Text, nullable=False, server_default=""),
        sa.Column("new_output", sa.Text, nullable=False, server_default=""),
        sa.Column("old_eval", sa.Float, nullable=True),
        sa.Column("new_eval", sa.Float, nullable=True),
        sa.Column("old_judge", sa.Float, nullable=False, server_default="0"),
        sa.Column("new_judge", sa.Float, nullable=False, server_default="0"),
        sa.Column("old_score", sa.Float, nullable=False, server_default="0"),
        sa.Column("new_score", sa.Float, nullable=False, server_default="0"),
        sa.Column("judge_winner", sa.String(8), nullable=False, server_default="tie"),
        sa.Column("winner", sa.String(8), nullable=False, server_default="tie"),
        sa.Column("detail", sa.Text, nullable=False, server_default="{}"),
    )
    op.create_index("ix_benchmark_results_run", "benchmark_results", ["run_id", "position"])


def downgrade() -> None:
    op.drop_index("ix_benchmark_results_run", table_name="benchmark_results")
    op.drop_table("benchmark_results")
    op.drop_index("ix_benchmark_runs_proposal", table_name="benchmark_runs")
    op.drop_table("benchmark_runs")
    op.drop_index("ix_benchmark_scenarios_skill", table_name="benchmark_scenarios")
    op.drop_table("benchmark_scenarios")
    op.drop_index("ix_proposals_skill_scope", table_name="proposals")
    op.drop_index("ix_proposals_status", table_name="proposals")
    op.drop_table("proposals")
    op.drop_index("ix_improvement_runs_started", table_name="improvement_runs")
    op.drop_table("improvement_runs")
