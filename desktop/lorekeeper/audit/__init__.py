"""The signed audit chain: RFC 8785 + HMAC-SHA256 signing, key providers (OS keyring, Vault KV v2),
the key session, the chained and checkpointed session log, signed rows, fail-closed plumbing, rotation.

Qt-free: the Audit panel (ui/panels/audit.py) and the CLI (cli/audit.py) both use `ws.audit`.
"""

from lorekeeper.audit.errors import (
    AuditKeyInvalidError,
    AuditKeyUnavailableError,
    CanonicalJSONError,
    FailClosedRecursionError,
    TraceWriteFailedError,
    UnsignedEntryError,
)
from lorekeeper.audit.jcs import canonicalize, loads
from lorekeeper.audit.signer import Signer, parse_key_hex

__all__ = [
    "AuditKeyInvalidError",
    "AuditKeyUnavailableError",
    "CanonicalJSONError",
    "FailClosedRecursionError",
    "Signer",
    "TraceWriteFailedError",
    "UnsignedEntryError",
    "canonicalize",
    "loads",
    "parse_key_hex",
]
