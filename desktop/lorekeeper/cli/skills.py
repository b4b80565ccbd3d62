"""`lorekeeper skills list|show|validate|import|versions|diff|restore|fork|unfork|edit|rules|suggest|verify|trigger-eval|optimise`.

`edit`, `rules add|edit|delete` and `unfork` are the Skills panel's Save, rule dialog and Delete
fork buttons: the same library calls, so the same new version and the same signed audit event.
They are signed writes: without the audit key nothing is written and the command exits 4.
"""

from __future__ import annotations

import contextlib
import copy
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from lorekeeper import safejson
from lorekeeper.cli.common import emit_json, handle_errors, json_option, open_workspace, workspace_option
from lorekeeper.cli.progress import current, progress_option
from lorekeeper.errors import EXIT_INVALID, InvalidInputError, LorekeeperError, NotFoundError
from lorekeeper.evals.rules import RULE_TYPES, RULES_MAX_DEPTH, SEVERITIES, parse_rule, parse_rules
from lorekeeper.fsutil import MIB, read_stream_bytes, read_user_bytes, shown_path
from lorekeeper.jobs import Progress, drive
from lorekeeper.learnings.mdformat import decode_utf8
from lorekeeper.rates import format_rate
from lorekeeper.skills.checks import SourceCheck, check_source_steps, group_warnings, warning_lines
from lorekeeper.skills.library import CONFLICT_ACTIONS, Resolution
from lorekeeper.skills.sources import open_source

if TYPE_CHECKING:
    from lorekeeper.workspace import Workspace

#: what `skills edit --file` reads at most (the save applies the workspace's [skills] max_file_mb)
SKILL_MD_INPUT_LIMIT = 64 * MIB
RULE_INPUT_LIMIT = 10 * MIB  # `--rule -`: one rule object


def _warn_unsigned(ws: Workspace) -> None:
    """Say so when the audit chain could not sign a change (the change itself was kept)."""
    for w in ws.skills.take_audit_warnings():
        click.echo(f"warning: {w}", err=True)


class _ImportProgress:
    """An import's progress on stderr once it has run for a second (never on stdout: `--json`):
    a counter rewritten in place on a terminal, a line per tenth of the way otherwise."""

    DELAY = 1.0

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.tty = sys.stderr.isatty()
        self.shown = -1  # the last tenth printed (not a terminal)
        self.last = 0.0
        self.open_line = False

    def __call__(self, p: Progress) -> None:
        now = time.monotonic()
        if now - self.started < self.DELAY:
            return
        if self.tty:
            if now - self.last < 0.1 and p.done < p.total:
                return
            self.last = now
            what = "writing" if p.text.startswith("writing") else "reading"
            click.echo(f"\r{what} {p.done:,}/{p.total:,} skill(s)", nl=False, err=True)
            self.open_line = True
            return
        tenth = p.done * 10 // p.total if p.total else 0
        if tenth > self.shown or p.text.startswith("writing"):
            self.shown = tenth
            click.echo(f"[{p.done:,}/{p.total:,}] {p.text}", err=True)

    def end(self) -> None:
        if self.open_line:
            click.echo("", err=True)


def _scope(ws: Workspace, name: str, project: str | None) -> str:
    """The scope a write goes to: the project's fork (it must exist) or the global skill."""
    if project:
        if not ws.skills.exists(name, project):
            if not ws.skills.exists(name):
                raise NotFoundError(f"no skill named {name!r}. `lorekeeper skills list` shows the library.")
            raise NotFoundError(
                f"project {project} has no fork of {name!r}; fork it first: lorekeeper skills fork {name} --project {project}"
            )
        return project
    if not ws.skills.exists(name):
        raise NotFoundError(f"no global skill named {name!r}. `lorekeeper skills list` shows the library.")
    return ""


