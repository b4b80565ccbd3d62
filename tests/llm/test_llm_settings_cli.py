"""Configuring the model: the [llm] table, the key in the keyring (never in a file or argv), `llm ask`."""

from __future__ import annotations

import json
import tomllib

from click.testing import CliRunner

from lorekeeper.cli import main
from lorekeeper.config import CONFIG_NAME


def run(ws, *args, input=None):
    return CliRunner().invoke(main, [*args, "--workspace", str(ws.root)], input=input, catch_exceptions=False)


def test_configure_rewrites_only_the_llm_table(workspace):
    cfg = workspace.root / CONFIG_NAME
    before = cfg.read_text(encoding="utf-8")
    r = run(
        workspace,
        "llm",
        "configure",
        "--provider",
        "ollama",
        "--model",
        "qwen",
        "--base-url",
        "http://127.0.0.1:9",
        "--timeout",
        "12.5",
    )
    assert r.exit_code == 0, r.output
    after = cfg.read_text(encoding="utf-8")
    data = tomllib.loads(after)
    assert data["llm"]["provider"] == "ollama" and data["llm"]["model"] == "qwen"
    assert data["llm"]["base_url"] == "http://127.0.0.1:9" and data["llm"]["timeout"] == 12.5

    # every other line, comments included, is untouched
    def outside(text):
        return list(text.split("[llm]")[0].splitlines())

    assert outside(after) == outside(before)
    assert after.split("[embeddings]")[1] == before.split("[embeddings]")[1]
    st = json.loads(run(workspace, "llm", "status", "--json").output)
    assert st["provider"] == "ollama" and st["model"] == "qwen" and st["timeout"] == 12.5


def test_status_contacts_ollama_and_lists_its_models(workspace, ollama_server):
    run(workspace, "llm", "configure", "--provider", "ollama", "--model", "llama-test", "--base-url", ollama_server.url)
    r = run(workspace, "llm", "status")
    assert r.exit_code == 0, r.output
    assert "server:   reachable" in r.output and "llama-test:latest, nomic-embed-text:latest" in r.output
    assert r.output.rstrip().endswith("ready")
    st = json.loads(run(workspace, "llm", "status", "--json").output)
    assert st["checked"] and st["reachable"] and st["models"] == ["llama-test:latest", "nomic-embed-text:latest"]
    ollama_server.stop()
    r = run(workspace, "llm", "status")
    assert "server:   not reachable" in r.output and "unavailable: cannot reach Ollama" in r.output


