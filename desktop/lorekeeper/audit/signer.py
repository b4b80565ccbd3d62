"""HMAC-SHA256 over the RFC 8785 form of an object without its `sig` field.

Every signed object carries `key_version`, so a verifier picks the right key after rotations.
The key is 32 bytes, kept as 64 hexadecimal characters wherever it is stored.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from lorekeeper.audit.errors import AuditKeyInvalidError, CanonicalJSONError
from lorekeeper.audit.jcs import canonicalize

SIG_FIELD = "sig"
VERSION_FIELD = "key_version"
KEY_BYTES = 32
_HEX64 = re.compile(r"[0-9a-fA-F]{64}")


def parse_key_hex(text: str | None, *, provider: str = "", where: str = "") -> bytes:
    """The 32 key bytes from 64 hex characters; anything else is ERR_AUDIT_KEY_INVALID."""
    if not isinstance(text, str) or not _HEX64.fullmatch(text.strip()):
        shown = "nothing" if not text else f"{len(str(text).strip())} characters"
        place = f" at {where}" if where else ""
        raise AuditKeyInvalidError(
            f"the audit key{place} must be 64 hexadecimal characters (32 bytes), found {shown}. "
            "Provision a valid key (`lorekeeper audit init-key`) or fix the stored value.",
            provider=provider,
        )
    return bytes.fromhex(text.strip())


def new_key_hex() -> str:
    return secrets.token_hex(KEY_BYTES)


def signing_bytes(obj: Mapping[str, Any]) -> bytes:
    """The canonical form that is signed: the object without `sig`."""
    return canonicalize({k: v for k, v in obj.items() if k != SIG_FIELD})


def hmac_hex(key: bytes, data: bytes) -> str:
    return hmac.new(key, data, hashlib.sha256).hexdigest()


def sign_with(key: bytes, obj: Mapping[str, Any]) -> str:
    return hmac_hex(key, signing_bytes(obj))


@dataclass(frozen=True)
class Verdict:
    ok: bool
    reason: str = ""  # "unsigned" | "bad_signature" | "unknown_key_version" | "not_canonical"

    def __bool__(self) -> bool:
        return self.ok


class Signer:
    """Signs with one key version; verifies with whichever version an object names.

    `key_lookup(version)` returns the bytes of an older version (from the provider's archive) or
    raises; looked-up keys are cached for the signer's life.
    """

    def __init__(self, key: bytes, version: int, key_lookup: Callable[[int], bytes] | None = None) -> None:
        if len(key) != KEY_BYTES:
            raise AuditKeyInvalidError(f"the audit key must be {KEY_BYTES} bytes, got {len(key)}")
        self._key = key
        self.version = int(version)
        self._lookup = key_lookup
        self._cache: dict[int, bytes] = {self.version: key}

    def key_for(self, version: int) -> bytes | None:
        if version in self._cache:
            return self._cache[version]
        if self._lookup is None:
            return None
        try:
            key = self._lookup(version)
        except Exception:  # noqa: BLE001 - an unreadable old key makes its objects unverifiable, not the run fail
            return None
        self._cache[version] = key
        return key

    def sign(self, obj: Mapping[str, Any]) -> dict[str, Any]:
        """A copy of `obj` with `key_version` (this signer's) and `sig`."""
        out = {k: v for k, v in obj.items() if k != SIG_FIELD}
        out[VERSION_FIELD] = self.version
        out[SIG_FIELD] = sign_with(self._key, out)
        return out

    def signature(self, obj: Mapping[str, Any]) -> str:
        """The signature of `obj` as it stands (its own `key_version` must be this signer's)."""
        return sign_with(self._key, obj)

    def verify(self, obj: Mapping[str, Any]) -> Verdict:
        sig = obj.get(SIG_FIELD)
        if not isinstance(sig, str) or not sig:
            return Verdict(False, "unsigned")
        version = obj.get(VERSION_FIELD)
        if not isinstance(version, int) or isinstance(version, bool):
            return Verdict(False, "unsigned")
        key = self.key_for(version)
        if key is None:
            return Verdict(False, "unknown_key_version")
        try:
            expected = sign_with(key, obj)
        except CanonicalJSONError:
            return Verdict(False, "not_canonical")
        if hmac.compare_digest(expected, sig.lower()):
            return Verdict(True)
        return Verdict(False, "bad_signature")