def _where(name: str, scope: str) -> str:
    return f"{name} (project {scope})" if scope else name


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
        with contextlib.suppress(LorekeeperError):  # issue 24: with the key, a forged version is refused
            ws.audit.require_key()
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
@click.option(
    "--rename-to-folder",
    is_flag=True,
    help="Check as `skills import --rename-to-folder` would: a skill named unlike its folder takes the folder's name.",
)
@click.option("--quiet-warnings", is_flag=True, help="One counted line for all the warnings.")
@workspace_option
@json_option
@progress_option("skills validate")
def validate_cmd(
    path: Path | None, rename_to_folder: bool, quiet_warnings: bool, workspace_dir: Path | None, as_json: bool
) -> None:
    """Validate skill folders (PATH: a skill, a folder of skills; default: the workspace's skills).

    The same check as `skills import` (a skill valid here imports; a name present twice is refused
    in both copies, as the import refuses it)."""
    limits = None
    if path is None:
        try:
            with open_workspace(workspace_dir) as ws:
                path = ws.root / "skills"
                limits = ws.skills.limits
        except LorekeeperError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(exc.exit_code)
    checked = SourceCheck()
    errors: list[dict[str, Any]] = []
    try:
        with open_source(path, limits) as source:
            if not source.skills:
                errors.append(
                    {
                        "code": "ERR_INVALID_SPEC",
                        "message": f"no skill folder (with SKILL.md) in {path}",
                        "file": str(path),
                    }
                )
            checked = drive(
                check_source_steps,
                (source, limits),
                {"rename_to_folder": rename_to_folder},
                on_progress=current().job,
            )
    except LorekeeperError as exc:
        errors.append(exc.to_dict())
    for bad in checked.invalid:
        errs = bad["errors"]
        assert isinstance(errs, list)
        errors.extend(errs)
    names = [doc.name for doc, _shown in checked.docs]
    ok = not errors
    if as_json:
        out: dict[str, object] = {"valid": ok, "skills": names, "errors": errors}
        if checked.invalid:
            out["invalid"] = checked.invalid
        if checked.rule_warnings:
            out["warnings"] = checked.rule_warnings
        if checked.warnings:
            out["field_warnings"] = checked.warnings
            out["warning_groups"] = group_warnings(checked.warnings)
        if checked.folder_renames:
            out["folder_renames"] = checked.folder_renames
        emit_json(out)
    else:
        for name in names:
            click.echo(f"ok     {name}")
        for r in checked.folder_renames:
            click.echo(f"renamed to its folder: {r['from']} -> {r['to']} ({r['path']})")
        for w in checked.rule_warnings:
            click.echo(f"warning  {w}")
        for line in warning_lines(checked.warnings, quiet=quiet_warnings):
            click.echo(line)
        for e in errors:
            click.echo(f"error  {e['code']}: {e['message']}")
        invalid = len(checked.invalid) or (1 if errors else 0)
        click.echo(f"{len(names)} valid, {invalid} invalid ({len(errors)} error{'s' if len(errors) != 1 else ''})")
    if not ok:
        sys.exit(EXIT_INVALID)


