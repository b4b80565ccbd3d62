"""`lorekeeper repair`: rebuild every file derived from the store (the skills/ folder, ...), idempotently."""

from __future__ import annotations

from pathlib import Path

import click

from lorekeeper.cli.common import emit_json, handle_errors, json_option, open_workspace, workspace_option


@click.command()
@workspace_option
@json_option
@handle_errors
def repair(workspace_dir: Path | None, as_json: bool) -> None:
    """Rewrite what is missing or out of date in the workspace's derived files (safe to run any time)."""
    ws = open_workspace(workspace_dir)
    try:
        results = []
        for item in ws.derived():
            stale = item.stale()
            written = item.rebuild() if stale else 0
            results.append({"name": item.derived_name, "stale": stale, "rewritten": written})
        out = {"derived": results, "repaired": sum(1 for r in results if r["rewritten"])}
        if as_json:
            emit_json(out)
            return
        for r in results:
            if r["stale"]:
                click.echo(f"{r['name']}: {len(r['stale'])} stale, {r['rewritten']} file(s) rewritten")
                for what in r["stale"][:20]:
                    click.echo(f"  - {what}")
                if len(r["stale"]) > 20:
                    click.echo(f"  ... and {len(r['stale']) - 20} more")
            else:
                click.echo(f"{r['name']}: up to date")
    finally:
        ws.close()
