"""Fixtures of the improvement-loop tests: workspaces with quality events, the local Anthropic-API server."""

from __future__ import annotations

import pytest
from improve_support import FORCE_RULE, ScriptedModel, new_skill_text, record


@pytest.fixture
def ws(workspace):
    """Starter skills; code-review carries the "No force push" rule; the audit key is loaded."""
    workspace.skills.set_rules("code-review", None, [FORCE_RULE])
    workspace.audit.require_key()
    return workspace


@pytest.fixture
def weak_ws(ws):
    """code-review underperforms (2 of 4 answers pass), with a related learning about force-pushing."""
    ws.learnings.add(
        "Never force-push a shared branch; use --force-with-lease on your own branch", project=None, source="fixit"
    )
    ws.learnings.add("Translations in QWeb templates use t-call", project=None, source="fixit")
    record(ws, "code-review", None, passed=[True, False, False, True])
    return ws


@pytest.fixture
def model_ws(weak_ws, anthropic_server, monkeypatch):
    from lorekeeper.llm.base import LLMSettings

    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-env")
    weak_ws.llm.configure(
        LLMSettings(provider="anthropic", base_url=anthropic_server.url, model="claude-test", max_retries=0, timeout=10)
    )
    script = ScriptedModel(weak_ws)
    anthropic_server.behaviour.reply = script
    weak_ws.script = script
    return weak_ws


# ----------------------------------------------------------------------------- GUI


@pytest.fixture
def sage_proposal(model_ws):
    """A pending proposal whose new content tells the agent to use --force-with-lease."""
    from lorekeeper.improve.proposals import NewProposal

    cur = model_ws.skills.get("code-review")
    return model_ws.improve.proposals.create(
        NewProposal(
            skill="code-review",
            scope="",
            project="",
            source="sage",
            reason="answers force-push",
            summary="adds a pushing section",
            metrics={},
            failing_rules=[],
            learnings=[],
            base_version=cur.version,
            current_content=cur.content,
            proposed_content=new_skill_text(model_ws),
            model="anthropic:claude-test",
        )
    )