@skills.command("import")
@click.argument("args", nargs=-1, required=True, metavar="PATH")
@click.option(
    "--project", default=None, help="Import as forks of this project (with --on-conflict fork: where forks go)."
)
@click.option("--strict", is_flag=True, help="All or nothing: one invalid skill imports nothing.")
@click.option("--dry-run", is_flag=True, help="Show what would change; write nothing.")
@click.option(
    "--on-conflict",
    "on_conflict",
    default="ask",
    show_default=True,
    help="A name that exists with other content: ask (report it as 'exists', replace nothing), skip, "
    "new-version, fork --project P (the import becomes P's fork) or rename NEW.",
)
@click.option("--fork-project", default=None, help="--on-conflict fork: the project the fork goes to.")
@click.option("--rename", "rename_to", default=None, help="--on-conflict rename: the new name.")
@click.option(
    "--rename-to-folder",
    is_flag=True,
    help="A skill whose name differs from its folder is imported under the folder's name "
    "(only its front matter's name: line changes).",
)
@click.option("--quiet-warnings", is_flag=True, help="One counted line for all the warnings (on stderr).")
@workspace_option
@json_option
@progress_option("skills import")
@handle_errors
def import_cmd(
    args: tuple[str, ...],
    project: str | None,
    strict: bool,
    dry_run: bool,
    on_conflict: str,
    fork_project: str | None,
    rename_to: str | None,
    rename_to_folder: bool,
    quiet_warnings: bool,
    workspace_dir: Path | None,
    as_json: bool,
) -> None:
    """Import skills from a folder (any depth), a zip, a GitHub archive or a .skill file."""
    action, _, arg = on_conflict.replace("=", " ").replace(":", " ").partition(" ")
    extra = list(args[1:])
    if action == "rename":
        rename_to = rename_to or arg.strip() or (extra.pop(0) if extra else None)
        if not rename_to:
            raise InvalidInputError("--on-conflict rename needs the new name: --on-conflict rename NEW")
    if extra:
        raise InvalidInputError(f"unexpected argument(s): {' '.join(extra)}")
    if action not in CONFLICT_ACTIONS:
        raise InvalidInputError(f"--on-conflict is one of {', '.join(CONFLICT_ACTIONS)}, not {on_conflict!r}")
    path = Path(args[0])
    if not path.exists():
        raise InvalidInputError(f"nothing to import at {path}")
    if action == "fork":
        if not (fork_project or project):
            raise InvalidInputError("--on-conflict fork needs the project: --on-conflict fork --project P")
        if fork_project is None:  # `--on-conflict fork --project P`: import globally, collisions become P's forks
            fork_project, project = project, None
    resolution = Resolution(action, project=fork_project or "", name=rename_to or "")
    progress = _ImportProgress()
    with open_workspace(workspace_dir) as ws:
        try:
            report = drive(
                ws.skills.import_steps,
                (path, project),
                {
                    "strict": strict,
                    "on_conflict": resolution,
                    "dry_run": dry_run,
                    "rename_to_folder": rename_to_folder,
                },
                on_progress=progress,
            )
        finally:
            progress.end()
        _warn_unsigned(ws)
    failed = bool(report.invalid) and not (report.imported or report.unchanged or report.exists or report.skipped)
    if as_json:
        out = report.to_dict()
        if report.warnings:
            out["warning_groups"] = group_warnings(report.warnings)
        if failed:
            first = report.invalid[0]["errors"]
            assert isinstance(first, list)
            out["error"] = first[0]
        emit_json(out)
    else:
        prefix = "would be " if dry_run else ""
        for label, names in (
            ("created", report.created),
            ("updated", report.updated),
            ("unchanged", report.unchanged),
            ("skipped", report.skipped),
        ):
            if names:
                click.echo(f"{prefix if label != 'unchanged' else ''}{label}: {', '.join(names)}")
        for f in report.forked:
            click.echo(f"{prefix}forked: {f['name']} into project {f['project']}")
        for r in report.renamed:
            click.echo(f"{prefix}renamed: {r['from']} -> {r['to']}")
        for r in report.folder_renames:
            click.echo(f"{prefix}renamed to its folder: {r['from']} -> {r['to']} ({r['path']})")
        for e in report.exists:
            click.echo(
                f"exists: {e['name']} (v{e['version']}{', project ' + str(e['project']) if e['project'] else ''}) "
                f"differs from {e['path']}; nothing replaced. Choose: --on-conflict skip | new-version | "
                "fork --fork-project P | rename --rename NEW"
            )
        if report.exists or (report.invalid and not failed):
            # one summary line for everything not imported: the collisions and the invalid ones
            done = len(report.created) + len(report.updated) + len(report.forked) + len(report.renamed)
            head = f"{prefix}imported {done}, " if done else "nothing imported: "
            why = []
            if report.exists:
                why.append(
                    f"{len(report.exists)} skipped (already exist with other content; re-run with --on-conflict to choose)"
                )
            if report.invalid:
                why.append(f"{len(report.invalid)} invalid (their errors follow on stderr)")
            click.echo(head + ", ".join(why))
        if dry_run:
            click.echo("dry run: nothing was written")
    for line in warning_lines(report.warnings, quiet=quiet_warnings):
        click.echo(line, err=True)
    for bad in report.invalid:
        errs = bad["errors"]
        assert isinstance(errs, list)
        click.echo(f"invalid: {bad['path']} ({len(errs)} error{'s' if len(errs) != 1 else ''})", err=True)
        for e in errs:
            click.echo(f"  error {e['code']}: {e['message']}", err=True)
    if failed:
        sys.exit(EXIT_INVALID)


@skills.command("verify")
@click.argument("name", required=False)
@click.option("--project", default=None, help="With NAME: the project's fork (default: the global skill).")
@workspace_option
@json_option
@progress_option("skills verify")
@handle_errors
def verify_cmd(name: str | None, project: str | None, workspace_dir: Path | None, as_json: bool) -> None:
    """Check that each skill's current version (SKILL.md, rules, files manifest, file bytes) is
    what Lorekeeper signed and wrote.

    A file whose bytes no longer match their SHA-256, or a version whose signed row does not
    verify or was written back from an older state, was changed outside Lorekeeper (the Skills
    panel shows the same warning): listed with ERR_UNSIGNED_ENTRY, exit 1. Needs the key (issue 24)."""
    from lorekeeper.skills.integrity import TAMPERED_CODE, tampered_files

    with open_workspace(workspace_dir) as ws:
        ws.audit.require_key()  # the signed rows are checked with it (fail closed: exit 4 without)
        only = (name, _scope(ws, name, project)) if name else None
        bad = tampered_files(ws.store, only)
        for key, why in ws.skills.forged(only).items():
            bad.setdefault(key, []).extend(why)
    rows: list[dict[str, Any]] = [
        {"skill": n, "project": p or None, "files": files} for (n, p), files in sorted(bad.items())
    ]
    if as_json:
        emit_json({"ok": not rows, "code": TAMPERED_CODE if rows else None, "tampered": rows})
    elif not rows:
        click.echo("Every stored skill file verifies.")
    else:
        for r in rows:
            where = f" (project {r['project']})" if r["project"] else ""
            click.echo(f"{TAMPERED_CODE}: {r['skill']}{where}: changed outside Lorekeeper: {', '.join(r['files'])}")
    if rows:
        sys.exit(1)


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
@json_option
@handle_errors
def diff_cmd(name: str, a: int, b: int, project: str | None, workspace_dir: Path | None, as_json: bool) -> None:
    """Unified diff between two versions of a skill."""
    with open_workspace(workspace_dir) as ws:
        text = ws.skills.diff(name, project, a, b)
    if as_json:
        emit_json({"name": name, "project": project, "a": a, "b": b, "diff": text})
    else:
        click.echo(text, nl=False)


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
        _warn_unsigned(ws)
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
        _warn_unsigned(ws)
    if as_json:
        emit_json(v.to_dict())
    else:
        click.echo(f"{name} forked into project {project} (v{v.version})")


