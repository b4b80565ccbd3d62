"""The context the UserPromptSubmit hook adds to every prompt, its fast path, and how that cache is
kept honest.

A hook runs on every prompt, so it must answer in well under 300 ms; opening a `Workspace`
(SQLAlchemy, the services, the migrations check) costs several times that, and so does loading
the audit key (the keyring library alone is ~0.4 s of CPU). So the hook keeps a snapshot of what
the context depends on, per project and story, in `<workspace>/indexes/`: the routable skills
(name, description, triggers, keywords), the LEARNINGS block and the other blocks (facts, a
story's memory), as the services computed them from verified rows, with the store revision they
were read at.

The snapshot feeds the agent, so a file-system attacker (the workspace and its database writable,
no key) must not be able to change what it says (issue 24). Three things hold it:

- **Signed.** The slow path (workspace open, key session loaded, rows verified) writes the
  snapshot as one JSON object signed like every other signed object (RFC 8785 + HMAC-SHA256 under
  the session key, with `key_version`; `kind` = "hook_snapshot" and an exact field set, so no
  other signed object passes for one). It binds the workspace id, project, story, store revision
  and config time. Anyone holding the key checks it: the slow path before it replaces a file,
  `audit status` for every file on disk.
- **Witnessed.** The fast path cannot afford the key, so the slow path also records the SHA-256 of
  the exact bytes it wrote in a witness file outside the workspace (the user's state dir, 0600,
  like the audit head's witness): `<state>/hook-snapshots/<workspace id>.json`. The fast path
  serves a snapshot only when its bytes hash to the witnessed digest, so an edited file, a forged
  one or an older, validly signed one written back is never served, whatever the database says.
- **Fresh.** The fast path reads the store revision and the change feed (`store_changes`) with the
  standard library's `sqlite3`, read-only: the snapshot is used only when no transaction since it
  changed a kind the context depends on (anything but evals, quality events, audit checkpoints,
  proposals and benchmarks), the config file is unchanged and the key's environment (keyring
  backend, Vault address and token presence) is the one the snapshot was built in.

Anything else (no witness, a mismatch, a stale or unreadable file, a PostgreSQL store) takes the
slow path, which checks the old file with the key, reports a forged or replayed one (hooks.log,
a signed `unsigned_entry` event, the witness's rejection count that `audit status` adds to its
ERR_UNSIGNED_ENTRY counts), rebuilds from verified rows and writes both files. Without the key the
slow path serves only what needs no verification (SKILLS_HINT, as `prompt` does), writes no
snapshot and revokes the workspace's witness, so no earlier snapshot is served while the key is
missing; any agent-path process that finds the key gone (`prompt`, the Stop hook) revokes it too.

Format: `version` names the field set; a file of another version is never served (it is rebuilt
quietly: an upgrade, not an attack). To extend the snapshot, add the field to `FIELDS` and bump
`SNAPSHOT_VERSION`.

Both paths compose the context with `compose`, so their answers are identical. This module imports
only the standard library and the router.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import sys
import time
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from lorekeeper.fsutil import atomic_write_bytes, read_regular_raw, sweep_temp_files
from lorekeeper.skills.router import DEFAULT_TOP, RoutableSkill, Router

SNAPSHOT_VERSION = 3
SNAPSHOT_KIND = "hook_snapshot"
#: the signed fields of a version-3 snapshot (besides `key_version` and `sig`)
FIELDS = frozenset(
    {
        "kind",
        "version",
        "workspace_id",
        "revision",
        "config_mtime",
        "key_env",
        "project",
        "story",
        "top",
        "budget",
        "skills",
        "learnings",
        "blocks",
    }
)
DEFAULT_BUDGET = 8000  # characters of additionalContext ([hooks] budget in lorekeeper.toml)
#: change kinds that never alter the hook's context (a Stop hook's own quality events among them)
IRRELEVANT_KINDS = frozenset({"evals", "quality", "audit", "proposals", "benchmarks"})
MAX_FEED_ROWS = 5000
SNAPSHOT_LIMIT = 256 * 1024 * 1024  # a snapshot is a few hundred KB; a bigger file is not ours
STATE_ENV = "LOREKEEPER_STATE_DIR"  # as lorekeeper.audit.witness: overrides the user state dir
WITNESS_DIR = "hook-snapshots"
MAX_WITNESSED = 256  # (project, story) entries kept per workspace, the most recent
LOCK_WAIT = 2.0  # seconds the fast path waits for a writer's lock before taking the slow path
#: environment variables that decide where the key session's key comes from (their values, or for
#: secrets only whether they are set): a hook run in another environment does not inherit a
#: snapshot proven in this one
KEY_ENV_VALUES = ("PYTHON_KEYRING_BACKEND", "VAULT_ADDR", "VAULT_NAMESPACE", "LOREKEEPER_STATE_DIR")
KEY_ENV_PRESENT = ("VAULT_TOKEN", "DBUS_SESSION_BUS_ADDRESS")


class SignerLike(Protocol):
    """`lorekeeper.audit.signer.Signer` (not imported: the fast path never signs or verifies)."""

    version: int

    def sign(self, obj: Mapping[str, Any]) -> dict[str, Any]: ...
    def verify(self, obj: Mapping[str, Any]) -> Any: ...  # a Verdict: truthy when it verifies


@dataclass
class Snapshot:
    revision: int
    config_mtime: int
    project: str
    story: str
    top: int
    budget: int
    skills: list[RoutableSkill]
    learnings: str
    blocks: list[tuple[str, str]] = field(default_factory=list)  # (name, text): facts, memory, ...
    workspace_id: str = ""
    key_env: str = ""
    notices: list[str] = field(default_factory=list)  # not saved: why blocks were left out (logged)

    def body(self) -> dict[str, Any]:
        """The signed content (without `key_version` and `sig`)."""
        return {
            "kind": SNAPSHOT_KIND,
            "version": SNAPSHOT_VERSION,
            "workspace_id": self.workspace_id,
            "revision": self.revision,
            "config_mtime": str(self.config_mtime),  # nanoseconds: beyond 2^53, so a string (JCS)
            "key_env": self.key_env,
            "project": self.project,
            "story": self.story,
            "top": self.top,
            "budget": self.budget,
            "skills": [[s.name, s.description, list(s.triggers), list(s.keywords)] for s in self.skills],
            "learnings": self.learnings,
            "blocks": [list(b) for b in self.blocks],
        }

    @classmethod
    def from_body(cls, data: dict[str, Any]) -> Snapshot:
        """Strict: exactly the fields of this version (ValueError, KeyError or TypeError otherwise)."""
        if data.get("kind") != SNAPSHOT_KIND or data.get("version") != SNAPSHOT_VERSION:
            raise ValueError("not a hook snapshot of this version")
        if set(data) - {"key_version", "sig"} != FIELDS:
            raise ValueError("unexpected fields")
        return cls(
            revision=int(data["revision"]),
            config_mtime=int(data["config_mtime"]),
            project=str(data["project"]),
            story=str(data["story"]),
            top=int(data["top"]),
            budget=int(data["budget"]),
            skills=[RoutableSkill(str(n), str(d), tuple(t), tuple(k)) for n, d, t, k in data["skills"]],
            learnings=str(data["learnings"]),
            blocks=[(str(n), str(t)) for n, t in data["blocks"]],
            workspace_id=str(data["workspace_id"]),
            key_env=str(data["key_env"]),
        )


# --------------------------------------------------------------------------- the workspace's config


def _config(root: Path) -> dict[str, Any]:
    try:
        return tomllib.loads((root / "lorekeeper.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return {}


def workspace_id_of(cfg: Mapping[str, Any]) -> str:
    ws = cfg.get("workspace")
    return str(ws.get("id") or "") if isinstance(ws, dict) else ""


def snapshot_tag(project: str, story: str = "") -> str:
    return hashlib.sha256(f"{project}\0{story}".encode()).hexdigest()[:12]


def snapshot_path(root: Path, project: str, story: str = "") -> Path:
    return root / "indexes" / f"hook-context-{snapshot_tag(project, story)}.json"


def snapshot_files(root: Path) -> list[Path]:
    folder = root / "indexes"
    return sorted(p for p in folder.glob("hook-context-*.json") if p.is_file()) if folder.is_dir() else []


def config_mtime(root: Path) -> int:
    try:
        return os.stat(root / "lorekeeper.toml").st_mtime_ns
    except OSError:
        return 0


def key_env() -> str:
    """A digest of where this process would load the key from (no secret in it)."""
    parts = [f"{k}={os.environ.get(k, '')}" for k in KEY_ENV_VALUES]
    parts += [f"{k}?{int(bool(os.environ.get(k)))}" for k in KEY_ENV_PRESENT]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]


def _sqlite_file(root: Path, cfg: Mapping[str, Any]) -> Path | None:
    """The SQLite database file of the workspace's store, None for another database."""
    store = cfg.get("store")
    url = str(store.get("url", "sqlite:///lorekeeper.db")) if isinstance(store, dict) else "sqlite:///lorekeeper.db"
    if not url.startswith("sqlite:///"):
        return None
    path = Path(url[len("sqlite:///") :])
    return path if path.is_absolute() else root / path


