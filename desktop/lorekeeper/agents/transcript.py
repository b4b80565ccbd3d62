"""Claude Code's session transcript (JSONL): the last user prompt and the answer that followed.

Each line is an entry; `type` "user" or "assistant" entries carry `message` = {"role", "content"},
where content is a string or a list of blocks (`text`, `tool_use`, `tool_result`, `thinking`).
A user entry whose blocks are only tool results is the tool's output, not a prompt.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MAX_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class Turn:
    prompt: str
    answer: str


def _text(content: Any, *, user: bool) -> str | None:
    """The text of a message's content; None for a user entry that is only tool results."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return None
    texts = [b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text"]
    if user and not texts:
        return None
    return "\n".join(t for t in texts if isinstance(t, str))


def last_turn(path: str | Path) -> Turn | None:
    """The last prompt the user typed and the assistant's text after it (every text block of the
    turn, in order, blank-line separated); None when the transcript holds no such turn."""
    p = Path(path)
    if p.stat().st_size > MAX_BYTES:
        with open(p, "rb") as fh:  # only the tail matters
            fh.seek(-MAX_BYTES, 2)
            raw = fh.read().decode("utf-8", errors="replace").split("\n", 1)[-1]
    else:
        raw = p.read_text(encoding="utf-8", errors="replace")
    prompt: str | None = None
    answer: list[str] = []
    for line in raw.splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if not isinstance(entry, dict) or entry.get("isSidechain"):
            continue
        kind = entry.get("type")
        message = entry.get("message")
        if not isinstance(message, dict):
            continue
        if kind == "user" and not entry.get("isMeta"):
            text = _text(message.get("content"), user=True)
            if text is not None:
                prompt, answer = text, []
        elif kind == "assistant" and prompt is not None:
            text = _text(message.get("content"), user=False)
            if text:
                answer.append(text)
    if prompt is None or not answer:
        return None
    return Turn(prompt, "\n\n".join(answer))
