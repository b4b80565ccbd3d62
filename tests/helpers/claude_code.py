"""The real Claude Code CLI for end-to-end tests: the npm package, installed with scripts disabled
into a cache folder outside the repository and reused between runs.

`npm install --ignore-scripts` leaves `bin/claude.exe` a stub (its postinstall would link the
native binary there), so the program is the platform package's `claude` binary itself (2.1.x), or
`cli.js` under node for the older JavaScript releases.

Cache: `$LOREKEEPER_TEST_CACHE/claude-code` (default `~/.cache/lorekeeper-tests/claude-code`).
Version: `$LOREKEEPER_CLAUDE_CODE_VERSION` (default the one the tests were written against).
`make claude-code` (this file run as a script) installs it ahead of `make test`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

PACKAGE = "@anthropic-ai/claude-code"
VERSION = os.environ.get("LOREKEEPER_CLAUDE_CODE_VERSION", "2.1.197")
INSTALL_TIMEOUT = 300  # seconds: the native binary is about 250 MB


def cache_dir() -> Path:
    base = os.environ.get("LOREKEEPER_TEST_CACHE") or "~/.cache/lorekeeper-tests"
    return Path(base).expanduser() / "claude-code"


def _works(argv: list[str]) -> bool:
    try:
        done = subprocess.run([*argv, "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0 and "Claude Code" in done.stdout


def find(folder: Path | None = None) -> list[str] | None:
    """The argv that starts the cached Claude Code, or None when it is not installed there."""
    modules = (folder or cache_dir()) / "node_modules" / "@anthropic-ai"
    for binary in sorted(modules.glob("claude-code-*/claude")):  # the native platform package
        if os.access(binary, os.X_OK) and _works([str(binary)]):
            return [str(binary)]
    cli = modules / "claude-code" / "cli.js"
    node = shutil.which("node")
    if cli.is_file() and node and _works([node, str(cli)]):
        return [node, str(cli)]
    return None


def install(folder: Path | None = None) -> tuple[list[str] | None, str]:
    """(argv, "") once installed, else (None, why not): npm missing, offline, or a failed install."""
    folder = folder or cache_dir()
    found = find(folder)
    if found:
        return found, ""
    npm = shutil.which("npm")
    if npm is None:
        return None, "npm is not installed (Node.js is needed to install the Claude Code CLI)"
    folder.mkdir(parents=True, exist_ok=True)
    argv = [npm, "install", "--prefix", str(folder), "--ignore-scripts", "--no-audit", "--no-fund"]
    try:
        done = subprocess.run([*argv, f"{PACKAGE}@{VERSION}"], capture_output=True, text=True, timeout=INSTALL_TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, f"npm install {PACKAGE}@{VERSION} took over {INSTALL_TIMEOUT} s (the registry is unreachable?)"
    (folder / "npm.log").write_text(done.stdout + done.stderr + f"\nrc={done.returncode}\n", encoding="utf-8")
    if done.returncode != 0:
        tail = " ".join((done.stderr or done.stdout).strip().splitlines()[-2:])
        return None, f"npm install {PACKAGE}@{VERSION} failed (the registry is unreachable?): {tail}"
    found = find(folder)
    if found is None:
        return None, f"npm installed {PACKAGE}@{VERSION} but no runnable claude for this platform is in {folder}"
    return found, ""


if __name__ == "__main__":
    argv, why = install()
    if argv is None:
        sys.exit(f"claude-code: {why}")
    print(" ".join(argv))
