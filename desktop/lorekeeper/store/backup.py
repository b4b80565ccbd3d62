"""Backups of a SQLite store, and putting one back: the mechanics, with no audit and no Qt.

A backup is a folder, `backups/lorekeeper-YYYYMMDD-HHMMSSZ[-daily]/` (names sort by time):

- `lorekeeper.db`: an online, consistent copy made through SQLite's backup API
  (`sqlite3.Connection.backup`) from a connection of the running store, never a file copy: POSIX
  drops every `fcntl` lock a process holds on a file when any of its descriptors of that file
  closes, so opening the live database files with anything but SQLite can corrupt them. The copy
  is switched to the rollback journal (one self-contained file) and passes `PRAGMA
  integrity_check` before it counts;
- `sessions/`: the signed session log as it stood when the copy was made (taken under the log's
  shared lock, so the store's head names an event the copied files hold);
- `lorekeeper.toml`: the configuration, for reference (a lost workspace folder is rebuilt from it);
- `manifest.json`: when, the store revision, bytes, schema revision, the log head.

The folder is written under a temporary name and renamed when complete, so a backup that exists is
whole. Restoring (`put_in_place`) renames the current database and its `-wal`, `-shm`, `-journal`
aside (never overwritten, never deleted), copies the backup in with the backup API under a temporary
name and renames it into place.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, Protocol

from lorekeeper import safejson
from lorekeeper.errors import InvalidInputError, LorekeeperError, NotFoundError
from lorekeeper.fsutil import atomic_write_text, read_regular_raw
from lorekeeper.store.engine import REVISION_TABLE, Store

BACKUPS_DIR = "backups"
DB_NAME = "lorekeeper.db"
MANIFEST = "manifest.json"
MANIFEST_LIMIT = 1024 * 1024
SESSIONS = "sessions"
CONFIG_COPY = "lorekeeper.toml"
PREFIX = "lorekeeper-"
DAILY_SUFFIX = "-daily"
STAMP_FORMAT = "%Y%m%d-%H%M%SZ"
SIDECARS = ("-wal", "-shm", "-journal")
DEFAULT_KEEP = 7  # daily copies `schedule run` keeps ([backup] keep)
FORMAT = 1
_NAME = re.compile(r"^lorekeeper-(\d{8}-\d{6}Z)(?:-(\d+))?(-daily)?$")


class BackupError(LorekeeperError):
    """The backup could not be made (or its copy failed the integrity check): nothing counts."""

    code = "ERR_BACKUP_FAILED"


class BackupInvalidError(LorekeeperError):
    """What `restore` was given is not a usable Lorekeeper backup."""

    code = "ERR_BACKUP_INVALID"


class BackupUnsupportedError(LorekeeperError):
    """The store is PostgreSQL: its backups are the server's (`pg_dump`)."""

    code = "ERR_BACKUP_UNSUPPORTED"


def utc_now() -> datetime:
    return datetime.now(UTC)


def stamp(now: datetime) -> str:
    return now.astimezone(UTC).strftime(STAMP_FORMAT)


# --------------------------------------------------------------------------- what a backup is


@dataclass
class BackupInfo:
    path: Path  # the backup folder (or a bare database file)
    database: Path
    created_at: str
    kind: str  # manual | daily | file
    revision: int | None = None
    bytes: int = 0
    schema: str | None = None
    sessions: list[str] = field(default_factory=list)
    head: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": str(self.path),
            "database": str(self.database),
            "created_at": self.created_at,
            "kind": self.kind,
            "revision": self.revision,
            "bytes": self.bytes,
            "schema": self.schema,
            "sessions": list(self.sessions),
        }

    @property
    def day(self) -> str:
        return self.created_at[:10]


def _read_manifest(folder: Path) -> dict[str, Any]:
    try:
        # a backup given to `restore` comes from anywhere: a FIFO or a bomb here reads as no manifest
        data = safejson.loads(read_regular_raw(folder / MANIFEST, limit=MANIFEST_LIMIT))
    except (OSError, ValueError, LorekeeperError):
        return {}
    return data if isinstance(data, dict) else {}


def _created_from_name(name: str) -> str | None:
    m = _NAME.match(name)
    if not m:
        return None
    when = datetime.strptime(m.group(1), STAMP_FORMAT).replace(tzinfo=UTC)
    return when.isoformat(timespec="seconds")


