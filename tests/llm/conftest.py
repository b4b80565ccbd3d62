from __future__ import annotations

import pytest


@pytest.fixture
def model_ws(tmp_path, anthropic_server, monkeypatch, workspace_templates):
    """A demo workspace whose model is the local Anthropic-API server; code-review flags --force."""
    from lorekeeper.llm.base import LLMSettings

    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-env")
    ws = workspace_templates.copy(tmp_path / "ws", demo=True)  # as Workspace.init(..., demo=True)
    ws.llm.configure(
        LLMSettings(provider="anthropic", base_url=anthropic_server.url, model="claude-test", max_retries=0, timeout=10)
    )
    for project in (None, "citadel-v2"):
        if project is None or ws.skills.resolve_scope("code-review", project) == project:
            ws.skills.set_rules(
                "code-review",
                project,
                [
                    {
                        "id": "cr-1",
                        "name": "No force push",
                        "type": "string_not_contains",
                        "value": "--force",
                        "severity": "warning",
                    }
                ],
            )
    yield ws
    ws.close()


@pytest.fixture
def window(qtbot, model_ws, sync_workers):
    from lorekeeper.ui.main_window import MainWindow

    win = MainWindow(model_ws)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.close()
