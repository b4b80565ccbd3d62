"""The `lorekeeper` program's entry point: the thin client of the agent service, then the CLI.

The agent calls (`hooks claude-code user-prompt-submit|stop`, `route`, `prompt`, `eval`,
`ctx read`) run on every prompt, so they are first offered to the workspace's resident service
(`lorekeeper agentd`, see `lorekeeper.cli.agentd`): this module and `lorekeeper.agentwire` import
the standard library only, so a call the service answers costs an interpreter start, a socket
round trip and the service's own (warm) work. The service runs the very same CLI command in its
process, so the answer is byte-for-byte the cold one.

When no service answers (none started, crashed, stale socket, another stamp, `LOREKEEPER_AGENTD=off`)
the call runs cold in this process, as before, and a first agent call starts the service in the
background for the next ones. A hook never waits past its budget: when the service took the request
but does not answer within `HOOK_WAIT` seconds, the hook answers with what it has (nothing: no
context this turn, exit 0, as a failing hook does) and says so in `<workspace>/logs/hooks.log`.
"""

from __future__ import annotations

import io
import os
import sys

from lorekeeper import agentwire

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing costs more than a warm call
if TYPE_CHECKING:
    from typing import Any

# Imports: the interpreter's own start-up modules, `lorekeeper.agentwire` and `_socket` only (no
# `json`, `pathlib`, `socket`, `base64`: each costs milliseconds on every prompt); what a cold call
# or a start needs is imported there.

#: the commands the service answers (their leading words after the global options)
WARM_COMMANDS = (
    ("hooks", "claude-code", "user-prompt-submit"),
    ("hooks", "claude-code", "stop"),
    ("route",),
    ("prompt",),
    ("eval",),
    ("ctx", "read"),
    # reads of signed rows at scale (issue 26 d3): the service's verifier remembers the verdicts of
    # rows whose whole content it verified before, so a warm `facts list` hashes only changed rows
    ("facts", "list"),
    ("facts", "pack"),
)
HOOKS = {WARM_COMMANDS[0], WARM_COMMANDS[1]}
PAYLOAD_LIMIT = 16 * 1024 * 1024  # as the hook commands' own limit
CONNECT_WAIT = 0.5  # seconds: a live service accepts at once; a stale socket refuses at once
HOOK_WAIT = float(os.environ.get("LOREKEEPER_HOOK_WAIT", "8"))  # Claude Code kills a hook at 10 s (our install)
CALL_WAIT = 600.0  # a CLI call (route, eval, ...) waits as long as the cold one could take
ROUTED_ENV_PREFIX = "LOREKEEPER_"


def main() -> None:
    argv = sys.argv[1:]
    code = warm(argv)
    if code is not None:
        sys.exit(code)
    if mcp_serve(argv):
        from lorekeeper import mcpfront

        mcpfront.early_initialize()  # answered before the SDK and the workspace are imported
    agentwire.HOOK_DEADLINE = True  # a hook run here answers within its budget (cold path)
    where = gui_launch(argv)
    if where is not None:  # the app's first window paints before click and the app are imported
        from lorekeeper.ui import splash

        splash.show(where)
    from lorekeeper.cli import main as cli_main

    cli_main()


# --------------------------------------------------------------------------- what may go warm


def split(argv: list[str]) -> tuple[str | None, tuple[str, ...], list[str]] | None:
    """(the global --workspace or None, the command words, the rest) for a warm command; None for
    any other call (it goes to the CLI as it is)."""
    workspace: str | None = None
    i = 0
    while i < len(argv) and argv[i].startswith("-"):
        arg = argv[i]
        if arg == "--workspace" and i + 1 < len(argv):
            workspace = argv[i + 1]
            i += 2
        elif arg.startswith("--workspace="):
            workspace = arg.split("=", 1)[1]
            i += 1
        else:
            return None  # --help, --version, a typo: the CLI says what it says
    rest = argv[i:]
    for words in WARM_COMMANDS:
        if tuple(rest[: len(words)]) == words:
            tail = rest[len(words) :]
            if any(a in ("-h", "--help") for a in tail) or "--" in tail:
                return None
            return workspace, words, tail
    return None


