"""Run the `lorekeeper` command in this process, answering like `subprocess.run` did.

A subprocess pays a fresh interpreter and the imports of the store (about 1.5 s of CPU) for every
call; most CLI tests are about the command's output, exit code and effect on the workspace, which
the same entry point gives in-process. Tests about the process itself (the installed binary, a
lock held by another process, the lazy-import start-up, packaging) keep a real subprocess.

What a subprocess got for free and this helper restores around each call:
- `sys.argv`, stdin/stdout/stderr (click's `CliRunner` isolation; output captured as bytes);
- the environment: `env` is the child's whole environment, as for `subprocess.run`;
- the keyring backend: a child picks it from `PYTHON_KEYRING_BACKEND`, so the call does too, and
  the test's own backend is put back afterwards;
- the `logging` configuration (handlers and levels of the root and `lorekeeper` loggers);
- exit codes: `SystemExit` is the return code, an uncaught exception is exit 1 with its
  traceback on stderr, as Python's would be.
"""

from __future__ import annotations

import contextlib
import logging
import os
import subprocess
import sys
import traceback
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

PROG = "lorekeeper"


@contextlib.contextmanager
def _keyring_from_env(env: Mapping[str, str]) -> Iterator[None]:
    import keyring
    import keyring.core

    previous = keyring.get_keyring()
    name = env.get("PYTHON_KEYRING_BACKEND")
    try:
        if name:
            keyring.set_keyring(keyring.core.load_keyring(name))
        yield
    finally:
        keyring.set_keyring(previous)


@contextlib.contextmanager
def _logging_restored() -> Iterator[None]:
    loggers = [logging.getLogger(), logging.getLogger("lorekeeper")]
    saved = [(lg, list(lg.handlers), lg.level, lg.propagate) for lg in loggers]
    disabled = logging.root.manager.disable
    try:
        yield
    finally:
        for lg, handlers, level, propagate in saved:
            for h in lg.handlers:
                if h not in handlers:
                    with contextlib.suppress(Exception):
                        h.close()
            lg.handlers[:] = handlers
            lg.setLevel(level)
            lg.propagate = propagate
        logging.disable(disabled)


def _exit_code(code: Any) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    sys.stderr.write(f"{code}\n")  # sys.exit("message") prints it and exits 1
    return 1


def run_lorekeeper(
    *args: str,
    env: Mapping[str, str] | None = None,
    input: str | bytes | None = None,
    text: bool = True,
) -> subprocess.CompletedProcess[Any]:
    """`subprocess.run(["lorekeeper", *args], capture_output=True, env=env, input=input, text=text)`,
    in this process. `env` is the whole environment (default: this process's)."""
    from click.testing import CliRunner

    from lorekeeper.cli import main

    child_env = dict(os.environ if env is None else env)
    overlay: dict[str, str | None] = {k: None for k in os.environ if k not in child_env}
    overlay.update(child_env)
    data = input.encode("utf-8") if isinstance(input, str) else input
    runner = CliRunner()
    saved_argv = sys.argv
    with _logging_restored(), runner.isolation(input=data, env=overlay) as streams:
        with _keyring_from_env(child_env):
            sys.argv = [PROG, *args]
            try:
                main.main(args=list(args), prog_name=PROG)
                code = 0
            except SystemExit as exc:
                code = _exit_code(exc.code)
            except Exception:
                sys.stderr.write(traceback.format_exc())
                code = 1
            finally:
                sys.argv = saved_argv
                sys.stdout.flush()
                sys.stderr.flush()
        out, err = streams[0].getvalue(), streams[1].getvalue()
    if text:
        return subprocess.CompletedProcess([PROG, *args], code, out.decode("utf-8"), err.decode("utf-8"))
    return subprocess.CompletedProcess([PROG, *args], code, out, err)


def run_lorekeeper_process(
    *args: str,
    env: Mapping[str, str] | None = None,
    input: str | bytes | None = None,
    text: bool = True,
    timeout: float = 120,
    command: Sequence[str] | None = None,
) -> subprocess.CompletedProcess[Any]:
    """The same call in a real subprocess (`command` defaults to `python -m lorekeeper`)."""
    cmd = [*(command or [sys.executable, "-m", "lorekeeper"]), *args]
    if text and isinstance(input, bytes):
        input = input.decode("utf-8")
    if not text and isinstance(input, str):
        input = input.encode("utf-8")
    return subprocess.run(
        cmd,
        capture_output=True,
        text=text,
        env=dict(os.environ if env is None else env),
        input=input,
        timeout=timeout,
        check=False,
    )