@skills.command("unfork")
@click.argument("name")
@click.option("--project", required=True, help="The project whose fork is deleted.")
@workspace_option
@json_option
@handle_errors
def unfork_cmd(name: str, project: str, workspace_dir: Path | None, as_json: bool) -> None:
    """Delete a project's fork with its history: the project sees the global skill again (signed)."""
    with open_workspace(workspace_dir) as ws:
        ws.audit.require_key()  # a signed write: no key, nothing deleted (exit 4)
        versions = len(ws.skills.versions(name, project)) if ws.skills.exists(name, project) else 0
        ws.skills.delete_fork(name, project)
        _warn_unsigned(ws)
        now = ws.skills.get(name, project) if ws.skills.exists(name) else None
    if as_json:
        emit_json(
            {
                "skill": name,
                "project": project,
                "deleted_versions": versions,
                "now_serves": now.to_dict() if now is not None else None,
            }
        )
        return
    click.echo(f"deleted the {project} fork of {name} ({versions} version{'s' if versions != 1 else ''})")
    if now is not None:
        click.echo(f"project {project} now sees the global {name} v{now.version}")


def _read_content(name: str, file: Path | None, current: str) -> str:
    """The new SKILL.md: from --file ('-' for stdin), else from $EDITOR when interactive."""
    if file is not None:
        # bounded, and a regular file only: a FIFO or /dev/zero is refused, never read
        raw = read_user_bytes(file, limit=SKILL_MD_INPUT_LIMIT, what="SKILL.md")
        source = "stdin" if str(file) == "-" else shown_path(file)
        try:
            return raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise InvalidInputError(
                f"{source} is not UTF-8 text: invalid byte 0x{raw[exc.start]:02x} at byte offset {exc.start}"
            ) from None
    if not (sys.stdin.isatty() and sys.stdout.isatty()) or not (os.environ.get("VISUAL") or os.environ.get("EDITOR")):
        raise InvalidInputError(
            f"give the new content with --file F ('-' for stdin); $EDITOR opens {name}'s SKILL.md only "
            "in an interactive terminal"
        )
    edited = click.edit(current, extension=".md", require_save=True)
    if edited is None:
        raise InvalidInputError("the editor was closed without saving: nothing changed")
    return edited


@skills.command("edit")
@click.argument("name")
@click.option("--project", default=None, help="Edit this project's fork (it must exist: `skills fork`).")
@click.option(
    "--file",
    "file",
    type=click.Path(dir_okay=False, path_type=Path, allow_dash=True),
    default=None,
    help="The new SKILL.md ('-' for stdin). Without it, $EDITOR opens the current content (interactive only).",
)
@click.option("--message", default="", help="The version's message (default: 'edited from the CLI').")
@workspace_option
@json_option
@handle_errors
def edit_cmd(
    name: str, project: str | None, file: Path | None, message: str, workspace_dir: Path | None, as_json: bool
) -> None:
    """Edit a skill's SKILL.md: validated first, saved as a new version (signed), rules kept."""
    with open_workspace(workspace_dir) as ws:
        scope = _scope(ws, name, project)
        current = ws.skills.get(name, scope or None)
        content = _read_content(name, file, current.content)
        ws.audit.require_key()  # a signed write: no key, no new version (exit 4)
        v = ws.skills.save(name, scope or None, content, None, message or "edited from the CLI")
        _warn_unsigned(ws)
    changed = v.version != current.version
    if as_json:
        emit_json({**v.to_dict(), "changed": changed})
        return
    if changed:
        click.echo(f"{_where(name, scope)} saved as v{v.version}")
    else:
        click.echo(f"no change: the content is identical to v{v.version}")


@skills.group("rules")
def rules_group() -> None:
    """Add, edit or delete a skill's eval rules (each change is a new, signed version)."""


