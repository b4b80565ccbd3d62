"""The context the UserPromptSubmit hook adds to every prompt, and its fast path.

A hook runs on every prompt, so it must answer in well under 300 ms; opening a `Workspace`
(SQLAlchemy, the services, the migrations check) costs several times that. So the hook keeps a
snapshot of what the context depends on, per project, in `<workspace>/indexes/`: the routable
skills (name, description, triggers, keywords), the LEARNINGS block and the static blocks (facts,
conventions), as the services computed them, with the store revision they were read at.

The fast path reads the store revision and the change feed (`store_changes`) with the standard
library's `sqlite3`, read-only: when no transaction since the snapshot changed a kind the context
depends on (anything but evals, quality events, audit checkpoints, proposals and benchmarks), the
snapshot is used and the skills are routed on it with the same `Router`. Otherwise (or for a
PostgreSQL store, or a snapshot that cannot be read) the slow path opens the workspace, rebuilds
the snapshot and writes it atomically. Both paths compose the context with `compose`, so their
answers are identical.

This module imports only the standard library and the router.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lorekeeper.skills.router import DEFAULT_TOP, RoutableSkill, Router

SNAPSHOT_VERSION = 2
DEFAULT_BUDGET = 8000  # characters of additionalContext ([hooks] budget in lorekeeper.toml)
#: change kinds that never alter the hook's context (a Stop hook's own quality events among them)
IRRELEVANT_KINDS = frozenset({"evals", "quality", "audit", "proposals", "benchmarks"})
MAX_FEED_ROWS = 5000


@dataclass
class Snapshot:
    revision: int
    config_mtime: int
    project: str
    story: str
    top: int
    budget: int
    skills: list[RoutableSkill]
    learnings: str
    blocks: list[tuple[str, str]] = field(default_factory=list)  # (name, text): facts, conventions, ...

    def to_json(self) -> dict[str, Any]:
        return {
            "version": SNAPSHOT_VERSION,
            "revision": self.revision,
            "config_mtime": self.config_mtime,
            "project": self.project,
            "story": self.story,
            "top": self.top,
            "budget": self.budget,
            "skills": [[s.name, s.description, list(s.triggers), list(s.keywords)] for s in self.skills],
            "learnings": self.learnings,
            "blocks": [list(b) for b in self.blocks],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Snapshot:
        if data.get("version") != SNAPSHOT_VERSION:
            raise ValueError("snapshot version")
        return cls(
            revision=int(data["revision"]),
            config_mtime=int(data["config_mtime"]),
            project=str(data["project"]),
            story=str(data.get("story", "")),
            top=int(data["top"]),
            budget=int(data["budget"]),
            skills=[RoutableSkill(str(n), str(d), tuple(t), tuple(k)) for n, d, t, k in data["skills"]],
            learnings=str(data["learnings"]),
            blocks=[(str(n), str(t)) for n, t in data.get("blocks", [])],
        )


def snapshot_path(root: Path, project: str, story: str = "") -> Path:
    tag = hashlib.sha256(f"{project}\0{story}".encode()).hexdigest()[:12]
    return root / "indexes" / f"hook-context-{tag}.json"


def config_mtime(root: Path) -> int:
    try:
        return os.stat(root / "lorekeeper.toml").st_mtime_ns
    except OSError:
        return 0


def _sqlite_file(root: Path) -> Path | None:
    """The SQLite database file of the workspace's store, None for another database."""
    try:
        cfg = tomllib.loads((root / "lorekeeper.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return None
    url = str(cfg.get("store", {}).get("url", "sqlite:///lorekeeper.db"))
    if not url.startswith("sqlite:///"):
        return None
    path = Path(url[len("sqlite:///") :])
    return path if path.is_absolute() else root / path


def still_valid(root: Path, snap: Snapshot) -> int | None:
    """The current store revision when nothing the context depends on changed since `snap`; else None."""
    db = _sqlite_file(root)
    if db is None or not db.is_file() or snap.config_mtime != config_mtime(root):
        return None
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=2.0)
    try:
        row = con.execute("SELECT value FROM store_revision WHERE id = 1").fetchone()
        current = int(row[0]) if row else 0
        if current == snap.revision:
            return current
        if current < snap.revision or current - snap.revision > MAX_FEED_ROWS:
            return None
        rows = con.execute(
            "SELECT revision, kinds FROM store_changes WHERE revision > ? AND revision <= ?",
            (snap.revision, current),
        ).fetchall()
    except sqlite3.Error:
        return None
    finally:
        con.close()
    if len(rows) != current - snap.revision:
        return None  # pruned or written before the change feed: assume everything changed
    for _rev, kinds in rows:
        try:
            names = set(json.loads(kinds))
        except (TypeError, ValueError):
            return None
        if names - IRRELEVANT_KINDS:
            return None
    return current


def load_snapshot(root: Path, project: str, story: str = "") -> Snapshot | None:
    try:
        data = json.loads(snapshot_path(root, project, story).read_text(encoding="utf-8"))
        snap = Snapshot.from_json(data)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return snap if (snap.project, snap.story) == (project, story) else None


def save_snapshot(root: Path, snap: Snapshot) -> None:
    """Atomically (temp file, fsync, rename), readable by the owner only: it holds learnings."""
    path = snapshot_path(root, snap.project, snap.story)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".hook-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(snap.to_json(), fh, ensure_ascii=False)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def fit(blocks: list[tuple[str, str]], budget: int) -> tuple[str, list[str], list[str]]:
    """Join the blocks (blank line between) within `budget` characters, in order. A block that does
    not fit whole keeps its header and the lines that fit (at least one rule line, else it is
    dropped). Returns (text, names included, names cut or dropped)."""
    out: list[str] = []
    used = 0
    included: list[str] = []
    cut: list[str] = []
    for name, text in blocks:
        if not text:
            continue
        sep = 2 if out else 0
        if used + sep + len(text) <= budget:
            out.append(text)
            used += sep + len(text)
            included.append(name)
            continue
        lines = text.split("\n")
        kept: list[str] = []
        size = sep
        for line in lines:
            extra = len(line) + (1 if kept else 0)
            if used + size + extra > budget:
                break
            kept.append(line)
            size += extra
        if len(kept) >= 2:
            out.append("\n".join(kept))
            used += size
            included.append(name)
        cut.append(name)
    return "\n\n".join(out), included, cut


@dataclass(frozen=True)
class HookContext:
    text: str
    skills: tuple[str, ...]
    included: tuple[str, ...]
    cut: tuple[str, ...]
    revision: int
    fast: bool


def compose(snap: Snapshot, prompt: str, *, budget: int | None = None, fast: bool) -> HookContext:
    """SKILLS_HINT for the prompt, then LEARNINGS, then the other blocks, within the budget."""
    route = Router(snap.skills).route(prompt, top=snap.top)
    blocks = [("skills_hint", route.hint), ("learnings", snap.learnings), *snap.blocks]
    text, included, cut = fit(blocks, budget if budget is not None else snap.budget)
    return HookContext(text, tuple(m.name for m in route.skills), tuple(included), tuple(cut), snap.revision, fast)


def fast_context(
    root: Path, project: str, prompt: str, *, budget: int | None = None, story: str = ""
) -> HookContext | None:
    """The context from a still-valid snapshot, None when the slow path must rebuild it."""
    snap = load_snapshot(root, project, story)
    if snap is None:
        return None
    current = still_valid(root, snap)
    if current is None:
        return None
    snap.revision = current
    return compose(snap, prompt, budget=budget, fast=True)


__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_TOP",
    "HookContext",
    "Snapshot",
    "compose",
    "fast_context",
    "fit",
    "load_snapshot",
    "save_snapshot",
    "still_valid",
]
