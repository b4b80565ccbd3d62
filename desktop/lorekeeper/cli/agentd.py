"""`lorekeeper agentd serve|status|stop`: the workspace's resident agent service (issue 26).

The agent calls (`hooks claude-code user-prompt-submit|stop`, `route`, `prompt`, `eval`,
`ctx read`) and the reads of signed rows at scale (`facts list`, `facts pack`: the verdicts of rows
already verified are remembered by content, `audit.rows.shared_memo`) pay mostly for importing Lorekeeper (SQLAlchemy, the services, the tokenizer): about
3 s of CPU on a cold start against ~0.1 s of work. The service is a process that has paid it once:
the thin client (`lorekeeper.entry`) sends it the call's argv, cwd, LOREKEEPER_* variables and
stdin over a Unix socket, and it runs the very same click command in-process (click's CliRunner),
so the bytes, the exit code and every side effect are those of the cold call. Each call opens the
workspace as the cold call does, and the hook's fast path checks the store revision and change
feed on every call: a change any process made is seen by the very next call, and only verified,
witnessed rows are served (the hook snapshot's rules, `lorekeeper.agents.hookctx`, hold unchanged).

- Started on demand by the first agent call that finds none (the call itself runs cold); at most one
  per workspace (an exclusive `flock` on its lock file); exits after `[agentd] idle_minutes`
  (default 10; `LOREKEEPER_AGENTD_IDLE` seconds overrides), when the workspace folder goes away,
  after `MAX_CALLS` calls (a fresh one starts on the next call), or on `agentd stop`.
- Socket and stamp: see `lorekeeper.agentwire` (0600, in a 0700 folder of the user's own, peers of
  another uid refused by SO_PEERCRED, a client of another environment refused: it runs cold).
- One call at a time (argv, cwd and stdio are the process's own while a command runs).
"""

from __future__ import annotations

import contextlib
import datetime
import os
import socket
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

import click

from lorekeeper import agentwire
from lorekeeper.cli.common import emit_json, handle_errors, json_option, workspace_option
from lorekeeper.errors import LorekeeperError, WorkspaceError

MAX_CALLS = 2000  # then exit: the next call starts a fresh service (nothing accumulates for days)
POLL = 1.0  # seconds between idleness checks
READ_WAIT = 10.0  # seconds a connected client has to send its request
STOP_WAIT = 5.0


@click.group("agentd")
def agentd() -> None:
    """The resident agent service: hooks, route, prompt, eval, ctx read, facts list and pack answered warm."""


def _root(workspace_dir: Path | None) -> Path:
    from lorekeeper.locations import resolve_workspace_dir

    ctx = click.get_current_context(silent=True)
    if workspace_dir is None and ctx is not None:
        workspace_dir = (ctx.find_root().obj or {}).get("workspace_dir")
    root = Path(os.path.realpath(resolve_workspace_dir(workspace_dir)))
    if not (root / "lorekeeper.toml").is_file():
        raise WorkspaceError(f"{root} is not a workspace (no lorekeeper.toml)")
    return root


def idle_seconds(root: Path) -> float:
    env = os.environ.get(agentwire.ENV_IDLE, "").strip()
    if env:
        with contextlib.suppress(ValueError):
            return max(0.5, float(env))
    minutes: object = agentwire.DEFAULT_IDLE_MINUTES
    with contextlib.suppress(OSError, tomllib.TOMLDecodeError):
        cfg = tomllib.loads((root / "lorekeeper.toml").read_text(encoding="utf-8"))
        section = cfg.get("agentd")
        if isinstance(section, dict):
            minutes = section.get("idle_minutes", minutes)
    try:
        return max(0.5, float(str(minutes)) * 60)
    except ValueError:
        return agentwire.DEFAULT_IDLE_MINUTES * 60.0


def _log(text: str) -> None:
    """The service's stderr is `<workspace>/logs/agentd.log` (opened by the client that started it)."""
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.write(f"{datetime.datetime.now(datetime.UTC).isoformat()} agentd[{os.getpid()}]: {text}\n")
        sys.stderr.flush()


def _ask(root: Path, op: str) -> dict[str, Any] | None:
    """One request to the running service; None when none answers."""
    folder = agentwire.runtime_dir(create=False)
    if folder is None:
        return None
    try:
        sock = agentwire.connect(agentwire.socket_path(folder, str(root)), STOP_WAIT)
    except OSError:
        return None
    try:
        agentwire.send(sock, {"v": agentwire.PROTOCOL, "op": op, "stamp": agentwire.stamp()})
        return agentwire.recv(sock)
    except (OSError, ValueError):
        return None
    finally:
        sock.close()


