"""`lorekeeper quality [--days N] [--project P] [--by-project] [--json]`: per-skill metrics and underperformers."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import click

from lorekeeper.cli.common import emit_json, handle_errors, json_option, open_workspace, workspace_option
from lorekeeper.store.scopes import validate_project


@click.command("quality")
@click.option("--days", type=click.FloatRange(min=0, min_open=True), default=30, show_default=True, help="Time window.")
@click.option("--all-time", is_flag=True, help="No time window.")
@click.option("--project", default=None, help="Only this project's events.")
@click.option("--by-project", is_flag=True, help="One row per skill and project.")
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
    """Skill health: applied count, success rate, feedback; underperformers marked (worst first)."""
    with open_workspace(workspace_dir) as ws:
        rows = ws.quality.metrics(days=None if all_time else days, project=project, by_project=by_project)
    if project is not None and not by_project:  # one project's rows: they name it (not "-")
        rows = [dataclasses.replace(m, project=validate_project(project)) for m in rows]
    if only_bad:
        rows = [m for m in rows if m.underperforming]
    if as_json:
        emit_json([m.to_dict() for m in rows])
        return
    if not rows:
        click.echo("No quality events in this window.")
        return
    click.echo(f"{'skill':<24} {'project':<14} {'applied':>7} {'success':>8} {'+':>4} {'-':>4}  flag")
    for m in rows:
        rate = "-" if m.success_rate is None else f"{m.success_rate:.0%}"
        flag = "UNDERPERFORMING: " + "; ".join(m.reasons) if m.underperforming else ""
        click.echo(
            f"{m.skill:<24} {(m.project or '-'):<14} {m.applied_count:>7} {rate:>8} {m.feedback_positive:>4} {m.feedback_negative:>4}  {flag}"
        )
