"""`lorekeeper skills list|show|validate|import|versions|diff|restore|fork`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from lorekeeper.cli.common import emit_json, handle_errors, json_option, open_workspace, workspace_option
from lorekeeper.errors import EXIT_INVALID, LorekeeperError
from lorekeeper.skills.library import skill_source
from lorekeeper.skills.spec import read_skill_dir


@click.group()
def skills() -> None:
    """The skill library: global skills and project forks, every version kept."""


@skills.command("list")
@click.option("--project", default=None, help="What this project sees (its forks replace globals).")
@click.option("--search", default="", help="Filter on name, description, triggers and keywords.")
@workspace_option
@json_option
@handle_errors
def list_cmd(project: str | None, search: str, workspace_dir: Path | None, as_json: bool) -> None:
    """List the skills."""
    with open_workspace(workspace_dir) as ws:
        infos = ws.skills.list(project=project, search=search)
    if as_json:
        emit_json({"skills": [i.to_dict() for i in infos]})
        return
    for i in infos:
        scope = f"[{i.project}]" if i.project else "[global]"
        click.echo(f"{i.name:<28} v{i.version:<3} {scope:<14} {i.rules_count} rules  {i.description[:70]}")


@skills.command("show")
@click.argument("name")
@click.option("--project", default=None)
@click.option("--version", "version", type=int, default=None, help="A past version.")
@workspace_option
@json_option
@handle_errors
def show_cmd(name: str, project: str | None, version: int | None, workspace_dir: Path | None, as_json: bool) -> None:
    """Show a skill's SKILL.md and rules."""
    with open_workspace(workspace_dir) as ws:
        v = ws.skills.get(name, project, version)
        rules = v.rules()
    if as_json:
        emit_json({**v.to_dict(), "content": v.content, "rules": [r.to_dict() for r in rules.rules]})
        return
    click.echo(v.content.rstrip())
    click.echo()
    click.echo(f"# {len(rules.rules)} eval rules (v{v.version}{', project ' + v.project if v.project else ''})")
    for r in rules.rules:
        click.echo(f"- {r.id} [{r.severity}] {r.type}: {r.label}")


@skills.command("validate")
@click.argument("path", required=False, type=click.Path(exists=True, path_type=Path))
@workspace_option
@json_option
def validate_cmd(path: Path | None, workspace_dir: Path | None, as_json: bool) -> None:
    """Validate skill folders (PATH: a skill, a folder of skills; default: the workspace's skills)."""
    if path is None:
        try:
            with open_workspace(workspace_dir) as ws:
                path = ws.root / "skills"
        except LorekeeperError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(exc.exit_code)
    checked: list[str] = []
    errors: list[dict[str, Any]] = []
    warnings: list[str] = []  # load-time eval warnings (nested quantifiers): reported, never fatal
    try:
        with skill_source(path) as (root, dirs):
            if not dirs:
                errors.append(
                    {
                        "code": "ERR_INVALID_SPEC",
                        "message": f"no skill folder (with SKILL.md) in {path}",
                        "file": str(path),
                    }
                )
            for d in dirs:
                display = f"{path}:{d.relative_to(root)}" if path.is_file() else None
                _validate_one(d, checked, errors, display=display, warnings=warnings)
    except LorekeeperError as exc:
        errors.append(exc.to_dict())
    ok = not errors
    if as_json:
        out: dict[str, object] = {"valid": ok, "skills": checked, "errors": errors}
        if warnings:
            out["warnings"] = warnings
        emit_json(out)
    else:
        for name in checked:
            click.echo(f"ok     {name}")
        for w in warnings:
            click.echo(f"warning  {w}")
        for e in errors:
            click.echo(f"error  {e['code']}: {e['message']}")
        click.echo(f"{len(checked)} valid, {len(errors)} invalid")
    if not ok:
        sys.exit(EXIT_INVALID)


def _validate_one(
    d: Path,
    checked: list[str],
    errors: list[dict[str, Any]],
    display: str | None = None,
    warnings: list[str] | None = None,
) -> None:
    try:
        doc = read_skill_dir(d)
        rules = doc.rules()
        checked.append(doc.name)
        if warnings is not None:
            warnings.extend(f"{doc.name}: {w}" for w in rules.warnings)
    except LorekeeperError as exc:
        err = exc.to_dict()
        if display:  # inside a zip: name the archive member, not the temporary folder
            err = {k: v.replace(str(d), display) if isinstance(v, str) else v for k, v in err.items()}
        errors.append(err)


@skills.command("import")
@click.argument("path", type=click.Path(exists=True, path_type=Path))
@click.option("--project", default=None, help="Import as forks of this project.")
@workspace_option
@json_option
@handle_errors
def import_cmd(path: Path, project: str | None, workspace_dir: Path | None, as_json: bool) -> None:
    """Import a skill folder, a folder of skills or a zip (all validated first, one transaction)."""
    with open_workspace(workspace_dir) as ws:
        report = ws.skills.import_path(path, project=project)
    if as_json:
        emit_json(report.to_dict())
        return
    for label, names in (("created", report.created), ("updated", report.updated), ("unchanged", report.unchanged)):
        if names:
            click.echo(f"{label}: {', '.join(names)}")


@skills.command("versions")
@click.argument("name")
@click.option("--project", default=None, help="The project fork's history (default: the global skill).")
@workspace_option
@json_option
@handle_errors
def versions_cmd(name: str, project: str | None, workspace_dir: Path | None, as_json: bool) -> None:
    """List every version of a skill, newest first."""
    with open_workspace(workspace_dir) as ws:
        versions = ws.skills.versions(name, project)
    if as_json:
        emit_json({"versions": [v.to_dict() for v in versions]})
        return
    for v in versions:
        mark = "*" if v.current else " "
        click.echo(f"{mark} v{v.version:<4} {v.created_at:%Y-%m-%d %H:%M}  {v.author:<12} {v.message}")


@skills.command("diff")
@click.argument("name")
@click.argument("a", type=int)
@click.argument("b", type=int)
@click.option("--project", default=None)
@workspace_option
@handle_errors
def diff_cmd(name: str, a: int, b: int, project: str | None, workspace_dir: Path | None) -> None:
    """Unified diff between two versions of a skill."""
    with open_workspace(workspace_dir) as ws:
        click.echo(ws.skills.diff(name, project, a, b), nl=False)


@skills.command("restore")
@click.argument("name")
@click.argument("version", type=int)
@click.option("--project", default=None)
@workspace_option
@json_option
@handle_errors
def restore_cmd(name: str, version: int, project: str | None, workspace_dir: Path | None, as_json: bool) -> None:
    """Make an old version current again (as a new version)."""
    with open_workspace(workspace_dir) as ws:
        v = ws.skills.restore(name, project, version)
    if as_json:
        emit_json(v.to_dict())
    else:
        click.echo(f"{name} restored from v{version} as v{v.version}")


@skills.command("fork")
@click.argument("name")
@click.option("--project", required=True)
@workspace_option
@json_option
@handle_errors
def fork_cmd(name: str, project: str, workspace_dir: Path | None, as_json: bool) -> None:
    """Fork a global skill into a project, to override its content and rules there."""
    with open_workspace(workspace_dir) as ws:
        v = ws.skills.fork(name, project)
    if as_json:
        emit_json(v.to_dict())
    else:
        click.echo(f"{name} forked into project {project} (v{v.version})")