def _options(args: list[str], names: tuple[str, ...]) -> tuple[dict[str, str], int] | None:
    """The leading `--name VALUE` / `--name=VALUE` options of `args` whose name is in `names` (the
    last one wins) and where they end; None when another option comes first (`--help`, a typo)."""
    found: dict[str, str] = {}
    i = 0
    while i < len(args) and args[i].startswith("-"):
        name, eq, value = args[i].partition("=")
        if name not in names:
            return None
        if eq:
            found[name], i = value, i + 1
        elif i + 1 < len(args):
            found[name], i = args[i + 1], i + 2
        else:
            return None
    return found, i


def _default_workspace(chosen: str | None) -> str | None:
    """`chosen`, else $LOREKEEPER_WORKSPACE, else platformdirs' user_data_dir on Linux (computed
    here without importing platformdirs); None where that default is not known here."""
    chosen = chosen or os.environ.get("LOREKEEPER_WORKSPACE")
    if chosen:
        return os.path.expanduser(chosen)
    if not sys.platform.startswith("linux"):
        return None
    base = os.environ.get("XDG_DATA_HOME", "").strip() or os.path.expanduser("~/.local/share")
    return os.path.join(base, "lorekeeper", "workspace")


def gui_launch(argv: list[str]) -> str | None:
    """For a plain launch of the desktop app — `lorekeeper [--workspace W]` or `lorekeeper
    [--workspace W] gui [--workspace W]` — the workspace folder it will open, as `lorekeeper gui`
    resolves it ("" when that is not known here); None for any other call (`--help`, `--version`,
    `gui --screenshot`, `--size`, a typo: the CLI as it is, no window first)."""
    head = _options(argv, ("--workspace",))
    if head is None:
        return None
    found, i = head
    rest = argv[i:]
    if rest[:1] == ["gui"]:
        tail = _options(rest[1:], ("--workspace",))
        if tail is None or tail[1] != len(rest) - 1:
            return None
        found.update(tail[0])
    elif rest:
        return None
    return _default_workspace(found.get("--workspace")) or ""


def mcp_serve(argv: list[str]) -> bool:
    """`lorekeeper [--workspace W] mcp [--project P] [--workspace W]` on a pipe, for a workspace
    that exists: the MCP server, whose `initialize` `lorekeeper.mcpfront` may answer early."""
    head = _options(argv, ("--workspace",))
    if head is None:
        return False
    found, i = head
    if argv[i : i + 1] != ["mcp"]:
        return False
    tail = argv[i + 1 :]
    options = _options(tail, ("--project", "--workspace"))
    if options is None or options[1] != len(tail):
        return False  # `mcp install`, --help, a typo: the CLI as it is
    if sys.stdin is None or sys.stdin.isatty():
        return False
    return workspace_root(found.get("--workspace"), tail) is not None


def _option(tail: list[str], name: str) -> str | None:
    found: str | None = None
    for i, arg in enumerate(tail):
        if arg == name and i + 1 < len(tail):
            found = tail[i + 1]
        elif arg.startswith(name + "="):
            found = arg.split("=", 1)[1]
    return found


def workspace_root(global_ws: str | None, tail: list[str]) -> str | None:
    """The workspace the command will open (as the CLI resolves it), None when it is not one."""
    chosen = _default_workspace(_option(tail, "--workspace") or global_ws)
    if chosen is None:
        return None
    root = os.path.realpath(chosen)
    return root if os.path.isfile(os.path.join(root, "lorekeeper.toml")) else None


def _prog_name() -> str:
    arg0 = sys.argv[0] if sys.argv else "lorekeeper"
    if os.path.basename(arg0) == "__main__.py":
        return "python -m lorekeeper"
    return os.path.basename(arg0) or "lorekeeper"


# --------------------------------------------------------------------------- the call