def _rule_input(rule_json: str | None, fields: dict[str, Any]) -> dict[str, Any]:
    """The rule object from --rule JSON ('-' for stdin) and/or the flags (flags win)."""
    out: dict[str, Any] = {}
    if rule_json is not None:
        text = decode_utf8(read_stream_bytes(limit=RULE_INPUT_LIMIT), "stdin") if rule_json == "-" else rule_json
        try:
            data = safejson.loads(text, max_depth=RULES_MAX_DEPTH, what="--rule")
        except ValueError as exc:
            raise InvalidInputError(f"--rule is not valid JSON: {exc}") from None
        if not isinstance(data, dict):
            raise InvalidInputError('--rule must be a JSON object, e.g. \'{"id": "r1", "type": ...}\'')
        out.update(data)
    for key, value in fields.items():
        if value is None or value == ():
            continue
        if key == "value":
            out.pop("pattern", None)
            out["value"] = value[0] if len(value) == 1 else list(value)
        elif key == "pattern":
            out.pop("value", None)
            out["pattern"] = value
        else:
            out[key] = value
    return out


def _rule_dict(rule: Any) -> dict[str, Any]:
    """A rule as the rules file writes it (lists as JSON lists)."""
    out: dict[str, Any] = rule.to_dict()
    if isinstance(out.get("value"), tuple):
        out["value"] = list(out["value"])
    return out


def _rule_options(f: Any) -> Any:
    for opt in reversed(
        [
            click.option("--rule", "rule_json", default=None, help="The rule as a JSON object ('-' for stdin)."),
            click.option("--id", "rule_id", default=None, help="The rule's id (unique in the skill)."),
            click.option("--type", "rule_type", default=None, help=f"One of: {', '.join(RULE_TYPES)}."),
            click.option(
                "--value",
                "value",
                multiple=True,
                help="The value (repeat it for a list, e.g. contains_any); a count for length rules.",
            ),
            click.option("--pattern", default=None, help="The pattern of a regex rule."),
            click.option("--severity", type=click.Choice(SEVERITIES), default=None),
            click.option("--name", "rule_name", default=None, help="What the footnote shows."),
            click.option("--project", default=None, help="This project's fork (it must exist)."),
        ]
    ):
        f = opt(f)
    return f


def _write_rules(ws: Workspace, name: str, scope: str, rules: list[dict[str, Any]], message: str) -> Any:
    ws.audit.require_key()  # a signed write: no key, no new version (exit 4)
    v = ws.skills.set_rules(name, scope or None, rules, message)
    _warn_unsigned(ws)
    return v


def _rule_warnings(rule: dict[str, Any] | None) -> list[str]:
    """The load-time warnings of one rule (nested quantifiers), as `skills validate` reports them."""
    if rule is None:
        return []
    return list(parse_rules({"rules": [rule]}, file="--rule").warnings)


def _rules_out(v: Any, rule: dict[str, Any] | None, what: str, as_json: bool, name: str, scope: str) -> None:
    warnings = _rule_warnings(rule)
    if as_json:
        out = {**v.to_dict(), "rule": rule, "rules": [_rule_dict(r) for r in v.rules().rules]}
        if warnings:
            out["warnings"] = warnings
        emit_json(out)
        return
    click.echo(f"{_where(name, scope)}: {what} (v{v.version})")
    for w in warnings:
        click.echo(f"warning: {w}", err=True)


@rules_group.command("add")
@click.argument("name")
@_rule_options
@workspace_option
@json_option
@handle_errors
def rules_add(
    name: str,
    rule_json: str | None,
    rule_id: str | None,
    rule_type: str | None,
    value: tuple[str, ...],
    pattern: str | None,
    severity: str | None,
    rule_name: str | None,
    project: str | None,
    workspace_dir: Path | None,
    as_json: bool,
) -> None:
    """Add a rule to NAME (severity defaults to warning); validated with the eval engine's parser."""
    fields = _rule_fields(rule_id, rule_type, value, pattern, severity, rule_name)
    raw = _rule_input(rule_json, fields)
    raw.setdefault("severity", "warning")
    rule = _rule_dict(parse_rule(raw, 0, file="--rule"))  # a clear ERR_INVALID_SPEC before anything else
    with open_workspace(workspace_dir) as ws:
        scope = _scope(ws, name, project)
        current = [_rule_dict(r) for r in ws.skills.get(name, scope or None).rules().rules]
        if any(r["id"] == rule["id"] for r in current):
            raise InvalidInputError(f"{name} already has a rule {rule['id']!r}: use `skills rules edit`")
        v = _write_rules(ws, name, scope, [*current, rule], f"added rule {rule['id']}")
    _rules_out(v, rule, f"added rule {rule['id']}", as_json, name, scope)


