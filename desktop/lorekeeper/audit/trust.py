"""One trust root per store (issue 25 d1): the store records which HMAC key signs it.

Workspaces that share a store (PostgreSQL) must share its signing key, or each treats the other's
rows as tampered and writes rows nobody else can verify. The store keeps, per key version, the
key's *fingerprint*: HMAC-SHA256(key, "lorekeeper-key-fingerprint") cut to 32 hex characters (it
names the key and reveals nothing of it), with the provider and location it came from (e.g. the
Vault address, mount and path) and the workspace that recorded it.

A workspace's key session is trusted on a store when:
- the store records no trust root yet and none of its signed ledger heads says otherwise: the
  session's key becomes the trust root (the first signed write, or `audit init-key`);
- the store records the session's key version with the same fingerprint;
- or the session's provider can give the key of the store's newest recorded version and that
  key has the recorded fingerprint: the same trust root, rotated. A newer session version is then
  recorded (a rotation elsewhere, or one whose record a crash lost), an older one (a long-running
  session that started before a rotation) keeps writing with a key everyone can still verify.

Anything else is ERR_STORE_KEY_MISMATCH (exit 4): nothing is written, and the message says which
key the store expects and where it came from.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select

from lorekeeper.audit.jcs import canonicalize
from lorekeeper.audit.signer import Signer
from lorekeeper.errors import LorekeeperError

FINGERPRINT_LABEL = b"lorekeeper-key-fingerprint"
FINGERPRINT_CHARS = 32


def fingerprint(key: bytes) -> str:
    """The non-secret name of a key: HMAC-SHA256(key, label), 128 bits in hex."""
    return hmac.new(key, FINGERPRINT_LABEL, hashlib.sha256).hexdigest()[:FINGERPRINT_CHARS]


class StoreKeyMismatchError(LorekeeperError):
    """The workspace's audit key is not the key that signs its store: nothing is written."""

    code = "ERR_STORE_KEY_MISMATCH"


@dataclass(frozen=True)
class TrustRoot:
    key_version: int
    fingerprint: str
    provider: str
    location: str
    workspace: str
    recorded_at: str
    verified: bool = False  # its row signature verifies with this session's key of that version

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__.items())


@dataclass(frozen=True)
class TrustState:
    """Where a key session stands against its store's trust root (`audit status`)."""

    state: str  # "trusted" | "recorded" (this session made it the root) | "mismatch"
    key_version: int
    fingerprint: str
    roots: list[TrustRoot] = field(default_factory=list)
    message: str = ""

    @property
    def ok(self) -> bool:
        return self.state != "mismatch"

    def to_dict(self) -> dict[str, Any]:
        return {
            "state": self.state,
            "key_version": self.key_version,
            "fingerprint": self.fingerprint,
            "store": [r.to_dict() for r in self.roots],
            **({"code": StoreKeyMismatchError.code, "message": self.message} if not self.ok else {}),
        }


def _row_payload(row: Any) -> dict[str, Any]:
    return {
        "kind": "store_trust_root",
        "key_version": int(row.key_version),
        "fingerprint": row.fingerprint,
        "provider": row.provider,
        "location": row.location,
        "workspace": row.workspace,
        "recorded_at": row.recorded_at,
    }


def _row_sig(key: bytes, row: Any) -> str:
    return hmac.new(key, canonicalize(_row_payload(row)), hashlib.sha256).hexdigest()


def read_roots(store: Any, signer: Signer | None = None) -> list[TrustRoot]:
    """The store's trust roots, oldest version first (`verified` when `signer` has that key)."""
    from lorekeeper.store.models import AuditTrustRoot

    with store.session() as s:
        rows = list(s.scalars(select(AuditTrustRoot).order_by(AuditTrustRoot.key_version)))
    out = []
    for r in rows:
        key = signer.key_for(int(r.key_version)) if signer is not None else None
        ok = key is not None and fingerprint(key) == r.fingerprint and hmac.compare_digest(_row_sig(key, r), r.sig)
        out.append(TrustRoot(int(r.key_version), r.fingerprint, r.provider, r.location, r.workspace, r.recorded_at, ok))
    return out


def _foreign_ledger(store: Any, signer: Signer) -> bool:
    """A store without a trust root (written before it existed) whose signed ledger heads all fail
    to verify with this key: another key signs it."""
    from lorekeeper.audit.rows import verify_row
    from lorekeeper.store.models import RowLedgerHead

    with store.session() as s:
        heads = list(s.scalars(select(RowLedgerHead).where(RowLedgerHead.sig.is_not(None)).limit(50)))
    return bool(heads) and not any(verify_row(signer, h) for h in heads)


