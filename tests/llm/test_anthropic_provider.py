"""The anthropic provider drives the real `anthropic` SDK against a local Messages-API server."""

from __future__ import annotations

import socket

import pytest

from lorekeeper.llm import LLMSettings, LLMUnavailableError, make_provider
from lorekeeper.llm.anthropic_provider import AnthropicProvider

KEY = "sk-ant-test-0123456789"


def provider(url: str, **kw) -> AnthropicProvider:
    settings = LLMSettings(provider="anthropic", base_url=url, model=kw.pop("model", "claude-test"), **kw)
    return AnthropicProvider(settings, api_key=KEY)


def test_streams_the_answer_in_pieces_and_sends_the_prompt_as_the_user_message(anthropic_server):
    anthropic_server.behaviour.reply = lambda body: "You said: " + body["messages"][0]["content"]
    pieces = list(provider(anthropic_server.url).stream("review my diff"))
    assert len(pieces) > 1
    assert "".join(pieces) == "You said: review my diff"
    req = anthropic_server.requests[-1]
    assert req.path == "/v1/messages"
    assert req.body["stream"] is True
    assert req.body["model"] == "claude-test"
    assert req.body["messages"] == [{"role": "user", "content": "review my diff"}]
    assert req.headers.get("x-api-key") == KEY
    assert req.headers.get("anthropic-version")


def test_complete_without_streaming(anthropic_server):
    anthropic_server.behaviour.reply = lambda body: "plain answer"
    assert provider(anthropic_server.url).complete("hello") == "plain answer"
    assert not anthropic_server.requests[-1].body.get("stream")


@pytest.mark.parametrize(
    ("status", "etype", "words"),
    [
        (401, "authentication_error", "set-key"),
        (404, "not_found_error", "[llm] model"),
        (400, "invalid_request_error", "400"),
    ],
)
def test_error_statuses_become_err_llm_unavailable_with_advice(anthropic_server, status, etype, words):
    anthropic_server.behaviour.status = status
    anthropic_server.behaviour.error_type = etype
    anthropic_server.behaviour.error_message = "nope"
    with pytest.raises(LLMUnavailableError) as err:
        list(provider(anthropic_server.url, max_retries=0).stream("x"))
    assert err.value.code == "ERR_LLM_UNAVAILABLE"
    assert str(status) in err.value.message and words in err.value.message
    assert KEY not in str(err.value)


def test_overloaded_is_retried_then_succeeds(anthropic_server):
    anthropic_server.behaviour.status = 529
    anthropic_server.behaviour.error_type = "overloaded_error"
    anthropic_server.behaviour.fail_times = 1
    anthropic_server.behaviour.reply = lambda body: "finally"
    assert "".join(provider(anthropic_server.url, max_retries=2).stream("x")) == "finally"
    assert len(anthropic_server.requests) == 2


def test_no_retry_when_max_retries_is_zero(anthropic_server):
    anthropic_server.behaviour.status = 529
    anthropic_server.behaviour.error_type = "overloaded_error"
    with pytest.raises(LLMUnavailableError, match="529"):
        list(provider(anthropic_server.url, max_retries=0).stream("x"))
    assert len(anthropic_server.requests) == 1


def test_an_error_event_in_the_middle_of_the_stream_is_reported(anthropic_server):
    anthropic_server.behaviour.reply = lambda body: "a long answer that will break half way through"
    anthropic_server.behaviour.fail_midstream = True
    got: list[str] = []
    with pytest.raises(LLMUnavailableError, match="overloaded"):
        for piece in provider(anthropic_server.url, max_retries=0).stream("x"):
            got.append(piece)
    assert got, "the text before the error arrived"


def test_a_server_slower_than_the_timeout(anthropic_server):
    anthropic_server.behaviour.delay = 1.5
    with pytest.raises(LLMUnavailableError, match=r"did not answer within 0\.3 s"):
        list(provider(anthropic_server.url, timeout=0.3, max_retries=0).stream("x"))


def test_nothing_listening():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(LLMUnavailableError, match="cannot reach"):
        list(provider(f"http://127.0.0.1:{port}", max_retries=0, timeout=2).stream("x"))


def test_without_a_key_the_provider_says_how_to_set_one(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    p = make_provider(LLMSettings(provider="anthropic"))
    st = p.status()
    assert not st.ready and "lorekeeper llm set-key" in st.reason
    with pytest.raises(LLMUnavailableError, match="set-key"):
        list(p.stream("x"))


def test_the_key_comes_from_the_keyring(anthropic_server, monkeypatch):
    from lorekeeper.llm import keys

    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    keys.set_key("anthropic", "sk-from-keyring")
    try:
        p = make_provider(LLMSettings(provider="anthropic", base_url=anthropic_server.url, model="m"))
        assert p.status().ready
        assert p.complete("x")
        assert anthropic_server.requests[-1].headers["x-api-key"] == "sk-from-keyring"
    finally:
        keys.delete_key("anthropic")


def test_a_base_url_written_with_v1_works_too(anthropic_server):
    assert provider(anthropic_server.url + "/v1/").complete("x")
    assert anthropic_server.requests[-1].path == "/v1/messages"


def test_a_server_that_ignores_stream_true_still_gives_the_answer(anthropic_server, monkeypatch):
    real = anthropic_server.handle

    def json_only(h, body):
        real(h, {k: v for k, v in body.items() if k != "stream"})

    monkeypatch.setattr(anthropic_server, "handle", json_only)
    anthropic_server.behaviour.reply = lambda body: "one JSON message"
    assert list(provider(anthropic_server.url).stream("x")) == ["one JSON message"]
