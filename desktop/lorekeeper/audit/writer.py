"""Appending and signing: one event after the head, its line in the day file, then the new head.

`EventWriter.write_event` is the one place an event line is made: the header (format, seq, ts,
type, story, content hash, the previous signature) signed, the line appended, the head stored.
The caller holds the log's exclusive lock and has checked the head (`sync`). The operator's name
("by", issue 25 d2) is put into the data here too, so every way in (append, outbox) signs it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lorekeeper.audit.dayfiles import DayFiles
from lorekeeper.audit.events import EVENT_FORMAT, FIXED_FIELDS, content_hash
from lorekeeper.audit.heads import Head, HeadBook
from lorekeeper.audit.jcs import canonical_text
from lorekeeper.audit.signer import Signer
from lorekeeper.locations import os_login

operator_name = os_login  # who acts without a Vault identity (one definition: locations.os_login)


class EventWriter:
    def __init__(
        self,
        files: DayFiles,
        heads: HeadBook,
        signer: Signer,
        clock: Callable[[], str],
        operator: Callable[[], str] | None,
    ) -> None:
        self.files = files
        self.heads = heads
        self.signer = signer
        self.clock = clock
        # who makes the decisions this log signs (issue 25 d2): the Vault identity, else the OS login
        self._operator = operator

    def operator(self) -> str:
        """The name every event's data carries as "by" (issue 25 d2)."""
        if self._operator is not None:
            name = str(self._operator() or "").strip()
            if name:
                return name
        return operator_name()

    def with_operator(self, type: str, data: Any) -> Any:
        """`data` with "by": the operator (signed with it), when the log was given one (a workspace's
        log), `data` is a mapping that names nobody yet and the type's fields are not fixed by the seed."""
        if self._operator is not None and isinstance(data, dict) and not data.get("by") and type not in FIXED_FIELDS:
            return {**data, "by": self.operator()}
        return data

    def write_event(
        self, head: Head, type: str, content: dict[str, Any], story: str | None, ts: str, *, outbox: bool = False
    ) -> tuple[dict[str, Any], Head]:
        """Under the exclusive lock: append after `head`, then store the new head and its witness.
        `outbox`: the event of an outbox row (its change already committed): the witness says so."""
        day = f"{ts[:10]}.jsonl"
        name = max(day, head.file) if head.file else day  # never before the head's file (clock moved back)
        path = self.files.dir / name
        seq = head.seq + 1 if name == head.file else 1
        header = {
            "v": EVENT_FORMAT,
            "seq": seq,
            "ts": ts,
            "type": type,
            "story": story,
            "content_sha256": content_hash(content),
            "prev": head.sig,
        }
        signed = self.signer.sign(header)
        event = {**signed, "content": content}
        self.files.append_line(path, canonical_text(event))
        new = Head(head.epoch + 1, head.count + 1, name, seq, signed["sig"])
        self.heads.store_head(new, ts, salts_done=[content["salt"]], outbox=outbox)
        return event, new