def info_of(path: Path) -> BackupInfo | None:
    """What a backup folder (or a bare `.db` file) says about itself, without checking it."""
    if path.is_dir():
        db = path / DB_NAME
        if not db.is_file():
            return None
        man = _read_manifest(path)
        created = str(man.get("created_at") or _created_from_name(path.name) or "")
        kind = str(man.get("kind") or ("daily" if path.name.endswith(DAILY_SUFFIX) else "manual"))
        sessions_dir = path / SESSIONS
        sessions = sorted(p.name for p in sessions_dir.glob("*.jsonl")) if sessions_dir.is_dir() else []
        rev = man.get("revision")
        return BackupInfo(
            path=path,
            database=db,
            created_at=created,
            kind=kind,
            revision=int(rev) if isinstance(rev, int) else None,
            bytes=int(man.get("bytes") or db.stat().st_size),
            schema=man.get("schema") if isinstance(man.get("schema"), str) else None,
            sessions=sessions,
            head=man.get("head") if isinstance(man.get("head"), dict) else None,
        )
    if path.is_file():
        st = path.stat()
        created = datetime.fromtimestamp(st.st_mtime, UTC).isoformat(timespec="seconds")
        return BackupInfo(path=path, database=path, created_at=created, kind="file", bytes=st.st_size)
    return None


def list_backups(directory: Path) -> list[BackupInfo]:
    """The backup folders under `directory`, oldest first (half-written temporary ones excluded)."""
    if not directory.is_dir():
        return []
    out = [info for p in directory.iterdir() if _NAME.match(p.name) and (info := info_of(p)) is not None]
    return sorted(out, key=lambda i: (i.created_at, i.path.name))


def newest_backup(directory: Path) -> BackupInfo | None:
    found = list_backups(directory)
    return found[-1] if found else None


# --------------------------------------------------------------------------- checking a copy


def _connect_ro(db: Path) -> sqlite3.Connection:
    """A read-only connection to a file that is not a live store (a backup): nothing is created
    next to it, nothing in it changes."""
    uri = "file:" + str(db.resolve()).replace("?", "%3f").replace("#", "%23") + "?mode=ro"
    return sqlite3.connect(uri, uri=True, timeout=5)


def integrity_problems(con: sqlite3.Connection, limit: int = 5) -> list[str]:
    try:
        rows = con.execute(f"PRAGMA integrity_check({int(limit)})").fetchall()
    except sqlite3.DatabaseError as exc:
        return [str(exc)]
    found = [str(r[0]) for r in rows]
    return [] if found == ["ok"] else found


def check_database(db: Path, *, known_schemas: set[str] | None = None) -> dict[str, Any]:
    """A backup's database: passes `integrity_check`, is a Lorekeeper store, of a schema this version
    knows. Returns its revision, schema and audit heads; raises ERR_BACKUP_INVALID naming what fails."""
    try:
        con = _connect_ro(db)
    except sqlite3.Error as exc:
        raise BackupInvalidError(f"{db} cannot be opened as a SQLite database ({exc}).") from None
    try:
        problems = integrity_problems(con)
        if problems:
            raise BackupInvalidError(
                f"{db} does not pass PRAGMA integrity_check ({'; '.join(problems[:3])}): it cannot be restored. "
                "Choose an older backup (`lorekeeper backup --list`)."
            )
        try:
            tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.DatabaseError as exc:
            raise BackupInvalidError(f"{db} is not a SQLite database ({exc}).") from None
        if not {"alembic_version", REVISION_TABLE, "skills"} <= tables:
            raise BackupInvalidError(
                f"{db} is a SQLite database but not a Lorekeeper store (no alembic_version, {REVISION_TABLE} "
                "or skills table)."
            )
        schema = [str(r[0]) for r in con.execute("SELECT version_num FROM alembic_version")]
        rev_row = con.execute(f"SELECT value FROM {REVISION_TABLE} WHERE id = 1").fetchone()
        heads: dict[str, dict[str, Any]] = {}
        if "audit_heads" in tables:
            for ws_id, file_, seq, sig, epoch, count in con.execute(
                "SELECT workspace, file, seq, head_sig, epoch, count FROM audit_heads"
            ):
                heads[str(ws_id)] = {"file": file_, "seq": seq, "head_sig": sig, "epoch": epoch, "count": count}
    finally:
        con.close()
    if known_schemas is not None and schema and not set(schema) <= known_schemas:
        raise BackupInvalidError(
            f"{db} has schema revision {', '.join(schema)}, which this version of Lorekeeper does not know "
            "(made by a newer version?): upgrade Lorekeeper, then restore it."
        )
    return {"revision": int(rev_row[0]) if rev_row else 0, "schema": ",".join(schema), "heads": heads}


