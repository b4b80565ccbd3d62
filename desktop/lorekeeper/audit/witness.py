"""Copies of the log's head outside the store, so a head written back from an older state is named.

The store's head (`audit_heads`) sits in the workspace, where a file-system attacker can replace it
with an older, validly signed row after cutting the log to match. A witness keeps the same signed
head (epoch, count, last event) where that attacker cannot rewrite it:

- `VaultWitness`: the Vault KV v2 secret `<path>/audit-head`, one field per workspace id, written
  with check-and-set (a concurrent writer's update is re-read and merged, never overwritten);
- `FileWitness`: a signed JSON file in the user's state dir (platformdirs, outside the workspace),
  for the keyring provider: `<state dir>/audit-heads/<workspace id>.json`.

A witness is only as good as the place it lives: the file one protects against a rollback of the
workspace folder (restored backup, copied store, edited SQLite) but not against someone who can
write the user's state dir too; HMAC is symmetric, so whoever holds the key can forge any of them.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from lorekeeper.fsutil import atomic_write_text

if TYPE_CHECKING:
    from lorekeeper.audit.providers import VaultProvider

STATE_ENV = "LOREKEEPER_STATE_DIR"  # overrides the platform's user state dir (tests, portable installs)


def user_state_dir() -> Path:
    override = os.environ.get(STATE_ENV)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_state_dir("lorekeeper", appauthor=False))


class HeadWitness(Protocol):
    name: str

    def read(self) -> dict[str, Any] | None: ...  # the signed head, or None when never written

    def write(self, head: dict[str, Any]) -> None: ...  # raises OSError / AuditKeyUnavailableError


class FileWitness:
    """The signed head in a file outside the workspace (0600, written atomically)."""

    def __init__(self, workspace_id: str, base: Path | None = None) -> None:
        self.path = (base or user_state_dir()) / "audit-heads" / f"{workspace_id or 'default'}.json"
        self.name = f"state file {self.path}"

    def read(self) -> dict[str, Any] | None:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except OSError:
            return {}  # unreadable: compared as a head that does not verify
        try:
            data = json.loads(text)
        except ValueError:
            return {}
        return data if isinstance(data, dict) else {}

    def write(self, head: dict[str, Any]) -> None:
        atomic_write_text(self.path, json.dumps(head, sort_keys=True) + "\n", private=True)


class VaultWitness:
    """The signed head in Vault KV v2 at `<path>/audit-head` (check-and-set)."""

    def __init__(self, provider: VaultProvider, workspace_id: str) -> None:
        self.provider = provider
        self.workspace_id = workspace_id or "default"
        self.path = f"{provider.path}/audit-head"
        self.name = f"Vault {provider.mount}/{self.path}"

    def _current(self) -> tuple[dict[str, Any], int]:
        secret = self.provider.read_kv(self.path)
        if secret is None:
            return {}, 0
        return dict(secret.data), secret.version

    def read(self) -> dict[str, Any] | None:
        data, _ = self._current()
        raw = data.get(self.workspace_id)
        if raw is None:
            return None
        try:
            head = json.loads(raw) if isinstance(raw, str) else raw
        except ValueError:
            return {}
        return head if isinstance(head, dict) else {}

    def write(self, head: dict[str, Any]) -> None:
        for _ in range(5):  # another workspace (or process) wrote in between: merge and retry
            data, version = self._current()
            data[self.workspace_id] = json.dumps(head, sort_keys=True)
            if self.provider.write_kv(self.path, data, cas=version) is not None:
                return
        raise OSError(f"could not update {self.name}: concurrent writers kept changing it")


def home_path(workspace_id: str, base: Path | None = None) -> Path:
    """`<state dir>/audit-heads/<workspace id>.home`: the folder this workspace id belongs to."""
    return (base or user_state_dir()) / "audit-heads" / f"{workspace_id or 'default'}.home"


def _same_id(root: Path, workspace_id: str) -> bool:
    """True when ROOT still holds a workspace whose config names WORKSPACE_ID."""
    import tomllib

    try:
        data = tomllib.loads((root / "lorekeeper.toml").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return str((data.get("workspace") or {}).get("id") or "") == workspace_id


def copy_of(workspace_id: str, root: Path, base: Path | None = None) -> Path | None:
    """The original's folder when ROOT is a copy of it (the id's home is another folder that still
    holds this id), else None; a workspace whose home is gone was moved: its home becomes ROOT."""
    if not workspace_id:
        return None
    path = home_path(workspace_id, base)
    here = root.resolve()
    try:
        recorded = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        recorded = ""
    except OSError:
        return None  # unreadable state dir: the witness reports its own problems
    if recorded and Path(recorded) != here and _same_id(Path(recorded), workspace_id):
        return Path(recorded)
    if recorded != str(here):
        with contextlib.suppress(OSError):  # a read-only state dir: the witness reports its own problems
            atomic_write_text(path, str(here) + "\n", private=True)
    return None