def still_valid(root: Path, snap: Snapshot, cfg: Mapping[str, Any] | None = None) -> int | None:
    """The current store revision when nothing the context depends on changed since `snap`; else None."""
    db = _sqlite_file(root, _config(root) if cfg is None else cfg)
    if db is None or not db.is_file() or snap.config_mtime != config_mtime(root) or snap.key_env != key_env():
        return None
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=2.0)
    try:
        row = con.execute("SELECT value FROM store_revision WHERE id = 1").fetchone()
        current = int(row[0]) if row else 0
        if current == snap.revision:
            return current
        if current < snap.revision or current - snap.revision > MAX_FEED_ROWS:
            return None
        rows = con.execute(
            "SELECT revision, kinds FROM store_changes WHERE revision > ? AND revision <= ?",
            (snap.revision, current),
        ).fetchall()
    except sqlite3.Error:
        return None
    finally:
        con.close()
    if len(rows) != current - snap.revision:
        return None  # pruned or written before the change feed: assume everything changed
    for _rev, kinds in rows:
        try:
            names = set(json.loads(kinds))
        except (TypeError, ValueError):
            return None
        if names - IRRELEVANT_KINDS:
            return None
    return current


# --------------------------------------------------------------------------- signing (key holders only)


def seal(snap: Snapshot, signer: SignerLike) -> bytes:
    """The file's bytes: the snapshot signed with the session key."""
    return json.dumps(signer.sign(snap.body()), ensure_ascii=False).encode("utf-8")


