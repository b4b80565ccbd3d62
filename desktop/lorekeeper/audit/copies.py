"""A copied workspace (`cp -a ws ws2`) made its own (issue 25 d4).

A copy keeps the original's `[workspace] id`, which names its keyring key entry, its head witness
and its head row: both folders would advance one witness from two logs, and the first write in the
copy locks the original out ("rolled back"). `AuditService` refuses to write in a copy
(ERR_WORKSPACE_COPY); `adopt_copy` gives the copy a new id, the same key under the new id's
keyring entries (the copy's signed rows and log stay verifiable), and its own witness; the original
is not touched.
"""

from __future__ import annotations

import tomllib
import uuid
from pathlib import Path
from typing import Any

from lorekeeper.audit.settings import config_table, dump_config, parse_config
from lorekeeper.audit.witness import copy_of
from lorekeeper.errors import InvalidInputError, WorkspaceError
from lorekeeper.fsutil import atomic_write_text

CONFIG_NAME = "lorekeeper.toml"


def _copy_keyring_entries(old: str, new: str) -> list[str]:
    """The key's keyring entries (every version) and a Vault token / secret id kept under OLD,
    written again under NEW; returns the entry names written."""
    from lorekeeper.audit.providers import KEYRING_SERVICE, keyring_backend_problem

    if keyring_backend_problem():
        return []
    import keyring

    def get(name: str) -> str | None:
        try:
            return keyring.get_password(KEYRING_SERVICE, name)
        except Exception:  # noqa: BLE001 - keyring errors vary by backend
            return None

    names = [f"audit-hmac:{old}", f"audit-hmac:{old}:version", f"vault-token:{old}", f"vault-secret-id:{old}"]
    version = get(f"audit-hmac:{old}:version")
    if version and version.isdigit():
        names += [f"audit-hmac:{old}:v{n}" for n in range(1, int(version) + 1)]
    written = []
    for name in names:
        value = get(name)
        if value is None:
            continue
        target = name.replace(old, new, 1)
        keyring.set_password(KEYRING_SERVICE, target, value)
        written.append(target)
    return written


def adopt_copy(root: Path) -> dict[str, Any]:
    """Give the copy at ROOT its own workspace id and head witness. Refused (ERR_INVALID_INPUT,
    nothing changed) when ROOT is not a copy of a workspace that still exists."""
    root = root.expanduser().resolve()
    cfg = root / CONFIG_NAME
    if not cfg.is_file():
        raise WorkspaceError(f"no workspace at {root} (no {CONFIG_NAME}).")
    text = cfg.read_text(encoding="utf-8")
    old = str((tomllib.loads(text).get("workspace") or {}).get("id") or "")
    original = copy_of(old, root) if old else None
    if original is None:
        raise InvalidInputError(
            f"{root} is not a copy of another workspace (its id {old or '(none)'} belongs to this folder): "
            "nothing changed."
        )
    new = uuid.uuid4().hex
    doc = parse_config(text, cfg)  # tomlkit: the id's comment and every other line stay
    config_table(doc, "workspace", "[workspace]", cfg)["id"] = new
    updated = dump_config(doc)
    if str((tomllib.loads(updated).get("workspace") or {}).get("id") or "") != new:
        raise InvalidInputError(f"{cfg}: the [workspace] id could not be rewritten: nothing changed.")
    entries = _copy_keyring_entries(old, new)
    atomic_write_text(cfg, updated)
    copy_of(new, root)  # this folder is the new id's home
    return {"workspace": str(root), "original": str(original), "old_id": old, "id": new, "keyring_entries": entries}
