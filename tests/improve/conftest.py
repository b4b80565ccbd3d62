"""Fixtures of the improvement-loop tests: workspaces with quality events, the local Anthropic-API server."""

from __future__ import annotations

import pytest
from improve_support import FORCE_RULE, ScriptedModel, record

from helpers.fake_llm import FakeAnthropic


@pytest.fixture
def ws(workspace):
    """Starter skills; code-review carries the "No force push" rule; the audit key is loaded."""
    workspace.skills.set_rules("code-review", None, [FORCE_RULE])
    workspace.audit.require_key()
    return workspace


@pytest.fixture
def weak_ws(ws):
    """code-review underperforms (2 of 4 answers pass), with a related learning about force-pushing."""
    ws.learnings.add("Never force-push a shared branch; use --force-with-lease on your own branch", project=None, source="fixit")
    ws.learnings.add("Translations in QWeb templates use t-call", project=None, source="fixit")
    record(ws, "code-review", None, passed=[True, False, False, True])
    return ws


@pytest.fixture
def anthropic_server():
    with FakeAnthropic() as srv:
        yield srv


@pytest.fixture
def model_ws(weak_ws, anthropic_server, monkeypatch):
    from lorekeeper.llm.base import LLMSettings

    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-env")
    weak_ws.llm.configure(LLMSettings(provider="anthropic", base_url=anthropic_server.url, model="claude-test",
                                      max_retries=0, timeout=10))
    script = ScriptedModel(weak_ws)
    anthropic_server.behaviour.reply = script
    weak_ws.script = script
    return weak_ws




# ----------------------------------------------------------------------------- GUI


@pytest.fixture
def sync_workers():
    from lorekeeper.ui import workers

    workers.set_synchronous(True)
    yield
    workers.set_synchronous(False)


@pytest.fixture
def confirm_yes(monkeypatch):
    from lorekeeper.ui import widgets

    asked: list[str] = []

    def yes(_parent, title, _text):
        asked.append(title)
        return True

    monkeypatch.setattr(widgets, "confirm", yes)
    return asked


_exit_status = 0


def pytest_sessionfinish(session, exitstatus):
    global _exit_status
    _exit_status = int(exitstatus)


def pytest_unconfigure(config):
    """Same workaround as tests/ui/conftest.py: PySide6 6.12.0 aborts while finalising the
    interpreter after every test passed; leave without finalising on that exact version."""
    try:
        import PySide6
    except ImportError:
        return
    if PySide6.__version__ == "6.12.0":
        import os
        import sys

        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(_exit_status)
