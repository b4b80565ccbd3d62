"""The anthropic provider drives the real `anthropic` SDK against a local Messages-API server."""

from __future__ import annotations

import socket
import time

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


def test_complete_streams_too_so_a_long_answer_is_not_cut_by_the_timeout(anthropic_server):
    """Sage, benchmark and judge call `complete`: it streams, and the timeout counts silence only."""
    anthropic_server.behaviour.reply = lambda body: "a long answer " * 20
    anthropic_server.behaviour.chunk_size = 20
    anthropic_server.behaviour.chunk_delay = 0.1  # ~1.4 s in all, never 0.5 s of silence
    answer = provider(anthropic_server.url, timeout=0.5, max_retries=2).complete("hello")
    assert answer == "a long answer " * 20
    assert not answer.truncated and answer.stop_reason == "end_turn"
    assert anthropic_server.requests[-1].body.get("stream") is True
    assert len(anthropic_server.requests) == 1


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


def test_an_error_status_is_reported_not_retried(anthropic_server):
    """Retries are for requests that never reached the API; a status answer is shown as it is."""
    anthropic_server.behaviour.status = 529
    anthropic_server.behaviour.error_type = "overloaded_error"
    anthropic_server.behaviour.fail_times = 1
    anthropic_server.behaviour.reply = lambda body: "finally"
    with pytest.raises(LLMUnavailableError, match=r"529.*overloaded"):
        list(provider(anthropic_server.url, max_retries=2).stream("x"))
    assert len(anthropic_server.requests) == 1


def test_a_dropped_connection_before_any_answer_is_retried(anthropic_server):
    anthropic_server.behaviour.drop_times = 1
    anthropic_server.behaviour.reply = lambda body: "after one retry"
    assert "".join(provider(anthropic_server.url, max_retries=2).stream("x")) == "after one retry"
    assert len(anthropic_server.requests) == 2


def test_connection_retries_stop_at_max_retries(anthropic_server):
    anthropic_server.behaviour.drop_times = 5
    with pytest.raises(LLMUnavailableError, match="cannot reach"):
        list(provider(anthropic_server.url, max_retries=1).stream("x"))
    assert len(anthropic_server.requests) == 2


def test_no_retry_after_a_timeout_waiting_for_the_model(anthropic_server):
    """The request reached the API: a second one would be a second paid generation."""
    anthropic_server.behaviour.delay = 1.0
    with pytest.raises(LLMUnavailableError, match=r"did not answer within 0\.3 s"):
        list(provider(anthropic_server.url, timeout=0.3, max_retries=2).stream("x"))
    time.sleep(0.8)  # a retry, if any, would have reached the server by now
    assert len(anthropic_server.requests) == 1


def test_no_retry_when_the_stream_goes_silent_after_some_text(anthropic_server):
    anthropic_server.behaviour.reply = lambda body: "first words, then silence for too long"
    anthropic_server.behaviour.chunk_size = 12
    anthropic_server.behaviour.chunk_delay = 1.0
    got: list[str] = []
    with pytest.raises(LLMUnavailableError, match=r"stopped answering for 0\.3 s.*not re-sent"):
        for piece in provider(anthropic_server.url, timeout=0.3, max_retries=2).stream("x"):
            got.append(piece)
    assert got == ["first words,"]
    time.sleep(0.5)
    assert len(anthropic_server.requests) == 1


def test_an_answer_cut_at_max_tokens_is_flagged(anthropic_server):
    anthropic_server.behaviour.reply = lambda body: "an answer that stops in the mid"
    anthropic_server.behaviour.stop_reason = "max_tokens"
    p = provider(anthropic_server.url, max_tokens=8)
    answer = p.complete("x")
    assert answer == "an answer that stops in the mid"
    assert answer.truncated and answer.stop_reason == "max_tokens"
    assert anthropic_server.requests[-1].body["max_tokens"] == 8
    assert "".join(p.stream("again")) and p.last_truncated
    anthropic_server.behaviour.stop_reason = "end_turn"
    assert not p.complete("x").truncated and not p.last_truncated


