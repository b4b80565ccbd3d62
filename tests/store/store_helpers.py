"""Helpers of the write-path tests: demo workspaces on SQLite or PostgreSQL, CLI processes racing."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lorekeeper.config import CONFIG_NAME


def set_store(root: Path, *, url: str | None = None, busy_timeout: float | None = None) -> None:
    """Point a workspace's [store] at `url` and/or set its busy timeout (edits lorekeeper.toml)."""
    cfg = root / CONFIG_NAME
    lines = cfg.read_text(encoding="utf-8").splitlines()
    out = []
    for line in lines:
        if url is not None and line.startswith("url = ") and "sqlite:///" in line:
            line = f'url = "{url}"'
        if busy_timeout is not None and line.startswith("busy_timeout"):
            line = f"busy_timeout = {busy_timeout}"
        out.append(line)
    cfg.write_text("\n".join(out) + "\n", encoding="utf-8")


def make_demo(root: Path, url: str | None = None) -> Path:
    """`Workspace.init(root, demo=True)`; with `url`, the same content in that store (PostgreSQL)."""
    from lorekeeper.paths import starter_skills_dir
    from lorekeeper.workspace import Workspace

    if url is None:
        Workspace.init(root, demo=True).close()
        return root
    Workspace.init(root, starter=False).close()
    set_store(root, url=url)
    with Workspace.open(root) as ws:
        ws.skills.import_path(starter_skills_dir(), message="starter library")
        from lorekeeper.demo import load_demo

        load_demo(
            root=ws.root,
            skills=ws.skills,
            evals=ws.evals,
            quality=ws.quality,
            learnings=ws.learnings,
            improve=ws.improve,
        )
    return root


def write_skill(folder: Path, name: str, body: str) -> Path:
    d = folder / name
    d.mkdir(parents=True, exist_ok=True)
    (d / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: A skill the race tests import.\n"
        f'metadata:\n  triggers: "race, {name}"\n  keywords: "contention"\n---\n\n# {name}\n\n{body}\n',
        encoding="utf-8",
    )
    return d


@dataclass
class Outcome:
    args: list[str]
    code: int
    stdout: str
    stderr: str


def run_many(root: Path, commands: list[list[str]], timeout: float = 120) -> list[Outcome]:
    """Start every command at once as its own `lorekeeper` process on the workspace; wait for all.
    The processes are forked from a warm server (tests/helpers/forkcli.py): separate processes with
    their own connections and locks, without an interpreter's start-up each."""
    from helpers import forkcli

    procs = [(args, forkcli.start(["--workspace", str(root), *args])) for args in commands]
    out = []
    for args, p in procs:
        stdout, stderr = p.communicate(timeout=timeout)
        assert p.returncode is not None
        out.append(Outcome(args, p.returncode, stdout, stderr))
    return out


def assert_clean(outcomes: list[Outcome]) -> dict[int, int]:
    """Exit codes 0 or 4 only, never a traceback; returns how many of each code."""
    counts: dict[int, int] = {}
    for o in outcomes:
        counts[o.code] = counts.get(o.code, 0) + 1
        assert "Traceback" not in o.stderr, f"{o.args}: {o.stderr}"
        assert o.code in (0, 4), f"{o.args} exited {o.code}: {o.stderr}"
        if o.code == 4:
            assert "ERR_STORE_BUSY" in o.stderr, o.stderr
    return counts
