"""Edit the [audit] and [audit.vault] tables of lorekeeper.toml in place (the app's Settings,
`audit setup`).

The file is edited with tomlkit (issue 28: no regex editor): only the named keys change, in
whatever form the operator wrote the tables (`[audit.vault]`, dotted keys, an inline table);
comments, order and every other table stay as they were. The result is parsed back before it
replaces the file (atomically), so a bad value never leaves a broken configuration behind.
Secrets are never written here: a Vault token goes to the OS keyring
(`providers.store_vault_secret`).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from lorekeeper.errors import InvalidInputError, InvalidSpecError
from lorekeeper.fsutil import atomic_write_text

PROVIDERS = ("keyring", "vault")
AUTH_METHODS = ("token", "approle")


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


def parse_config(text: str, config_path: Path) -> Any:
    """lorekeeper.toml as a tomlkit document (comments and layout kept); ERR_INVALID_SPEC if not TOML."""
    import tomlkit  # loaded by the rare write, not by every workspace open
    from tomlkit.exceptions import TOMLKitError

    try:
        return tomlkit.parse(text)
    except TOMLKitError as exc:
        raise InvalidSpecError(f"not valid TOML (nothing written): {exc}", file=str(config_path)) from None


def config_table(parent: Any, key: str, where: str, config_path: Path) -> Any:
    """`parent[key]` as a table (created when missing); a key holding something else is refused."""
    import tomlkit

    if key not in parent:
        parent[key] = tomlkit.table()
    child = parent[key]
    if not isinstance(child, dict):
        raise InvalidSpecError(f"{where} is not a table; edit it by hand", file=str(config_path))
    return child


def dump_config(doc: Any) -> str:
    import tomlkit

    return str(tomlkit.dumps(doc)).rstrip("\n") + "\n"


def _edited(text: str, settings: AuditSettings, config_path: Path) -> str:
    """The file with [audit] provider and the [audit.vault] keys set (tables created when missing)."""
    doc = parse_config(text, config_path)
    audit = config_table(doc, "audit", "[audit]", config_path)
    audit["provider"] = settings.provider
    vault = config_table(audit, "vault", "[audit.vault]", config_path)
    for key, value in asdict(settings).items():
        if key != "provider":
            vault[key] = value
    return dump_config(doc)


def save_audit_settings(config_path: Path, settings: AuditSettings) -> None:
    settings.validate()
    config_path = Path(config_path)
    new = _edited(config_path.read_text(encoding="utf-8"), settings, config_path)
    try:
        parsed = tomllib.loads(new)  # never write something that does not read back
    except tomllib.TOMLDecodeError:
        parsed = {}
    audit = parsed.get("audit", {})
    vault = audit.get("vault", {}) if isinstance(audit, dict) else {}
    wanted = asdict(settings)
    got = {"provider": audit.get("provider"), **{k: vault.get(k) for k in wanted if k != "provider"}}
    if got != wanted:
        raise InvalidInputError("lorekeeper.toml could not be updated safely; edit its [audit] table by hand")
    atomic_write_text(config_path, new)
