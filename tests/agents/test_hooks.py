"""Claude Code hooks: install/uninstall in .claude/settings.json, the UserPromptSubmit context and
the Stop hook's quality events, with hook inputs in Claude Code's documented shapes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from helpers.cli import run_lorekeeper

DATA = Path(__file__).parent / "data"
SESSION = "9f1c2b7e-0000-4000-8000-000000000001"


def hook_input(event: str, **extra: object) -> str:
    base = {
        "session_id": SESSION,
        "transcript_path": str(DATA / "transcript.jsonl"),
        "cwd": "/home/dev/citadel",
        "permission_mode": "default",
        "hook_event_name": event,
    }
    return json.dumps({**base, **extra})


def lk(ws, *args, input=None):
    return run_lorekeeper("--workspace", str(ws.root), *args, input=input)


def prompt_hook(ws, prompt: str, *extra: str):
    res = lk(
        ws, "hooks", "claude-code", "user-prompt-submit", *extra, input=hook_input("UserPromptSubmit", prompt=prompt)
    )
    assert res.returncode == 0, res.stderr
    return res


def test_install_keeps_the_users_settings_and_uninstall_removes_only_ours(workspace, tmp_path):
    project = tmp_path / "repo"
    (project / ".claude").mkdir(parents=True)
    shutil.copy(DATA / "settings.json", project / ".claude" / "settings.json")
    original = json.loads((DATA / "settings.json").read_text(encoding="utf-8"))

    for _ in range(2):  # a second install replaces ours, never duplicates them
        res = lk(workspace, "hooks", "claude-code", "install", "--dir", str(project), "--project", "citadel-v2")
        assert res.returncode == 0, res.stderr
    settings = json.loads((project / ".claude" / "settings.json").read_text(encoding="utf-8"))

    assert settings["permissions"] == original["permissions"]
    assert settings["$schema"] == original["$schema"]
    assert settings["hooks"]["PostToolUse"] == original["hooks"]["PostToolUse"]
    ups = settings["hooks"]["UserPromptSubmit"]
    assert ups[0] == original["hooks"]["UserPromptSubmit"][0]  # the user's own hook, first and untouched
    ours = [h for g in ups for h in g["hooks"] if "lorekeeper" in h["command"]]
    assert len(ours) == 1 and ours[0]["type"] == "command"
    assert "hooks claude-code user-prompt-submit" in ours[0]["command"]
    assert f"--workspace {workspace.root}" in ours[0]["command"] and "--project citadel-v2" in ours[0]["command"]
    stop = [h for g in settings["hooks"]["Stop"] for h in g["hooks"]]
    assert len(stop) == 1 and "hooks claude-code stop" in stop[0]["command"]
    assert all(isinstance(g["hooks"], list) for groups in settings["hooks"].values() for g in groups)

    res = lk(workspace, "hooks", "claude-code", "uninstall", "--dir", str(project), "--json")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["removed"] == 2
    assert json.loads((project / ".claude" / "settings.json").read_text(encoding="utf-8")) == original


def test_install_refuses_a_settings_file_that_is_not_json(workspace, tmp_path):
    path = tmp_path / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text("{ not json", encoding="utf-8")
    res = lk(workspace, "hooks", "claude-code", "install", "--dir", str(tmp_path))
    assert res.returncode == 2 and "not readable JSON" in res.stderr
    assert path.read_text(encoding="utf-8") == "{ not json"


def test_prompt_hook_adds_the_skills_hint_and_learnings_and_stays_fresh(demo_workspace):
    from lorekeeper.agents import hookctx

    ws = demo_workspace
    message = "Review this code for XSS vulnerabilities"
    res = prompt_hook(ws, message, "--project", "citadel-v2")
    out = json.loads(res.stdout)
    assert list(out) == ["hookSpecificOutput"]
    assert out["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit"
    context = out["hookSpecificOutput"]["additionalContext"]
    expected = json.loads(lk(ws, "prompt", message, "--project", "citadel-v2", "--json").stdout)
    blocks = [b["text"] for b in expected["blocks"]]
    assert context == "\n\n".join([expected["hint"], expected["learnings"]["block"], *blocks])
    assert context.startswith("SKILLS_HINT (focus on these):\n- code-review:")
    assert "\n\nFACTS (citadel-v2" in context  # the project's facts pack (issue 11)

    # the next prompt is served from the snapshot; a quality event does not invalidate it...
    assert hookctx.fast_context(ws.root, "citadel-v2", message) is not None
    assert prompt_hook(ws, message, "--project", "citadel-v2").stdout == res.stdout
    lk(ws, "eval", "--skill", "git-manager", "--response", "-", input="git push")
    assert hookctx.fast_context(ws.root, "citadel-v2", message) is not None
    # ...a new learning does, and the next prompt carries it
    assert lk(ws, "learn", "add", "Run the smoke test after every deploy", "--project", "citadel-v2").returncode == 0
    assert hookctx.fast_context(ws.root, "citadel-v2", message) is None
    context = json.loads(prompt_hook(ws, message, "--project", "citadel-v2").stdout)["hookSpecificOutput"][
        "additionalContext"
    ]
    assert "- Run the smoke test after every deploy" in context


def test_prompt_hook_adds_the_started_storys_memory(demo_workspace):
    ws = demo_workspace
    message = "Plan the stock module upgrade"
    story = "PD-250"  # started by the demo (erp, citadel-v2)
    out = prompt_hook(ws, message, "--project", "citadel-v2", "--story", story)
    context = json.loads(out.stdout)["hookSpecificOutput"]["additionalContext"]
    expected = json.loads(lk(ws, "prompt", message, "--project", "citadel-v2", "--story", story, "--json").stdout)
    memory = next(b["text"] for b in expected["blocks"] if b["name"] == "memory")
    assert memory and context.endswith(memory)
    without = json.loads(prompt_hook(ws, message, "--project", "citadel-v2").stdout)["hookSpecificOutput"]
    assert memory not in without["additionalContext"]
    # a story that was never started: the context still comes, without memory, and the log says why
    unknown = prompt_hook(ws, message, "--project", "citadel-v2", "--story", "PD-999")
    assert json.loads(unknown.stdout)["hookSpecificOutput"]["additionalContext"] == without["additionalContext"]
    assert "PD-999" in (ws.root / "logs" / "hooks.log").read_text(encoding="utf-8")


def test_prompt_hook_keeps_to_the_character_budget(demo_workspace):
    res = prompt_hook(demo_workspace, "Review this code for XSS vulnerabilities", "--budget", "300")
    context = json.loads(res.stdout)["hookSpecificOutput"]["additionalContext"]
    assert 0 < len(context) <= 300
    assert context.startswith("SKILLS_HINT")


def test_a_failing_hook_prints_nothing_exits_0_and_logs(workspace):
    res = lk(workspace, "hooks", "claude-code", "user-prompt-submit", input="this is not JSON")
    assert res.returncode == 0 and res.stdout == ""
    res = lk(workspace, "hooks", "claude-code", "stop", input=hook_input("Stop", transcript_path="/nonexistent.jsonl"))
    assert res.returncode == 0 and res.stdout == ""
    log = (workspace.root / "logs" / "hooks.log").read_text(encoding="utf-8")
    assert "UserPromptSubmit" in log and "Stop" in log and "nonexistent.jsonl" in log


def test_stop_hook_checks_the_last_answer_and_records_quality(demo_workspace):
    from sqlalchemy import select

    from lorekeeper.store.models import EvalRun, QualityEvent

    ws = demo_workspace

    def git_manager() -> dict:
        rows = json.loads(lk(ws, "quality", "--json").stdout)
        return next(r for r in rows if r["skill"] == "git-manager" and r["project"] is None)

    before = git_manager()
    res = lk(ws, "hooks", "claude-code", "stop", input=hook_input("Stop", stop_hook_active=False))
    assert res.returncode == 0 and res.stdout == "", res.stderr
    with ws.store.session() as s:
        runs = s.scalars(select(EvalRun).where(EvalRun.source == "claude-code")).all()
        events = s.scalars(select(QualityEvent).where(QualityEvent.kind.in_(["applied", "eval"]))).all()
    # routed on the prompt that asked the answer (git push...), not on an earlier one
    assert {r.skill for r in runs} == {"git-manager"}
    assert runs[0].passed is False  # the answer force-pushes
    interaction = {e.interaction for e in events if e.skill == "git-manager" and e.interaction}
    assert len(interaction) >= 1
    after = git_manager()  # what nightly reads: one more use of the skill, and it failed
    assert after["applied_count"] == before["applied_count"] + 1
    assert after["evaluated"] == before["evaluated"] + 1
    assert after["success_rate"] < before["success_rate"]


def test_stop_hook_uses_last_assistant_message_when_the_transcript_lacks_the_answer(demo_workspace, tmp_path):
    """Claude Code can run Stop before it writes the answer to the transcript: the hook then
    checks `last_assistant_message` against the prompt the transcript does hold."""
    from sqlalchemy import select

    from lorekeeper.store.models import EvalRun

    ws = demo_workspace
    lines = (DATA / "transcript.jsonl").read_text(encoding="utf-8").splitlines()
    # up to the git-push prompt: the answer is not written yet
    cut = next(i for i, line in enumerate(lines) if "How do I push my rebased git branch" in line)
    transcript = tmp_path / "partial.jsonl"
    transcript.write_text("\n".join(lines[: cut + 1]) + "\n", encoding="utf-8")
    payload = json.loads(hook_input("Stop", stop_hook_active=False))
    payload["transcript_path"] = str(transcript)
    payload["last_assistant_message"] = "Run `git push --force origin topic` and you are done."
    res = lk(ws, "hooks", "claude-code", "stop", input=json.dumps(payload))
    assert res.returncode == 0 and res.stdout == "", res.stderr
    with ws.store.session() as s:
        runs = s.scalars(select(EvalRun).where(EvalRun.source == "claude-code")).all()
    assert {r.skill for r in runs} == {"git-manager"}  # routed on the transcript's prompt
    assert all(r.passed is False for r in runs)  # the given answer force-pushes