def test_an_empty_answer_is_reported_and_not_requested_again(anthropic_server):
    anthropic_server.behaviour.reply = lambda body: ""
    with pytest.raises(LLMUnavailableError, match="empty answer") as err:
        list(provider(anthropic_server.url, max_retries=2).stream("x"))
    assert err.value.details["reason"] == "empty_answer"
    assert len(anthropic_server.requests) == 1
    # complete() hands the empty answer back for its caller to report ("it is empty"), once
    assert provider(anthropic_server.url, max_retries=2).complete("x") == ""
    assert len(anthropic_server.requests) == 2


def test_the_key_goes_out_in_exactly_one_x_api_key_header(anthropic_server):
    import anthropic

    provider(anthropic_server.url).complete("x")
    req = anthropic_server.requests[-1]
    assert req.header_count("x-api-key") == 1, (anthropic.__version__, req.raw_headers)
    assert req.headers["x-api-key"] == KEY


def test_the_key_goes_out_once_not_also_as_a_bearer_token(anthropic_server):
    """SDK 2.x sends `api_key` as `Authorization: Bearer`; next to our x-api-key that is the key twice."""
    import anthropic

    p = provider(anthropic_server.url)
    p.complete("x")
    p.status()  # the model list too
    for req in anthropic_server.requests:
        carrying = [k for k, v in req.raw_headers if KEY in v]
        assert carrying == ["X-Api-Key"] or [k.lower() for k in carrying] == ["x-api-key"], (
            anthropic.__version__,
            req.path,
            carrying,
        )


def test_the_sdk_floor_in_pyproject_is_a_version_that_sends_the_key_once():
    """anthropic 0.x (0.40 ... 0.125 checked) sent a custom x-api-key next to its own X-Api-Key."""
    import re
    from pathlib import Path

    pyproject = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8")
    floor = re.search(r'"anthropic>=([0-9.]+)"', pyproject)
    assert floor is not None
    assert tuple(int(x) for x in floor.group(1).split(".")) >= (1, 0)


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
    anthropic_server.behaviour.stop_reason = "max_tokens"
    p = provider(anthropic_server.url)
    assert list(p.stream("x")) == ["one JSON message"]
    assert p.last_truncated
    assert len(anthropic_server.requests) == 1  # read from the one answer, not asked twice


def test_status_checks_the_free_model_list(anthropic_server):
    st = provider(anthropic_server.url).check()
    assert st.ready and st.checked and st.reachable
    assert "claude-test" in st.models
    assert [(r.method, r.path.split("?")[0]) for r in anthropic_server.requests] == [("GET", "/v1/models")]
    anthropic_server.behaviour.status = 401
    anthropic_server.behaviour.error_type = "authentication_error"
    st = provider(anthropic_server.url).check()
    assert not st.ready and st.reachable and "401" in st.reason and "set-key" in st.reason


def test_the_sanitizers_model_summary_runs_on_anthropic(anthropic_server, monkeypatch):
    """Issue 28 d5: the sanitizer asks through the providers' public settings. It used to override
    the provider's private request builder to add a temperature the SDK's `create` refuses
    (TypeError): with `[llm] provider = "anthropic"`, no summary could be written by the model."""
    import json

    from lorekeeper.privacy.sanitizer import SECTIONS, model_summary

    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    summary = {sec: f"the {sec} in short" for sec in SECTIONS}
    anthropic_server.behaviour.reply = lambda body: json.dumps(summary)
    llm = {"provider": "anthropic", "base_url": anthropic_server.url, "model": "claude-test"}
    out, by = model_summary(dict.fromkeys(SECTIONS, "a long answer"), llm)
    assert by == "anthropic" and out == summary
    assert "temperature" not in anthropic_server.requests[-1].body
