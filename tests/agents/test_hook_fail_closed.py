"""Issue 24 (5), judged from outside on the agent's own processes: with the key unavailable or the
chain broken, the Claude Code hooks keep their contract (exit 0, nothing on stdout but the context)
and write nothing: the Stop hook records no quality event or eval run, the UserPromptSubmit hook
writes no snapshot; the database file and every workspace file but the logs are byte-identical."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from helpers.cli import run_lorekeeper
from helpers.workspaces import cut_last_event, file_hashes

DATA = Path(__file__).parent / "data"
KEYLESS = {**os.environ, "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}


def _payload(event: str, **extra: object) -> str:
    base = {
        "session_id": "9f1c2b7e-0000-4000-8000-000000000002",
        "transcript_path": str(DATA / "transcript.jsonl"),
        "cwd": "/home/dev/citadel",
        "permission_mode": "default",
        "hook_event_name": event,
    }
    return json.dumps({**base, **extra})


@pytest.mark.parametrize("mode", ["failing backend", "broken chain"])
def test_the_hooks_write_nothing_without_the_key_or_with_a_broken_chain(demo_workspace, mode: str) -> None:
    root = demo_workspace.root
    demo_workspace.close()
    ups = _payload("UserPromptSubmit", prompt="git push --force to main please")
    # with the key: the Stop hook records (eval run, quality events) and the prompt hook writes its snapshot
    warm = run_lorekeeper("--workspace", str(root), "hooks", "claude-code", "user-prompt-submit", input=ups)
    assert warm.returncode == 0 and "SKILLS_HINT" in warm.stdout, warm.stderr
    shutil.rmtree(root / "indexes", ignore_errors=True)  # the next prompt hook would write a new snapshot
    env = KEYLESS if mode == "failing backend" else None
    if mode == "broken chain":
        cut_last_event(root)
    before = file_hashes(root)
    r = run_lorekeeper("--workspace", str(root), "hooks", "claude-code", "user-prompt-submit", input=ups, env=env)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert "SKILLS_HINT" in r.stdout and "ERR_" not in r.stdout  # the agent still gets its hint
    r = run_lorekeeper(
        "--workspace",
        str(root),
        "hooks",
        "claude-code",
        "stop",
        input=_payload("Stop", stop_hook_active=False),
        env=env,
    )
    assert r.returncode == 0 and r.stdout == "" and "Traceback" not in r.stderr, (r.stdout, r.stderr)
    after = file_hashes(root)
    assert sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k)) == []
    log = (root / "logs" / "hooks.log").read_text(encoding="utf-8")
    assert ("ERR_AUDIT_KEY_UNAVAILABLE" if mode == "failing backend" else "ERR_AUDIT_CHAIN_BROKEN") in log
