"""`lorekeeper learn add|list|edit|archive|restore|export|import`: the learnings (reflect loop)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from lorekeeper.cli.common import emit_json, handle_errors, json_option, open_workspace, workspace_option
from lorekeeper.cli.progress import progress_option
from lorekeeper.fsutil import read_stream_bytes
from lorekeeper.learnings.mdformat import decode_utf8
from lorekeeper.learnings.service import LIST_SORT, SCOPES, SOURCES, STATUSES

if TYPE_CHECKING:
    from lorekeeper.workspace import Workspace


def _warn_unsigned(ws: Workspace) -> None:
    """Say so when the audit chain could not sign a change (the change itself was kept)."""
    for w in ws.learnings.take_audit_warnings():
        click.echo(f"warning: {w}", err=True)


_project = click.option("--project", default=None, help="The project (default: the learnings without a project).")


@click.group()
def learn() -> None:
    """Learnings: rules from corrections that every next prompt carries."""


@learn.command("add")
@click.argument("rule")
@_project
@click.option("--source", type=click.Choice(SOURCES), default="manual", show_default=True)
@click.option("--story", default="", help="The story this correction came from.")
@click.option("--domain", default="", help="The domain it applies to (e.g. odoo, react).")
@click.option("--tags", default="", help="Comma-separated tags.")
@click.option("--scope", type=click.Choice(SCOPES), default="story", show_default=True)
@workspace_option
@json_option
@handle_errors
def add(
    rule: str,
    project: str | None,
    source: str,
    story: str,
    domain: str,
    tags: str,
    scope: str,
    workspace_dir: Path | None,
    as_json: bool,
) -> None:
    """Add RULE as a learning (one line: whitespace runs become one space)."""
    with open_workspace(workspace_dir) as ws:
        info = ws.learnings.add(
            rule, project=project, source=source, story=story, domain=domain, tags=tags, scope=scope
        )
        _warn_unsigned(ws)
    if as_json:
        emit_json({**info.to_dict(), "result": "exists" if info.existed else "added"})
    elif info.existed:
        click.echo(f"exists: learning {info.id} already says this; nothing written")
    else:
        click.echo(f"added learning {info.id}: {info.rule}")


@learn.command("list")
@click.option("--project", default=None, help="Only this project ('' for the learnings without one; default: all).")
@click.option("--source", type=click.Choice(SOURCES), default=None)
@click.option("--scope", type=click.Choice(SCOPES), default=None)
@click.option("--status", type=click.Choice([*STATUSES, "all"]), default="active", show_default=True)
@click.option("--search", default="", help="Text the rule, story, domain or tags contain.")
@click.option("--limit", type=click.IntRange(min=1), default=None)
@click.option("--sort", "sort_by", type=click.Choice(sorted(LIST_SORT)), default=None, help="Sort by this column.")
@click.option("--desc", is_flag=True, help="With --sort: largest first.")
@workspace_option
@json_option
@handle_errors
def list_cmd(
    project: str | None,
    source: str | None,
    scope: str | None,
    status: str,
    search: str,
    limit: int | None,
    sort_by: str | None,
    desc: bool,
    workspace_dir: Path | None,
    as_json: bool,
) -> None:
    """List learnings, newest first."""
    with open_workspace(workspace_dir) as ws:
        rows = ws.learnings.list(
            project=project,
            source=source or "",
            scope=scope or "",
            status=status,
            search=search,
            limit=limit,
            order_by=sort_by,
            descending=desc,
        )
    if as_json:
        emit_json([r.to_dict() for r in rows])
        return
    if not rows:
        click.echo("No learnings match.")
        return
    for r in rows:
        flags = [r.project or "-", r.source, r.scope]
        if r.status != "active":
            flags.append(r.status)
        click.echo(f"{r.id:>5}  {r.stamp}  [{' '.join(flags)}]  {r.rule}")


@learn.command("edit")
@click.argument("learning_id", type=int)
@click.option("--rule", default=None)
@click.option("--story", default=None)
@click.option("--domain", default=None)
@click.option("--tags", default=None, help="Comma-separated; replaces the tags.")
@click.option("--scope", type=click.Choice(SCOPES), default=None)
@workspace_option
@json_option
@handle_errors
def edit(
    learning_id: int,
    rule: str | None,
    story: str | None,
    domain: str | None,
    tags: str | None,
    scope: str | None,
    workspace_dir: Path | None,
    as_json: bool,
) -> None:
    """Change a learning's rule or fields."""
    with open_workspace(workspace_dir) as ws:
        info = ws.learnings.edit(learning_id, rule=rule, story=story, domain=domain, tags=tags, scope=scope)
        _warn_unsigned(ws)
    if as_json:
        emit_json(info.to_dict())
    else:
        click.echo(f"learning {info.id}: {info.rule}")


def _status_command(name: str, status: str, verb: str) -> click.Command:
    @click.command(name)
    @click.argument("ids", type=int, nargs=-1, required=True)
    @workspace_option
    @json_option
    @handle_errors
    def cmd(ids: tuple[int, ...], workspace_dir: Path | None, as_json: bool) -> None:
        with open_workspace(workspace_dir) as ws:
            infos = ws.learnings.set_status(ids, status)
            _warn_unsigned(ws)
        if as_json:
            emit_json([i.to_dict() for i in infos])
        else:
            click.echo(f"{verb} {len(infos)} learning(s): {', '.join(str(i.id) for i in infos)}")

    cmd.__doc__ = f"{verb.capitalize()} learnings by id (all or nothing)."
    return cmd


learn.add_command(_status_command("archive", "archived", "archived"))


