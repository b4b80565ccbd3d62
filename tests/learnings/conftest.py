from __future__ import annotations

import pytest

from helpers.fake_llm import FakeAnthropic, FakeOllama


@pytest.fixture
def anthropic_server():
    with FakeAnthropic() as srv:
        yield srv


@pytest.fixture
def ollama_server():
    with FakeOllama() as srv:
        yield srv
