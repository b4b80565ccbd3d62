"""`lorekeeper backup [DEST]` and `lorekeeper restore BACKUP`: online backups and recovery (issue 23)."""

from __future__ import annotations

from pathlib import Path

import click

from lorekeeper.cli.common import emit_json, handle_errors, json_option, open_workspace, workspace_option
from lorekeeper.cli.progress import progress_option
from lorekeeper.locations import resolve_workspace_dir


@click.command("backup")
@click.argument("dest", required=False, type=click.Path(path_type=Path))
@click.option("--list", "list_only", is_flag=True, help="List the backups under backups/ (newest last); make none.")
@workspace_option
@json_option
@progress_option("backup")
@handle_errors
def backup(dest: Path | None, list_only: bool, workspace_dir: Path | None, as_json: bool) -> None:
    """An online copy of the store and its signed log, under backups/ (or DEST); --list shows them.

    The copy is made with SQLite's backup API while the app and other commands keep working, and
    passes PRAGMA integrity_check before it counts. DEST: a new folder, or an existing folder to
    put the timestamped backup in. A PostgreSQL store says how to use pg_dump instead.
    """
    ws = open_workspace(workspace_dir)
    try:
        if list_only:
            found = ws.backups.available()
            if as_json:
                emit_json({"directory": str(ws.backups.directory), "backups": [b.to_dict() for b in found]})
                return
            if not found:
                click.echo(f"no backups under {ws.backups.directory} (make one with `lorekeeper backup`)")
            for b in found:
                click.echo(f"{b.created_at}  {b.kind:<6}  {b.bytes:>12} bytes  revision {b.revision}  {b.path}")
            return
        # a backup the signed log does not record is a copy a restore cannot reconcile (what was
        # purged since): fail closed like every write (issue 24)
        ws.audit.check_writable()
        made = ws.backups.create(dest)
    finally:
        ws.close()
    if as_json:
        emit_json(made)
        return
    click.echo(f"backup: {made['path']}")
    click.echo(
        f"  {made['bytes']} bytes, store revision {made['revision']}, {made['sessions']} session log file(s), "
        f"integrity ok, taken {made['created_at']}"
    )
    for w in made["warnings"]:
        click.echo(f"warning: {w}", err=True)


@click.command("restore")
@click.argument("backup_path", metavar="BACKUP", type=click.Path(path_type=Path))
@workspace_option
@json_option
@progress_option("restore")
@handle_errors
def restore(backup_path: Path, workspace_dir: Path | None, as_json: bool) -> None:
    """Put BACKUP back (the current database is renamed aside, never overwritten); close the app first.

    BACKUP: a folder under backups/ (or its lorekeeper.db), or any Lorekeeper SQLite file (e.g. the
    result of sqlite3's .recover). It is checked first; the restore is refused while another
    process has the workspace open; the workspace is opened afterwards to prove it works, and the
    signed log records the restore.
    """
    from lorekeeper.recovery import restore as do_restore

    ctx = click.get_current_context(silent=True)
    if workspace_dir is None and ctx is not None:
        workspace_dir = (ctx.find_root().obj or {}).get("workspace_dir")
    out = do_restore(resolve_workspace_dir(workspace_dir), backup_path)
    if as_json:
        emit_json(out)
        return
    click.echo(f"restored {out['backup']} (taken {out['backup_created_at']}) into {out['database']}")
    for m in out["set_aside"]:
        click.echo(f"  kept aside: {m['from']} -> {m['to']}")
    if out.get("sessions_set_aside"):
        click.echo(
            f"  session log: the backup's copy put in place; the current one kept as {out['sessions_set_aside']}"
        )
    audit = out.get("audit")
    if audit:
        click.echo(
            f"  signed log: {audit['audit'].replace('_', ' ')}, {audit['events_since_backup']} event(s) since the backup; "
            "store_restored recorded"
        )
    click.echo(f"  the workspace opens: store revision {out['revision']}")
    for w in out["warnings"]:
        click.echo(f"warning: {w}", err=True)
    click.echo(f"next: {out['next']}")
