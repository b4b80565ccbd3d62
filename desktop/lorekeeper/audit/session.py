"""The key session: the audit key loaded once, when a session starts, and immutable afterwards.

A CLI command that signs or verifies loads it first thing (before any write); the app loads it at
launch. If the provider cannot give the key, nothing starts (ERR_AUDIT_KEY_UNAVAILABLE). Keys of
older versions are fetched from the same provider on demand, for verification only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from lorekeeper.audit.providers import KeyProvider
from lorekeeper.audit.signer import Signer


@dataclass(frozen=True)
class KeySession:
    provider: str
    location: str
    version: int
    loaded_at: str  # ISO 8601, UTC
    signer: Signer = field(repr=False, compare=False)

    def to_dict(self) -> dict[str, object]:
        return {
            "provider": self.provider,
            "location": self.location,
            "key_version": self.version,
            "loaded_at": self.loaded_at,
        }


def start_key_session(provider: KeyProvider) -> KeySession:
    loaded = provider.load()
    signer = Signer(loaded.key, loaded.version, key_lookup=provider.key_version)
    return KeySession(
        provider=provider.name,
        location=provider.describe(),
        version=loaded.version,
        loaded_at=datetime.now(UTC).isoformat(timespec="seconds"),
        signer=signer,
    )
