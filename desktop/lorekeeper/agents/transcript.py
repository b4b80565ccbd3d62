"""Claude Code's session transcript (JSONL): the last user prompt and the answer that followed.

Each line is an entry; `type` "user" or "assistant" entries carry `message` = {"role", "content"},
where content is a string or a list of blocks (`text`, `tool_use`, `tool_result`, `thinking`).
A user entry whose blocks are only tool results is the tool's output, not a prompt.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lorekeeper import safejson
from lorekeeper.errors import UnsafeInputError
from lorekeeper.fsutil import not_regular

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


def _tail(p: Path) -> str:
    """The transcript's text, its last MAX_BYTES only when it is larger (only the tail matters).
    A regular file only: a FIFO or a device (the hook input names any path) is refused, opened
    non-blocking so that it cannot hang the agent's Stop."""
    fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise not_regular(p, st.st_mode, "transcript")
        if st.st_size > MAX_BYTES:
            fh.seek(-MAX_BYTES, 2)
            return fh.read(MAX_BYTES).decode("utf-8", errors="replace").split("\n", 1)[-1]
        return fh.read(MAX_BYTES).decode("utf-8", errors="replace")


def last_turn(path: str | Path, *, need_answer: bool = True) -> Turn | None:
    """The last prompt the user typed and the assistant's text after it (every text block of the
    turn, in order, blank-line separated); None when the transcript holds no such turn.
    `need_answer=False`: the turn of the last prompt even when no answer follows it yet (its
    answer is then ""), the case where the Stop hook's `last_assistant_message` has it."""
    raw = _tail(Path(path))
    prompt: str | None = None
    answer: list[str] = []
    for line in raw.splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            entry = safejson.loads(line)
        except (ValueError, UnsafeInputError):  # not JSON, or nested too deep to be an entry
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
    if prompt is None or (need_answer and not answer):
        return None
    return Turn(prompt, "\n\n".join(answer))
