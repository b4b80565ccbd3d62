"""Engine and session factory: one write path that holds across processes and machines.

Every `Store.write()` transaction takes the store's write lock before its first statement:

- SQLite: `BEGIN IMMEDIATE` (pysqlite's own transaction handling is switched off and SQLAlchemy's
  "begin" event emits the BEGIN, as SQLAlchemy's pysqlite notes describe), with a busy timeout
  (`[store] busy_timeout`, seconds). Reads stay deferred and, in WAL mode, never wait for a writer.
- PostgreSQL: a transaction-level advisory lock (`pg_advisory_xact_lock`) on a key derived from the
  store, under `SET LOCAL lock_timeout`, so writers of every process and machine are serialised.

Inside the process a lock serialises writers too (so threads do not spin on the database lock).
When the lock cannot be had in time the write fails with ERR_STORE_BUSY (exit 4). Every write
transaction bumps a one-row counter (`store_revision`), so `Store.revision()` moves on any change
made by any process; long-lived processes key their caches on it.

Migrations (Alembic) are applied when the store is opened, under the same write lock, so a
workspace always has the schema of the code that opens it.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from lorekeeper import dbfiles
from lorekeeper.changes import ChangeSet
from lorekeeper.errors import LorekeeperError
from lorekeeper.store import feed as feed_mod

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
DEFAULT_BUSY_TIMEOUT = 15.0  # seconds a writer waits for the write lock before ERR_STORE_BUSY
WRITE_OPTION = "lorekeeper_write"  # execution option that marks a write connection
REVISION_TABLE = "store_revision"
_BUMP_REVISION = text(f"UPDATE {REVISION_TABLE} SET value = value + 1 WHERE id = 1 RETURNING value")
AFTER_COMMIT = "lorekeeper_after_commit"  # session.info key: callables run after the commit
GUARDED = "lorekeeper_guarded"  # session.info key: the write guards ran before this transaction began
#: the advisory-lock key of the store's write lock (per database: PostgreSQL scopes them so)
ADVISORY_KEY = int.from_bytes(hashlib.sha256(b"lorekeeper.store.write").digest()[:8], "big", signed=True)


class StoreError(LorekeeperError):
    code = "ERR_STORE"


class StoreBusyError(StoreError):
    """Another writer held the store's write lock for longer than the busy timeout."""

    code = "ERR_STORE_BUSY"


class StoreConflictError(StoreError):
    """A write collided with a constraint (usually another process's concurrent change)."""

    code = "ERR_STORE_CONFLICT"


class StoreDamagedError(StoreError):
    """The SQLite file is damaged ("database disk image is malformed": a lost tail, a torn page; "file
    is not a database": a wrecked header). `Workspace.open` names the newest backup and the restore
    command; nothing writes to the damaged file."""

    code = "ERR_STORE_DAMAGED"


#: SQLite's primary result codes for a damaged file: SQLITE_CORRUPT, SQLITE_NOTADB
_DAMAGE_CODES = (11, 26)
_DAMAGE_WORDS = ("malformed", "file is not a database", "is encrypted or is not a database", "database corrupt")


def is_damage_error(exc: BaseException) -> bool:
    """True for SQLite's "the file is damaged" errors, raw or wrapped by SQLAlchemy."""
    orig = getattr(exc, "orig", None) or exc
    code = getattr(orig, "sqlite_errorcode", None)
    if isinstance(code, int) and (code & 0xFF) in _DAMAGE_CODES:
        return True
    msg = str(orig).lower()
    return any(w in msg for w in _DAMAGE_WORDS)


def busy_message(timeout: float) -> str:
    return (
        f"the store is busy: another process kept its write lock for more than {timeout:g} s. "
        "Run the command again in a moment, or raise [store] busy_timeout in lorekeeper.toml."
    )


def is_lock_error(exc: BaseException) -> bool:
    """SQLite "database is locked/busy" or PostgreSQL lock_not_available (55P03)."""
    if not isinstance(exc, OperationalError | DBAPIError):
        return False
    orig = getattr(exc, "orig", None)
    if getattr(orig, "sqlstate", None) == "55P03" or getattr(orig, "pgcode", None) == "55P03":
        return True
    msg = str(orig or exc).lower()
    return "database is locked" in msg or "database is busy" in msg or "lock timeout" in msg


