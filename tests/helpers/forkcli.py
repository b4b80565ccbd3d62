"""`lorekeeper` processes forked from a warm server, for the tests about *another process*.

A test that races processes on one store, or changes a workspace from "a terminal" while the app
watches, needs a separate process (its own connections, locks, key session and exit), not a fresh
interpreter: each `python -m lorekeeper` paid ~1.5 s of CPU importing the store, SQLAlchemy and the
services before its command ran (tests/store/test_races.py alone started 36 of them). Here a server
process (`cli_forkserver.py`, one per test process, started on first use) imports those modules
once; each call forks it, and the child runs `python -m lorekeeper ARGV` with the call's working
directory, environment and standard streams and exits as a process started from scratch does.

What stays a fresh interpreter (`subprocess`): tests about start-up itself (lazy imports, the
installed console script, the first window, packaging), and any call whose environment changes
what the interpreter reads when it starts (PYTHON*, LANG, LC_*) from what the server started with.
`LOREKEEPER_TEST_NO_FORK=1` makes every call a fresh interpreter (to compare, or to rule it out).
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

SERVER = Path(__file__).with_name("cli_forkserver.py")
_STARTUP_KEYS = ("PYTHON", "LANG", "LC_")


def _startup_env(env: Mapping[str, str]) -> dict[str, str]:
    return {k: v for k, v in env.items() if k.startswith(_STARTUP_KEYS)}


class _Server:
    def __init__(self) -> None:
        self.env = dict(os.environ)
        self.proc = subprocess.Popen(
            [sys.executable, str(SERVER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=self.env,
            cwd="/",
        )
        self.lock = threading.Lock()
        self.cpu = 0.0  # CPU seconds of the children reaped so far (what a benchmark can add up)
        hello = self._read()
        if not hello.get("ready"):
            raise RuntimeError(f"cli fork server did not start: {hello}")

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"cli fork server exited ({self.proc.poll()})")
        return dict(json.loads(line))

    def call(self, **req: Any) -> dict[str, Any]:
        assert self.proc.stdin is not None
        with self.lock:
            self.proc.stdin.write(json.dumps(req).encode("utf-8") + b"\n")
            self.proc.stdin.flush()
            answer = self._read()
        if "cpu" in answer:
            self.cpu += float(answer["cpu"])
        return answer

    def stop(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(OSError):
                assert self.proc.stdin is not None
                self.proc.stdin.close()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


_server: _Server | None = None
_server_lock = threading.Lock()


def server() -> _Server | None:
    """This process's fork server (started on first use), or None where there is none."""
    global _server
    if os.environ.get("LOREKEEPER_TEST_NO_FORK") == "1" or not hasattr(os, "fork"):
        return None
    with _server_lock:
        if _server is None or _server.proc.poll() is not None:
            _server = _Server()
            atexit.register(_server.stop)
        return _server


class Forked:
    """A running forked `lorekeeper` process, with the parts of `subprocess.Popen` the tests use."""

    def __init__(self, srv: _Server, pid: int, scratch: Path, args: list[str], text: bool) -> None:
        self._srv, self.pid, self._scratch, self.args, self._text = srv, pid, scratch, args, text
        self.returncode: int | None = None
        self._feeder: threading.Thread | None = None

    def poll(self) -> int | None:
        return self.wait(0) if self.returncode is None else self.returncode

    def wait(self, timeout: float | None = None) -> int | None:
        if self.returncode is None:
            answer = self._srv.call(op="wait", pid=self.pid, timeout=10**9 if timeout is None else timeout)
            self.returncode = answer["code"]
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            self._srv.call(op="kill", pid=self.pid, signal=int(sig))

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def _output(self, name: str) -> Any:
        data = (self._scratch / name).read_bytes()
        return data.decode("utf-8", errors="replace") if self._text else data

    def communicate(self, timeout: float | None = None) -> tuple[Any, Any]:
        """Wait (`subprocess.TimeoutExpired` after `timeout`, the process left running); its output."""
        if self.wait(timeout) is None:
            raise subprocess.TimeoutExpired(self.args, timeout or 0)
        if self._feeder is not None:
            self._feeder.join(10)
        out, err = self._output("stdout"), self._output("stderr")
        shutil.rmtree(self._scratch, ignore_errors=True)
        return out, err


def _feed(fifo: Path, data: bytes) -> None:
    with contextlib.suppress(BrokenPipeError, OSError), open(fifo, "wb") as fh:
        fh.write(data)


def start(
    args: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    input: str | bytes | None = None,
    cwd: str | os.PathLike[str] | None = None,
    text: bool = True,
) -> Forked | subprocess.Popen[Any]:
    """`python -m lorekeeper ARGS` as a forked process, or a fresh one where forking does not apply
    (then a `Popen` with stdout/stderr pipes, and stdin a pipe when `input` is given)."""
    child_env = dict(os.environ if env is None else env)
    srv = server()
    if srv is None or _startup_env(child_env) != _startup_env(srv.env):
        proc = subprocess.Popen(
            [sys.executable, "-m", "lorekeeper", *args],
            stdin=subprocess.PIPE if input is not None else None,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=text,
            env=child_env,
            cwd=cwd,
        )
        if input is not None:
            proc._lk_input = input  # type: ignore[attr-defined]  # handed to communicate() by run()
        return proc
    scratch = Path(tempfile.mkdtemp(prefix="lk-fork-"))
    (scratch / "stdout").touch()
    (scratch / "stderr").touch()
    stdin: str | None = None
    if input is not None:
        stdin = str(scratch / "stdin")
        os.mkfifo(stdin)  # a pipe, as `subprocess.run(input=...)` gives the child
    answer = srv.call(
        op="spawn",
        argv=list(args),
        env=child_env,
        cwd=os.fspath(cwd) if cwd is not None else os.getcwd(),
        stdin=stdin,
        stdout=str(scratch / "stdout"),
        stderr=str(scratch / "stderr"),
    )
    child = Forked(srv, int(answer["pid"]), scratch, ["lorekeeper", *args], text)
    if stdin is not None:
        data = input.encode("utf-8") if isinstance(input, str) else input
        assert data is not None
        child._feeder = threading.Thread(target=_feed, args=(Path(stdin), data), daemon=True)
        child._feeder.start()
    return child


def run(
    *args: str,
    env: Mapping[str, str] | None = None,
    input: str | bytes | None = None,
    cwd: str | os.PathLike[str] | None = None,
    text: bool = True,
    timeout: float = 120,
) -> subprocess.CompletedProcess[Any]:
    """`subprocess.run([python, "-m", "lorekeeper", *args], capture_output=True, ...)` on a forked
    process; a timeout kills it and raises `subprocess.TimeoutExpired`, as `subprocess.run` does."""
    proc = start(args, env=env, input=input, cwd=cwd, text=text)
    feed = getattr(proc, "_lk_input", None)
    if isinstance(proc, subprocess.Popen) and feed is not None and text != isinstance(feed, str):
        feed = feed.decode("utf-8") if isinstance(feed, bytes) else feed.encode("utf-8")
    try:
        out, err = (
            proc.communicate(input=feed, timeout=timeout)
            if isinstance(proc, subprocess.Popen)
            else (proc.communicate(timeout=timeout))
        )
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        if isinstance(proc, Forked):
            proc.communicate()
        raise
    code = proc.returncode
    assert code is not None
    return subprocess.CompletedProcess(["lorekeeper", *args], code, out, err)