def resolve_backup(path: Path) -> BackupInfo:
    """A backup folder, the `lorekeeper.db` inside one, or any Lorekeeper SQLite file."""
    path = Path(path).expanduser()
    if not path.exists():
        raise NotFoundError(f"no backup at {path}. List them with `lorekeeper backup --list`.")
    if path.is_file() and path.name == DB_NAME and (path.parent / MANIFEST).is_file():
        path = path.parent
    info = info_of(path.resolve())
    if info is None:
        raise BackupInvalidError(f"{path} is not a backup (a folder holding {DB_NAME}, or a .db file).")
    return info


# --------------------------------------------------------------------------- making one


def copy_database(source: sqlite3.Connection, dest: Path) -> list[str]:
    """SQLite's online backup of `source` into the new file `dest` (one step: one consistent
    snapshot, which in WAL mode never blocks writers); then a self-contained rollback-journal file.
    Returns the copy's integrity problems (empty: it counts)."""
    dst = sqlite3.connect(str(dest))
    try:
        dst.execute("PRAGMA synchronous=FULL")  # every commit of the copy is fsynced by SQLite itself
        source.backup(dst)
        dst.execute("PRAGMA journal_mode=DELETE")
        return integrity_problems(dst)
    finally:
        dst.close()


def _fsync_dir(path: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


class EventLog(Protocol):
    """The signed session log as a backup sees it (`audit.log.SessionLog`: the store does not import audit)."""

    def append(self, type: str, data: dict[str, Any]) -> Any: ...


class BackupService:
    """`ws.backups`: online backups of the workspace's SQLite store and its session log.

    `session_lock()` is the log's shared lock (the store's head and the copied day files agree);
    `audit_log()` hands out the signed session log a backup is recorded in (it raises when the key
    is unavailable: the backup stands and says it is not recorded)."""

    def __init__(
        self,
        store: Store,
        directory: Path,
        *,
        sessions_dir: Path,
        config_path: Path,
        session_lock: Callable[[], AbstractContextManager[None]],
        audit_log: Callable[[], EventLog] | None = None,
        clock: Callable[[], datetime] = utc_now,
    ) -> None:
        self.store = store
        self.directory = directory
        self.sessions_dir = sessions_dir
        self.config_path = config_path
        self.session_lock = session_lock
        self.audit_log = audit_log
        self.clock = clock

    def require_sqlite(self, action: str = "backup") -> Path:
        path = self.store.sqlite_path
        if path is None:
            raise BackupUnsupportedError(postgres_guidance(self.store.url, action))
        return path

    def available(self) -> list[BackupInfo]:
        return list_backups(self.directory)

    def newest(self) -> BackupInfo | None:
        return newest_backup(self.directory)

    def _target(self, dest: Path | None, now: datetime, daily: bool) -> Path:
        base = stamp(now)
        suffix = DAILY_SUFFIX if daily else ""
        if dest is None:
            parent, name = self.directory, f"{PREFIX}{base}{suffix}"
        else:
            dest = Path(dest).expanduser().resolve()
            if dest.is_dir():
                parent, name = dest, f"{PREFIX}{base}{suffix}"
            elif dest.exists():
                raise InvalidInputError(f"{dest} exists and is not a folder: name a new folder for the backup.")
            else:
                return dest
        target, n = parent / name, 1
        while target.exists():  # two backups within one second
            n += 1
            target = parent / f"{PREFIX}{base}-{n}{suffix}"
        return target

    def create(self, dest: Path | None = None, *, daily: bool = False) -> dict[str, Any]:
        """Make a backup; returns {path, bytes, revision, created_at, ...}. ERR_BACKUP_FAILED when the
        copy does not pass integrity_check (then nothing is kept)."""
        db_path = self.require_sqlite()
        now = self.clock()
        target = self._target(dest, now, daily)
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".partial", dir=target.parent))
        try:
            head, sessions, revision, problems = self._copy_into(tmp)
            if problems:
                raise BackupError(
                    f"the copy of {db_path} does not pass PRAGMA integrity_check ({'; '.join(problems[:3])}): no "
                    "backup was kept. The store itself is probably damaged: keep your last good backup "
                    "(`lorekeeper backup --list`) and restore it (`lorekeeper restore BACKUP`)."
                )
            # the copy is durable already: SQLite synced it when the backup step committed
            # (synchronous=FULL, rollback journal); never reopened with open() (lorekeeper.dbfiles)
            if self.config_path.is_file():
                shutil.copy2(self.config_path, tmp / CONFIG_COPY)
            from lorekeeper.store.migrate import current_revisions

            manifest = {
                "format": FORMAT,
                "created_at": now.isoformat(timespec="seconds"),
                "kind": "daily" if daily else "manual",
                "revision": revision,
                "bytes": (tmp / DB_NAME).stat().st_size,
                "schema": ",".join(sorted(current_revisions(self.store.engine))),
                "database": DB_NAME,
                "source": str(db_path),
                "sessions": sessions,
                "head": head,
            }
            atomic_write_text(tmp / MANIFEST, json.dumps(manifest, indent=2) + "\n")
            _fsync_dir(tmp)
            os.rename(tmp, target)  # complete, or not there at all
            _fsync_dir(target.parent)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        out: dict[str, Any] = {
            "path": str(target),
            "database": str(target / DB_NAME),
            "bytes": manifest["bytes"],
            "revision": revision,
            "created_at": manifest["created_at"],
            "kind": manifest["kind"],
            "sessions": len(sessions),
            "integrity": "ok",
            "recorded": False,
            "warnings": [],
        }
        if self.audit_log is not None:
            try:
                self.audit_log().append(
                    "store_backup",
                    {k: out[k] for k in ("path", "bytes", "revision", "created_at", "kind")},
                )
                out["recorded"] = True
            except LorekeeperError as exc:
                out["warnings"].append(f"the backup is not recorded in the signed log ({exc.code}: {exc.message})")
        return out

    def _copy_into(self, tmp: Path) -> tuple[dict[str, Any] | None, list[str], int, list[str]]:
        """Under the log's shared lock: the database, then the day files (the head the copied store
        names is in the copied files; a writer of the log waits for the few seconds it takes)."""
        with self.session_lock():
            raw = self.store.engine.raw_connection()
            try:
                con = raw.driver_connection
                assert isinstance(con, sqlite3.Connection)
                problems = copy_database(con, tmp / DB_NAME)
            finally:
                raw.close()
            sessions: list[str] = []
            if self.sessions_dir.is_dir():
                (tmp / SESSIONS).mkdir()
                for p in sorted(self.sessions_dir.glob("*.jsonl")):
                    if p.is_file():
                        shutil.copy2(p, tmp / SESSIONS / p.name)
                        sessions.append(p.name)
        con2 = _connect_ro(tmp / DB_NAME)
        try:
            rev = con2.execute(f"SELECT value FROM {REVISION_TABLE} WHERE id = 1").fetchone()
            head_row = None
            with contextlib.suppress(sqlite3.Error):
                head_row = con2.execute(
                    "SELECT workspace, file, seq, head_sig, epoch, count FROM audit_heads"
                ).fetchall()
        finally:
            con2.close()
        head = None
        if head_row:
            ws_id, file_, seq, sig, epoch, count = head_row[0]
            head = {"workspace": ws_id, "file": file_, "seq": seq, "head_sig": sig, "epoch": epoch, "count": count}
        return head, sessions, int(rev[0]) if rev else 0, problems

    # ------------------------------------------------------------------ the daily one
    def daily(self, keep: int = DEFAULT_KEEP, today: date | None = None) -> dict[str, Any]:
        """`schedule run`'s step: one backup a day (skipped when today's exists), then only the
        `keep` newest daily ones are kept (the operator's own backups are never pruned)."""
        if keep < 1:
            raise InvalidInputError(f"[backup] keep must be at least 1; got {keep}")
        self.require_sqlite()
        day = (today or self.clock().date()).isoformat()
        existing = [b for b in self.available() if b.kind == "daily" and b.day == day]
        out: dict[str, Any] = {"keep": keep, "pruned": []}
        if existing:
            out.update(
                status="skipped", path=str(existing[-1].path), detail=f"today's backup exists: {existing[-1].path}"
            )
        else:
            made = self.create(daily=True)
            out.update(
                status="ok", **made, detail=f"{made['path']} ({made['bytes']} bytes, revision {made['revision']})"
            )
        out["pruned"] = [str(p) for p in self.prune(keep)]
        return out

    def prune(self, keep: int) -> list[Path]:
        dailies = [b for b in self.available() if b.kind == "daily"]
        removed: list[Path] = []
        for b in dailies[: max(0, len(dailies) - keep)]:
            shutil.rmtree(b.path)
            removed.append(b.path)
        return removed


