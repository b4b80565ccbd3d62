"""Shared helpers of tests/packaging: run lorekeeper (this checkout) in a subprocess, isolated dirs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def isolated_env(tmp: Path, **extra: str) -> dict[str, str]:
    """An environment with its own XDG dirs and the file keyring (no desktop keyring needed)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "LOREKEEPER_"))}
    env.update(
        HOME=str(tmp / "home"),
        XDG_CONFIG_HOME=str(tmp / "config"),
        XDG_DATA_HOME=str(tmp / "data"),
        XDG_CACHE_HOME=str(tmp / "cache"),
        XDG_STATE_HOME=str(tmp / "state"),
        PYTHON_KEYRING_BACKEND="keyrings.alt.file.PlaintextKeyring",
        QT_QPA_PLATFORM="offscreen",
    )
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT / "desktop"), os.environ.get("PYTHONPATH")) if p)
    env.update(extra)
    (tmp / "home").mkdir(parents=True, exist_ok=True)
    return env


def lk(
    *args: str, env: dict[str, str], timeout: float = 300, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lorekeeper", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        cwd=cwd,
        check=False,
    )
