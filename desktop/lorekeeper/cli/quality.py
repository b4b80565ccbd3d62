"""`lorekeeper quality [--days N] [--project P] [--by-project] [--json]`: per-skill metrics and underperformers."""

from __future__ import annotations

from pathlib import Path

import click

from lorekeeper.cli.common import emit_json, handle_errors, json_option, open_workspace, workspace_option
from lorekeeper.quality.metrics import format_rate


@click.command("quality")
@click.option("--days", type=click.FloatRange(min=0, min_open=True), default=30, show_default=True, help="Time window.")
@click.option("--all-time", is_flag=True, help="No time window.")
@click.option("--project", default=None, help="Only this project's events.")
@click.option(
    "--by-project",
    is_flag=True,
    help="One row per skill and project (the events each project contributed to its skill scope).",
)
@click.option("--underperforming", "only_bad", is_flag=True, help="Only the skills the seed's rule flags.")
@workspace_option
@json_option
@handle_errors
def quality(
    days: float,
    all_time: bool,
    project: str | None,
    by_project: bool,
    only_bad: bool,
    workspace_dir: Path | None,
    as_json: bool,
) -> None:
    """Skill health: applied count, success rate, feedback; underperformers marked (worst first).

    One row per skill scope (the global skill or a project's fork), over the events since its
    current version and its last reviewed proposal: the same rows as the Quality panel and the
    nightly run."""
    window = None if all_time else days
    with open_workspace(workspace_dir) as ws:
        health = ws.quality.health(days=window, project=project)
        if by_project:
            verdict = {(m.skill, m.project or ""): m for m in health}
            rows = []
            for scope, m in ws.quality.current(days=window, project=project):
                scoped = verdict.get((m.skill, scope))
                if not only_bad or (scoped is not None and scoped.underperforming):
                    rows.append(m)
        else:
            rows = [m for m in health if m.underperforming] if only_bad else health
    if as_json:
        emit_json([m.to_dict() for m in rows])
        return
    if not rows:
        click.echo("No quality events in this window.")
        return
    head = "project" if by_project else "scope"
    click.echo(f"{'skill':<24} {head:<14} {'applied':>7} {'success':>8} {'+':>4} {'-':>4}  flag")
    for m in rows:
        rate = format_rate(m.success_rate)
        if by_project:  # a breakdown: the verdict belongs to the skill scope (the rows without --by-project)
            flag = ""
        else:
            flag = "UNDERPERFORMING: " + "; ".join(m.reasons) if m.underperforming else ""
        click.echo(
            f"{m.skill:<24} {(m.project or ('-' if by_project else 'global')):<14} {m.applied_count:>7} {rate:>8} {m.feedback_positive:>4} {m.feedback_negative:>4}  {flag}"
        )
