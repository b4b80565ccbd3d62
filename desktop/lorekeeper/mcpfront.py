"""`lorekeeper mcp` answers `initialize` before it imports the MCP SDK and the workspace (issue 26).

Importing the `mcp` SDK, pydantic and the services takes seconds, and a client such as Claude Code
waits for `initialize` before it lists a server's tools. That answer depends only on the server
(name, version, capabilities, instructions) and on the protocol version the client asks for, so
the real server keeps the SDK's own answer of an earlier start in the user's state dir
(`<user state dir>/mcp-initialize.json`, 0600, outside any workspace), keyed by all it depends on:
the agent stamp (interpreter, Lorekeeper's folder, its mtime, its version, HOME/XDG_*), the SDK's
folder and mtime, and the requested protocol version.

- `early_initialize()` (called by `lorekeeper.entry` before the CLI is imported) reads the client's
  first line from fd 0 (byte by byte: nothing past it is taken from the SDK's reader), answers it
  from that cache when it is an `initialize` request with a known key, and keeps the line.
- The real server (`lorekeeper.agents.mcp_server`) takes the line (`take_first()`) and hands it to
  the SDK first: the SDK initialises its session as usual, and its own answer to that request is
  dropped when ours went out already (else it goes out). Either way it is cached for the next start
  (`remember()`), so an answer of the SDK that ever differs from the cached one replaces it.

Standard library only (no `json` before a call needs it; `lorekeeper.entry` imports this module
only for `lorekeeper mcp`).
"""

from __future__ import annotations

import os
import sys

from lorekeeper import agentwire

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

CACHE_NAME = "mcp-initialize.json"
FIRST_LINE_LIMIT = 1024 * 1024  # an initialize request is a few hundred bytes
MAX_ENTRIES = 16


class First:
    """The first line the client sent, and what was done with it."""

    def __init__(self, line: bytes) -> None:
        self.line = line
        self.key = ""  # the cache key; "" when the line is not an initialize request
        self.request_id: Any = None
        self.answered: dict[str, Any] | None = None  # the cached result that went out


_first: First | None = None


def take_first() -> First | None:
    """The line `early_initialize` read (once; None when it did not run)."""
    global _first
    first, _first = _first, None
    return first


def state_dir() -> str | None:
    """platformdirs' `user_state_dir("lorekeeper")` on Linux, computed without importing it."""
    if not sys.platform.startswith("linux"):
        return None
    base = os.environ.get("XDG_STATE_HOME", "").strip() or os.path.expanduser("~/.local/state")
    return os.path.join(base, "lorekeeper")


def _sdk_stamp() -> str:
    """The installed SDK's folder and mtime (an upgrade changes it), without importing it."""
    import importlib.machinery

    spec = importlib.machinery.PathFinder.find_spec("mcp")
    if spec is None or not spec.origin:
        return ""
    folder = os.path.dirname(spec.origin)
    try:
        return f"{folder}:{os.stat(folder).st_mtime_ns}"
    except OSError:
        return folder


def cache_key(protocol_version: str) -> str:
    return agentwire.sha256_hex("\0".join([agentwire.stamp(), _sdk_stamp(), protocol_version]).encode())[:32]


def _read_cache() -> dict[str, Any]:
    import json

    folder = state_dir()
    if folder is None:
        return {}
    try:
        fd = os.open(os.path.join(folder, CACHE_NAME), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return {}
    try:
        st = os.fstat(fd)
        if st.st_uid != os.getuid() or st.st_mode & 0o022 or (st.st_mode & 0o170000) != 0o100000:
            return {}  # not the user's own regular file: ignored
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = json.loads(fh.read(FIRST_LINE_LIMIT).decode("utf-8"))
    except (OSError, ValueError):
        return {}
    finally:
        os.close(fd)
    return data if isinstance(data, dict) else {}


def remember(key: str, result: dict[str, Any]) -> None:
    """Keep the SDK's answer for `key` (atomic, 0600); never raises."""
    import json
    import tempfile

    folder = state_dir()
    if folder is None or not key:
        return
    try:
        data = _read_cache()
        if data.get(key) == result:
            return
        os.makedirs(folder, mode=0o700, exist_ok=True)
        data.pop(key, None)
        data[key] = result
        while len(data) > MAX_ENTRIES:
            data.pop(next(iter(data)))
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{CACHE_NAME}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(data, fh, ensure_ascii=False)
            os.replace(tmp, os.path.join(folder, CACHE_NAME))
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        pass


def _first_line(fd: int) -> bytes:
    out = bytearray()
    while len(out) < FIRST_LINE_LIMIT:
        try:
            b = os.read(fd, 1)
        except InterruptedError:
            continue
        except OSError:
            break
        if not b:
            break
        out += b
        if b == b"\n":
            break
    return bytes(out)


def early_initialize(fd_in: int = 0, fd_out: int = 1) -> First:
    """Read the client's first line (kept for `take_first`); answer it at once when it is an
    `initialize` request whose answer is cached."""
    import json

    global _first
    first = _first = First(_first_line(fd_in))
    try:
        msg = json.loads(first.line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return first
    if not isinstance(msg, dict) or msg.get("jsonrpc") != "2.0" or msg.get("method") != "initialize":
        return first
    params = msg.get("params")
    version = params.get("protocolVersion") if isinstance(params, dict) else None
    request_id = msg.get("id")
    if not isinstance(version, str) or isinstance(request_id, bool) or not isinstance(request_id, (str, int)):
        return first
    first.key = cache_key(version)
    first.request_id = request_id
    cached = _read_cache().get(first.key)
    if not isinstance(cached, dict):
        return first
    reply = json.dumps(
        {"jsonrpc": "2.0", "id": request_id, "result": cached}, ensure_ascii=False, separators=(",", ":")
    )
    try:
        data = (reply + "\n").encode("utf-8")
        while data:
            data = data[os.write(fd_out, data) :]
    except OSError:
        return first
    first.answered = cached
    return first


__all__ = ["First", "cache_key", "early_initialize", "remember", "take_first"]
