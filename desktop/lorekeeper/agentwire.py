"""The wire of the resident agent service (`lorekeeper agentd`, issue 26): where its socket is, how
a request and an answer are framed, and the stamp that says a client and a service run alike.

Standard library only: the thin client (`lorekeeper.entry`) imports this module on every agent
call (hooks, `route`, `prompt`, `eval`, `ctx read`) before it knows whether a service answers.

- Socket: `<runtime>/agentd-<tag>.sock`, `<tag>` the first 16 hex digits of the SHA-256 of the
  workspace's real path; `<runtime>` is `$XDG_RUNTIME_DIR/lorekeeper` (else
  `<tempdir>/lorekeeper-<uid>`), a folder of the user's own, mode 0700 (a folder of another owner,
  or open to others, is refused: no service then, every call runs cold). The socket is 0600 and
  the service also refuses a peer of another uid (SO_PEERCRED).
- Frames: a 4-byte big-endian length, then that many bytes of a `marshal`led dict of str, bytes,
  int, bool and lists of str (at most `FRAME_LIMIT`). `marshal`, not JSON: it is built into the
  interpreter (importing `json` costs more than the whole warm call); both ends run the same
  interpreter (the stamp says so) and the peer is the same user (the socket's mode, SO_PEERCRED).
- Imports: `os`, `sys`, `stat`, `marshal` (loaded at interpreter start) and `_socket`; no
  `socket`, `json`, `pathlib`, `hashlib` or `tempfile` (each costs milliseconds at every call).
- Stamp: a digest of what decides how a command behaves besides its arguments: the interpreter,
  the package's folder (and its mtime: an upgrade changes it) and version, the user's folders (HOME, XDG_*), and where the audit key comes
  from (keyring backend, Vault address, and a digest of the Vault token: never the token). A
  service serves only a client of its own stamp; any other runs cold.
"""

from __future__ import annotations

import marshal
import os
import stat
import sys

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing costs more than a warm call
if TYPE_CHECKING:
    import _socket
    from typing import Any

PROTOCOL = 1
FRAME_LIMIT = 64 * 1024 * 1024  # a hook payload is at most 16 MiB; base64 adds a third
ENV_SWITCH = "LOREKEEPER_AGENTD"  # "off" (or 0, no, false): no service, every call cold
ENV_IDLE = "LOREKEEPER_AGENTD_IDLE"  # seconds of idleness before the service exits (overrides the config)
DEFAULT_IDLE_MINUTES = 10
#: what decides a command's behaviour besides its argv, cwd and LOREKEEPER_* variables
STAMP_VALUES = (
    "HOME",
    "XDG_DATA_HOME",
    "XDG_CONFIG_HOME",
    "XDG_STATE_HOME",
    "XDG_CACHE_HOME",
    "PYTHON_KEYRING_BACKEND",
    "VAULT_ADDR",
    "VAULT_NAMESPACE",
    "DBUS_SESSION_BUS_ADDRESS",
    "PYTHONPATH",
)
STAMP_SECRETS = ("VAULT_TOKEN",)  # digested, never sent
#: True in a `lorekeeper` process that runs a command itself (set by `lorekeeper.entry.main`): a hook
#: command there answers within its budget and exits (`lorekeeper.cli.hooks.Budget`). False where
#: the CLI runs inside a longer-lived process: the agent service (whose client keeps the budget), tests
HOOK_DEADLINE = False
#: In the agent service, while it runs a call: whether the client's stdout is a terminal (the
#: service's own is a buffer), so `--json` is indented exactly as the cold call would print it.
#: None everywhere else: the process's own stdout decides.
CLIENT_TTY: bool | None = None


def disabled() -> bool:
    return os.environ.get(ENV_SWITCH, "").strip().lower() in {"0", "off", "no", "false"}