@dataclass(frozen=True)
class Examined:
    """What a key holder finds in a snapshot file: `ok`, or why it must not be served."""

    ok: bool
    reason: str = ""  # "" | "unreadable" | "does not verify" | "foreign" | "other version" | "older"
    revision: int | None = None
    snapshot: Snapshot | None = None

    @property
    def forged(self) -> bool:
        """A file Lorekeeper never wrote as it stands (or a signed one moved or written back)."""
        return not self.ok and self.reason != "other version"


def examine(
    data: bytes,
    signer: SignerLike,
    *,
    workspace_id: str,
    project: str | None = None,
    story: str | None = None,
    witnessed: str | None = None,
) -> Examined:
    """Check a snapshot file's bytes with the key: signature, field set, workspace, project and
    story, and (with `witnessed`, the digest the witness holds) that it is the latest one written."""
    try:
        obj = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return Examined(False, "unreadable")
    if not isinstance(obj, dict):
        return Examined(False, "unreadable")
    if obj.get("kind") != SNAPSHOT_KIND or obj.get("version") != SNAPSHOT_VERSION:
        legacy = isinstance(obj.get("version"), int) and obj.get("version") != SNAPSHOT_VERSION and "sig" not in obj
        return Examined(False, "other version" if legacy else "does not verify")
    try:
        verdict = signer.verify(obj)
    except Exception:  # noqa: BLE001 - a value the canonical form refuses (a float, a huge int): forged
        verdict = False
    if not verdict:
        return Examined(False, "does not verify")
    try:
        snap = Snapshot.from_body(obj)
    except (ValueError, KeyError, TypeError):
        return Examined(False, "does not verify")
    if snap.workspace_id != workspace_id or (project is not None and snap.project != project):
        return Examined(False, "foreign", snap.revision)
    if story is not None and snap.story != story:
        return Examined(False, "foreign", snap.revision)
    if witnessed is not None and hashlib.sha256(data).hexdigest() != witnessed:
        return Examined(False, "older", snap.revision)
    return Examined(True, "", snap.revision, snap)


# --------------------------------------------------------------------------- the witness


def state_dir() -> Path:
    """The user's state dir (platformdirs' `user_state_dir("lorekeeper")`, computed without it on
    Linux: the hook keeps its imports to the standard library)."""
    override = os.environ.get(STATE_ENV)
    if override:
        return Path(override)
    platform: str = sys.platform  # a plain str: the other branch is live on macOS and Windows
    if platform.startswith("linux"):
        base = os.environ.get("XDG_STATE_HOME", "").strip() or os.path.expanduser("~/.local/state")
        return Path(base) / "lorekeeper"
    import platformdirs

    return Path(platformdirs.user_state_dir("lorekeeper", appauthor=False))