# --------------------------------------------------------------------------- putting one back


def sidecars(db: Path) -> Iterator[Path]:
    for suffix in SIDECARS:
        p = db.with_name(db.name + suffix)
        if p.exists():
            yield p


def aside_name(db: Path, when: datetime) -> Path:
    """`lorekeeper.db` -> `lorekeeper.replaced-YYYYMMDD-HHMMSSZ.db` (its `-wal` keeps the pairing, so
    `sqlite3` opening the set-aside file still sees the frames of its WAL)."""
    base = f"{db.stem}.replaced-{stamp(when)}"
    target, n = db.with_name(base + db.suffix), 1
    while target.exists() or any(target.with_name(target.name + s).exists() for s in SIDECARS):
        n += 1
        target = db.with_name(f"{base}-{n}{db.suffix}")
    return target


def set_aside(db: Path, when: datetime) -> list[dict[str, str]]:
    """Rename the database and its -wal, -shm, -journal aside (never over an existing file)."""
    moved: list[dict[str, str]] = []
    if not db.exists() and not any(True for _ in sidecars(db)):
        return moved
    target = aside_name(db, when)
    for src in [db, *sidecars(db)]:
        if not src.exists():
            continue
        dst = target.with_name(target.name + src.name[len(db.name) :])
        if dst.exists():  # pragma: no cover - aside_name chose a free name
            raise BackupError(f"{dst} exists: nothing was renamed over it")
        os.rename(src, dst)
        moved.append({"from": str(src), "to": str(dst)})
    _fsync_dir(db.parent)
    return moved


