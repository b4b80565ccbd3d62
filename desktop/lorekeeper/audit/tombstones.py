"""GDPR erasure in the session log: an event's `content` replaced by a signed tombstone.

The tombstone drops the data and its salt (so the content hash cannot be brute-forced back into
the data) and adds a signed `tombstone` record; the header and its signature stay, so the chain
still verifies after an erasure. A file is rewritten atomically; the caller holds the log's
exclusive lock for each file it erases in.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from lorekeeper.audit.dayfiles import DayFiles
from lorekeeper.audit.errors import CanonicalJSONError
from lorekeeper.audit.events import content_hash, event_header, tombstone_payload
from lorekeeper.audit.jcs import canonical_text, loads
from lorekeeper.audit.signer import Signer
from lorekeeper.errors import InvalidInputError


def check_reason(reason: str) -> None:
    if not reason.strip():
        raise InvalidInputError("a tombstone needs a reason (e.g. the purge request id)")


class Tombstoner:
    def __init__(self, signer: Signer, clock: Callable[[], str]) -> None:
        self.signer = signer
        self.clock = clock

    def erase_seq(self, path: Path, seq: int, reason: str) -> dict[str, Any] | None:
        """Tombstone event `seq` of `path`; the event as it was, or None when the file has no such seq."""
        lines = path.read_text(encoding="utf-8").split("\n")
        for i, line in enumerate(lines):
            if not line.strip():
                continue
            try:
                ev = loads(line)
            except CanonicalJSONError:
                continue
            if isinstance(ev, dict) and ev.get("seq") == seq:
                lines[i] = canonical_text(self.tombstoned(ev, reason, path.name, i + 1))
                DayFiles.rewrite(path, lines)
                return ev
        return None

    def erase_matching(self, path: Path, match: Callable[[dict[str, Any]], bool], reason: str) -> int:
        """Tombstone every event of `path` (with content) for which `match(event)` is true; how many."""
        lines = path.read_text(encoding="utf-8").split("\n")
        changed = False
        count = 0
        for i, line in enumerate(lines):
            if not line.strip():
                continue
            try:
                ev = loads(line)
            except CanonicalJSONError:
                continue
            if isinstance(ev, dict) and "content" in ev and "tombstone" not in ev and match(ev):
                lines[i] = canonical_text(self.tombstoned(ev, reason, path.name, i + 1))
                changed = True
                count += 1
        if changed:
            DayFiles.rewrite(path, lines)
        return count

    def tombstoned(self, ev: dict[str, Any], reason: str, file: str, line: int) -> dict[str, Any]:
        """The event with its content replaced by a signed tombstone (refused if it does not verify)."""
        if "tombstone" in ev:
            return ev
        if not self.signer.verify(event_header(ev)) or content_hash(ev.get("content") or {}) != ev.get(
            "content_sha256"
        ):
            raise InvalidInputError(
                f"{file}:{line}: the event does not verify; a tombstone would hide tampering. Run `lorekeeper audit verify`."
            )
        tomb = {"purged_at": self.clock(), "reason": reason, "key_version": self.signer.version}
        tomb["sig"] = self.signer.signature(tombstone_payload(ev["sig"], tomb))
        out = {k: v for k, v in ev.items() if k != "content"}
        out["tombstone"] = tomb
        return out
