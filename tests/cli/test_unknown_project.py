"""Issue 31 item 4: a `--project` the workspace does not know is ERR_NOT_FOUND (exit 3), not an
empty success; the commands that write a project's first row still accept a new one; a hook
pointed at a workspace that does not exist creates nothing."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from helpers.cli import run_lorekeeper
from lorekeeper.store.projects import known_projects

READS = [
    ("skills", "list"),
    ("skills", "show", "code-review"),
    ("route", "review this code"),
    ("prompt", "review this code"),
    ("quality",),
    ("nightly",),
    ("learn", "list"),
    ("facts", "list"),
    ("facts", "conflicts"),
    ("facts", "pack"),
    ("memory", "search", "stock", "--corpus", "notes"),
    ("facts", "settings"),  # showing them; setting them may come before the first document
    ("facts", "conventions", "src/app.py"),
    ("facts", "documents"),
    ("learn", "search", "deploy"),
    ("skills", "versions", "code-review"),
    ("skills", "trigger-eval"),
    ("eval", "--skill", "code-review", "--response", "-"),
    ("sage", "analyze"),
    ("ask", "what is the deploy rule"),
]


def _revision(ws) -> int:
    from sqlalchemy import text

    with ws.store.session() as s:
        return int(s.execute(text("SELECT count(*) FROM store_changes")).scalar() or 0)


def test_an_unknown_project_is_not_found_on_every_reading_command(demo_workspace):
    ws = demo_workspace
    before = _revision(ws)
    for args in READS:
        r = run_lorekeeper("--workspace", str(ws.root), *args, "--project", "nosuch", "--json", input="looks good")
        assert r.returncode == 3, (args, r.stdout, r.stderr)
        error = json.loads(r.stdout)["error"]
        assert error["code"] == "ERR_NOT_FOUND" and "'nosuch'" in error["message"], args
        assert "citadel-v2" in error["message"]  # the known projects are named
    assert _revision(ws) == before  # nothing written (nightly included)
    ok = run_lorekeeper("--workspace", str(ws.root), "skills", "list", "--project", "citadel-v2", "--json")
    assert ok.returncode == 0, ok.stderr


def test_facts_settings_may_be_set_before_the_first_document_then_shown(demo_workspace):
    ws = demo_workspace
    root = str(ws.root)
    r = run_lorekeeper("--workspace", root, "facts", "settings", "--project", "later", "--approved-only", "--json")
    assert r.returncode == 0, r.stderr
    r = run_lorekeeper("--workspace", root, "facts", "settings", "--project", "later", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["include_candidates"] is False, r.stderr


def test_a_command_that_writes_the_first_row_accepts_a_new_project(demo_workspace):
    ws = demo_workspace
    r = run_lorekeeper("--workspace", str(ws.root), "learn", "add", "Pin every dependency", "--project", "brandnew")
    assert r.returncode == 0, r.stderr
    with ws.store.session() as s:
        assert "brandnew" in known_projects(s)
    r = run_lorekeeper("--workspace", str(ws.root), "learn", "list", "--project", "brandnew", "--json")
    assert r.returncode == 0 and "Pin every dependency" in r.stdout


def test_a_hook_on_a_missing_workspace_creates_no_folder(tmp_path: Path):
    missing = tmp_path / "nosuch"
    payload = json.dumps({"prompt": "hello", "hook_event_name": "UserPromptSubmit"})
    for event in ("user-prompt-submit", "stop"):
        r = run_lorekeeper("hooks", "claude-code", event, "--workspace", str(missing), input=payload)
        assert r.returncode == 0 and r.stdout == ""
    assert not missing.exists()
    # issue 28: the user's state folder's log, not a shared temp folder's
    from lorekeeper.errorlog import HOOK_LOG, state_log_dir

    assert str(missing) in (state_log_dir() / HOOK_LOG).read_text(encoding="utf-8")
    assert not (Path(tempfile.gettempdir()) / "lorekeeper-hooks.log").exists() or str(missing) not in (
        Path(tempfile.gettempdir()) / "lorekeeper-hooks.log"
    ).read_text(encoding="utf-8", errors="replace")
