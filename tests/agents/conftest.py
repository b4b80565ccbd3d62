"""Fixtures of the agents tests (MCP server, Claude Code hooks, ask, skill generator)."""

from __future__ import annotations

import pytest


@pytest.fixture
def model_ws(demo_workspace, anthropic_server, monkeypatch):
    """The demo workspace with the local Anthropic-API server as its model."""
    from lorekeeper.llm.base import LLMSettings

    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-env")
    demo_workspace.llm.configure(
        LLMSettings(provider="anthropic", base_url=anthropic_server.url, model="claude-test", max_retries=0, timeout=10)
    )
    demo_workspace.server = anthropic_server
    return demo_workspace