def _rule_fields(
    rule_id: str | None,
    rule_type: str | None,
    value: tuple[str, ...],
    pattern: str | None,
    severity: str | None,
    rule_name: str | None,
) -> dict[str, Any]:
    """The rule fields `skills rules add|edit` take as flags (None: not given)."""
    return {
        "id": rule_id,
        "type": rule_type,
        "value": value,
        "pattern": pattern,
        "severity": severity,
        "name": rule_name,
    }


@rules_group.command("edit")
@click.argument("name")
@click.argument("rule_ref", metavar="RULE_ID")
@_rule_options
@workspace_option
@json_option
@handle_errors
def rules_edit(
    name: str,
    rule_ref: str,
    rule_json: str | None,
    rule_id: str | None,
    rule_type: str | None,
    value: tuple[str, ...],
    pattern: str | None,
    severity: str | None,
    rule_name: str | None,
    project: str | None,
    workspace_dir: Path | None,
    as_json: bool,
) -> None:
    """Change rule RULE_ID of NAME: --rule replaces it, the flags change only the fields they name."""
    fields = _rule_fields(rule_id, rule_type, value, pattern, severity, rule_name)
    with open_workspace(workspace_dir) as ws:
        scope = _scope(ws, name, project)
        current = [_rule_dict(r) for r in ws.skills.get(name, scope or None).rules().rules]
        old = next((r for r in current if r["id"] == rule_ref), None)
        if old is None:
            raise NotFoundError(
                f"{name} has no rule {rule_ref!r}; its rules: {', '.join(r['id'] for r in current) or 'none'}"
            )
        base = {} if rule_json is not None else dict(old)
        if rule_type is not None and rule_json is None:  # a new type: the old value may not fit it
            base.pop("flags", None)
        raw = {**base, **_rule_input(rule_json, fields)}
        raw.setdefault("id", rule_ref)
        raw.setdefault("severity", old.get("severity", "warning"))
        rule = _rule_dict(parse_rule(raw, 0, file="--rule"))
        if rule["id"] != rule_ref and any(r["id"] == rule["id"] for r in current):
            raise InvalidInputError(f"{name} already has a rule {rule['id']!r}")
        if rule == old:
            raise InvalidInputError(f"rule {rule_ref!r} is unchanged: give the fields to change")
        rules = [rule if r["id"] == rule_ref else r for r in current]
        v = _write_rules(ws, name, scope, rules, f"edited rule {rule_ref}")
    _rules_out(v, rule, f"edited rule {rule_ref}", as_json, name, scope)


@rules_group.command("delete")
@click.argument("name")
@click.argument("rule_ref", metavar="RULE_ID")
@click.option("--project", default=None, help="This project's fork (it must exist).")
@workspace_option
@json_option
@handle_errors
def rules_delete(name: str, rule_ref: str, project: str | None, workspace_dir: Path | None, as_json: bool) -> None:
    """Delete rule RULE_ID of NAME (a new, signed version; the old one keeps it)."""
    with open_workspace(workspace_dir) as ws:
        scope = _scope(ws, name, project)
        current = [_rule_dict(r) for r in ws.skills.get(name, scope or None).rules().rules]
        if not any(r["id"] == rule_ref for r in current):
            raise NotFoundError(
                f"{name} has no rule {rule_ref!r}; its rules: {', '.join(r['id'] for r in current) or 'none'}"
            )
        v = _write_rules(ws, name, scope, [r for r in current if r["id"] != rule_ref], f"deleted rule {rule_ref}")
    _rules_out(v, None, f"deleted rule {rule_ref}", as_json, name, scope)


# --- skills generate (issue 14) ---
@skills.command("generate")
@click.option("--goal", required=True, help="The extraction goal: what the new skill must make the agent do.")
@click.option("--project", default=None, help="Retrieve over what the project sees; the skill is the project's.")
@click.option("--name", default=None, help="The new skill's name (default: the model's choice).")
@click.option(
    "--passages", type=click.IntRange(1, 30), default=8, show_default=True, help="Passages given to the model."
)
@click.option("--scenarios", type=click.IntRange(1, 10), default=3, show_default=True, help="Benchmark scenarios.")
@click.option("--no-bench", is_flag=True, help="Do not benchmark the proposal now (`lorekeeper bench` runs it later).")
@workspace_option
@json_option
@handle_errors
def generate(
    goal: str,
    project: str | None,
    name: str | None,
    passages: int,
    scenarios: int,
    no_bench: bool,
    workspace_dir: Path | None,
    as_json: bool,
) -> None:
    """Write a new rulebook skill (SKILL.md + eval rules) from the knowledge's passages, as a proposal."""
    with open_workspace(workspace_dir) as ws:
        generator = ws.improve.generator
        assert generator is not None
        result = generator.generate(
            goal, project, name=name, passages=passages, benchmark=not no_bench, scenarios=scenarios
        )
    if as_json:
        emit_json(result.to_dict())
        return
    p = result.proposal
    click.echo(f"proposal #{p.id}: new skill {result.skill}" + (f" in project {p.scope}" if p.scope else ""))
    click.echo(f"  {p.reason}")
    for h in result.passages:
        mark = "*" if h.n in result.cited else " "
        click.echo(f" {mark}[{h.n}] {h.passage.document} lines {h.passage.start}-{h.passage.end}")
    if result.benchmark:
        click.echo(f"benchmark: {result.benchmark.get('badge') or result.benchmark.get('error')}")
    for note in result.notes:
        click.echo(f"note: {note}")
    click.echo(f"review it with `lorekeeper proposals show {p.id}`, then approve or reject")


