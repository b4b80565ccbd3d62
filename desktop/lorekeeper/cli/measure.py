"""`lorekeeper measure cs1|cs2|cs3|cs4 [--days 30|60|90]`: the memory's continuous success measures."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from lorekeeper.cli.common import emit_json, handle_errors, json_option, open_workspace, workspace_option
from lorekeeper.memory.measure import METRICS, WINDOWS


@click.command("measure")
@click.argument("metric", type=click.Choice(METRICS))
@click.option("--days", type=click.Choice([str(w) for w in WINDOWS]), default="30", show_default=True)
@click.option(
    "--today", type=click.DateTime(formats=["%Y-%m-%d"]), default=None, help="End of the window (YYYY-MM-DD)."
)
@workspace_option
@json_option
@handle_errors
def measure(metric: str, days: str, today: Any, workspace_dir: Path | None, as_json: bool) -> None:
    """Memory success measures CS-1..CS-4 over 30, 60 or 90 days (defined in the README)."""
    with open_workspace(workspace_dir) as ws:
        out = ws.measures.measure(metric, int(days), today.date() if today is not None else None)
    if as_json:
        emit_json(out)
        return
    value = "n/a (no data in the window)" if out["value"] is None else f"{out['value']:.4f}"
    click.echo(f"{metric.upper()} {out['title']} ({out['since']}..{out['until']}): {value}")