def is_unique_violation(exc: BaseException) -> bool:
    if not isinstance(exc, IntegrityError):
        return False
    orig = getattr(exc, "orig", None)
    if getattr(orig, "sqlstate", None) == "23505":
        return True
    return "unique constraint" in str(orig or exc).lower()


def sqlite_file(url: str) -> Path | None:
    """The database file of a SQLite URL (None for PostgreSQL and in-memory stores)."""
    prefix = "sqlite:///"
    if not url.startswith(prefix) or url == "sqlite:///:memory:":
        return None
    path = url[len(prefix) :].split("?", 1)[0]
    return Path(path) if path else None


def resolve_url(url: str, base: Path) -> str:
    """`sqlite:///lorekeeper.db` is relative to the workspace; absolute paths and servers pass through."""
    prefix = "sqlite:///"
    if url.startswith(prefix) and not url.startswith(prefix + "/") and url != "sqlite:///:memory:":
        return prefix + str((base / url[len(prefix) :]).resolve())
    return url


class Captured:
    """The change sets committed inside one `Store.capture()` block."""

    def __init__(self) -> None:
        self.sets: list[ChangeSet] = []

    def append(self, changes: ChangeSet) -> None:
        self.sets.append(changes)

    @property
    def changes(self) -> ChangeSet:
        out = ChangeSet()
        for c in self.sets:
            out = out | c
        return out