@learn.command("restore")
@click.argument("ids", type=int, nargs=-1, required=True)
@workspace_option
@json_option
@handle_errors
def restore(ids: tuple[int, ...], workspace_dir: Path | None, as_json: bool) -> None:
    """Restore archived learnings by id (all or nothing), each with a signed event."""
    with open_workspace(workspace_dir) as ws:
        done = ws.reuse.restore(ids)
        infos = [ws.learnings.get(i) for i in done]
        _warn_unsigned(ws)
    if as_json:
        emit_json([i.to_dict() for i in infos])
    else:
        click.echo(f"restored {len(infos)} learning(s): {', '.join(str(i.id) for i in infos)}")


@learn.command("search")
@click.argument("query")
@click.option("--domain", default=None, help="Only this domain.")
@click.option("--project", default=None, help="Only this project.")
@click.option("--min-score", type=float, default=None, help="Only learnings with a reuse score at least this (0 to 1).")
@click.option("--top", type=click.IntRange(min=1), default=5, show_default=True)
@click.option("--mode", type=click.Choice(["hybrid", "bm25", "vector"]), default="hybrid", show_default=True)
@click.option("--trace", "trace_story", default=None, help="Record the query and its results for STORY (signed).")
@workspace_option
@json_option
@handle_errors
def search(
    query: str,
    domain: str | None,
    project: str | None,
    min_score: float | None,
    top: int,
    mode: str,
    trace_story: str | None,
    workspace_dir: Path | None,
    as_json: bool,
) -> None:
    """Search the learnings (seed 004 §5.3): by relevance, then reuse score; `memory search --corpus learnings`."""
    from lorekeeper.cli.memory import run_search

    run_search(
        query, "learnings", None, None, domain, project, min_score, top, mode, trace_story, workspace_dir, as_json
    )


@learn.command("scores")
@workspace_option
@json_option
@handle_errors
def scores(workspace_dir: Path | None, as_json: bool) -> None:
    """Reuse scores (seed 004 B3) from the signed injection rows and story outcomes, highest first."""
    with open_workspace(workspace_dir) as ws:
        rows = ws.reuse.scores()
    if as_json:
        emit_json({"learnings": [r.to_dict() for r in rows]})
        return
    for r in rows:
        click.echo(
            f"{r.id:>5}  {r.reuse_score:.4f}  inj={r.injections} go={r.gate_go} dom={r.domains}  [{r.scope}]  {r.rule}"
        )


@learn.command("promote")
@workspace_option
@json_option
@handle_errors
def promote(workspace_dir: Path | None, as_json: bool) -> None:
    """Promote learnings: score >= 0.3 and 1+ domain -> domain; >= 0.6 and 2+ domains -> global."""
    with open_workspace(workspace_dir) as ws:
        done = ws.reuse.promote()
    if as_json:
        emit_json({"promoted": done})
        return
    click.echo(f"promoted {len(done)} learning(s)")
    for p in done:
        click.echo(f"  {p['id']}: {p['from']} -> {p['to']} (score {p['reuse_score']:.4f}, {p['domains']} domains)")


@learn.command("archive-stale")
@click.option("--today", type=click.DateTime(formats=["%Y-%m-%d"]), default=None, help="The date to age from.")
@workspace_option
@json_option
@handle_errors
def archive_stale(today: object, workspace_dir: Path | None, as_json: bool) -> None:
    """Archive the learnings never injected and older than 8 weeks (no longer indexed)."""
    day = today.date() if today is not None else None  # type: ignore[attr-defined]
    with open_workspace(workspace_dir) as ws:
        done = ws.reuse.archive_stale(day)
        _warn_unsigned(ws)
    if as_json:
        emit_json({"archived": done})
        return
    click.echo(
        f"archived {len(done)} stale learning(s)" + (f": {', '.join(str(d['id']) for d in done)}" if done else "")
    )


@learn.command("export")
@_project
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="File to write (default: stdout).",
)
@click.option("--active-only", is_flag=True, help="Leave archived learnings out (they are kept, marked, by default).")
@workspace_option
@json_option
@handle_errors
def export(
    project: str | None, output: Path | None, active_only: bool, workspace_dir: Path | None, as_json: bool
) -> None:
    """Write the project's learnings.md (the seed's format; extra fields in a trailing HTML comment)."""
    with open_workspace(workspace_dir) as ws:
        if output is None:
            text = ws.learnings.export_text(project, include_archived=not active_only)
            if as_json:  # the file's text, as `-o` would write it
                emit_json({"project": project, "markdown": text})
            else:
                sys.stdout.write(text)
            return
        n = ws.learnings.export_file(output, project, include_archived=not active_only)
    if as_json:
        emit_json({"project": project, "path": str(output), "learnings": n})
    else:
        click.echo(f"wrote {n} learning(s) to {output}", err=True)


@learn.command("import")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@_project
@workspace_option
@json_option
@progress_option("learn import")
@handle_errors
def import_cmd(path: Path, project: str | None, workspace_dir: Path | None, as_json: bool) -> None:
    """Import a learnings.md: every rule line, its time, source and extra fields; duplicates are skipped."""
    with open_workspace(workspace_dir) as ws:
        if str(path) == "-":
            text = decode_utf8(read_stream_bytes(), "stdin")
            report = ws.learnings.import_text(text, project, file="<stdin>")
        else:
            report = ws.learnings.import_file(path, project)
        _warn_unsigned(ws)
    if as_json:
        emit_json(report.to_dict())
        return
    click.echo(f"imported {report.added} learning(s), {report.unchanged} already there")
    for n, text in report.skipped_lines:
        click.echo(f"  line {n} is not a rule line (kept as text around the rules): {text[:80]}", err=True)
