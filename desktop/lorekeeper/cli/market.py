"""`lorekeeper market add|list|remove|search|show|install`: the Skills panel's Discover view."""

from __future__ import annotations

from pathlib import Path

import click

from lorekeeper.cli.common import emit_json, handle_errors, json_option, open_workspace, workspace_option
from lorekeeper.cli.progress import progress_option


@click.group()
def market() -> None:
    """Marketplaces: add skill sources, search them, see a skill's fit for a project, install or fork."""


@market.command("add")
@click.argument("location")
@click.option("--name", default=None, help="The source's name (default: from the folder, file or URL).")
@workspace_option
@json_option
@progress_option("market add")
@handle_errors
def add_cmd(location: str, name: str | None, workspace_dir: Path | None, as_json: bool) -> None:
    """Add a source: a folder, a git checkout or URL, a zip, or a .claude-plugin/marketplace.json."""
    with open_workspace(workspace_dir) as ws:
        scan = ws.market.add(location, name)
    if as_json:
        emit_json({**scan.source.to_dict(), "skills": [s.to_dict() for s in scan.skills]})
        return
    src = scan.source
    click.echo(f"added {src.name} ({src.kind}): {src.skills} skill(s) at {src.location}")
    for p in scan.problems:
        click.echo(f"  skipped: {p}")


@market.command("list")
@workspace_option
@json_option
@handle_errors
def list_cmd(workspace_dir: Path | None, as_json: bool) -> None:
    """The sources, with how many skills each holds now."""
    with open_workspace(workspace_dir) as ws:
        scans = ws.market.scan_all()
    if as_json:
        emit_json({"sources": [sc.source.to_dict() for sc in scans]})
        return
    if not scans:
        click.echo("No sources yet: `lorekeeper market add PATH`.")
    for sc in scans:
        s = sc.source
        click.echo(f"{s.name:<24} {s.kind:<12} {s.skills:>4} skill(s)  {s.origin or s.location}")
        for p in sc.problems:
            click.echo(f"    skipped: {p}")


@market.command("remove")
@click.argument("name")
@workspace_option
@json_option
@handle_errors
def remove_cmd(name: str, workspace_dir: Path | None, as_json: bool) -> None:
    """Forget source NAME (installed skills stay in the library)."""
    with open_workspace(workspace_dir) as ws:
        info = ws.market.remove(name)
    if as_json:
        emit_json({"removed": info.to_dict()})
    else:
        click.echo(f"removed source {info.name}")


@market.command("search")
@click.argument("query", default="")
@click.option("--source", default=None, help="Only this source.")
@click.option("--top", type=click.IntRange(min=1), default=20, show_default=True)
@workspace_option
@json_option
@handle_errors
def search_cmd(query: str, source: str | None, top: int, workspace_dir: Path | None, as_json: bool) -> None:
    """Skills of the sources matching QUERY (BM25 over name + description; no QUERY lists them)."""
    with open_workspace(workspace_dir) as ws:
        hits = ws.market.search(query, source=source, top=top)
    if as_json:
        emit_json({"query": query, "results": [h.to_dict() for h in hits]})
        return
    if not hits:
        click.echo("No skill matched.")
    for h in hits:
        mark = " (installed)" if h.installed else ""
        click.echo(f"{h.score:.3f}  {h.skill.ref}{mark}  {h.skill.description[:90]}")


@market.command("show")
@click.argument("skill")
@click.option("--project", default=None, help="The compatibility note for this project (default: the global library).")
@click.option("--model/--no-model", "use_model", default=None, help="Ask the configured model (default: if any).")
@workspace_option
@json_option
@handle_errors
def show_cmd(
    skill: str, project: str | None, use_model: bool | None, workspace_dir: Path | None, as_json: bool
) -> None:
    """SKILL (NAME or SOURCE:NAME) with its compatibility note for a project."""
    with open_workspace(workspace_dir) as ws:
        note = ws.market.note(skill, project, use_model=use_model)
    if as_json:
        emit_json(note.to_dict())
        return
    sk = note.skill
    click.echo(f"{sk.ref}" + (f"  (plugin {sk.plugin})" if sk.plugin else ""))
    click.echo(sk.description)
    click.echo(f"{len(sk.files)} file(s): {', '.join(sk.files[:8])}" + (" ..." if len(sk.files) > 8 else ""))
    click.echo()
    click.echo(note.text)


@market.command("install")
@click.argument("skill")
@click.option("--project", default=None, help="Fork it into this project instead of installing it globally.")
@workspace_option
@json_option
@progress_option("market install")
@handle_errors
def install_cmd(skill: str, project: str | None, workspace_dir: Path | None, as_json: bool) -> None:
    """Install SKILL (NAME or SOURCE:NAME) globally, or fork it into --project."""
    with open_workspace(workspace_dir) as ws:
        sk = ws.market.find(skill)
        report = ws.market.install(sk, project)
    unchanged = sk.name in report.unchanged
    if as_json:
        emit_json(
            {
                "skill": sk.ref,
                "project": project or None,
                "result": "unchanged" if unchanged else "installed",
                **report.to_dict(),
            }
        )
        return
    where = f"in project {project}" if project else "globally"
    if unchanged:
        click.echo(f"unchanged: {sk.name} is installed {where} with the same content as {sk.shown}; nothing written")
        return
    where = f"into project {project}" if project else "globally"
    click.echo(f"installed {sk.name} {where} from {sk.source}")
    for w in report.warnings:
        click.echo(f"warning: {w.get('message', w)}", err=True)
