"""Helpers of the improvement-loop tests (a module of its own: `conftest` is not importable by name
when the whole suite runs, since every test folder has one)."""

from __future__ import annotations

import json
import re
from typing import Self

from helpers.fake_llm import last_user_text

FORCE_RULE = {
    "id": "cr-1",
    "name": "No force push",
    "type": "string_not_contains",
    "value": "--force",
    "severity": "warning",
}
LEASE_RULE = {
    "id": "cr-2",
    "name": "Mentions lease",
    "type": "string_contains",
    "value": "--force-with-lease",
    "severity": "warning",
}


def record(
    ws,
    skill: str,
    project: str | None,
    *,
    passed: list[bool] = (),
    up: int = 0,
    down: int = 0,
    applied: int | None = None,
    response: str = "git push --force origin main",
) -> None:
    """`applied` uses of `skill` (default: one per eval outcome), with eval outcomes recorded as real eval runs."""
    n = len(passed) if applied is None else applied
    ws.quality.log_applied([skill] * n, project)
    version = ws.skills.get(skill, project)
    for ok in passed:
        text = "git push origin topic" if ok else response
        report = ws.evals.run_rules(text, version.rules())
        run_id = ws.evals.record(
            report, text, skill=skill, project=project or "", version=version.version, source="test"
        )
        ws.quality.log_eval(skill, project, ok, eval_run_id=run_id)
    for _ in range(up):
        ws.quality.log_feedback([skill], project, True)
    for _ in range(down):
        ws.quality.log_feedback([skill], project, False)


def new_skill_text(
    ws, skill: str = "code-review", extra: str = "Never use --force; push with --force-with-lease."
) -> str:
    return ws.skills.get(skill).content.rstrip("\n") + "\n\n## Pushing\n\n" + extra + "\n"


class ScriptedModel:
    """Answers the Anthropic server's requests by kind: Sage, scenarios, old/new skill outputs, judge."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.sage: dict[str, str] = {}  # skill -> raw answer (default NO_CHANGE)
        self.judge_scores: list[tuple[int, int]] = []  # popped per judge call; default prefer the lease answer
        self.judge_raw: str | None = None
        self.scenarios_raw = json.dumps(
            ["Review my push script", "How do I publish my rebased branch?", "Check this CI job"]
        )
        self.calls: dict[str, int] = {"sage": 0, "scenarios": 0, "run": 0, "judge": 0}

    def __call__(self, body: dict) -> str:
        text = last_user_text(body)
        system = body.get("system") or ""
        if isinstance(system, list):
            system = "".join(p.get("text", "") for p in system)
        if text.startswith("You are Sage"):
            self.calls["sage"] += 1
            skill = re.search(r"^Skill: (\S+)", text, re.MULTILINE).group(1)
            return self.sage.get(skill, "NO_CHANGE")
        if text.startswith("Write "):
            self.calls["scenarios"] += 1
            return self.scenarios_raw
        if text.startswith("You are an impartial judge"):
            self.calls["judge"] += 1
            if self.judge_raw is not None:
                return self.judge_raw
            if self.judge_scores:
                a, b = self.judge_scores.pop(0)
            else:
                a_text = text.split("Response A:", 2)[2] if text.count("Response A:") > 1 else text
                lease_in_a = "--force-with-lease" in a_text.split("Response B:")[0]
                a, b = (9, 4) if lease_in_a else (4, 9)
            return json.dumps({"score_a": a, "score_b": b, "reason": f"A={a} B={b}"})
        self.calls["run"] += 1
        if "--force-with-lease" in system:
            return "Publish it with git push --force-with-lease origin topic."
        return "Just run git push --force origin topic."


def open_window(qtbot, ws):
    from lorekeeper.ui.main_window import MainWindow

    win = MainWindow(ws)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    win.windowHandle().requestActivate()  # the review shortcuts need this window to have the keyboard
    qtbot.waitUntil(win.isActiveWindow)
    return win


def _serve_scripted(urls, stop) -> None:  # type: ignore[no-untyped-def]
    """Child process: a fake Anthropic server answering like `ScriptedModel`'s defaults."""
    import os

    from helpers.fake_llm import FakeAnthropic

    os.setsid()  # a session of its own: the scheduler does not count its CPU against the GUI's
    with FakeAnthropic() as srv:
        srv.behaviour.reply = ScriptedModel(None)
        urls.put(srv.url)
        stop.wait()


class ScriptedServerProcess:
    """`ScriptedModel`'s default answers from a fake Anthropic server in a process of its own.

    The in-process fake server parses, answers and streams on threads of the test's process, that
    is, it holds the interpreter lock the GUI thread needs: a GUI-stall measurement with it in
    process measures the test harness. A real model runs elsewhere; so does this one."""

    def __enter__(self) -> Self:
        import multiprocessing

        ctx = multiprocessing.get_context("spawn")
        self._stop = ctx.Event()
        urls = ctx.Queue()
        self.proc = ctx.Process(target=_serve_scripted, args=(urls, self._stop), daemon=True)
        self.proc.start()
        self.url = urls.get(timeout=60)
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self.proc.join(10)
        if self.proc.is_alive():
            self.proc.terminate()


def backdate_skills(ws, when) -> None:
    """Every skill version created at `when`: events backdated before it then count as evidence on
    the current version (nightly counts only events after the current version, issue 17)."""
    from lorekeeper.store.models import SkillVersion

    with ws.store.write() as s:
        for v in s.query(SkillVersion):
            v.created_at = when