# --------------------------------------------------------------------------- the service


class Service:
    def __init__(self, root: Path, folder: str, idle: float) -> None:
        self.root = root
        self.folder = Path(folder)
        self.idle = idle
        self.path = Path(agentwire.socket_path(folder, str(root)))
        self.stamp = agentwire.stamp()
        self.started = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
        self.calls = 0
        self.refused = 0
        self.last = time.monotonic()
        self.running = True

    def warm_up(self) -> None:
        """Import what the agent calls need and load the tokenizer (o200k), so the first call is warm."""
        import importlib

        for name in (
            "lorekeeper.cli.hooks",
            "lorekeeper.cli.route",
            "lorekeeper.cli.prompt",
            "lorekeeper.cli.evals",
            "lorekeeper.cli.ctx",
            "lorekeeper.agents.hooks",
            "lorekeeper.agents.transcript",
            "lorekeeper.workspace",
            "lorekeeper.context.read",
        ):
            with contextlib.suppress(Exception):
                importlib.import_module(name)
        probe = self.folder / f".agentd-warm-{os.getpid()}.py"
        try:
            probe.write_text("def warm(x):\n    return x + 1\n", encoding="utf-8")
            self.invoke(["ctx", "read", str(probe)], cwd=str(self.folder), env={}, stdin=b"", color=False)
            self.invoke(
                ["--workspace", str(self.root), "route", "warm up", "--json"],
                cwd=str(self.root),
                env={},
                stdin=b"",
                color=False,
            )
        except Exception as exc:  # noqa: BLE001 - a warm-up failure only makes the first call slower
            _log(f"warm-up: {exc!r}")
        finally:
            probe.unlink(missing_ok=True)

    def invoke(
        self, argv: list[str], *, cwd: str, env: dict[str, str], stdin: bytes, color: bool, prog: str = "lorekeeper"
    ) -> dict[str, Any]:
        """Run the CLI command as the cold call would, in this process."""
        from click.testing import CliRunner

        from lorekeeper.cli import main

        agentwire.HOOK_DEADLINE = False  # the client keeps the hook's budget; this process never exits for it

        overrides: dict[str, str | None] = {k: None for k in os.environ if k.startswith("LOREKEEPER_")}
        overrides.pop(agentwire.ENV_IDLE, None)
        overrides.update(env)
        here = os.getcwd()
        os.chdir(cwd)
        agentwire.CLIENT_TTY = color  # `color` is the client's stdout being a terminal
        try:
            result = CliRunner().invoke(
                main, argv, input=stdin, env=overrides, catch_exceptions=True, color=color, prog_name=prog
            )
        finally:
            agentwire.CLIENT_TTY = None
            os.chdir(here)
        exc = result.exception
        if exc is not None and not isinstance(exc, SystemExit):
            _log(f"call {argv[:4]} raised {exc!r}: refused, the client runs it cold")
            return {"status": "refused", "reason": "the command raised"}
        return {
            "status": "ok",
            "exit": result.exit_code,
            "stdout": result.stdout_bytes,
            "stderr": result.stderr_bytes or b"",
        }

    def handle(self, conn: socket.socket) -> None:
        uid = agentwire.peer_uid(conn)
        if uid is not None and uid != os.getuid():
            self.refused += 1
            _log(f"refused a connection from uid {uid}")
            return
        conn.settimeout(READ_WAIT)
        request = agentwire.recv(conn)
        op = request.get("op")
        if request.get("v") != agentwire.PROTOCOL:
            agentwire.send(conn, {"status": "refused", "reason": "protocol"})
            return
        if op == "status":
            agentwire.send(conn, {"status": "ok", **self.info()})
            return
        if op == "stop":
            self.running = False
            agentwire.send(conn, {"status": "ok", "stopping": True, "pid": os.getpid()})
            return
        if op != "run":
            agentwire.send(conn, {"status": "refused", "reason": "unknown op"})
            return
        if request.get("stamp") != self.stamp:
            agentwire.send(conn, {"status": "refused", "reason": "stamp"})
            return
        argv = [str(a) for a in request.get("argv", [])]
        env = {str(k): str(v) for k, v in dict(request.get("env") or {}).items() if str(k).startswith("LOREKEEPER_")}
        answer = self.invoke(
            argv,
            cwd=str(request.get("cwd") or "/"),
            env=env,
            stdin=stdin if isinstance(stdin := request.get("stdin", b""), bytes) else b"",
            color=bool(request.get("color")),
            prog=str(request.get("prog") or "lorekeeper"),
        )
        self.calls += 1
        agentwire.send(conn, answer)

    def info(self) -> dict[str, Any]:
        return {
            "running": True,
            "pid": os.getpid(),
            "socket": str(self.path),
            "workspace": str(self.root),
            "started": self.started,
            "calls": self.calls,
            "refused": self.refused,
            "idle_seconds": self.idle,
        }

    def serve(self) -> None:
        self.path.unlink(missing_ok=True)  # a stale socket (we hold the lock: no live service owns it)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o177)
        try:
            sock.bind(str(self.path))
        finally:
            os.umask(old)
        os.chmod(self.path, 0o600)
        inode = os.stat(self.path).st_ino
        sock.listen(64)
        sock.settimeout(POLL)
        _log(f"serving {self.root} on {self.path} (idle exit after {self.idle:g} s)")
        try:
            while self.running:
                try:
                    conn, _ = sock.accept()
                except TimeoutError:
                    if time.monotonic() - self.last > self.idle:
                        _log("idle: exiting")
                        break
                    if not (self.root / "lorekeeper.toml").is_file():
                        _log("the workspace is gone: exiting")
                        break
                    continue
                with conn:
                    try:
                        self.handle(conn)
                    except (OSError, ValueError) as exc:
                        _log(f"a call failed on the wire: {exc!r}")
                self.last = time.monotonic()
                if self.calls >= MAX_CALLS:
                    _log(f"{MAX_CALLS} calls: exiting (the next call starts a fresh service)")
                    break
        finally:
            with contextlib.suppress(OSError):
                if os.stat(self.path).st_ino == inode:  # still ours (not a successor's)
                    self.path.unlink()
            sock.close()


