"""`restore`: put a backup back in a workspace, and prove the workspace opens and verifies.

The steps, in order (nothing is deleted, nothing is overwritten):
1. the backup is checked: `PRAGMA integrity_check`, a Lorekeeper store, a schema this version knows;
2. the workspace's in-use lock is taken exclusively: refused (ERR_WORKSPACE_IN_USE) while any
   other process has the workspace open (the app, a command, an MCP server, a worker);
3. the current database and its -wal, -shm, -journal are renamed aside (the names are printed);
4. the backup is copied next to it with SQLite's backup API and renamed into place;
5. the session log: kept when it continues the backup's chain (its events since the backup stay,
   as history); otherwise the backup's copy of the log is put in place (the current folder renamed
   aside);
6. the workspace is opened (migrations, the skills export), and, with the audit key, the log's head
   is reconciled (`SessionLog.after_restore`) and a signed `store_restored` event written, so the
   next signed write works and `audit verify` passes.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from lorekeeper.config import CONFIG_NAME, Config
from lorekeeper.errors import InvalidInputError, LorekeeperError, WorkspaceError
from lorekeeper.locks import HeldLock, InUseError
from lorekeeper.store.backup import (
    SESSIONS,
    BackupUnsupportedError,
    check_database,
    head_in_log,
    postgres_guidance,
    put_in_place,
    read_revision,
    resolve_backup,
    set_aside,
    stamp,
    utc_now,
)
from lorekeeper.store.engine import resolve_url, sqlite_file
from lorekeeper.workspace import Workspace, in_use_lock_path


def known_schemas() -> set[str]:
    """Every migration revision this version of Lorekeeper has."""
    from alembic.script import ScriptDirectory

    from lorekeeper.store.migrate import alembic_config

    return {rev.revision for rev in ScriptDirectory.from_config(alembic_config()).walk_revisions()}


def _take_exclusive(root: Path) -> HeldLock:
    try:
        return HeldLock.acquire(in_use_lock_path(root), exclusive=True)
    except BlockingIOError:
        raise InUseError(
            f"the workspace {root} is open in another process (the app, a command, an MCP server or a worker "
            "holds it): nothing was changed. Close it (Ctrl+Q in the app), then run the restore again."
        ) from None


def _require_key(config: Config, workspace_id: str) -> None:
    """ERR_AUDIT_KEY_UNAVAILABLE / ERR_AUDIT_KEY_INVALID (exit 4) unless the workspace's key loads."""
    from lorekeeper.audit.providers import provider_from_config
    from lorekeeper.audit.session import start_key_session

    start_key_session(provider_from_config(config, workspace_id))