def sha256_hex(data: bytes) -> str:
    try:  # the C module behind hashlib (3.11: _sha256, 3.12+: _sha2): no OpenSSL load
        from _sha256 import sha256  # type: ignore[import-not-found]
    except ImportError:
        try:
            from _sha2 import sha256  # type: ignore[import-not-found]
        except ImportError:
            from hashlib import sha256
    return str(sha256(data).hexdigest())


def stamp() -> str:
    import lorekeeper

    package = os.path.dirname(os.path.abspath(lorekeeper.__file__))
    try:  # a changed install (an upgrade, an edit saved by rename) changes the folder's mtime
        changed = str(os.stat(package).st_mtime_ns)
    except OSError:
        changed = ""
    parts = [sys.executable, package, changed, lorekeeper.__version__]
    parts += [f"{k}={os.environ.get(k, '')}" for k in STAMP_VALUES]
    parts += [f"{k}#{sha256_hex(os.environ[k].encode())}" for k in STAMP_SECRETS if k in os.environ]
    return sha256_hex("\0".join(parts).encode())[:24]


def _tempdir() -> str:
    for var in ("TMPDIR", "TEMP", "TMP"):
        value = os.environ.get(var, "").strip()
        if value and os.path.isdir(value):
            return value
    return "/tmp"


def runtime_dir(*, create: bool) -> str | None:
    """The user's private folder for service sockets; None when it is missing (and not `create`)
    or is not safe (another owner, open to group or others, a symlink)."""
    base = os.environ.get("XDG_RUNTIME_DIR", "").strip()
    if base and os.path.isdir(base):
        folder = os.path.join(base, "lorekeeper")
    else:
        folder = os.path.join(_tempdir(), f"lorekeeper-{os.getuid()}")
    if create:
        try:
            os.mkdir(folder, 0o700)
        except FileExistsError:
            pass
        except OSError:
            return None
    try:
        st = os.lstat(folder)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
        return None
    return folder


def workspace_tag(root: str) -> str:
    return sha256_hex(os.path.realpath(root).encode())[:16]


def socket_path(folder: str, root: str) -> str:
    return os.path.join(folder, f"agentd-{workspace_tag(root)}.sock")


def lock_path(folder: str, root: str) -> str:
    return os.path.join(folder, f"agentd-{workspace_tag(root)}.lock")


def connect(path: str, timeout: float) -> _socket.socket:
    """A connected client socket (OSError when no service listens there)."""
    import _socket

    sock: _socket.socket = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout)
        sock.connect(path)
    except BaseException:
        sock.close()
        raise
    return sock


def send(sock: _socket.socket, obj: dict[str, Any]) -> None:
    data = marshal.dumps(obj)
    if len(data) > FRAME_LIMIT:
        raise ValueError("agentd frame too large")
    sock.sendall(len(data).to_bytes(4, "big") + data)


def _exact(sock: _socket.socket, n: int) -> bytes:
    chunks: list[bytes] = []
    got = 0
    while got < n:
        chunk = sock.recv(min(n - got, 1 << 20))
        if not chunk:
            raise ConnectionError("agentd connection closed mid-frame")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def recv(sock: _socket.socket) -> dict[str, Any]:
    n = int.from_bytes(_exact(sock, 4), "big")
    if n > FRAME_LIMIT:
        raise ValueError("agentd frame too large")
    try:
        obj = marshal.loads(_exact(sock, n))
    except (EOFError, TypeError) as exc:
        raise ValueError(f"agentd frame unreadable: {exc}") from exc
    if not isinstance(obj, dict):
        raise ValueError("agentd frame is not an object")
    return obj


def peer_uid(sock: _socket.socket) -> int | None:
    """The uid of the process at the other end of a Unix socket (Linux SO_PEERCRED); None where the
    platform cannot say."""
    import socket as socketmod
    import struct

    opt = getattr(socketmod, "SO_PEERCRED", None)
    if opt is None:
        return None  # macOS, BSD: the socket's 0600 mode in the 0700 folder is the guard
    raw = sock.getsockopt(socketmod.SOL_SOCKET, opt, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", raw)
    return int(uid)