@agentd.command("serve")
@workspace_option
def serve(workspace_dir: Path | None) -> None:
    """Run the service in the foreground (agent calls start it themselves; exits when idle)."""
    import fcntl

    root = _root(workspace_dir)
    folder = agentwire.runtime_dir(create=True)
    if folder is None:
        raise LorekeeperError(
            "no private runtime folder for the agent service ($XDG_RUNTIME_DIR/lorekeeper or "
            "<tmp>/lorekeeper-<uid>, owned by you, mode 0700): agent calls run cold",
            code="ERR_AGENTD_UNAVAILABLE",
        )
    fd = os.open(agentwire.lock_path(folder, str(root)), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return  # another service holds this workspace: it answers
        service = Service(root, folder, idle_seconds(root))
        service.warm_up()
        service.serve()
    finally:
        os.close(fd)  # releases the lock


@agentd.command("status")
@workspace_option
@json_option
@handle_errors
def status(workspace_dir: Path | None, as_json: bool) -> None:
    """Whether the workspace's service runs: pid, socket, calls answered, idle limit."""
    root = _root(workspace_dir)
    info = _ask(root, "status")
    out = dict(info) if info else {"running": False, "workspace": str(root)}
    out.pop("status", None)
    if as_json:
        emit_json(out)
    elif out.get("running"):
        click.echo(
            f"agentd running (pid {out['pid']}) for {out['workspace']}: {out['calls']} calls since "
            f"{out['started']}; exits after {out['idle_seconds']:g} s idle; socket {out['socket']}"
        )
    else:
        click.echo(f"agentd not running for {root} (the next agent call starts it)")


@agentd.command("stop")
@workspace_option
@json_option
@handle_errors
def stop(workspace_dir: Path | None, as_json: bool) -> None:
    """Stop the workspace's service (the next agent call starts a fresh one)."""
    root = _root(workspace_dir)
    info = _ask(root, "stop")
    stopped = bool(info and info.get("stopping"))
    if as_json:
        emit_json({"stopped": stopped, "pid": info.get("pid") if info else None, "workspace": str(root)})
    else:
        click.echo(f"agentd stopped (pid {info['pid']})" if stopped and info else f"agentd was not running for {root}")


__all__ = ["Service", "agentd", "idle_seconds"]