class Store:
    """Owns the engine. `session()` for reads, `write()` for serialised, transactional writes."""

    def __init__(self, url: str, *, migrate: bool = True, busy_timeout: float = DEFAULT_BUSY_TIMEOUT) -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        if self.is_sqlite:
            dbfiles.install_guard()  # nothing of ours opens the live files behind SQLite's back
        self.busy_timeout = float(busy_timeout)
        kwargs: dict[str, Any] = {}
        if self.is_sqlite:
            # isolation_level=None: pysqlite issues no BEGIN of its own; `_on_begin` does.
            kwargs["connect_args"] = {
                "check_same_thread": False,
                "timeout": self.busy_timeout,
                "isolation_level": None,
            }
        else:
            kwargs["pool_pre_ping"] = True
        try:
            self.engine: Engine = create_engine(url, **kwargs)
        except (SQLAlchemyError, ImportError, ValueError) as exc:
            raise StoreError(f"cannot open store {url!r}: {exc}. Check [store] url in lorekeeper.toml.") from None
        if self.is_sqlite:
            event.listen(self.engine, "connect", self._sqlite_pragmas)
            event.listen(self.engine, "begin", self._sqlite_begin)
        self._write_engine = self.engine.execution_options(**{WRITE_OPTION: True})
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._write_sessions = sessionmaker(self._write_engine, expire_on_commit=False)
        feed_mod.install(self._write_sessions)
        self._write_lock = threading.RLock()
        self.sqlite_path: Path | None = sqlite_file(url)
        self._local = threading.local()
        # Called with the session at the end of every write transaction, before its commit (the
        # audit chain signs the decision-driving rows here: `audit.rows.install_row_signing`). A
        # hook that raises rolls the whole transaction back: nothing is written.
        self.before_commit: list[Callable[[Session], None]] = []
        # Called before an outermost write transaction takes the store's write lock (nothing held
        # yet): what must not be set up while the lock is held goes here. The workspace opens the
        # audit session here, whose start takes the session log's file lock: taken inside the
        # transaction it deadlocked with a process that held the log lock and waited for the store
        # (measured: 15 s waits per concurrent import on PostgreSQL).
        self.before_write: list[Callable[[], None]] = []
        self.info: dict[str, Any] = {}  # flags for the write hooks (e.g. audit.rows.KEYLESS_LEGACY)
        # Called after `before_write`, before an outermost write transaction takes the lock, unless
        # the thread is inside `unguarded()`: a guard that raises refuses the write before anything
        # is written. The workspace installs `AuditService.guard_write` here (fail closed, issue 24):
        # no key or a broken chain, no write at all, signed rows or not.
        self.write_guards: list[Callable[[], None]] = []
        self.feed = feed_mod.ChangeFeed(self)  # change sets: this process's commits, others' by poll()
        if migrate:
            try:
                self.migrate()
            except BaseException:
                self.engine.dispose()  # a store that cannot open keeps no connection to the file
                raise

    # ------------------------------------------------------------------ connection set-up
    def _sqlite_pragmas(self, dbapi_conn: Any, _record: Any) -> None:
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute(f"PRAGMA busy_timeout={int(self.busy_timeout * 1000)}")
        cur.close()

    def _bump_revision(self, s: Session) -> int:
        """The store revision, bumped: one statement where the database returns the new value."""
        if not self.is_sqlite or sqlite3.sqlite_version_info >= (3, 35):
            return int(s.execute(_BUMP_REVISION).scalar() or 0)
        s.execute(text(f"UPDATE {REVISION_TABLE} SET value = value + 1 WHERE id = 1"))
        return int(s.execute(text(f"SELECT value FROM {REVISION_TABLE} WHERE id = 1")).scalar() or 0)

    @staticmethod
    def _sqlite_begin(conn: Connection) -> None:
        if conn.get_execution_options().get(WRITE_OPTION):
            conn.exec_driver_sql("BEGIN IMMEDIATE")  # the write lock, up front (waits busy_timeout)
        else:
            conn.exec_driver_sql("BEGIN")  # deferred: a WAL read never waits

    def _lock_postgres(self, conn: Connection) -> None:
        ms = max(1, int(self.busy_timeout * 1000))
        conn.exec_driver_sql(f"SET LOCAL lock_timeout = {ms}")
        conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": ADVISORY_KEY})

    # ------------------------------------------------------------------ migrations
    def migrate(self) -> None:
        from lorekeeper.store.heads import is_current

        try:
            if is_current(self.engine):  # the usual case: no Alembic import at all
                return
            from lorekeeper.store.migrate import upgrade

            upgrade(self)
        except SQLAlchemyError as exc:
            if is_lock_error(exc):
                raise StoreBusyError(busy_message(self.busy_timeout)) from None
            if is_damage_error(exc):
                raise StoreDamagedError(
                    f"the database file {self.sqlite_path or self.url} is damaged ({getattr(exc, 'orig', None) or exc})",
                    database=str(self.sqlite_path or ""),
                ) from None
            raise StoreError(f"cannot migrate store: {exc}") from None

    @contextmanager
    def locked_connection(self) -> Iterator[Connection]:
        """A Core connection in one transaction that holds the write lock (migrations use it)."""
        with self._write_lock:
            try:
                with self._write_engine.begin() as conn:
                    if not self.is_sqlite:
                        self._lock_postgres(conn)
                    yield conn
            except OperationalError as exc:
                if is_lock_error(exc):
                    raise StoreBusyError(busy_message(self.busy_timeout)) from None
                raise

    # ------------------------------------------------------------------ sessions
    @contextmanager
    def session(self) -> Iterator[Session]:
        """A read session (no commit)."""
        s = self._sessions()
        try:
            yield s
        finally:
            s.close()

    @contextmanager
    def write(self) -> Iterator[Session]:
        """One transaction holding the write lock; commit on success, roll back on any error.

        Nested calls in the same thread join the outer transaction (one lock, one commit). What
        the transaction touched becomes a `ChangeSet`: recorded in `store_changes` (for other
        processes), then, after commit, published to `self.feed`'s subscribers and kept as
        `self.last_changes()` (this thread) and in every open `self.capture()`.
        """
        outer: Session | None = getattr(self._local, "session", None)
        if outer is not None:
            yield outer
            return
        committed: ChangeSet | None = None
        after: list[Callable[[], None]] = []
        for prepare in list(self.before_write):
            prepare()
        guards = [] if getattr(self._local, "unguarded", 0) else list(self.write_guards)
        for guard in guards:
            guard()
        with self._write_lock:
            s = self._write_sessions()
            s.info[GUARDED] = bool(guards)
            self._local.session = s
            revision = 0
            try:
                try:
                    conn = s.connection()  # BEGIN IMMEDIATE on SQLite
                    if not self.is_sqlite:
                        self._lock_postgres(conn)
                    revision = self._bump_revision(s)
                except OperationalError as exc:
                    if is_lock_error(exc):
                        raise StoreBusyError(busy_message(self.busy_timeout)) from None
                    raise
                feed_mod.collect(s)
                yield s
                s.flush()
                for hook in list(self.before_commit):
                    hook(s)
                changes = feed_mod.collected(s, revision)
                feed_mod.record(s, changes)
                self.feed.mark_own(revision)
                s.commit()
                committed = changes
                after = list(s.info.pop(AFTER_COMMIT, ()))
            except BaseException as exc:
                s.rollback()
                if revision:
                    self.feed.unmark_own(revision)
                if isinstance(exc, OperationalError) and is_lock_error(exc):
                    raise StoreBusyError(busy_message(self.busy_timeout)) from None
                if is_unique_violation(exc):
                    raise StoreConflictError(
                        "another process changed the same data at the same time; nothing was saved. "
                        "Run the command again."
                    ) from exc
                raise
            finally:
                self._local.session = None
                s.close()
        # after commit and outside the lock: a subscriber may read (or even write) the store
        self._local.last = committed
        for captured in getattr(self._local, "captures", ()):
            captured.append(committed)
        if committed:
            self.feed.publish(committed)
        for fn in after:  # e.g. the audit outbox written to the day file (issue 18), published after
            fn()

    @contextmanager
    def unguarded(self) -> Iterator[None]:
        """Write transactions of this thread inside the block skip `write_guards`: only for the
        writes that must go through when the guards refuse (the audit chain's own head, outbox and
        tombstones; an adopt or a restore that repairs the chain), never for a change of data."""
        self._local.unguarded = getattr(self._local, "unguarded", 0) + 1
        try:
            yield
        finally:
            self._local.unguarded -= 1

    @property
    def write_sessionmaker(self) -> sessionmaker[Session]:
        """The factory of write sessions (for session events such as the row-signing hook)."""
        return self._write_sessions

    def write_guarded(self) -> bool:
        """True inside a `write()` block of this thread whose write guards ran before it began (in a
        workspace: the audit's `check_writable`, so the key and the chain were checked for it)."""
        s = getattr(self._local, "session", None)
        return bool(s is not None and s.info.get(GUARDED))

    def in_write(self) -> bool:
        """True inside a `write()` block of this thread (what is added now commits with it)."""
        return getattr(self._local, "session", None) is not None

    @staticmethod
    def after_commit(s: Session, fn: Callable[[], None]) -> None:
        """Run `fn` once the transaction of `s` has committed, outside the write lock (once per `fn`)."""
        pending: list[Callable[[], None]] = s.info.setdefault(AFTER_COMMIT, [])
        if fn not in pending:
            pending.append(fn)

    def last_changes(self) -> ChangeSet:
        """The change set of this thread's last committed `write()` (empty before any)."""
        last: ChangeSet | None = getattr(self._local, "last", None)
        return last if last is not None else ChangeSet()

    @contextmanager
    def capture(self) -> Iterator[Captured]:
        """Collect the change sets this thread commits inside the block: `cap.changes` is their union."""
        captures: list[Captured] = self._local.__dict__.setdefault("captures", [])
        cap = Captured()
        captures.append(cap)
        try:
            yield cap
        finally:
            captures.remove(cap)

    def revision(self) -> int:
        """The store's change counter: it moves on every write transaction of any process."""
        try:
            with self.engine.connect() as conn:
                value = conn.execute(text(f"SELECT value FROM {REVISION_TABLE} WHERE id = 1")).scalar()
                conn.rollback()
        except SQLAlchemyError:
            return 0
        return int(value or 0)

    def close(self) -> None:
        self.engine.dispose()