class Witness:
    """The digests of the snapshots the slow path wrote, outside the workspace, and the count of
    snapshots rejected since the workspace began (what `audit status` reports).

    `<state>/hook-snapshots/<workspace id>.json`: `{"workspace_id", "entries": {tag: {"sha256",
    "revision", "at"}}, "rejected": {"count", "last"}}`, 0600, replaced atomically under an
    exclusive `flock` on the `.lock` file beside it (readers take it shared)."""

    def __init__(self, workspace_id: str, base: Path | None = None) -> None:
        self.workspace_id = workspace_id
        folder = (base or state_dir()) / WITNESS_DIR
        self.path = folder / f"{workspace_id or 'default'}.json"
        self.lock_path = folder / f"{workspace_id or 'default'}.lock"

    @contextlib.contextmanager
    def locked(self, *, exclusive: bool, wait: float = LOCK_WAIT) -> Iterator[bool]:
        """Yields True with the lock held, False when it could not be had in time (or at all)."""
        try:
            import fcntl
        except ImportError:  # not POSIX: no lock (the writer's rename still keeps each file whole)
            yield True
            return
        try:
            if exclusive:
                self.lock_path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            yield False
            return
        try:
            mode = (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB
            deadline = time.monotonic() + wait
            while True:
                try:
                    fcntl.flock(fd, mode)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        yield False
                        return
                    time.sleep(0.01)
            yield True
        finally:
            os.close(fd)  # releases the lock

    def read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict) or data.get("workspace_id") != self.workspace_id:
            return {}
        return data

    def digest(self, tag: str, data: dict[str, Any] | None = None) -> str | None:
        entries = (self.read() if data is None else data).get("entries")
        entry = entries.get(tag) if isinstance(entries, dict) else None
        return str(entry["sha256"]) if isinstance(entry, dict) and "sha256" in entry else None

    def _write(self, data: dict[str, Any]) -> None:
        data["workspace_id"] = self.workspace_id
        text = json.dumps(data, ensure_ascii=False, sort_keys=True) + "\n"
        _atomic_write(self.path, text.encode("utf-8"))

    def put(self, tag: str, digest: str, revision: int) -> None:
        """Call with the exclusive lock held."""
        data = self.read()
        entries = data.get("entries") if isinstance(data.get("entries"), dict) else {}
        assert isinstance(entries, dict)
        entries[tag] = {"sha256": digest, "revision": revision, "at": _now()}
        if len(entries) > MAX_WITNESSED:
            for old in sorted(entries, key=lambda t: str(entries[t].get("at", "")))[: len(entries) - MAX_WITNESSED]:
                del entries[old]
        data["entries"] = entries
        self._write(data)

    def revoke(self) -> bool:
        """Forget every witnessed snapshot (the key is unavailable): none is served until rebuilt."""
        with self.locked(exclusive=True) as held:
            if not held:
                return False
            data = self.read()
            if not data.get("entries"):
                return True
            data["entries"] = {}
            try:
                self._write(data)
            except OSError:
                return False
            return True

    def reject(self, file: str, reason: str) -> int:
        """Count one rejected snapshot; returns the count (call with the exclusive lock held)."""
        data = self.read()
        rejected = data.get("rejected") if isinstance(data.get("rejected"), dict) else {}
        assert isinstance(rejected, dict)
        count = int(rejected.get("count", 0) or 0) + 1
        data["rejected"] = {"count": count, "last": {"at": _now(), "file": file, "reason": reason}}
        self._write(data)
        return count

    def rejected(self) -> dict[str, Any]:
        data = self.read().get("rejected")
        return data if isinstance(data, dict) else {"count": 0, "last": None}


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


#: a hook snapshot's temp file untouched this long is a crashed write's, swept at the next save
STALE_TEMP_S = 600.0


def _atomic_write(path: Path, data: bytes) -> None:
    """`fsutil.atomic_write_bytes`, 0600 (snapshots hold learnings); first the crash debris of
    earlier saves in the same folder (`.<name>.<random>.tmp`, the one temp name `repair` and the
    skills folder sweep too) goes, when no writer touched it for `STALE_TEMP_S`."""
    sweep_temp_files(path.parent, older_than=STALE_TEMP_S)
    atomic_write_bytes(path, data, private=True)


def save_snapshot(root: Path, snap: Snapshot, signer: SignerLike) -> Path:
    """Sign and write the snapshot, then witness its digest (under the witness's lock, so a reader
    never pairs one writer's file with another's digest). OSError when either cannot be written."""
    path = snapshot_path(root, snap.project, snap.story)
    data = seal(snap, signer)
    witness = Witness(snap.workspace_id)
    with witness.locked(exclusive=True) as held:
        if not held:
            raise OSError(f"the hook snapshot witness {witness.lock_path} is locked or cannot be created")
        _atomic_write(path, data)
        witness.put(snapshot_tag(snap.project, snap.story), hashlib.sha256(data).hexdigest(), snap.revision)
    return path