def warm(argv: list[str]) -> int | None:
    """The exit code once the service answered (its output written); None: run the CLI here."""
    if agentwire.disabled():
        return None
    parts = split(argv)
    if parts is None:
        return None
    global_ws, words, tail = parts
    root = workspace_root(global_ws, tail)
    if root is None:
        return None
    hook = words in HOOKS
    stdin = b""
    if hook or "-" in tail:
        if sys.stdin is None or sys.stdin.isatty():
            return None
        stdin = sys.stdin.buffer.read(PAYLOAD_LIMIT + 1)
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")  # the cold path reads the same bytes
        if len(stdin) > PAYLOAD_LIMIT:
            return None  # the cold path refuses it with its own message
    folder = agentwire.runtime_dir(create=False)
    if folder is None:
        start(root)
        return None
    try:
        sock = agentwire.connect(agentwire.socket_path(folder, root), CONNECT_WAIT)
    except OSError:  # no service, a stale socket, a busy backlog: cold now, a service for next time
        start(root)
        return None
    try:
        request: dict[str, Any] = {
            "v": agentwire.PROTOCOL,
            "op": "run",
            "stamp": agentwire.stamp(),
            "argv": argv,
            "prog": _prog_name(),
            "cwd": os.getcwd(),
            "env": {k: v for k, v in os.environ.items() if k.startswith(ROUTED_ENV_PREFIX)},
            "stdin": stdin,
            "color": bool(sys.stdout is not None and sys.stdout.isatty()),
        }
        try:
            sock.settimeout(HOOK_WAIT if hook else CALL_WAIT)
            agentwire.send(sock, request)
            answer = agentwire.recv(sock)
        except TimeoutError:
            if not hook:
                return None
            _hook_log(root, words[-1], f"agentd did not answer within {HOOK_WAIT:g} s: answered without context")
            return 0
        except (OSError, ValueError) as exc:  # the service died mid-call: cold
            if hook:
                _hook_log(root, words[-1], f"agentd failed mid-call ({exc}); answered cold")
            return None
    finally:
        sock.close()
    if answer.get("status") != "ok":
        return None  # refused (another stamp, shutting down): cold
    out, err = answer.get("stdout", b""), answer.get("stderr", b"")
    if err and isinstance(err, bytes):
        try:
            sys.stderr.buffer.write(err)
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
    try:
        if out and isinstance(out, bytes):
            sys.stdout.buffer.write(out)
        sys.stdout.flush()
    except BrokenPipeError:  # `lorekeeper route X | head`: end quietly, as the CLI does
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except OSError:
            pass
        return 141
    return int(answer.get("exit", 0))


def starting(root: str) -> bool:
    """A service holds the workspace's lock (it is warming up, or about to exit)."""
    folder = agentwire.runtime_dir(create=False)
    if folder is None:
        return False
    try:
        import fcntl

        fd = os.open(agentwire.lock_path(folder, root), os.O_RDONLY)
    except (ImportError, OSError):
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False


def start(root: str) -> None:
    """Start the workspace's service in the background (it exits by itself when another holds the
    lock, and when idle); never raises: the call at hand goes on cold."""
    if starting(root):
        return
    try:
        import subprocess

        logs = os.path.join(root, "logs")
        os.makedirs(logs, exist_ok=True)
        env = {k: v for k, v in os.environ.items() if k != agentwire.ENV_SWITCH}
        with open(os.path.join(logs, "agentd.log"), "ab") as log:
            subprocess.Popen(
                [sys.executable, "-m", "lorekeeper", "agentd", "serve", "--workspace", root],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=log,
                cwd=root,
                env=env,
                start_new_session=True,
                close_fds=True,
            )
    except (OSError, ValueError):
        pass


def _hook_log(root: str, event: str, text: str) -> None:
    import datetime

    name = {"user-prompt-submit": "UserPromptSubmit", "stop": "Stop"}.get(event, event)
    line = f"---- {datetime.datetime.now(datetime.UTC).isoformat()} {name}: {text}\n"
    try:
        from pathlib import Path

        from lorekeeper.fsutil import append_text

        folder = Path(root) / "logs"
        folder.mkdir(exist_ok=True)
        append_text(folder / "hooks.log", line)  # a FIFO put in its place is refused, never waited on
    except OSError:
        pass