def test_status_checks_anthropic_through_the_free_model_list(workspace, anthropic_server, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-env")
    run(workspace, "llm", "configure", "--provider", "anthropic", "--base-url", anthropic_server.url)
    st = json.loads(run(workspace, "llm", "status", "--json").output)
    assert st["ready"] and st["reachable"] and "claude-test" in st["models"] and st["key"] == "environment"
    assert [r.method for r in anthropic_server.requests] == ["GET"]  # no generation, nothing paid


def test_configure_rejects_a_bad_url_and_leaves_the_file(workspace):
    cfg = workspace.root / CONFIG_NAME
    before = cfg.read_text(encoding="utf-8")
    r = run(workspace, "llm", "configure", "--provider", "anthropic", "--base-url", "localhost:8080")
    assert r.exit_code == 2 and "http://" in r.output
    assert cfg.read_text(encoding="utf-8") == before


def test_set_key_reads_stdin_and_stores_in_the_keyring_only(workspace, monkeypatch):
    import keyring

    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    secret = "sk-ant-very-secret-123"
    r = run(workspace, "llm", "set-key", input=secret + "\n")
    assert r.exit_code == 0 and secret not in r.output
    assert keyring.get_password("lorekeeper", "llm:anthropic") == secret
    for f in workspace.root.rglob("*"):
        if f.is_file():
            assert secret.encode() not in f.read_bytes(), f
    run(workspace, "llm", "configure", "--provider", "anthropic")
    # --offline: the key must not travel to api.anthropic.com from a test
    st = json.loads(run(workspace, "llm", "status", "--offline", "--json").output)
    assert st["ready"] and st["key"] == "keyring"
    assert run(workspace, "llm", "delete-key").exit_code == 0
    st = json.loads(run(workspace, "llm", "status", "--json").output)  # no key: nothing to contact
    assert not st["ready"] and "set-key" in st["reason"]


def test_without_a_model_ask_exits_4_and_says_why_while_prompt_still_works(workspace):
    r = run(workspace, "llm", "ask", "review this")
    assert r.exit_code == 4 and "ERR_LLM_UNAVAILABLE" in r.output and "provider" in r.output
    r = run(workspace, "prompt", "please review this code")
    assert r.exit_code == 0 and "SKILLS_HINT" in r.output


def test_ask_streams_the_answer_with_its_footnote_and_records_quality(workspace, anthropic_server, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-env")
    run(
        workspace,
        "llm",
        "configure",
        "--provider",
        "anthropic",
        "--base-url",
        anthropic_server.url,
        "--max-retries",
        "0",
    )
    run(workspace, "learn", "add", "Never force push")
    anthropic_server.behaviour.reply = lambda body: "Run git push --force to fix it."
    r = run(workspace, "llm", "ask", "review this pull request before I push")
    assert r.exit_code == 0, r.output
    assert "Run git push --force to fix it." in r.output
    prompt = anthropic_server.prompts()[-1]
    assert "LEARNINGS (past corrections \u2014 follow these rules):\n- Never force push" in prompt
    assert prompt.endswith("review this pull request before I push")
    r = run(workspace, "llm", "ask", "review this pull request", "--json")
    data = json.loads(r.output)
    assert "code-review" in data["skills"]
    m = {x["skill"]: x for x in json.loads(run(workspace, "quality", "--json").output)}
    assert m["code-review"]["applied_count"] == 2


def test_ask_says_when_the_answer_was_cut_at_max_tokens(workspace, anthropic_server, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-env")
    run(workspace, "llm", "configure", "--provider", "anthropic", "--base-url", anthropic_server.url)
    anthropic_server.behaviour.stop_reason = "max_tokens"
    r = run(workspace, "llm", "ask", "hello")
    assert r.exit_code == 0, r.output
    assert "cut at max_tokens" in r.output and "[llm] max_tokens" in r.output
    anthropic_server.behaviour.stop_reason = "end_turn"
    assert "cut at max_tokens" not in run(workspace, "llm", "ask", "hello").output


def test_an_empty_ollama_answer_is_reported_once(workspace, ollama_server):
    run(workspace, "llm", "configure", "--provider", "ollama", "--model", "llama-test", "--base-url", ollama_server.url)
    ollama_server.behaviour.reply = lambda body: ""
    r = run(workspace, "llm", "ask", "hello")
    assert r.exit_code == 4 and "empty answer" in r.output, r.output
    assert len(ollama_server.posts()) == 1


def test_configure_keeps_the_operators_own_keys_and_comments_in_llm(workspace):
    """Issue 28 d5: the [llm] table is edited with tomlkit, key by key; the old writer replaced the
    whole table, dropping what the operator had added to it."""
    cfg = workspace.root / CONFIG_NAME
    text = cfg.read_text(encoding="utf-8").replace(
        "[llm]\n", '[llm]\n# our team uses the local server\nmodel_note = "qwen for French"\n', 1
    )
    cfg.write_text(text.replace('model = ""', 'model = ""  # ask Anna before changing', 1), encoding="utf-8")
    r = run(workspace, "llm", "configure", "--provider", "ollama", "--model", "qwen")
    assert r.exit_code == 0, r.output
    after = cfg.read_text(encoding="utf-8")
    data = tomllib.loads(after)["llm"]
    assert data["provider"] == "ollama" and data["model"] == "qwen" and data["model_note"] == "qwen for French"
    assert "# our team uses the local server" in after and 'model = "qwen"  # ask Anna before changing' in after
