"""Edit the [audit] and [audit.vault] tables of lorekeeper.toml in place (the app's Settings).

Only the named keys change; comments, order and every other table stay as the operator wrote
them. The result is parsed back before it replaces the file (atomically), so a bad value never
leaves a broken configuration behind. Secrets are never written here: a Vault token goes to the
OS keyring (`providers.store_vault_secret`).
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lorekeeper.errors import InvalidInputError
from lorekeeper.fsutil import atomic_write_text

PROVIDERS = ("keyring", "vault")
AUTH_METHODS = ("token", "approle")
_HEADER = re.compile(r"^\s*\[\s*([A-Za-z0-9_.\-]+)\s*\]\s*(#.*)?$")
_KEY = re.compile(r"^(\s*)([A-Za-z0-9_\-]+)(\s*=\s*)(\"(?:[^\"\\]|\\.)*\"|[^#]*?)(\s*#.*)?$")


@dataclass
class AuditSettings:
    provider: str = "keyring"
    addr: str = "http://127.0.0.1:8200"
    mount: str = "kv"
    path: str = "lorekeeper/memory-audit-hmac"
    auth: str = "token"
    role_id: str = ""

    @classmethod
    def from_config(cls, config: Any) -> AuditSettings:
        return cls(
            provider=str(config.get("audit.provider", "keyring")),
            addr=str(config.get("audit.vault.addr", cls.addr)),
            mount=str(config.get("audit.vault.mount", cls.mount)),
            path=str(config.get("audit.vault.path", cls.path)),
            auth=str(config.get("audit.vault.auth", cls.auth)),
            role_id=str(config.get("audit.vault.role_id", "")),
        )

    def validate(self) -> None:
        if self.provider not in PROVIDERS:
            raise InvalidInputError(f"provider must be one of {', '.join(PROVIDERS)}")
        if self.auth not in AUTH_METHODS:
            raise InvalidInputError(f"Vault auth must be one of {', '.join(AUTH_METHODS)}")
        if self.provider == "vault":
            if not re.match(r"^https?://[^\s/]+", self.addr):
                raise InvalidInputError("the Vault address must start with http:// or https://")
            if not self.mount.strip("/") or not self.path.strip("/"):
                raise InvalidInputError("the Vault mount and path cannot be empty")
            if self.auth == "approle" and not self.role_id:
                raise InvalidInputError("AppRole needs a role id")


def _tables(s: AuditSettings) -> dict[str, dict[str, str]]:
    return {
        "audit": {"provider": s.provider},
        "audit.vault": {"addr": s.addr, "mount": s.mount, "path": s.path, "auth": s.auth, "role_id": s.role_id},
    }


def save_audit_settings(config_path: Path, settings: AuditSettings) -> None:
    settings.validate()
    text = Path(config_path).read_text(encoding="utf-8")
    wanted = _tables(settings)
    lines = text.splitlines()
    section = ""
    last_line_of: dict[str, int] = {}
    done: set[tuple[str, str]] = set()
    for i, line in enumerate(lines):
        m = _HEADER.match(line)
        if m:
            section = m.group(1)
            last_line_of[section] = i
            continue
        if section in wanted:
            k = _KEY.match(line)
            if k and k.group(2) in wanted[section]:
                key = k.group(2)
                lines[i] = f"{k.group(1)}{key}{k.group(3)}{json.dumps(wanted[section][key])}{k.group(5) or ''}"
                done.add((section, key))
            if line.strip():
                last_line_of[section] = i
    # keys (or whole tables) the file did not have yet, inserted from the bottom up
    inserts: list[tuple[int, list[str]]] = []
    appended: list[str] = []
    for table, values in wanted.items():
        missing = [f"{k} = {json.dumps(v)}" for k, v in values.items() if (table, k) not in done]
        if not missing:
            continue
        if table in last_line_of:
            inserts.append((last_line_of[table] + 1, missing))
        else:
            appended += ["", f"[{table}]", *missing]
    for at, new in sorted(inserts, reverse=True):
        lines[at:at] = new
    out = "\n".join(lines + appended) + "\n"
    parsed = tomllib.loads(out)  # never write something that does not read back
    audit = parsed.get("audit", {})
    if audit.get("provider") != settings.provider or audit.get("vault", {}).get("addr") != settings.addr:
        raise InvalidInputError("lorekeeper.toml could not be updated safely; edit its [audit] table by hand")
    atomic_write_text(Path(config_path), out)
