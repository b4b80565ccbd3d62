"""The fork server behind `helpers.forkcli` (run as a script, never imported by the tests).

It imports the `lorekeeper` command's modules once, then answers requests on stdin, one JSON line
each, on stdout:
- `{"op": "spawn", "argv": [...], "env": {...}, "cwd": ..., "stdin": path|null, "stdout": path,
  "stderr": path}` forks a child that becomes `python -m lorekeeper ARGV` in `cwd` with exactly
  `env` and those files as its descriptors 0, 1 and 2; answers `{"pid": N}`;
- `{"op": "wait", "pid": N, "timeout": S}` answers `{"code": C, "cpu": seconds}` (C as
  `Popen.returncode`: negative for a signal) or `{"code": null}` when S passed first;
- `{"op": "kill", "pid": N, "signal": S}` answers `{}`.

The server stays single-threaded and opens no database, socket or key before it forks: a child
starts with the modules imported and nothing else shared. The child leaves the request loop and
runs `lorekeeper.__main__` as `python -m lorekeeper` would, then exits through the interpreter's
normal shutdown (atexit handlers, finalizers, closed connections), so what it leaves on disk is
what a process started from scratch leaves.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import sys
import threading
import time
from typing import Any


def _preload() -> None:
    import lorekeeper.cli as cli

    for spec in cli.COMMANDS.values():
        importlib.import_module(spec.split(":")[0])
    importlib.import_module("lorekeeper.workspace")
    # read at import from the environment: each child imports them again under its own
    for name in ("lorekeeper.entry", "lorekeeper.__main__"):
        sys.modules.pop(name, None)
    if threading.active_count() != 1 or any(m.startswith("PySide6") for m in sys.modules):
        raise SystemExit("cli_forkserver: the preloaded modules started a thread or imported Qt")


def _reply(out: Any, obj: dict[str, Any]) -> None:
    out.write(json.dumps(obj).encode("utf-8") + b"\n")
    out.flush()


def _wait(pid: int, timeout: float) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    delay = 0.001
    while True:
        got, status, usage = os.wait4(pid, os.WNOHANG)
        if got:
            return {"code": os.waitstatus_to_exitcode(status), "cpu": usage.ru_utime + usage.ru_stime}
        if time.monotonic() >= deadline:
            return {"code": None}
        time.sleep(delay)
        delay = min(delay * 2, 0.01)


def _serve() -> dict[str, Any]:
    """Answer requests until a spawn; returns that request in the child (the server never returns)."""
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    _reply(out, {"ready": True})
    while True:
        line = inp.readline()
        if not line:
            os._exit(0)
        req = json.loads(line)
        op = req["op"]
        if op == "spawn":
            pid = os.fork()
            if pid == 0:
                return req  # the child
            _reply(out, {"pid": pid})
        elif op == "wait":
            _reply(out, _wait(int(req["pid"]), float(req["timeout"])))
        elif op == "kill":
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(req["pid"]), int(req["signal"]))
            _reply(out, {})
        else:
            _reply(out, {"error": f"unknown op {op!r}"})


def _become(req: dict[str, Any], encoding: str) -> None:
    """The child: the request's directory, environment and standard streams, as a fresh process."""
    os.chdir(req["cwd"])
    os.environ.clear()
    os.environ.update(req["env"])
    fds = [
        os.open(req["stdin"] or os.devnull, os.O_RDONLY),
        os.open(req["stdout"], os.O_WRONLY | os.O_APPEND),
        os.open(req["stderr"], os.O_WRONLY | os.O_APPEND),
    ]
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    # the streams Python makes for descriptors that are not a terminal
    streams = [open(fd, mode, closefd=False) for fd, mode in ((0, "rb"), (1, "wb"), (2, "wb"))]  # noqa: SIM115
    sys.stdin = sys.__stdin__ = io.TextIOWrapper(streams[0], encoding=encoding)
    sys.stdout = sys.__stdout__ = io.TextIOWrapper(streams[1], encoding=encoding)
    sys.stderr = sys.__stderr__ = io.TextIOWrapper(
        streams[2], encoding=encoding, errors="backslashreplace", line_buffering=True
    )
    sys.argv = ["lorekeeper", *req["argv"]]
    sys.path[0] = os.getcwd()  # `python -m` puts the working directory first


if __name__ == "__main__":
    _preload()
    request = _serve()
    _become(request, sys.stdout.encoding)
    import runpy

    runpy.run_module("lorekeeper", run_name="__main__", alter_sys=True)
