"""The chain's breaks as `audit status` and the Audit panel name them, and their acknowledgement.

A break is fingerprinted by its file, line, kind and the line's bytes (the message, its numbers
masked, for a break without a line), so a signed `break_acknowledged` event covers exactly the
breaks the operator saw: a new or different break is never covered. Reading only: the
acknowledgement event itself is appended by `SessionLog.acknowledge`.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from lorekeeper.audit.dayfiles import mentions, read_lines
from lorekeeper.audit.events import EVENT_BREAK_ACKNOWLEDGED, event_status
from lorekeeper.audit.reports import ChainBreak, ChainState, VerifyReport
from lorekeeper.audit.signer import Signer
from lorekeeper.errors import InvalidInputError

MAX_ACK_REASON = 2000


def fingerprint(file: str, line: int, kind: str, basis: str) -> str:
    text = "\0".join((file, str(line), kind, basis))
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:32]


def check_ack_reason(reason: str) -> str:
    """The reason, stripped; ERR_INVALID_INPUT past MAX_ACK_REASON characters."""
    reason = (reason or "").strip()
    if len(reason) > MAX_ACK_REASON:
        raise InvalidInputError(f"the reason is {len(reason)} characters long (the limit is {MAX_ACK_REASON})")
    return reason


def chain_state(report: VerifyReport, paths: list[Path], signer: Signer) -> ChainState:
    """Every break of `report`, each marked acknowledged or not by the signed acknowledgements in `paths`."""
    issues = report.issues
    wanted = {(i.file, i.line) for i in issues if i.line > 0}
    lines: dict[tuple[str, int], tuple[str, int | None]] = {}
    acked: set[str] = set()
    acks: list[dict[str, Any]] = []
    needle = f'"{EVENT_BREAK_ACKNOWLEDGED}"'
    for path in paths:
        has_issue = any(f == path.name for f, _ in wanted)
        if not has_issue and not mentions(path, needle):
            continue
        for line_no, ev, _problem in read_lines(path, keep_raw=True):
            raw = str(ev.pop("__raw__", "")) if isinstance(ev, dict) else ""
            if (path.name, line_no) in wanted:
                seq = ev.get("seq") if isinstance(ev.get("seq"), int) else None
                lines[(path.name, line_no)] = (hashlib.sha256(raw.encode("utf-8", "replace")).hexdigest(), seq)
            if ev.get("type") != EVENT_BREAK_ACKNOWLEDGED or event_status(signer, ev) != "valid":
                continue
            data = ev["content"].get("data")
            covered = data.get("breaks") if isinstance(data, dict) else None
            if not isinstance(covered, list):
                continue
            acked.update(str(b.get("fingerprint")) for b in covered if isinstance(b, dict))
            acks.append(
                {
                    "file": path.name,
                    "seq": ev.get("seq"),
                    "ts": ev.get("ts"),
                    "operator": data.get("operator"),
                    "reason": data.get("reason"),
                    "breaks": len(covered),
                }
            )
    state = ChainState(acknowledgements=acks)
    seen: set[str] = set()
    for issue in issues:
        digest, seq = lines.get((issue.file, issue.line), ("", None))
        basis = digest or re.sub(r"\d+", "#", issue.message)
        fp = fingerprint(issue.file, issue.line, issue.kind, basis)
        if fp in seen:
            continue
        seen.add(fp)
        brk = ChainBreak(issue.file, issue.line, seq, issue.kind, issue.message, fp)
        (state.acknowledged if fp in acked else state.breaks).append(brk)
    return state


def acknowledgement(state: ChainState, reason: str, operator: str) -> dict[str, Any]:
    """The signed data of the `break_acknowledged` event covering the unacknowledged breaks."""
    return {
        "breaks": [b.to_dict() for b in state.breaks],
        "reason": reason,
        "operator": operator,
    }


def acknowledged(state: ChainState, reason: str, operator: str, event: dict[str, Any], file: str) -> dict[str, Any]:
    """What `acknowledge` returns: the breaks it covered and the event (in `file`) that covers them."""
    return {
        "acknowledged": [b.to_dict() for b in state.breaks],
        "already_acknowledged": len(state.acknowledged),
        "operator": operator,
        "reason": reason,
        "event": {
            "file": file,
            "seq": event["seq"],
            "sig": event["sig"],
            "type": EVENT_BREAK_ACKNOWLEDGED,
        },
    }