# --------------------------------------------------------------------------- the fast path


@dataclass(frozen=True)
class Probe:
    """What the fast path found: a servable snapshot (with the current revision), or why not.
    `suspect`: the file is there but is not the one the witness names (checked with the key next)."""

    snapshot: Snapshot | None
    reason: str  # "" | "missing" | "unwitnessed" | "mismatch" | "unreadable" | "stale" | "not sqlite" | "locked"
    suspect: bool = False


def probe(root: Path, project: str, story: str = "") -> Probe:
    cfg = _config(root)
    if _sqlite_file(root, cfg) is None:
        return Probe(None, "not sqlite")
    path = snapshot_path(root, project, story)
    witness = Witness(workspace_id_of(cfg))
    with witness.locked(exclusive=False) as held:
        if not held:
            return Probe(None, "locked")
        try:  # a FIFO or device put in its place is unreadable, never a hang
            data = read_regular_raw(path, limit=SNAPSHOT_LIMIT)
        except FileNotFoundError:
            return Probe(None, "missing")
        except OSError:
            return Probe(None, "unreadable", suspect=True)
        expected = witness.digest(snapshot_tag(project, story))
    if expected is None:
        return Probe(None, "unwitnessed", suspect=True)
    if hashlib.sha256(data).hexdigest() != expected:
        return Probe(None, "mismatch", suspect=True)
    try:
        snap = Snapshot.from_body(json.loads(data.decode("utf-8")))
    except (UnicodeDecodeError, ValueError, KeyError, TypeError):
        return Probe(None, "unreadable", suspect=True)
    if (snap.project, snap.story, snap.workspace_id) != (project, story, workspace_id_of(cfg)):
        return Probe(None, "mismatch", suspect=True)
    current = still_valid(root, snap, cfg)
    if current is None:
        return Probe(None, "stale")
    snap.revision = current
    return Probe(snap, "")


def fit(blocks: list[tuple[str, str]], budget: int) -> tuple[str, list[str], list[str]]:
    """Join the blocks (blank line between) within `budget` characters, in order. A block that does
    not fit whole keeps its header and the lines that fit (at least one rule line, else it is
    dropped). Returns (text, names included, names cut or dropped)."""
    out: list[str] = []
    used = 0
    included: list[str] = []
    cut: list[str] = []
    for name, text in blocks:
        if not text:
            continue
        sep = 2 if out else 0
        if used + sep + len(text) <= budget:
            out.append(text)
            used += sep + len(text)
            included.append(name)
            continue
        lines = text.split("\n")
        kept: list[str] = []
        size = sep
        for line in lines:
            extra = len(line) + (1 if kept else 0)
            if used + size + extra > budget:
                break
            kept.append(line)
            size += extra
        if len(kept) >= 2:
            out.append("\n".join(kept))
            used += size
            included.append(name)
        cut.append(name)
    return "\n\n".join(out), included, cut


@dataclass(frozen=True)
class HookContext:
    text: str
    skills: tuple[str, ...]
    included: tuple[str, ...]
    cut: tuple[str, ...]
    revision: int
    fast: bool
    notices: tuple[str, ...] = ()


def compose(snap: Snapshot, prompt: str, *, budget: int | None = None, fast: bool) -> HookContext:
    """SKILLS_HINT for the prompt, then LEARNINGS, then the other blocks, within the budget."""
    route = Router(snap.skills).route(prompt, top=snap.top)
    blocks = [("skills_hint", route.hint), ("learnings", snap.learnings), *snap.blocks]
    text, included, cut = fit(blocks, budget if budget is not None else snap.budget)
    return HookContext(
        text,
        tuple(m.name for m in route.skills),
        tuple(included),
        tuple(cut),
        snap.revision,
        fast,
        tuple(snap.notices),
    )


def fast_context(
    root: Path, project: str, prompt: str, *, budget: int | None = None, story: str = ""
) -> HookContext | None:
    """The context from a witnessed, still-valid snapshot; None when the slow path must rebuild it."""
    found = probe(root, project, story)
    if found.snapshot is None:
        return None
    return compose(found.snapshot, prompt, budget=budget, fast=True)


__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_TOP",
    "Examined",
    "HookContext",
    "Probe",
    "Snapshot",
    "Witness",
    "compose",
    "examine",
    "fast_context",
    "fit",
    "probe",
    "save_snapshot",
    "seal",
    "snapshot_files",
    "still_valid",
]