def read_revision(db: Path) -> int | None:
    """The store revision a database file holds (read-only; None when it cannot be read)."""
    if not db.is_file():
        return None
    try:
        con = _connect_ro(db)
        try:
            row = con.execute(f"SELECT value FROM {REVISION_TABLE} WHERE id = 1").fetchone()
        finally:
            con.close()
    except sqlite3.Error:
        return None
    return int(row[0]) if row else None


def put_in_place(backup_db: Path, db: Path, *, revision_floor: int = 0) -> None:
    """Copy the (checked) backup to a temporary name next to `db` with the backup API, then rename
    it to `db`, which must not exist (it was set aside). The copy's store revision is moved past
    `revision_floor` (the replaced store's), so caches keyed on the revision (the agent hook's
    snapshot, the router) never take the restored store for a state they saw before."""
    if db.exists():
        raise BackupError(f"{db} still exists: it must be set aside before a backup is put in its place")
    tmp = db.with_name(f".{db.name}.restore-{os.getpid()}.tmp")
    for stale in [tmp, *sidecars(tmp)]:
        stale.unlink(missing_ok=True)
    src = _connect_ro(backup_db)
    try:
        problems = copy_database(src, tmp)
    finally:
        src.close()
    try:
        if not problems:
            con = sqlite3.connect(str(tmp))
            try:
                with con:
                    con.execute(
                        f"UPDATE {REVISION_TABLE} SET value = max(value, ?) + 1 WHERE id = 1", (int(revision_floor),)
                    )
            finally:
                con.close()
        if problems:
            raise BackupError(f"the copy of {backup_db} does not pass integrity_check ({'; '.join(problems[:3])})")
        left = list(sidecars(tmp))
        if left:
            raise BackupError(f"the restored copy left {', '.join(p.name for p in left)}: not put in place")
        os.rename(tmp, db)  # durable already: its commits were synced by SQLite (synchronous=FULL)
        _fsync_dir(db.parent)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def head_in_log(sessions_dir: Path, head: dict[str, Any] | None) -> bool:
    """Whether the day files hold the event a backup's store head names (then the log continues the
    backup's chain and stays in place)."""
    if not head or not head.get("file"):
        return True  # the backup's store had no head: nothing to match
    path = sessions_dir / str(head["file"])
    sig = str(head.get("head_sig") or head.get("sig") or "")
    if not sig or not path.is_file():
        return False
    try:
        data = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    seq = int(head.get("seq") or 0)
    for line in data.split("\n"):
        if sig not in line:
            continue
        try:
            ev = json.loads(line)
        except ValueError:
            continue
        if isinstance(ev, dict) and ev.get("sig") == sig and ev.get("seq") == seq:
            return True
    return False


