"""Template workspaces: `Workspace.init` once per test session, a copy per test.

`Workspace.init` imports the starter skills and (with `demo=True`) loads the demo data and its
history; at about a second each it was the largest fixed cost of the suite. A template is built
once, closed (SQLite checkpoints its WAL into the database file on the last close) and copied
with `shutil.copytree` for every test that asks for a workspace.

What differs per copy: the workspace id in `lorekeeper.toml`, which names the audit key in the
keyring. Tests rotate, delete and corrupt that key, so a copy gets its own id and its own keyring
entries holding the template's key (the copied log was signed with it, so it still verifies).
Nothing else in the template names its folder or its id (checked when the template is built);
when something does, copies would not be independent, so the fixture falls back to a real
`Workspace.init` per test and says so once.

Tests of `init` itself keep calling `Workspace.init`.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
import uuid
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

KEYRING_SUFFIXES = ("", ":version", ":v1")
_ID_LINE = re.compile(r'^(id\s*=\s*")([0-9a-f]+)(")', re.MULTILINE)


@dataclass
class Template:
    """A closed, initialised workspace folder to copy; `problem` says why copies cannot be used."""

    root: Path
    demo: bool
    workspace_id: str
    had_key: bool
    init_warnings: list[str] = field(default_factory=list)
    problem: str | None = None
    #: the template's keyring entries by suffix, read once when it is built: the suite's keyring
    #: file is put back after every test file (conftest), so a template built during one file
    #: keeps its key here rather than in the keyring
    key_entries: dict[str, str] = field(default_factory=dict)


def _mentions(root: Path, needles: list[str]) -> list[str]:
    """Files (and database rows) under `root` other than the config that contain one of `needles`."""
    found: list[str] = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        if path.name == "lorekeeper.toml":
            continue
        if path.suffix == ".db":
            con = sqlite3.connect(path)
            try:
                tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
                for table in tables:
                    for row in con.execute(f'SELECT * FROM "{table}"'):
                        if any(isinstance(v, str) and any(n in v for n in needles) for v in row):
                            found.append(f"{path.name}:{table}")
                            break
            finally:
                con.close()
            continue
        data = path.read_bytes()
        if any(n.encode() in data for n in needles):
            found.append(str(path.relative_to(root)))
    return found


def build_template(dest: Path, *, demo: bool) -> Template:
    """`Workspace.init(dest, demo=demo)`, closed and checked for what a copy would share."""
    from lorekeeper.workspace import Workspace

    ws = Workspace.init(dest, demo=demo)
    root, wid = ws.root, ws.audit.workspace_id
    had_key = ws.audit.key_session is not None
    init_warnings = list(ws.init_warnings)
    ws.close()
    tpl = Template(root, demo, wid, had_key, init_warnings, key_entries=_keyring_entries(wid))
    leftovers = [p.name for p in root.glob("*.db-*")]
    if leftovers:
        tpl.problem = f"the closed template still has {leftovers} (an open connection?)"
    elif not wid or not _ID_LINE.search((root / "lorekeeper.toml").read_text(encoding="utf-8")):
        tpl.problem = "the template has no [workspace] id line to replace"
    else:
        # The audit checkpoints name the workspace id (they are keyed by workspace): a copy re-keys
        # and re-signs them (`_rekey_checkpoints`), so they are not a reason to fall back.
        named = [
            n
            for n in _mentions(root, [str(root), wid])
            if not n.endswith((":audit_checkpoints", ":audit_heads", ":row_anchors", ":audit_trust_roots"))
        ]
        if named:
            tpl.problem = f"the template's folder or id is stored in {named}"
    return tpl


def _keyring_entries(workspace_id: str) -> dict[str, str]:
    import keyring

    from lorekeeper.audit.providers import KEYRING_SERVICE

    found = {}
    for suffix in KEYRING_SUFFIXES:
        value = keyring.get_password(KEYRING_SERVICE, f"audit-hmac:{workspace_id}{suffix}")
        if value is not None:
            found[suffix] = value
    return found


def _copy_keyring_entries(entries: dict[str, str], new_id: str) -> None:
    import keyring

    from lorekeeper.audit.providers import KEYRING_SERVICE

    for suffix, value in entries.items():
        keyring.set_password(KEYRING_SERVICE, f"audit-hmac:{new_id}{suffix}", value)


_warned: set[str] = set()


def copy_workspace(tpl: Template, dest: Path) -> Any:
    """An open `Workspace` at `dest`, as `Workspace.init(dest, demo=tpl.demo)` would return it."""
    from lorekeeper.audit.providers import keyring_backend_problem
    from lorekeeper.workspace import Workspace

    if tpl.problem is None and tpl.had_key and keyring_backend_problem() is not None:
        return Workspace.init(dest, demo=tpl.demo)  # a test without a keyring: init warns, as it would
    if tpl.problem is not None:
        if tpl.problem not in _warned:
            _warned.add(tpl.problem)
            warnings.warn(f"template workspace not used ({tpl.problem}); running Workspace.init per test", stacklevel=2)
        return Workspace.init(dest, demo=tpl.demo)
    if dest.exists() and any(dest.iterdir()):
        raise FileExistsError(f"{dest} is not empty")
    shutil.copytree(tpl.root, dest, dirs_exist_ok=True)
    new_id = uuid.uuid4().hex
    cfg = dest / "lorekeeper.toml"
    text = cfg.read_text(encoding="utf-8")
    cfg.write_text(_ID_LINE.sub(lambda m: m.group(1) + new_id + m.group(3), text, count=1), encoding="utf-8")
    cfg.chmod((tpl.root / "lorekeeper.toml").stat().st_mode & 0o777)
    _copy_keyring_entries(tpl.key_entries, new_id)
    ws = Workspace.open(dest)
    if tpl.had_key:
        ws.audit.require_key()  # init leaves the key session loaded
        # the rekey moves the template's head and checkpoints to the new id: the audit session
        # (which the store opens before a first write) must start after it, on the moved rows
        prepare, ws.store.before_write[:] = list(ws.store.before_write), []
        with ws.store.unguarded():  # the guard would start the audit session on the old rows
            _rekey_checkpoints(ws, tpl.workspace_id, new_id)
        ws.store.before_write.extend(prepare)
        ws.audit.row_verifier()  # init leaves the verifier built (its starter skills were read through it)
    ws.init_warnings.extend(tpl.init_warnings)
    return ws


def _rekey_checkpoints(ws: Any, old_id: str, new_id: str) -> None:
    """The copy's checkpoint rows under its own workspace id, signed again with the (copied) key."""
    from lorekeeper.audit.rows import sign_row
    from lorekeeper.store.models import AuditCheckpoint

    signer = ws.audit.require_key().signer
    with ws.store.write() as s:
        for row in list(s.query(AuditCheckpoint).filter(AuditCheckpoint.workspace == old_id)):
            fresh = AuditCheckpoint(
                workspace=new_id,
                file=row.file,
                events=row.events,
                head_seq=row.head_seq,
                head_sig=row.head_sig,
                updated_at=row.updated_at,
            )
            s.delete(row)
            s.flush()
            s.add(fresh)
            sign_row(signer, fresh)
        # issue 18: the log's head (and its witness in the user's state dir) under the new id too
        from lorekeeper.store.models import AuditHead

        head = s.get(AuditHead, old_id)
        if head is not None:
            new_head = AuditHead(
                workspace=new_id,
                epoch=head.epoch,
                count=head.count,
                file=head.file,
                seq=head.seq,
                head_sig=head.head_sig,
                updated_at=head.updated_at,
            )
            s.delete(head)
            s.flush()
            s.add(new_head)
            sign_row(signer, new_head)
        # issue 24: the row ledger's anchor, keyed by workspace like the head
        from lorekeeper.store.models import RowAnchor

        anchor = s.get(RowAnchor, old_id)
        if anchor is not None:
            new_anchor = RowAnchor(workspace=new_id, epoch=anchor.epoch, head_sig=anchor.head_sig, clocks=anchor.clocks)
            s.delete(anchor)
            s.flush()
            s.add(new_anchor)
            sign_row(signer, new_anchor)
        # issue 25: the trust root names the workspace that recorded it (and its signature covers it)
        from lorekeeper.audit.trust import _row_sig
        from lorekeeper.store.models import AuditTrustRoot

        for root in list(s.query(AuditTrustRoot).filter(AuditTrustRoot.workspace == old_id)):
            key = signer.key_for(int(root.key_version))
            root.workspace = new_id
            if key is not None:
                root.sig = _row_sig(key, root)
    log = ws.audit.log
    row = log.head_row()
    if row is not None:
        from lorekeeper.audit.log import _Head

        log._write_witness(_Head.of(row), row.updated_at)


class Templates:
    """The session's templates, each built on first use under `base`."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self._built: dict[bool, Template] = {}

    def get(self, *, demo: bool) -> Template:
        if demo not in self._built:
            self._built[demo] = build_template(self.base / ("demo" if demo else "plain") / "ws", demo=demo)
        return self._built[demo]

    def copy(self, dest: Path, *, demo: bool = False) -> Any:
        return copy_workspace(self.get(demo=demo), dest)


def file_hashes(root: Path, skip: tuple[str, ...] = ("logs/", "locks/")) -> dict[str, str]:
    """sha256 of every file of a closed workspace (the database and its -wal/-shm included), by
    relative path, but for the folders in `skip`: what "byte-identical" compares."""
    import hashlib

    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.relative_to(root).as_posix().startswith(skip)
    }


def cut_last_event(root: Path) -> None:
    """Break the audit chain at its tail: the last event of the newest day file cut off."""
    day = sorted((root / "sessions").glob("*.jsonl"))[-1]
    lines = day.read_text(encoding="utf-8").splitlines(keepends=True)
    day.write_text("".join(lines[:-1]), encoding="utf-8")