# --------------------------------------------------------------------------- router words (issue 10)
@skills.command("suggest")
@click.argument("name")
@click.option("--project", default=None, help="The skill that serves this project (its fork when it has one).")
@click.option(
    "--model/--no-model",
    "use_model",
    default=None,
    help="Ask the configured model (default: when one is configured) or use the deterministic extraction.",
)
@click.option("--dry-run", is_flag=True, help="Print the proposal without queueing it.")
@click.option(
    "--triggers",
    "trigger_cases",
    is_flag=True,
    help="Write trigger cases (triggers.json) from the description and the quality history instead.",
)
@workspace_option
@json_option
@handle_errors
def suggest_cmd(
    name: str,
    project: str | None,
    use_model: bool | None,
    dry_run: bool,
    trigger_cases: bool,
    workspace_dir: Path | None,
    as_json: bool,
) -> None:
    """Propose router words (triggers, keywords) for NAME from its description.

    --triggers: write NAME's trigger cases (for `skills trigger-eval`) as a new version instead."""
    if trigger_cases:
        with open_workspace(workspace_dir) as ws:
            ts = ws.improve.trigger_cases.suggest(name, project, use_model=use_model, write=not dry_run)
        if as_json:
            emit_json(ts.to_dict())
            return
        for c in ts.added:
            click.echo(f"{'+' if c.should_trigger else '-'} {c.query}")
        src = ", ".join(f"{k}: {v}" for k, v in sorted(ts.sources.items())) or "nothing new"
        click.echo(f"{len(ts.added)} case(s) added ({src}); {len(ts.cases)} in all")
        if ts.version is not None:
            click.echo(f"written as {name} v{ts.version}: `lorekeeper skills trigger-eval {name}` scores them")
        elif dry_run:
            click.echo("(dry run: nothing written)")
        return
    with open_workspace(workspace_dir) as ws:
        sug = ws.improve.suggest.suggest(name, project, use_model=use_model, create=not dry_run)
    if as_json:
        emit_json(sug.to_dict())
        return
    click.echo(f"triggers: {', '.join(sug.triggers) or '-'}")
    click.echo(f"keywords: {', '.join(sug.keywords) or '-'}")
    click.echo(f"from: {sug.model or 'deterministic extraction (no model)'}")
    if sug.proposal is not None:
        click.echo(f"proposal #{sug.proposal.id} queued: `lorekeeper proposals approve {sug.proposal.id}` applies it")
    else:
        click.echo("(dry run: nothing queued)")


