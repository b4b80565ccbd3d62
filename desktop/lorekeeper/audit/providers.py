"""Where the audit key lives: the OS keyring (one operator) or HashiCorp Vault / OpenBao KV v2.

A provider gives the current key and its version, the key of any older version (verification
after rotations), creates the first key (`init-key`, an operator action) and rotates. Failures are
ERR_AUDIT_KEY_UNAVAILABLE with a `cause` the app and the CLI explain; there is never a fallback
from one provider to another.

Keyring layout (service "lorekeeper"), for the workspace id W:
  audit-hmac:W            the current key (64 hex), what an operator looks for
  audit-hmac:W:version    the current version number
  audit-hmac:W:v<N>       every version's key, kept for verification after rotations
The version pointer is written after the new key, so a crash mid-rotation leaves the old key
current and the new one unused.

Vault layout (KV v2, `mount`/`path` from [audit.vault]):
  <path>                  {"key": hex}; its KV version is the key version
  <path>/archive/<N>      {"key": hex, "version": N}, written for every version when it is
                          created, because KV keeps only 10 versions by default
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Protocol

from lorekeeper.audit.errors import (
    CAUSE_CONFIG,
    CAUSE_DENIED,
    CAUSE_MISSING,
    CAUSE_NO_BACKEND,
    CAUSE_NO_TOKEN,
    CAUSE_SEALED,
    CAUSE_UNREACHABLE,
    AuditKeyInvalidError,
    AuditKeyUnavailableError,
)
from lorekeeper.audit.signer import new_key_hex, parse_key_hex

KEYRING_SERVICE = "lorekeeper"
VAULT_TIMEOUT = 5  # seconds: a dead Vault must fail the session start quickly


@dataclass(frozen=True)
class LoadedKey:
    version: int
    key: bytes


@dataclass(frozen=True)
class KVSecret:
    """One version of a Vault KV v2 secret: its fields and its KV version number."""

    data: dict[str, Any]
    version: int


class KeyProvider(Protocol):
    name: str

    def describe(self) -> str: ...
    def load(self) -> LoadedKey: ...
    def key_version(self, version: int) -> bytes: ...
    def init_key(self) -> LoadedKey: ...
    def rotate(self, expected_version: int) -> LoadedKey: ...
    def has_key(self) -> bool: ...
    def import_versions(self, keys: dict[int, bytes]) -> LoadedKey: ...


# --------------------------------------------------------------------------- keyring


def keyring_backend_problem() -> str | None:
    """Why the OS keyring cannot hold secrets here, or None when it can."""
    import keyring as kr  # imported on first use

    try:
        backend = kr.get_keyring()
    except Exception as exc:  # noqa: BLE001 - any failure to even pick a backend
        return f"the keyring library failed to start: {exc}"
    from keyring.backends import fail

    if isinstance(backend, fail.Keyring):
        return "no OS keyring backend is available on this machine"
    try:
        from keyring.backends import chainer

        if isinstance(backend, chainer.ChainerBackend) and not backend.backends:
            return "no OS keyring backend is available on this machine"
    except ImportError:  # pragma: no cover - old keyring
        pass
    return None


def keyring_backend_name() -> str:
    """The backend the keyring library picked, e.g. `SecretService Keyring` or, for a file
    backend chosen where no OS keyring exists, `keyrings.alt PlaintextKeyring`: the operator
    must be able to see where the key lives."""
    try:
        import keyring

        backend = keyring.get_keyring()
    except Exception:  # noqa: BLE001 - reported by keyring_backend_problem
        return "unavailable"
    module = type(backend).__module__
    label = (
        f"{module.split('.')[0]} {type(backend).__name__}"
        if module.startswith("keyrings.alt")
        else getattr(backend, "name", type(backend).__name__)
    )
    return str(label)


class KeyringProvider:
    name = "keyring"

    def __init__(self, workspace_id: str) -> None:
        if not workspace_id:
            raise AuditKeyUnavailableError(
                "this workspace has no id ([workspace] id in lorekeeper.toml), so its keyring entry "
                "cannot be named. Run `lorekeeper audit init-key` to assign one and create the key.",
                cause=CAUSE_CONFIG,
                provider=self.name,
            )
        self.workspace_id = workspace_id
        self.entry = f"audit-hmac:{workspace_id}"

    def describe(self) -> str:
        return f"OS keyring ({keyring_backend_name()}), service {KEYRING_SERVICE!r}, entry {self.entry!r}"

    # -- raw access, every failure of the backend mapped to a cause
    def _get(self, username: str) -> str | None:
        problem = keyring_backend_problem()
        if problem:
            raise self._no_backend(problem)
        import keyring as kr  # imported on first use

        try:
            return kr.get_password(KEYRING_SERVICE, username)
        except Exception as exc:  # noqa: BLE001 - keyring errors vary by backend
            raise self._no_backend(f"the OS keyring refused to answer ({type(exc).__name__}: {exc})") from None

    def _set(self, username: str, value: str) -> None:
        problem = keyring_backend_problem()
        if problem:
            raise self._no_backend(problem)
        import keyring as kr  # imported on first use

        try:
            kr.set_password(KEYRING_SERVICE, username, value)
        except Exception as exc:  # noqa: BLE001
            raise self._no_backend(f"the OS keyring refused to store the key ({type(exc).__name__}: {exc})") from None

    def _no_backend(self, problem: str) -> AuditKeyUnavailableError:
        return AuditKeyUnavailableError(
            f"{problem}. Install or unlock an OS keyring (Secret Service, KWallet, macOS Keychain), "
            'or set [audit] provider = "vault" in lorekeeper.toml.',
            cause=CAUSE_NO_BACKEND,
            provider=self.name,
        )

    def _current_version(self) -> int | None:
        raw = self._get(f"{self.entry}:version")
        if raw is None:
            return None
        try:
            return int(raw)
        except ValueError:
            raise AuditKeyInvalidError(
                f"keyring entry {self.entry}:version holds {raw!r}, not a version number", provider=self.name
            ) from None

    # -- provider API
    def load(self) -> LoadedKey:
        version = self._current_version()
        raw = self._get(f"{self.entry}:v{version}") if version is not None else None
        if raw is None:
            raw = self._get(self.entry)
        if raw is None:
            raise AuditKeyUnavailableError(
                f"no audit key in the OS keyring for this workspace ({self.describe()}). "
                "Create it with `lorekeeper audit init-key`.",
                cause=CAUSE_MISSING,
                provider=self.name,
            )
        key = parse_key_hex(raw, provider=self.name, where=f"keyring entry {self.entry}")
        return LoadedKey(version or 1, key)

    def key_version(self, version: int) -> bytes:
        raw = self._get(f"{self.entry}:v{int(version)}")
        if raw is None:
            raise AuditKeyUnavailableError(
                f"key version {version} is not in the OS keyring ({self.entry}:v{version})",
                cause=CAUSE_MISSING,
                provider=self.name,
            )
        return parse_key_hex(raw, provider=self.name, where=f"keyring entry {self.entry}:v{version}")

    def exists(self) -> bool:
        return self._get(self.entry) is not None or self._current_version() is not None

    def has_key(self) -> bool:
        return self.exists()

    def init_key(self) -> LoadedKey:
        if self.exists():
            raise AuditKeyUnavailableError(
                f"this workspace already has an audit key ({self.describe()}); "
                "use `lorekeeper audit rotate` to replace it (old events stay verifiable).",
                cause=CAUSE_CONFIG,
                provider=self.name,
            )
        hexkey = new_key_hex()
        self._set(f"{self.entry}:v1", hexkey)
        self._set(f"{self.entry}:version", "1")
        self._set(self.entry, hexkey)
        return LoadedKey(1, bytes.fromhex(hexkey))

    def import_versions(self, keys: dict[int, bytes]) -> LoadedKey:
        """Take over every version of a key kept elsewhere (`audit setup` moving it): the same key
        bytes under the same version numbers, so everything it signed still verifies."""
        if self.exists():
            raise AuditKeyUnavailableError(
                f"this workspace already has an audit key ({self.describe()}): nothing is imported over it.",
                cause=CAUSE_CONFIG,
                provider=self.name,
            )
        top = max(keys)
        for version in sorted(keys):
            self._set(f"{self.entry}:v{version}", keys[version].hex())
        self._set(f"{self.entry}:version", str(top))  # the commit point
        self._set(self.entry, keys[top].hex())
        return LoadedKey(top, keys[top])

    def rotate(self, expected_version: int) -> LoadedKey:
        current = self.load()
        if current.version != expected_version:
            raise AuditKeyUnavailableError(
                f"the key was rotated by another process (now version {current.version}, this session "
                f"has {expected_version}); restart and retry.",
                cause=CAUSE_CONFIG,
                provider=self.name,
            )
        # keep the current version readable under its own name before anything changes
        if self._get(f"{self.entry}:v{current.version}") is None:
            self._set(f"{self.entry}:v{current.version}", current.key.hex())
        new_version = current.version + 1
        hexkey = new_key_hex()
        self._set(f"{self.entry}:v{new_version}", hexkey)
        self._set(f"{self.entry}:version", str(new_version))  # the commit point
        self._set(self.entry, hexkey)
        return LoadedKey(new_version, bytes.fromhex(hexkey))


# --------------------------------------------------------------------------- Vault / OpenBao


class VaultProvider:
    name = "vault"

    def __init__(
        self,
        addr: str,
        mount: str,
        path: str,
        *,
        workspace_id: str = "",
        auth: str = "token",
        role_id: str = "",
        token: str | None = None,
        secret_id: str | None = None,
    ) -> None:
        self.addr = addr.rstrip("/")
        self.mount = mount.strip("/")
        self.path = path.strip("/")
        self.workspace_id = workspace_id
        self.auth = auth
        self.role_id = role_id
        self._token = token
        self._secret_id = secret_id
        self._client: Any = None

    def describe(self) -> str:
        return f"Vault {self.addr}, KV v2 mount {self.mount!r}, path {self.path!r}"

    def _err(self, message: str, cause: str) -> AuditKeyUnavailableError:
        return AuditKeyUnavailableError(message, cause=cause, provider=self.name)

    def _secret(self, env: str, entry: str) -> str | None:
        value = os.environ.get(env)
        if value:
            return value
        try:
            if keyring_backend_problem() is None:
                import keyring

                return keyring.get_password(KEYRING_SERVICE, entry)
        except Exception:  # noqa: BLE001 - a broken keyring just means "not there"
            return None
        return None

    def _connect(self) -> Any:
        if self._client is not None:
            return self._client
        import hvac

        if self.auth not in ("token", "approle"):
            raise self._err(f'[audit.vault] auth must be "token" or "approle", not {self.auth!r}', CAUSE_CONFIG)
        client = hvac.Client(url=self.addr, timeout=VAULT_TIMEOUT)
        if self.auth == "approle":
            secret_id = self._secret_id or self._secret("VAULT_SECRET_ID", f"vault-secret-id:{self.workspace_id}")
            if not self.role_id or not secret_id:
                raise self._err(
                    "AppRole login needs [audit.vault] role_id and a secret id (VAULT_SECRET_ID, or the OS "
                    "keyring entry set by `lorekeeper audit set-secret --approle`).",
                    CAUSE_NO_TOKEN,
                )
            self._call(lambda: client.auth.approle.login(role_id=self.role_id, secret_id=secret_id))
        else:
            token = self._token or self._secret("VAULT_TOKEN", f"vault-token:{self.workspace_id}")
            if not token:
                raise self._err(
                    "no Vault token: set VAULT_TOKEN, or store one in the OS keyring with "
                    "`lorekeeper audit set-secret`.",
                    CAUSE_NO_TOKEN,
                )
            client.token = token
        self._client = client
        return client

    def _call(self, fn: Any, *, missing_ok: bool = False, conflict_ok: bool = False) -> Any:
        """Run one Vault request, mapping every failure to a cause; `missing_ok`: None for a path
        that holds nothing, `conflict_ok`: None for a write whose check-and-set version is stale."""
        import hvac.exceptions as hx
        import requests

        try:
            return fn()
        except hx.InvalidPath:
            if missing_ok:
                return None
            raise self._err(
                f"no audit key at {self.describe()}. The operator provisions it with `lorekeeper audit init-key` "
                "(it is never created silently).",
                CAUSE_MISSING,
            ) from None
        except hx.VaultDown:
            raise self._err(
                f"Vault at {self.addr} is sealed. Unseal it (`bao operator unseal` / `vault operator unseal`), then retry.",
                CAUSE_SEALED,
            ) from None
        except (hx.Forbidden, hx.Unauthorized) as exc:
            raise self._err(
                f"Vault at {self.addr} refused the credentials ({exc}). Check the token or AppRole and its policy "
                f"on {self.mount}/{self.path}.",
                CAUSE_DENIED,
            ) from None
        except (requests.exceptions.ConnectionError, requests.exceptions.Timeout) as exc:
            raise self._err(
                f"Vault is unreachable at {self.addr} ({type(exc).__name__}). Start it or fix [audit.vault] addr "
                "(VAULT_ADDR overrides it), then retry.",
                CAUSE_UNREACHABLE,
            ) from None
        except hx.InvalidRequest as exc:
            if conflict_ok and "check-and-set" in str(exc):
                return None
            raise self._err(f"Vault at {self.addr} answered with an error: {exc}", CAUSE_UNREACHABLE) from None
        except hx.VaultError as exc:
            raise self._err(f"Vault at {self.addr} answered with an error: {exc}", CAUSE_UNREACHABLE) from None

    def _read(self, path: str, version: int | None = None, *, missing_ok: bool = False) -> dict[str, Any] | None:
        client = self._connect()
        answer: dict[str, Any] | None = self._call(
            lambda: client.secrets.kv.v2.read_secret_version(
                path=path, version=version, mount_point=self.mount, raise_on_deleted_version=True
            ),
            missing_ok=missing_ok,
        )
        return answer

    def _write(self, path: str, data: dict[str, Any], cas: int | None) -> int:
        client = self._connect()
        resp = self._call(
            lambda: client.secrets.kv.v2.create_or_update_secret(
                path=path, secret=data, cas=cas, mount_point=self.mount
            )
        )
        return int(resp["data"]["version"])

    # -- the KV secrets beside the key (the head witness, `audit/witness.py`)
    def read_kv(self, path: str) -> KVSecret | None:
        """The current version of the KV v2 secret at `path` (under this provider's mount), or None
        when the path holds nothing. Failures are ERR_AUDIT_KEY_UNAVAILABLE with their cause."""
        resp = self._read(path, missing_ok=True)
        if resp is None:
            return None
        return KVSecret(dict(resp["data"]["data"] or {}), int(resp["data"]["metadata"]["version"]))

    def write_kv(self, path: str, data: dict[str, Any], *, cas: int) -> int | None:
        """Write `data` as the next version of the secret at `path` with check-and-set: `cas` is the
        version this write replaces (0: the path must be empty). Returns the new version, or None when
        another writer got there first (read it again and merge); other failures raise as `read_kv`."""
        client = self._connect()
        resp = self._call(
            lambda: client.secrets.kv.v2.create_or_update_secret(
                path=path, secret=data, cas=cas, mount_point=self.mount
            ),
            conflict_ok=True,
        )
        return None if resp is None else int(resp["data"]["version"])

    def operator_identity(self) -> str:
        """Who this token or AppRole login is (issue 25 d2): the identity entity's name when the
        policy lets the token read it, else the login's user or role name, else the token's display
        name (`bao token create -display-name alice` gives "token-alice"); "" when Vault says none."""
        client = self._connect()
        info = self._call(lambda: client.auth.token.lookup_self())
        data = (info or {}).get("data") or {}
        entity = str(data.get("entity_id") or "")
        if entity:
            try:
                ent = client.secrets.identity.read_entity(entity_id=entity)
                name = str(((ent or {}).get("data") or {}).get("name") or "")
                if name and not name.startswith("entity_"):
                    return name
            except Exception:  # noqa: BLE001 - the policy may not allow reading the entity: next best name
                pass
        meta = data.get("meta") or {}
        for k in ("username", "role_name"):
            if isinstance(meta, dict) and meta.get(k):
                return str(meta[k])
        return str(data.get("display_name") or "")

    def _archive_path(self, version: int) -> str:
        return f"{self.path}/archive/{int(version)}"

    def load(self) -> LoadedKey:
        resp = self._read(self.path)
        assert resp is not None
        data = resp["data"]["data"] or {}
        key = parse_key_hex(data.get("key"), provider=self.name, where=f'{self.mount}/{self.path} (field "key")')
        return LoadedKey(int(resp["data"]["metadata"]["version"]), key)

    def key_version(self, version: int) -> bytes:
        resp = self._read(self._archive_path(version), missing_ok=True)
        if resp is None:  # not archived (provisioned by hand): KV's own history, while it keeps it
            resp = self._read(self.path, version=int(version))
        assert resp is not None
        data = resp["data"]["data"] or {}
        return parse_key_hex(data.get("key"), provider=self.name, where=f"{self.mount}/{self.path} version {version}")

    def init_key(self) -> LoadedKey:
        if self._read(self.path, missing_ok=True) is not None:
            raise self._err(
                f"an audit key already exists at {self.describe()}; use `lorekeeper audit rotate` to replace it.",
                CAUSE_CONFIG,
            )
        hexkey = new_key_hex()
        version = self._write(self.path, {"key": hexkey}, cas=0)
        self._write(self._archive_path(version), {"key": hexkey, "version": version}, cas=None)
        return LoadedKey(version, bytes.fromhex(hexkey))

    def has_key(self) -> bool:
        return self._read(self.path, missing_ok=True) is not None

    def import_versions(self, keys: dict[int, bytes]) -> LoadedKey:
        """Take over every version of a key kept elsewhere (`audit setup` moving a keyring key into
        Vault): written in order with check-and-set, so KV version N holds key version N (an empty
        path only: a path with history would number them otherwise)."""
        if self.has_key():
            raise self._err(
                f"an audit key already exists at {self.describe()}: nothing is imported over it.", CAUSE_CONFIG
            )
        top = max(keys)
        if sorted(keys) != list(range(1, top + 1)):
            raise self._err(
                f"key versions {sorted(keys)} are not 1..{top}: they cannot be moved into Vault", CAUSE_CONFIG
            )
        for version in range(1, top + 1):
            hexkey = keys[version].hex()
            try:
                got = self._write(self.path, {"key": hexkey}, cas=version - 1)
            except AuditKeyUnavailableError as exc:
                raise self._err(
                    f"{self.describe()} already has a history (KV versions): use a new, empty path to move the key "
                    f"into ({exc.message})",
                    CAUSE_CONFIG,
                ) from None
            if got != version:
                raise self._err(
                    f"{self.describe()} numbered key version {version} as {got}: use a new path", CAUSE_CONFIG
                )
            self._write(self._archive_path(version), {"key": hexkey, "version": version}, cas=None)
        return LoadedKey(top, keys[top])

    def rotate(self, expected_version: int) -> LoadedKey:
        current = self.load()
        if current.version != expected_version:
            raise self._err(
                f"the key at {self.describe()} is now version {current.version}, this session has "
                f"{expected_version}: it was rotated elsewhere. Restart and retry.",
                CAUSE_CONFIG,
            )
        self._write(self._archive_path(current.version), {"key": current.key.hex(), "version": current.version}, None)
        hexkey = new_key_hex()
        version = self._write(self.path, {"key": hexkey}, cas=current.version)
        self._write(self._archive_path(version), {"key": hexkey, "version": version}, cas=None)
        return LoadedKey(version, bytes.fromhex(hexkey))


def store_vault_secret(workspace_id: str, value: str, *, approle: bool = False) -> str:
    """Keep a Vault token (or AppRole secret id) in the OS keyring; returns the entry name."""
    problem = keyring_backend_problem()
    if problem:
        raise AuditKeyUnavailableError(f"{problem}: use VAULT_TOKEN instead.", cause=CAUSE_NO_BACKEND, provider="vault")
    entry = f"vault-secret-id:{workspace_id}" if approle else f"vault-token:{workspace_id}"
    import keyring

    keyring.set_password(KEYRING_SERVICE, entry, value)
    return entry


def provider_from_config(config: Any, workspace_id: str) -> KeyProvider:
    """The provider [audit] names. Unknown names are a configuration error, never a fallback."""
    name = str(config.get("audit.provider", "keyring")).strip().lower()
    if name == "keyring":
        return KeyringProvider(workspace_id)
    if name == "vault":
        addr = os.environ.get("VAULT_ADDR") or str(config.get("audit.vault.addr", "http://127.0.0.1:8200"))
        return VaultProvider(
            addr,
            str(config.get("audit.vault.mount", "kv")),
            str(config.get("audit.vault.path", "lorekeeper/memory-audit-hmac")),
            workspace_id=workspace_id,
            auth=str(config.get("audit.vault.auth", "token")),
            role_id=str(config.get("audit.vault.role_id", "")),
        )
    raise AuditKeyUnavailableError(
        f'[audit] provider = {name!r} is not known: use "keyring" or "vault".', cause=CAUSE_CONFIG, provider=name
    )