def _record(store: Any, signer: Signer, version: int, provider: str, location: str, workspace: str) -> bool:
    """Insert the root of `version` unless it exists; True when this call wrote it."""
    from lorekeeper.store.models import AuditTrustRoot

    key = signer.key_for(version)
    assert key is not None
    with store.unguarded(), store.write() as s:
        if s.get(AuditTrustRoot, version) is not None:
            return False
        row = AuditTrustRoot(
            key_version=version,
            fingerprint=fingerprint(key),
            provider=provider,
            location=location[:400],
            workspace=workspace,
            recorded_at=datetime.now(UTC).isoformat(timespec="seconds"),
        )
        row.sig = _row_sig(key, row)
        s.add(row)
    return True


def mismatch_message(mine: str, version: int, provider: str, location: str, roots: list[TrustRoot], why: str) -> str:
    newest = roots[-1] if roots else None
    theirs = (
        f"fingerprint {newest.fingerprint}, version {newest.key_version}, from {newest.provider} "
        f"({newest.location or 'no location recorded'}), recorded by workspace {newest.workspace or '?'}"
        if newest is not None
        else "another key: its signed rows do not verify with this one"
    )
    if newest is not None and newest.provider == "vault":
        todo = (
            "Take the store's key from the team's Vault KV path: `lorekeeper audit setup --provider vault "
            "--addr ADDR --mount MOUNT --path PATH` with the address, mount and path above (a token that "
            "can read it in VAULT_TOKEN or `lorekeeper audit set-secret`)."
        )
    else:
        todo = (
            "The store's key lives in another workspace's OS keyring: move it into a shared Vault KV path "
            "there (`lorekeeper audit setup --provider vault --path PATH` in that workspace), then run the "
            "same command here; or point [store] url at a store of this workspace's own."
        )
    return (
        f"this workspace's audit key ({provider}, fingerprint {mine}, version {version}; {location}) is not "
        f"the key that signs this store ({theirs}){why}: nothing is written, since rows signed with it could "
        f"not be verified by the other workspaces on the store. {todo}"
    )


def check_trust(
    store: Any, signer: Signer, *, provider: str, location: str, workspace: str, record: bool = True
) -> TrustState:
    """The session's standing on the store; records the root when the store has none yet, or a
    newer version of the same root (`record=False`: only says whether it would). Never raises for
    a mismatch: see `require_trust`."""
    mine = fingerprint(signer.key_for(signer.version) or b"")
    version = signer.version
    roots = read_roots(store, signer)
    if not roots:
        if _foreign_ledger(store, signer):
            msg = mismatch_message(mine, version, provider, location, [], " (no trust root recorded yet)")
            return TrustState("mismatch", version, mine, [], msg)
        if not record:
            return TrustState("trusted", version, mine, [])
        wrote = _record(store, signer, version, provider, location, workspace)
        roots = read_roots(store, signer)
        if not roots or not any(r.key_version == version and r.verified for r in roots):
            # another workspace recorded a root at the same moment, with another key
            msg = mismatch_message(mine, version, provider, location, roots, "")
            return TrustState("mismatch", version, mine, roots, msg)
        return TrustState("recorded" if wrote else "trusted", version, mine, roots)
    by_version = {r.key_version: r for r in roots}
    if version in by_version:
        if by_version[version].verified:
            return TrustState("trusted", version, mine, roots)
        return TrustState(
            "mismatch", version, mine, roots, mismatch_message(mine, version, provider, location, roots, "")
        )
    newest = roots[-1]
    if not newest.verified:  # this provider cannot give the store's key: not the same trust root
        msg = mismatch_message(
            mine,
            version,
            provider,
            location,
            roots,
            f" (the store's key version {newest.key_version} is not this provider's)",
        )
        return TrustState("mismatch", version, mine, roots, msg)
    if version > newest.key_version and record:  # rotated from the store's key: the new version joins the root
        wrote = _record(store, signer, version, provider, location, workspace)
        return TrustState("recorded" if wrote else "trusted", version, mine, read_roots(store, signer))
    return TrustState("trusted", version, mine, roots)  # an older version of the same root


def require_trust(store: Any, signer: Signer, *, provider: str, location: str, workspace: str) -> TrustState:
    state = check_trust(store, signer, provider=provider, location=location, workspace=workspace)
    if not state.ok:
        newest = state.roots[-1] if state.roots else None
        raise StoreKeyMismatchError(
            state.message,
            fingerprint=state.fingerprint,
            store_fingerprint=newest.fingerprint if newest else None,
            store_provider=newest.provider if newest else None,
            store_location=newest.location if newest else None,
        )
    return state


def store_roots_unverified(store: Any) -> list[TrustRoot]:
    """The roots as recorded, without a key (pre-checks before a key exists)."""
    return read_roots(store, None)