def restore(
    root: str | os.PathLike[str], backup: str | os.PathLike[str], *, clock: Callable[[], datetime] = utc_now
) -> dict[str, Any]:
    """Restore `backup` (a backup folder, or a Lorekeeper SQLite file) into the workspace at `root`."""
    root = Path(root).expanduser().resolve()
    cfg = root / CONFIG_NAME
    if not cfg.is_file():
        raise WorkspaceError(
            f"no workspace at {root} (no {CONFIG_NAME}). To rebuild a lost workspace, create the folder and copy "
            f"the backup's {CONFIG_NAME} into it (it names the workspace and its audit key), then restore."
        )
    config = Config.load(cfg)
    url = resolve_url(str(config.get("store.url", "sqlite:///lorekeeper.db")), root)
    db = sqlite_file(url)
    if db is None:
        raise BackupUnsupportedError(postgres_guidance(url, "restore"))
    info = resolve_backup(Path(backup))
    if info.database.resolve() == db.resolve():
        raise InvalidInputError(f"{info.database} is the workspace's own database: name a backup of it instead.")
    checked = check_database(info.database, known_schemas=known_schemas())
    workspace_id = str(config.get("workspace.id", "") or "")
    backup_head = checked["heads"].get(workspace_id)
    # fail closed before anything moves (issue 24): without the key the log cannot record the
    # restore nor name the stories purged since the backup, so a keyless restore brought erased
    # stories back and left a store no write could follow; exit 4, the workspace untouched
    _require_key(config, workspace_id)

    lock = _take_exclusive(root)
    out: dict[str, Any] = {
        "workspace": str(root),
        "backup": str(info.path),
        "backup_created_at": info.created_at,
        "database": str(db),
        "revision": checked["revision"],
        "set_aside": [],
        "sessions": "kept",
        "warnings": [],
    }
    try:
        now = clock()
        # past the replaced store's revision; unreadable (damaged): past any count a store reaches
        floor = read_revision(db)
        floor = int(now.timestamp()) if floor is None else floor
        moved = set_aside(db, now)
        out["set_aside"] = moved
        try:
            put_in_place(info.database, db, revision_floor=floor)
        except BaseException:
            for m in reversed(moved):  # put the store back as it was: the restore did not happen
                if not Path(m["from"]).exists():
                    os.rename(m["to"], m["from"])
            out["set_aside"] = []
            raise
        sessions = root / SESSIONS
        copy = info.path / SESSIONS if info.path.is_dir() else None
        if backup_head and copy is not None and copy.is_dir() and not head_in_log(sessions, backup_head):
            # the current log does not continue the backup's chain (lost, or another one): the
            # backup's own log goes in, the current folder is kept aside
            if sessions.exists():
                aside = root / f"{SESSIONS}.replaced-{stamp(now)}"
                os.rename(sessions, aside)
                out["sessions_set_aside"] = str(aside)
            shutil.copytree(copy, sessions)
            out["sessions"] = "replaced"
        try:
            ws = Workspace.open(root, in_use=lock)  # the proof: config, store, migrations, skills export
        except LorekeeperError as exc:
            kept = ", ".join(m["to"] for m in moved) or "nothing (there was no database)"
            err = LorekeeperError(
                f"the backup is in place but the workspace does not open: {exc.message} The replaced database "
                f"is kept as {kept}.",
                code=exc.code,
            )
            err.details = dict(exc.details)
            raise err from None
    except BaseException:
        lock.release()
        raise
    try:
        out["revision"] = ws.store.revision()
        out["warnings"].extend(ws.init_warnings)
        try:
            ws.audit.require_key()
            result = ws.audit.log.after_restore(
                {
                    "backup": str(info.path),
                    "backup_created_at": info.created_at,
                    "revision": checked["revision"],
                    "set_aside": [m["to"] for m in moved],
                    "sessions": out["sessions"],
                },
                restored=backup_head,
            )
            out["audit"] = result
            out["recorded"] = True
        except LorekeeperError as exc:
            out["recorded"] = False
            out["warnings"].append(
                f"the signed log was not reconciled ({exc.code}: {exc.message}). When the key is available, run "
                "`lorekeeper audit verify` (and, if it reports the store as rolled back, `lorekeeper audit verify --adopt`)."
            )
        # a restore never brings an erased story back: the purges the log recorded since the
        # backup are run again on the restored store (GDPR art. 17)
        purged = (out.get("audit") or {}).get("purged_since_backup") or []
        out["repurged"] = []
        for story in purged:
            try:
                erased = ws.purge.purge_story(story)
            except LorekeeperError as exc:
                out["warnings"].append(
                    f"{story} was purged after this backup was made and could not be erased again "
                    f"({exc.code}: {exc.message}); run `lorekeeper purge --story {story} --force`"
                )
                continue
            out["repurged"].append(story)
            if not erased.verified:
                out["warnings"].append(
                    f"{story} was erased again but the verification found: {'; '.join(erased.remaining)}"
                )
    finally:
        ws.close()  # releases the in-use lock
    out["next"] = "run `lorekeeper repair` to rebuild the memory indexes from the restored store"
    return out
