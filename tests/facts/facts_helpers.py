"""Shared helpers of the facts tests: documents on disk and the CLI as JSON."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from helpers.cli import run_lorekeeper

GUIDE = """# Backend guide

Never modify a migration script already merged on main.
Flyway validates checksums, so the deployment fails in production.

Tests live next to the code in `*_test.go` files.
Every handler under internal/api returns problem+json errors.
"""


def write_docs(root: Path, files: dict[str, str] | None = None) -> Path:
    docs = root / "docs"
    docs.mkdir(parents=True, exist_ok=True)
    for name, text in (files or {"guide.md": GUIDE}).items():
        path = docs / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return docs


def lk(ws_root: Path, *args: str) -> tuple[int, Any, str]:
    """(exit code, parsed JSON stdout or the raw text, stderr) of `lorekeeper --workspace WS ARGS --json`."""
    proc = run_lorekeeper("--workspace", str(ws_root), *args, "--json", env=dict(os.environ))
    try:
        out: Any = json.loads(proc.stdout) if proc.stdout.strip() else None
    except ValueError:
        out = proc.stdout
    return proc.returncode, out, proc.stderr


def words(prefix: str, n: int) -> list[str]:
    return [f"{prefix}{i}" for i in range(n)]