def retained_copies(root: Path) -> list[Path]:
    """The copies of the store a workspace keeps on purpose (relative to `root`): the backup folders
    and what `restore` set aside. They hold what was purged after they were made, until pruned or
    deleted by hand; a purge's verification should name them as retained copies, not as residue
    it failed to erase (see the README)."""
    out: list[Path] = []
    backups = root / BACKUPS_DIR
    if backups.is_dir():
        out.extend(p.relative_to(root) for p in sorted(backups.iterdir()) if _NAME.match(p.name))
    out.extend(p.relative_to(root) for p in sorted(root.glob("*.replaced-*")))
    return out


# --------------------------------------------------------------------------- guidance


def postgres_guidance(url: str, action: str = "backup") -> str:
    """The pg_dump (or pg_restore) command for the configured URL, without its password."""
    from sqlalchemy.engine import URL, make_url

    try:
        u = make_url(url)
        bare = URL.create(u.get_backend_name(), u.username, None, u.host, u.port, u.database, u.query)
        plain = bare.render_as_string(hide_password=False)
        db = u.database or "lorekeeper"
    except Exception:  # noqa: BLE001 - an odd URL still gets the advice
        plain, db = "postgresql://USER@HOST:5432/DATABASE", "lorekeeper"
    if action == "restore":
        return (
            f"this workspace's store is PostgreSQL ({plain}): Lorekeeper does not restore it. Stop every "
            f"Lorekeeper process that uses it, then run `pg_restore --clean --if-exists --no-owner --dbname "
            f"'{plain}' {db}.dump` (the password from PGPASSWORD or ~/.pgpass, never on the command line); "
            "put the session log (sessions/) of the same time back with it."
        )
    return (
        f"this workspace's store is PostgreSQL ({plain}): back it up with the server's tool, e.g. "
        f"`pg_dump --format=custom --file={db}-$(date -u +%Y%m%d).dump '{plain}'` "
        "(the password from PGPASSWORD or ~/.pgpass, never on the command line), and copy the workspace's "
        "sessions/ folder at the same time (the signed log that goes with it)."
    )


def restore_command(root: Path, backup: Path) -> str:
    import shlex

    return f"lorekeeper --workspace {shlex.quote(str(root))} restore {shlex.quote(str(backup))}"


def damaged_advice(root: Path, db: Path | None) -> tuple[str, dict[str, Any]]:
    """What to do about a damaged store: the newest backup and the exact restore command, or the
    sqlite3 `.recover` route when there is none. The damaged file is never overwritten."""
    import shlex

    newest = newest_backup(root / BACKUPS_DIR)
    where = str(db) if db is not None else "the database file"
    details: dict[str, Any] = {"workspace": str(root), "database": str(db or "")}
    if newest is not None:
        cmd = restore_command(root, newest.path)
        details.update(backup=str(newest.path), backup_created_at=newest.created_at, restore_command=cmd)
        return (
            f"The newest backup is {newest.path} (taken {newest.created_at}). Close every Lorekeeper window and "
            f"command on this workspace, then restore it: `{cmd}` (the damaged file is renamed aside, never "
            "overwritten; changes made since the backup are not in it).",
            details,
        )
    recovered = shlex.quote(str(root / "recovered.db"))
    src = shlex.quote(where)
    details["recover_command"] = f"sqlite3 {src} .recover | sqlite3 {recovered}"
    # Debian 12's sqlite3 (3.40.1) has no sqlite_dbpage: its .recover stops at "SQL logic error".
    # .dump reads what it can and ends in ROLLBACK on the damaged pages: commit what it read instead.
    details["dump_command"] = (
        f"sqlite3 {src} .dump | sed '$s/^ROLLBACK; -- due to errors$/COMMIT;/' | sqlite3 {recovered}"
    )
    details["restore_command"] = restore_command(root, root / "recovered.db")
    return (
        f"There is no backup under {root / BACKUPS_DIR}. The damaged file is {where}. To salvage what it holds, "
        f"close every Lorekeeper window, then run `{details['recover_command']}` (if that sqlite3 has no working "
        f".recover, `{details['dump_command']}`), and restore the result: `{details['restore_command']}` "
        "(it is checked first; the damaged file is renamed aside; rows on the damaged pages are lost). "
        "From now on, `lorekeeper backup` (and `schedule run`, daily) keeps copies under backups/.",
        details,
    )
