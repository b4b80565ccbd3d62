"""The parent side of the sanitizer (seed 004 §3.12.2): the verbatim goes to the child process on
its stdin pipe and the summary comes back on its stdout pipe; argv holds only the module name, no
file is created, stderr is read into memory and only its error code is kept, and the verbatim
buffer is overwritten once the child has read it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Any

from lorekeeper.errors import LorekeeperError
from lorekeeper.llm.base import LLMUnavailableError

SANITIZER_NAME = "lorekeeper.privacy.sanitizer"
SECTIONS = ("problem", "criteria", "constraints", "priorities")
TIMEOUT = 300.0


class SanitizerError(LorekeeperError):
    code = "ERR_LLM_UNAVAILABLE"


@dataclass(frozen=True)
class SanitizerResult:
    summary: dict[str, str]
    sanitizer: str  # deterministic | anthropic | ollama | claude-cli
    duration_ms: int


def sanitizer_argv() -> list[str]:
    """What the child is started with: the interpreter and the module, nothing of the verbatim."""
    return [sys.executable, "-m", SANITIZER_NAME]


def _child_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["CLAUDE_DISABLE_SESSION_LOG"] = "1"
    env["TERM"] = "dumb"
    env.pop("PYTHONSTARTUP", None)
    return env


def run_sanitizer(verbatim: bytearray, llm: dict[str, Any] | None) -> SanitizerResult:
    """`verbatim`: the JSON request's answers as UTF-8 bytes (see `encode_request`); it is zeroed here."""
    started = time.monotonic()
    try:
        proc = subprocess.Popen(
            sanitizer_argv(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=_child_env(),
            close_fds=True,
        )
    except OSError as exc:
        verbatim[:] = b"\0" * len(verbatim)
        raise SanitizerError(f"cannot start the sanitizer process: {exc.strerror}") from None
    try:
        out, err = proc.communicate(input=bytes(verbatim), timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise SanitizerError(f"the sanitizer did not answer within {TIMEOUT:g} s") from None
    finally:
        verbatim[:] = b"\0" * len(verbatim)
    duration = int((time.monotonic() - started) * 1000)
    code = err.decode("utf-8", "replace").strip().splitlines()[-1:] if err else []
    if proc.returncode != 0:
        what = code[0] if code and code[0].startswith("ERR_") else f"exit {proc.returncode}"
        if what == "ERR_LLM_UNAVAILABLE" or proc.returncode == 4:
            raise LLMUnavailableError(
                "the model could not write the summary (check `lorekeeper llm status`); nothing was written. "
                'Without a model, set [llm] provider = "none" to use the deterministic sanitizer.'
            )
        raise SanitizerError(f"the sanitizer failed ({what}); nothing was written")
    try:
        data = json.loads(out.decode("utf-8"))
        summary = {sec: str(data["summary"].get(sec) or "") for sec in SECTIONS}
    except (ValueError, KeyError, TypeError, AttributeError):
        raise SanitizerError("the sanitizer answered something that is not a summary; nothing was written") from None
    return SanitizerResult(summary, str(data.get("sanitizer") or ""), duration)


def encode_request(answers: dict[str, str], llm: dict[str, Any] | None) -> bytearray:
    return bytearray(json.dumps({"answers": answers, "llm": llm}, ensure_ascii=False).encode("utf-8"))
