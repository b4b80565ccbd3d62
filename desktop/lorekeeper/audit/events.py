"""One event of the session log: its line format, what its signature covers, its status.

Pure functions, no file and no store: the pieces of the log (`dayfiles`, `writer`, `verify`,
`tombstones`, `outbox`) all read and write events through them, so the format is written once.
The format itself is described in `audit/log.py`.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime
from typing import Any

from lorekeeper.audit.errors import CanonicalJSONError
from lorekeeper.audit.jcs import canonical_text, canonicalize, loads
from lorekeeper.audit.signer import Signer, sign_with
from lorekeeper.errors import InvalidInputError

EVENT_FORMAT = 2  # 2: the first event of a file links to the last event of the previous file
HEADER_EXCLUDES = ("sig", "content", "tombstone")
MAX_LINE_CHARS = 1_000_000  # a longer line is damage on read, and refused on write

EVENT_KEY_ROTATED = "audit_key_rotated"
EVENT_HEAD_ADOPTED = "audit_head_adopted"
EVENT_OUTBOX_REJECTED = "unsigned_entry"
EVENT_BREAK_ACKNOWLEDGED = "break_acknowledged"

# events whose fields seed 004 §3.10.1 fixes ({story_id, subprocess_name, duration_ms, success}): no "by"
FIXED_FIELDS = frozenset({"verbatim_subprocess_invoked", "verbatim_subprocess_completed"})


def utc_now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def content_hash(content: dict[str, Any]) -> str:
    return hashlib.sha256(canonicalize(content)).hexdigest()


def event_header(event: dict[str, Any]) -> dict[str, Any]:
    """What an event's signature covers (its `sig` included, for `Signer.verify`)."""
    return {k: v for k, v in event.items() if k not in ("content", "tombstone")}


def tombstone_payload(event_sig: str, tomb: dict[str, Any]) -> dict[str, Any]:
    return {"event_sig": event_sig, **dict(tomb.items())}


def new_content(type: str, data: Any, story: str | None, salt: str | None = None) -> dict[str, Any]:
    """The salted content of a new event, validated before anything is written (type, story, size)."""
    if not isinstance(type, str) or not type.strip():
        raise InvalidInputError("an audit event needs a type")
    if story is not None and not isinstance(story, str):
        raise InvalidInputError("the story of an audit event is a string")
    content = {"data": data, "salt": salt or secrets.token_hex(16)}
    if len(canonicalize(content)) > MAX_LINE_CHARS // 2:  # validates `data` before anything is written
        raise InvalidInputError(f"audit event data too large (the limit is {MAX_LINE_CHARS // 2} bytes)")
    return content


def parse_line(line: str) -> tuple[dict[str, Any] | None, str]:
    """(event, problem) of one line; bounded in length, nesting and number size (never raises)."""
    if not line.strip():
        return None, "empty line inside the log"
    if len(line) > MAX_LINE_CHARS:
        return None, f"not a valid event: a line of {len(line)} characters (the limit is {MAX_LINE_CHARS})"
    try:
        ev = loads(line)
    except CanonicalJSONError as exc:
        return None, f"not a valid event: {exc.message}"
    except (ValueError, RecursionError, MemoryError) as exc:  # defence in depth: never stop a reader
        return None, f"not a valid event: {type(exc).__name__}"
    if not isinstance(ev, dict):
        return None, "not a JSON object"
    return ev, ""


def event_status(signer: Signer, ev: dict[str, Any]) -> str:
    """valid | tombstone | bad_signature | content_mismatch | unsigned, as the event browser shows it."""
    if not isinstance(ev.get("sig"), str):
        return "unsigned"
    if not signer.verify(event_header(ev)):
        return "bad_signature"
    if "tombstone" in ev:
        return "tombstone"
    try:
        if not isinstance(ev.get("content"), dict) or content_hash(ev["content"]) != ev.get("content_sha256"):
            return "content_mismatch"
    except CanonicalJSONError:
        return "content_mismatch"
    return "valid"


def sign_payload_with_key(key: bytes, payload: dict[str, Any]) -> tuple[str, str]:
    """(canonical text, signature) of a payload without its `sig`: `audit sign --test-key`. A
    session-log event line (it has `content_sha256`) is signed as the log signs it: its header,
    without `content` and `tombstone`, after its content is checked against `content_sha256`."""
    if "content_sha256" in payload:
        content = payload.get("content")
        if isinstance(content, dict) and content_hash(content) != payload["content_sha256"]:
            raise InvalidInputError("the event's content does not hash to its content_sha256 (the content was edited)")
        body = {k: v for k, v in payload.items() if k not in HEADER_EXCLUDES}
    else:
        body = {k: v for k, v in payload.items() if k != "sig"}
    return canonical_text(body), sign_with(key, body)
