"""`lorekeeper repair`: rebuild every file derived from the store (the skills/ folder, ...), idempotently."""

from __future__ import annotations

from pathlib import Path

import click

from lorekeeper.cli.common import emit_json, handle_errors, json_option, open_workspace, workspace_option
from lorekeeper.cli.progress import progress_option
from lorekeeper.errors import DerivedWriteError


@click.command()
@workspace_option
@json_option
@progress_option("repair")
@handle_errors
def repair(workspace_dir: Path | None, as_json: bool) -> None:
    """Rewrite what is missing or out of date in the workspace's derived files (safe to run any time)."""
    ws = open_workspace(workspace_dir)
    try:
        # the derived files are rebuilt from rows that must verify: no key or a broken chain, no
        # rewrite (issue 24); `audit status` / `audit verify` say what to fix first
        ws.audit.check_writable()
        results: list[tuple[str, list[str], int]] = []
        for item in ws.derived():
            stale = item.stale()
            try:
                written = item.rebuild() if stale else 0
            except OSError as exc:
                raise DerivedWriteError(
                    f"{item.derived_name}: cannot rewrite {len(stale)} stale file(s): {exc.strerror or exc}. "
                    "Fix the folder's permissions (or free disk space), then run `lorekeeper repair` again."
                ) from None
            results.append((item.derived_name, stale, written))
        if as_json:
            emit_json(
                {
                    "derived": [{"name": n, "stale": st, "rewritten": w} for n, st, w in results],
                    "repaired": sum(1 for _, _, w in results if w),
                }
            )
            return
        for name, stale, written in results:
            if not stale:
                click.echo(f"{name}: up to date")
                continue
            click.echo(f"{name}: {len(stale)} stale, {written} file(s) rewritten")
            for what in stale[:20]:
                click.echo(f"  - {what}")
            if len(stale) > 20:
                click.echo(f"  ... and {len(stale) - 20} more")
    finally:
        ws.close()