# --------------------------------------------------------------------------- trigger evals (issue 27)
@skills.command("trigger-eval")
@click.argument("name", required=False)
@click.option("--project", default=None, help="Route as this project sees the library (its forks in place).")
@click.option(
    "--top",
    type=click.IntRange(min=1),
    default=None,
    help="A skill fires when it is in the top N (default router.top).",
)
@workspace_option
@json_option
@handle_errors
def trigger_eval_cmd(
    name: str | None, project: str | None, top: int | None, workspace_dir: Path | None, as_json: bool
) -> None:
    """Precision, recall and confusions of the router on each skill's trigger cases (triggers.json).

    A skill fires for a query when the router puts it in the SKILLS_HINT of that query, over the
    whole library. NAME: that skill's cases only."""
    from lorekeeper.skills.router import DEFAULT_TOP
    from lorekeeper.skills.triggers import TRIGGER_FILES, evaluate

    with open_workspace(workspace_dir) as ws:
        n = top if top is not None else int(ws.config.get("router.top", DEFAULT_TOP) or DEFAULT_TOP)
        cases, problems = ws.skills.trigger_cases(project, name)
        if name is not None and name not in cases and not problems:
            raise NotFoundError(
                f"skill {name!r} has no trigger cases: add {TRIGGER_FILES[0]} to its folder "
                '([{"query": "...", "should_trigger": true}, ...]) or run `lorekeeper skills suggest --triggers`'
            )
        router = ws.routers.get(project)
        report = evaluate(cases, lambda q: router.route(q, top=n), top=n)
    if as_json:
        out = report.to_dict()
        if problems:
            out["errors"] = problems
        emit_json(out)
    else:
        if not report.skills:
            click.echo(f"No skill has trigger cases ({' or '.join(TRIGGER_FILES)} in its folder).")
        else:
            width = max(len(s.name) for s in report.skills)
            click.echo(f"{'skill':<{width}}  cases  precision  recall  collisions (top {n})")
            for sc in report.skills:
                pr = format_rate(sc.precision)  # rounded down, as every rate shown
                rc = format_rate(sc.recall)
                coll = ", ".join(
                    f"{k} ({v})" for k, v in sorted(sc.collisions.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
                )
                click.echo(f"{sc.name:<{width}}  {sc.cases:>5}  {pr:>9}  {rc:>6}  {coll or '-'}")
            wrong = [(sc.name, c) for sc in report.skills for c in sc.confusions]
            if wrong:
                click.echo("")
                click.echo(f"confusions ({len(wrong)}):")
                for skill, c in wrong:
                    if c["should_trigger"]:
                        click.echo(f"  {skill}: missed {c['query']!r} (taken by {c['taken_by'] or 'no skill'})")
                    else:
                        click.echo(f"  {skill}: fired on {c['query']!r} (rank {c['rank']}, should not)")
    for p in problems:
        click.echo(f"error {p['code']}: {p['message']}", err=True)
    if problems:
        sys.exit(EXIT_INVALID)


# --------------------------------------------------------------------------- optimise (issue 27 d3)
def _rate_pair(r: dict[str, Any] | None) -> str:
    if r is None:
        return "-"
    return f"precision {format_rate(r['precision'], none='n/a')}, recall {format_rate(r['recall'], none='n/a')}"


@skills.command("optimise")
@click.argument("name")
@click.option("--project", default=None, help="The skill that serves this project (its fork when it has one).")
@click.option(
    "--holdout",
    type=click.FloatRange(0.0, 1.0, min_open=True, max_open=True),
    default=0.4,
    show_default=True,
    help="The share of the trigger cases held out (never shown to the model, never used to rank).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="The split's seed (same seed, same split).")
@click.option("--rounds", type=click.IntRange(1, 10), default=3, show_default=True, help="Rounds of model edits.")
@click.option(
    "--top", type=click.IntRange(min=1), default=None, help="A skill fires in the top N (default router.top)."
)
@click.option("--dry-run", is_flag=True, help="Score the candidates; queue nothing.")
@workspace_option
@json_option
@handle_errors
def optimise_cmd(
    name: str,
    project: str | None,
    holdout: float,
    seed: int,
    rounds: int,
    top: int | None,
    dry_run: bool,
    workspace_dir: Path | None,
    as_json: bool,
) -> None:
    """Ask the model for description and router-word edits of NAME, scored on its trigger cases.

    The cases are split (seeded, stratified) into a train part the candidates are ranked on and a
    held-out part; the best candidate that lowers nothing (held-out, train, all cases, and every
    other skill's cases) is queued as a proposal (source optimiser) showing the held-out precision
    and recall before and after. Exit 1 when no candidate qualified. Needs a configured model."""
    from lorekeeper.skills.router import DEFAULT_TOP

    with open_workspace(workspace_dir) as ws:
        n = top if top is not None else int(ws.config.get("router.top", DEFAULT_TOP) or DEFAULT_TOP)
        res = ws.improve.optimiser.optimise(
            name, project, holdout=holdout, seed=seed, rounds=rounds, top=n, create=not dry_run
        )
    if as_json:
        emit_json(res.to_dict())
    else:
        click.echo(
            f"{name}: {res.train_cases} train / {res.held_out_cases} held-out cases (seed {res.seed}), {res.model}"
        )
        for c in res.candidates:
            click.echo(f"  round {c.round}: train {_rate_pair(c.to_dict()['train'])}: {c.verdict}")  # type: ignore[arg-type]
        for note in res.notes:
            click.echo(f"  note: {note}")
        click.echo(f"held-out before: {_rate_pair(res.before)}")
        if res.chosen is None:
            click.echo("no candidate improved without lowering a score: nothing proposed")
        else:
            click.echo(f"held-out after:  {_rate_pair(res.after)}")
            if res.proposal is not None:
                click.echo(
                    f"proposal #{res.proposal.id} queued: `lorekeeper proposals show {res.proposal.id}`, then approve"
                )
            else:
                click.echo("(dry run: nothing queued)")
    if res.chosen is None:
        sys.exit(1)


_optimize = copy.copy(optimise_cmd)  # the US spelling, not listed in --help
_optimize.hidden = True
skills.add_command(_optimize, "optimize")
