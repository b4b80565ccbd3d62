"""The reflect loop end to end against the local Anthropic-API server (no GUI)."""

from __future__ import annotations

import dataclasses

import pytest

from lorekeeper.learnings.block import HEADER
from lorekeeper.llm.base import LLMSettings


@pytest.fixture
def ws(workspace, anthropic_server, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
    workspace.llm.configure(LLMSettings(provider="anthropic", base_url=anthropic_server.url, model="m", max_retries=0))
    workspace.skills.set_rules(
        "code-review",
        None,
        [
            {
                "id": "cr-1",
                "name": "No force push",
                "type": "string_not_contains",
                "value": "--force",
                "severity": "warning",
            },
            {"id": "cr-2", "name": "Mentions tests", "type": "icontains", "value": "test", "severity": "info"},
        ],
    )
    return workspace


def test_send_fixit_and_the_next_prompt_carries_the_rule(ws, anthropic_server):
    anthropic_server.behaviour.reply = lambda body: "Just run git push --force."
    chunks: list[str] = []
    prompt = ws.reflect.prepare("please review this code", "citadel-v2")
    answer = ws.reflect.send(prompt, on_chunk=chunks.append)
    assert "".join(chunks) == answer.text == "Just run git push --force."
    assert answer.skills[0] == "code-review"
    assert answer.footnote.startswith("Eval: \u26a0\ufe0f No force push")
    assert "\u2139\ufe0f Mentions tests" in answer.footnote
    assert not answer.passed

    anthropic_server.behaviour.reply = lambda body: "Use git push --force-with-lease... no: plain git push."
    learning, _fixed = ws.reflect.fix_it(answer, "Never suggest git push --force")
    assert learning.source == "fixit" and learning.project == "citadel-v2"
    fix_prompt = anthropic_server.prompts()[-1]
    assert f"{HEADER}\n- Never suggest git push --force" in fix_prompt
    assert "Just run git push --force." in fix_prompt  # the previous answer is in the fix request
    nxt = ws.reflect.prepare("please review this code again", "citadel-v2")
    assert "- Never suggest git push --force" in nxt.learnings.text
    assert "- Never suggest git push --force" not in ws.reflect.prepare("please review this code", "storefront").text

    m = {x.skill: x for x in ws.quality.metrics(project="citadel-v2")}
    assert m["code-review"].applied_count == 2 and m["code-review"].evaluated == 2


def test_thumbs_down_saves_a_learning_and_negative_feedback(ws, anthropic_server):
    answer = ws.reflect.send(ws.reflect.prepare("please review this code", "citadel-v2"))
    ws.reflect.thumbs_down(answer, "")
    ws.reflect.thumbs_down(answer, "Too vague: name the file and line")
    ws.reflect.thumbs_up(answer)
    rules = [r.rule for r in ws.learnings.list(project="citadel-v2")]
    assert rules[0] == "Too vague: name the file and line"
    assert rules[1].startswith("Negative feedback on: Hello from the fake model.")
    m = {x.skill: x for x in ws.quality.metrics(project="citadel-v2")}
    assert (m["code-review"].feedback_negative, m["code-review"].feedback_positive) == (2, 1)


def test_a_long_answer_gives_a_short_default_rule(ws):
    from lorekeeper.reflect import fixit_rule

    rule = fixit_rule("word " * 500)
    assert rule.startswith("Fix requested for: word word") and len(rule) < 240 and rule.endswith("\u2026")


def test_without_a_model_nothing_is_recorded(workspace):
    from lorekeeper.llm import LLMUnavailableError

    workspace.llm.configure(dataclasses.replace(workspace.llm.settings, provider="none"))
    with pytest.raises(LLMUnavailableError):
        workspace.reflect.send(workspace.reflect.prepare("please review this code"))
    assert workspace.quality.metrics() == []


def test_cancelling_stops_the_answer_and_records_nothing(ws, anthropic_server):
    from lorekeeper.reflect import Cancelled

    anthropic_server.behaviour.reply = lambda body: "word " * 200
    seen: list[str] = []
    with pytest.raises(Cancelled):
        ws.reflect.send(
            ws.reflect.prepare("please review this code"), on_chunk=seen.append, is_cancelled=lambda: len(seen) >= 3
        )
    assert len(seen) == 3
    assert ws.quality.metrics() == []
