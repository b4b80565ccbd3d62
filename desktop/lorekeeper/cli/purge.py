"""`lorekeeper purge --story STORY --force | --retention [--today DATE]`, `purge preview`, `purge runs`, `purge verify RUN`.

Prints `{"stories": [..], "artefacts": {"store", "faiss", "embeddings", "cache", "sessions",
"markdown"}, "verified": bool}` (plus the run ids, notes and what remains). A run whose
verification still finds the story's data exits 1 with ERR_PURGE_INCOMPLETE naming it. Without
`--force`, `--story` only prints what would be erased.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from lorekeeper.cli.common import emit_json, handle_errors, json_option, open_workspace, workspace_option
from lorekeeper.cli.progress import current, progress_option
from lorekeeper.errors import InvalidInputError
from lorekeeper.privacy.purge import ARTEFACTS, RUN_SORT, PurgeIncompleteError, PurgeResult, RunInfo


def _report(result: PurgeResult, as_json: bool) -> None:
    incomplete = None
    if not result.verified:
        incomplete = PurgeIncompleteError(
            "the purge did not erase everything: " + "; ".join(result.remaining) + ". Run it again; if it stays, "
            "the named artefact is held elsewhere (an open reader, a copy) and must be removed by hand.",
            remaining=result.remaining,
        )
    if as_json:
        data = result.to_dict()
        if incomplete is not None:
            data["error"] = incomplete.to_dict()
        emit_json(data)
    else:
        click.echo(result.text())
    if incomplete is not None:
        click.echo(f"error: {incomplete}", err=True)
        sys.exit(incomplete.exit_code)


@click.group("purge", invoke_without_command=True)
@click.option("--story", default=None, help="The story to erase from every artefact (right to be forgotten).")
@click.option("--force", is_flag=True, help="Erase now (without it, --story only shows what would be erased).")
@click.option("--retention", is_flag=True, help="Erase the stories whose retention_until is before --today.")
@click.option("--today", default=None, help="The date the retention compares with (YYYY-MM-DD; default today).")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")
@workspace_option
@json_option
@click.pass_context
@progress_option("purge")
@handle_errors
def purge(
    ctx: click.Context,
    story: str | None,
    force: bool,
    retention: bool,
    today: str | None,
    quiet: bool,
    workspace_dir: Path | None,
    as_json: bool,
) -> None:
    """GDPR purge: erase a story from every artefact (--story S --force) or by retention (--retention)."""
    if ctx.invoked_subcommand is not None:
        return
    if bool(story) == bool(retention):
        raise InvalidInputError("give either --story STORY --force or --retention [--today DATE]")
    progress = None if quiet else current().job
    with open_workspace(workspace_dir) as ws:
        if retention:
            _report(ws.purge.purge_retention(today, progress=progress), as_json)
            return
        assert story is not None
        if not force:
            plan = ws.purge.plan(story)
            if as_json:
                emit_json({"stories": [story], "artefacts": plan, "verified": False, "dry_run": True})
            else:
                what = ", ".join(f"{k} {plan[k]}" for k in ARTEFACTS)
                click.echo(f"would erase {story}: {what}\n(nothing erased: add --force to erase it now)")
            return
        _report(ws.purge.purge_story(story, progress=progress), as_json)


@purge.command("preview")
@click.option("--today", default=None, help="The date of the retention run to preview (YYYY-MM-DD; default today).")
@workspace_option
@json_option
@handle_errors
def preview_cmd(today: str | None, workspace_dir: Path | None, as_json: bool) -> None:
    """What the daily retention run erases on --today (counts per artefact), and what it keeps."""
    with open_workspace(workspace_dir) as ws:
        info = ws.purge.preview(today)
    if as_json:
        emit_json(info)
        return
    click.echo(f"retention run of {info['today']}: {len(info['due'])} story(ies) to erase")
    for item in info["due"]:
        what = ", ".join(f"{k} {item['artefacts'][k]}" for k in ARTEFACTS)
        click.echo(f"  {item['story']} (retention_until {item['retention_until']}): {what}")
    nxt = info["next_expiry"]
    if nxt:
        click.echo(f"next expiry: {nxt['story']} after {nxt['retention_until']}")


def _run_line(r: RunInfo) -> str:
    what = " ".join(f"{k}={r.artefacts[k]}" for k in ARTEFACTS)
    status = "verified" if r.verified else r.status.upper()
    return f"#{r.id:<4} {r.started_at}  {r.mode:<9} {','.join(r.stories) or '-':<20} {what}  {status}  by {r.by or '-'}"


@purge.command("runs")
@click.option("--story", default=None, help="Only runs that erased this story (substring).")
@click.option("--limit", default=50, show_default=True, type=int)
@click.option("--sort", "sort_by", type=click.Choice(sorted(RUN_SORT)), default=None, help="Sort by this column.")
@click.option("--desc", is_flag=True, help="With --sort: largest first.")
@click.option(
    "--by", "by", default=None, help='Only the runs of this operator (the Vault identity or OS login shown as "by").'
)
@workspace_option
@json_option
@handle_errors
def runs_cmd(
    story: str | None,
    limit: int,
    sort_by: str | None,
    desc: bool,
    by: str | None,
    workspace_dir: Path | None,
    as_json: bool,
) -> None:
    """The purge runs, newest first: stories, counts per artefact, verification status, who ran it."""
    with open_workspace(workspace_dir) as ws:
        if sort_by is None:
            runs = ws.purge.runs(limit, story=story, by=by)
        else:
            runs = ws.purge.runs(limit, story=story, order_by=sort_by, descending=desc, by=by)
    if as_json:
        emit_json({"runs": [r.to_dict() for r in runs]})
        return
    if not runs:
        click.echo("no purge run yet")
    for r in runs:
        click.echo(_run_line(r))


@purge.command("verify")
@click.argument("run_id", type=int)
@workspace_option
@json_option
@handle_errors
def verify_cmd(run_id: int, workspace_dir: Path | None, as_json: bool) -> None:
    """Verify a past purge run again (exit 1 with ERR_PURGE_INCOMPLETE if its data is back)."""
    with open_workspace(workspace_dir) as ws:
        info = ws.purge.reverify(run_id)
    if as_json:
        emit_json(info.to_dict())
    else:
        click.echo(_run_line(info))
        for r in info.remaining:
            click.echo(f"  remains: {r}")
    if not info.verified:
        err = PurgeIncompleteError(f"purge run #{run_id}: " + "; ".join(info.remaining))
        click.echo(f"error: {err}", err=True)
        sys.exit(err.exit_code)
