"""kill -9 at random points during skill imports, key rotations and learnings imports (issue 18).

A child process opens the workspace and repeats one operation; the parent kills it with SIGKILL
after a random delay, then opens the workspace (start-up recovery: head roll-forward, outbox
replay, skills-folder sweep) and checks the invariants: every committed change has its signed
event, the log verifies, no half file is left in `skills/` and the export is not stale.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

CHILD = r"""
import sys, time
from pathlib import Path
from lorekeeper.workspace import Workspace
root, op = sys.argv[1], sys.argv[2]
ws = Workspace.open(root)
ws.audit.require_key()
ws.audit.log
src = Path(root).parent / "src"
print("ready", flush=True)
i = 0
while True:
    i += 1
    tag = f"{op}-{time.time_ns()}-{i}"
    if op == "learn":
        ws.learnings.import_text(f"# L\n\n- [2026-01-01T00:00:{i % 60:02d}Z] [fixit] Rule {tag}\n", "p")
    elif op == "skills":
        (src / "kill-skill").mkdir(parents=True, exist_ok=True)
        (src / "kill-skill" / "SKILL.md").write_text(
            f"---\nname: kill-skill\ndescription: A skill rewritten by the kill test ({tag}).\n---\n\n# Kill\n\n" + ("Body line.\n" * 2000) + tag + "\n",
            encoding="utf-8",
        )
        ws.skills.import_path(src, message=tag)
    elif op == "rotate":
        ws.audit.rotate()
"""


HERE = Path(__file__).resolve().parent


def use_atomic_keyring(workspace_id: str, path: Path):  # type: ignore[no-untyped-def]
    """Move this workspace's keyring entries into an `AtomicFileKeyring` at `path` (used by the
    children and, until `restore()` is called, by this process); returns `restore`."""
    import keyring
    from atomic_keyring import AtomicFileKeyring

    from lorekeeper.audit.providers import KEYRING_SERVICE

    old = keyring.get_keyring()
    os.environ["LK_TEST_KEYRING_FILE"] = str(path)
    new = AtomicFileKeyring()
    for suffix in ("", ":version", ":v1"):
        value = old.get_password(KEYRING_SERVICE, f"audit-hmac:{workspace_id}{suffix}")
        if value is not None:
            new.set_password(KEYRING_SERVICE, f"audit-hmac:{workspace_id}{suffix}", value)
    keyring.set_keyring(new)

    def restore() -> None:
        keyring.set_keyring(old)
        os.environ.pop("LK_TEST_KEYRING_FILE", None)

    return restore


def child_env() -> dict[str, str]:
    """The environment of a child that uses the `AtomicFileKeyring` (after `use_atomic_keyring`)."""
    env = {**os.environ, "PYTHON_KEYRING_BACKEND": "atomic_keyring.AtomicFileKeyring"}
    env["PYTHONPATH"] = os.pathsep.join([str(HERE), env.get("PYTHONPATH", "")])
    return env


def start(root: Path, op: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", CHILD, str(root), op],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=child_env(),
    )


def kill_after(proc: subprocess.Popen[str], delay: float) -> None:
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if "ready" not in line:
        proc.kill()
        raise AssertionError(f"child did not start: {line!r} {proc.stderr.read() if proc.stderr else ''}")
    time.sleep(delay)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(30)


def check(root: Path) -> dict[str, int]:
    """Open (recover) and check every invariant; returns what was found."""
    from sqlalchemy import select

    from lorekeeper.store.models import Learning, SkillVersion
    from lorekeeper.workspace import Workspace

    ws = Workspace.open(root)
    try:
        ws.audit.require_key()
        log = ws.audit.log  # start-up recovery
        events = log.events()
        report = log.verify()
        assert report.ok, report.text()
        assert log.pending() == 0
        learned: set[int] = set()
        for e in events:
            if e.type == "learnings_imported":
                learned.update(e.data["ids"])
        with ws.store.session() as s:
            ids = set(s.scalars(select(Learning.id).where(Learning.project == "p")))
            messages = set(s.scalars(select(SkillVersion.message).where(SkillVersion.message.like("skills-%"))))
        assert ids <= learned, f"learnings without their event: {sorted(ids - learned)}"
        imported = {e.data["message"] for e in events if e.type == "skills_imported"}
        assert messages <= imported, f"imports without their event: {sorted(messages - imported)}"
        version = ws.audit.key_session.version if ws.audit.key_session else 1
        rotated = {e.data["new_version"] for e in events if e.type == "audit_key_rotated"}
        assert set(range(2, version + 1)) <= rotated, f"rotations without their event: {version}, {rotated}"
        half = list((root / "skills").rglob("*.tmp"))
        assert not half, f"half files left in skills/: {half}"
        assert ws.skills.folder.stale() == [], ws.skills.folder.stale()
        return {"learnings": len(ids), "imports": len(messages), "key_version": version, "events": len(events)}
    finally:
        ws.close()


def run(root: Path, iterations: int, seed: int = 18) -> list[dict[str, int]]:
    rng = random.Random(seed)
    ops = ["learn", "skills", "rotate"]
    out = []
    for n in range(iterations):
        op = ops[n % len(ops)]
        kill_after(start(root, op), rng.uniform(0.0, 0.6))
        found = check(root)
        found["op"] = op  # type: ignore[assignment]
        out.append(found)
    return out
