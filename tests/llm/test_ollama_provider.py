"""The ollama provider drives the real `ollama` SDK against a local server speaking the Ollama API."""

from __future__ import annotations

import pytest

from lorekeeper.llm import LLMSettings, LLMUnavailableError, make_provider


def provider(url: str, **kw):
    return make_provider(LLMSettings(provider="ollama", base_url=url, model=kw.pop("model", "llama-test"), **kw))


def test_streams_ndjson_chat(ollama_server):
    ollama_server.behaviour.reply = lambda body: "Echo: " + body["messages"][-1]["content"]
    pieces = list(provider(ollama_server.url).stream("write a test"))
    assert len(pieces) > 1 and "".join(pieces) == "Echo: write a test"
    req = ollama_server.requests[-1]
    assert req.path == "/api/chat" and req.body["model"] == "llama-test" and req.body["stream"] is True


def test_default_model_when_none_is_configured(ollama_server):
    p = make_provider(LLMSettings(provider="ollama", base_url=ollama_server.url))
    p.complete("x")
    assert ollama_server.requests[-1].body["model"] == "llama3.2"


def test_missing_model_says_to_pull_it(ollama_server):
    ollama_server.behaviour.status = 404
    ollama_server.behaviour.error_message = "model 'llama-test' not found"
    with pytest.raises(LLMUnavailableError) as err:
        list(provider(ollama_server.url).stream("x"))
    assert "404" in err.value.message and "ollama pull llama-test" in err.value.message
    assert len(ollama_server.requests) == 1  # a 404 is not retried


def test_a_busy_server_is_retried(ollama_server):
    ollama_server.behaviour.status = 503
    ollama_server.behaviour.fail_times = 2
    ollama_server.behaviour.reply = lambda body: "ok now"
    assert provider(ollama_server.url, max_retries=2).complete("x") == "ok now"
    assert len(ollama_server.requests) == 3


def test_an_error_line_in_the_stream(ollama_server):
    ollama_server.behaviour.reply = lambda body: "some words before the crash happens"
    ollama_server.behaviour.fail_midstream = True
    got = []
    with pytest.raises(LLMUnavailableError, match="model runner crashed"):
        for piece in provider(ollama_server.url).stream("x"):
            got.append(piece)
    assert got
    assert len(ollama_server.requests) == 1  # text had arrived: never retried (no duplicate answer)


def test_timeout(ollama_server):
    ollama_server.behaviour.delay = 1.5
    with pytest.raises(LLMUnavailableError, match=r"did not answer within 0\.3 s"):
        list(provider(ollama_server.url, timeout=0.3, max_retries=0).stream("x"))


def test_no_retry_after_a_timeout_waiting_for_the_model(ollama_server):
    """The server has the request: a second one would make the model generate the answer again."""
    ollama_server.behaviour.delay = 1.5
    with pytest.raises(LLMUnavailableError, match=r"did not answer within 0\.3 s"):
        list(provider(ollama_server.url, timeout=0.3, max_retries=2).stream("x"))
    assert len(ollama_server.posts()) == 1


def test_max_tokens_is_sent_and_an_answer_cut_there_is_flagged(ollama_server):
    ollama_server.behaviour.done_reason = "length"
    p = provider(ollama_server.url, max_tokens=77)
    done = p.complete("x")
    assert ollama_server.posts()[-1].body["options"]["num_predict"] == 77
    assert done.truncated and p.last_truncated
    ollama_server.behaviour.done_reason = "stop"
    assert not p.complete("x").truncated


def test_embeddings(ollama_server):
    p = make_provider(LLMSettings(provider="ollama", base_url=ollama_server.url, embed_model="nomic-embed-text"))
    vecs = p.embed(["alpha", "beta gamma"])
    assert len(vecs) == 2 and all(len(v) == ollama_server.embed_dims for v in vecs)
    req = ollama_server.requests[-1]
    assert (
        req.path == "/api/embed"
        and req.body["model"] == "nomic-embed-text"
        and req.body["input"] == ["alpha", "beta gamma"]
    )


def test_anthropic_has_no_embeddings():
    with pytest.raises(LLMUnavailableError, match="no embeddings"):
        make_provider(LLMSettings(provider="anthropic")).embed(["x"])


def test_a_base_url_written_with_api_works_too(ollama_server):
    assert provider(ollama_server.url + "/api").complete("x")
    assert ollama_server.requests[-1].path == "/api/chat"


def test_embeddings_on_an_older_server(ollama_server):
    ollama_server.legacy_only = True
    p = make_provider(LLMSettings(provider="ollama", base_url=ollama_server.url))
    vecs = p.embed(["alpha", "beta gamma"])
    assert len(vecs) == 2 and vecs[0] != vecs[1]
    assert [r.path for r in ollama_server.requests] == ["/api/embed", "/api/embeddings", "/api/embeddings"]


def test_embeddings_with_a_missing_model_say_so(ollama_server):
    ollama_server.behaviour.status = 404
    ollama_server.behaviour.error_message = "model 'nomic-embed-text' not found"
    import pytest as _pytest

    with _pytest.raises(LLMUnavailableError, match="not found"):
        make_provider(LLMSettings(provider="ollama", base_url=ollama_server.url)).embed(["x"])
    assert len(ollama_server.requests) == 1


HOST_FORMS = [
    "",
    "1.2.3.4",
    ":56789",
    "1.2.3.4:56789",
    "http://1.2.3.4",
    "https://1.2.3.4",
    "https://example.com:56789",
    "example.com",
    "example.com:56789/",
    "example.com/path",
    "https://example.com:56789/path/",
    "[0001:002:003:0004::1]:56789",
]


@pytest.mark.parametrize("value", HOST_FORMS)
def test_ollama_host_is_read_as_the_ollama_client_reads_it(value):
    from ollama._client import _parse_host

    from lorekeeper.llm.ollama_provider import parse_host

    assert parse_host(value) == _parse_host(value)


def test_ollama_host_is_honoured_when_no_base_url_is_configured(ollama_server, monkeypatch):
    host_port = ollama_server.url.removeprefix("http://")  # the `host:port` form, scheme by default
    monkeypatch.setenv("OLLAMA_HOST", host_port)
    p = make_provider(LLMSettings(provider="ollama", model="llama-test"))
    assert p.host == ollama_server.url
    assert p.complete("x")
    assert ollama_server.requests[-1].path == "/api/chat"


def test_a_configured_base_url_wins_over_ollama_host(ollama_server, monkeypatch):
    monkeypatch.setenv("OLLAMA_HOST", "127.0.0.1:9")
    assert provider(ollama_server.url).complete("x")


def test_status_contacts_the_server_and_lists_its_models(ollama_server):
    st = provider(ollama_server.url).check()
    assert st.checked and st.reachable and st.ready
    assert st.models == ("llama-test:latest", "nomic-embed-text:latest")
    assert [(r.method, r.path) for r in ollama_server.requests] == [("GET", "/api/tags")]
    st = provider(ollama_server.url, model="mistral").check()
    assert st.reachable and not st.ready and "ollama pull mistral" in st.reason


def test_status_says_when_the_server_is_not_reachable():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    st = provider(f"http://127.0.0.1:{port}").check()
    assert st.checked and st.reachable is False and not st.ready
    assert "cannot reach Ollama" in st.reason
