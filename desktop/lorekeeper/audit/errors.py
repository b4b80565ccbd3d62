"""The audit chain's errors. Each carries a stable code from DESIGN.md and says what to do."""

from __future__ import annotations

from lorekeeper.errors import LorekeeperError

# Why a key could not be loaded: the fail-closed screen and `audit status` explain each cause.
CAUSE_NO_BACKEND = "no_backend"  # no usable OS keyring backend on this machine
CAUSE_SEALED = "sealed"  # Vault answered, but it is sealed
CAUSE_UNREACHABLE = "unreachable"  # Vault did not answer at its address
CAUSE_MISSING = "missing"  # the provider works, but holds no key for this workspace
CAUSE_INVALID = "invalid"  # the stored value is not 64 hex characters (32 bytes)
CAUSE_DENIED = "denied"  # Vault refused the token / AppRole credentials
CAUSE_NO_TOKEN = "no_token"  # no Vault token in VAULT_TOKEN nor in the OS keyring
CAUSE_CONFIG = "config"  # the [audit] configuration itself is wrong

CAUSE_TITLES = {
    CAUSE_NO_BACKEND: "No keyring backend",
    CAUSE_SEALED: "Vault is sealed",
    CAUSE_UNREACHABLE: "Vault is unreachable",
    CAUSE_MISSING: "Audit key missing",
    CAUSE_INVALID: "Audit key invalid",
    CAUSE_DENIED: "Vault refused the credentials",
    CAUSE_NO_TOKEN: "No Vault token",
    CAUSE_CONFIG: "Audit configuration invalid",
}


class AuditKeyUnavailableError(LorekeeperError):
    """The configured key provider cannot give the key: the session refuses to start."""

    code = "ERR_AUDIT_KEY_UNAVAILABLE"

    def __init__(self, message: str, *, cause: str, provider: str) -> None:
        super().__init__(message, cause=cause, provider=provider)
        self.cause = cause
        self.provider = provider


class AuditKeyInvalidError(AuditKeyUnavailableError):
    """The provider answered with something that is not a 32-byte key in 64 hex characters."""

    code = "ERR_AUDIT_KEY_INVALID"

    def __init__(self, message: str, *, provider: str = "", cause: str = CAUSE_INVALID) -> None:
        super().__init__(message, cause=cause, provider=provider)


class CanonicalJSONError(LorekeeperError):
    """The input cannot be canonicalised (RFC 8785): duplicate key, NaN/Infinity, huge integer..."""

    code = "ERR_CANONICAL_JSON"


class TraceWriteFailedError(LorekeeperError):
    """A signed event could not be written: the effect it traces must not happen."""

    code = "ERR_TRACE_WRITE_FAILED"


class UnsignedEntryError(LorekeeperError):
    """A signed row or event whose signature is missing or does not verify."""

    code = "ERR_UNSIGNED_ENTRY"


class FailClosedRecursionError(LorekeeperError):
    """More than 3 nested fail-closed handlers in one thread."""

    code = "ERR_FAIL_CLOSED_RECURSION"


class VerifyFailedError(LorekeeperError):
    """`audit verify` found a break; the message names the file and line."""

    code = "ERR_AUDIT_VERIFY_FAILED"


class ChainBrokenError(LorekeeperError):
    """The stored head does not match the session log (cut, replaced or rolled back): nothing is
    appended on top of it, so a later write never launders the break."""

    code = "ERR_AUDIT_CHAIN_BROKEN"


class StoreRolledBackError(ChainBrokenError):
    """The store's head (with its checkpoints, rows and row ledger) is several events behind the
    session log: no crash leaves that, the store was written back from an earlier moment and the
    changes committed since are lost. Reads of the signed tables are refused too."""


class WorkspaceCopyError(LorekeeperError):
    """The folder is a copy of a workspace that still exists elsewhere (same `[workspace] id`):
    it would share the original's key entry and head witness, and lock the original out on its
    next write. Nothing is written until `lorekeeper workspace adopt-copy` gives it its own id."""

    code = "ERR_WORKSPACE_COPY"
