"""Extraction with the configured model (the local fake Ollama server, the real SDK client):
structured output requested, the answer schema-validated, invalid facts and invented quotes
dropped with their reason, progress and Cancel, the run report kept."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from facts_helpers import GUIDE, lk, write_docs

from helpers.fake_llm import last_user_text
from lorekeeper.jobs import Cancelled, CancelToken, Progress, drive
from lorekeeper.llm.base import LLMSettings
from lorekeeper.workspace import Workspace

GOOD = {
    "type": "constraint",
    "statement": "Never modify a Flyway migration already merged on main.",
    "detail": "Create a new V<n>__name.sql instead.",
    "scope": ["db/migration/**", "**"],
    "tags": ["Flyway"],
    "confidence": 0.95,
    "quote": "Never modify a migration script already merged on main.",
}
ANSWERS: dict[str, Any] = {
    "guide.md": {
        "facts": [
            GOOD,
            {
                **GOOD,
                "statement": "Tests live next to the code.",
                "type": "convention",
                "quote": "Tests are in /tests.",
            },
            {**GOOD, "statement": "Use problem+json.", "type": "opinion"},  # not one of the 8 types
            {**GOOD, "statement": "Handlers return problem+json errors.", "confidence": 1.7},
            {"type": "pitfall", "statement": "No quote at all.", "confidence": 0.9},
            {**GOOD, "statement": "Maybe use Go.", "type": "stack", "confidence": 0.1},
            {
                "type": "convention",
                "statement": "Put Go tests next to the code in `*_test.go` files.",
                "scope": ["**/*.go"],
                "confidence": 0.9,
                "quote": "Tests live next to the code in `*_test.go` files.",
            },
        ]
    },
    "notes.md": "this is not JSON at all",
}


def configure(ws: Workspace, server: Any) -> None:
    ws.llm.configure(LLMSettings(provider="ollama", model="llama-test", base_url=server.url, max_retries=0, timeout=10))


def reply(body: dict[str, Any]) -> str:
    prompt = last_user_text(body)
    for origin, answer in ANSWERS.items():
        if f"Document: {origin}" in prompt:
            return answer if isinstance(answer, str) else json.dumps(answer)
    return json.dumps({"facts": []})


def test_extraction_checks_every_answer_and_reports_the_drops(
    workspace: Workspace, tmp_path: Path, ollama_server
) -> None:
    configure(workspace, ollama_server)
    ollama_server.behaviour.reply = reply
    docs = write_docs(tmp_path, {"guide.md": GUIDE, "notes.md": "Deploy on Tuesdays only.\n"})
    code, rep, err = lk(workspace.root, "facts", "ingest", str(docs), "--project", "nord")
    assert code == 0, err
    ex = rep["extraction"]
    assert ex["documents"] == 1 and ex["proposed"] == 7 and len(ex["kept"]) == 2
    reasons = sorted(d["reason"].split(":")[0] for d in ex["dropped"])
    assert reasons == ["confidence 0.1 is below 0.3 (not even a fragile inference)", "invented quote", "schema",
                       "schema", "schema"]  # fmt: skip
    assert [e["document"] for e in ex["errors"]] == ["notes.md"]  # not JSON: reported, nothing stored
    notes = next(d.id for d in workspace.facts.documents("nord") if d.origin == "notes.md")
    assert rep["pending"] == [notes]  # its extraction failed: it stays pending

    # the prompt applies seed 003's single test; structured output asks for the schema
    chat = [r for r in ollama_server.posts() if r.path.startswith("/api/chat")]
    guide_req = next(r for r in chat if "Document: guide.md" in last_user_text(r.body))
    prompt = last_user_text(guide_req.body)
    assert "would they produce different work, or be corrected in review?" in prompt
    assert "general knowledge" in prompt and "paraphrase" in prompt
    assert guide_req.body["format"]["properties"]["facts"]["items"]["required"] == [
        "type",
        "statement",
        "quote",
        "confidence",
    ]

    facts = workspace.facts.list("nord")
    good = next(f for f in facts if f.type == "constraint")
    assert good.scope == ("db/migration/**",) and good.tags == ("flyway",) and good.status == "candidate"
    assert good.provenance[0].quote == GOOD["quote"] and good.provenance[0].origin == "guide.md"
    run = workspace.facts.runs(1)[0]
    assert run["kind"] == "extract" and len(run["report"]["dropped"]) == 5

    # an unchanged file does nothing; a changed one is re-extracted alone and consolidates
    before = len(ollama_server.posts())
    code, again, _ = lk(workspace.root, "facts", "ingest", str(docs), "--project", "nord", "--no-extract")
    assert again["new"] == [] and again["changed"] == []
    (docs / "guide.md").write_text(GUIDE + "\nOne more line.\n", encoding="utf-8")
    code, rep2, _ = lk(workspace.root, "facts", "ingest", str(docs), "--project", "nord")
    asked = [last_user_text(r.body) for r in ollama_server.posts()[before:] if r.path.startswith("/api/chat")]
    assert any("Document: guide.md" in p for p in asked)
    assert rep2["extraction"]["kept"] == [] and len(rep2["extraction"]["merged"]) == 2  # same facts: merged
    assert len(workspace.facts.list("nord")) == 2


def test_extraction_is_a_job_with_progress_and_cancel(workspace: Workspace, tmp_path: Path, ollama_server) -> None:
    configure(workspace, ollama_server)
    ollama_server.behaviour.reply = reply
    docs = write_docs(tmp_path, {"guide.md": GUIDE, "b.md": "Use Go 1.22.\n", "c.md": "Use Postgres 16.\n"})
    workspace.facts.ingest(docs, "nord")
    seen: list[Progress] = []
    token = CancelToken()

    def on_progress(p: Progress) -> None:
        seen.append(p)
        if p.done == 1:
            token.cancel()

    with pytest.raises(Cancelled):
        drive(workspace.facts.extract, ("nord",), token=token, on_progress=on_progress)
    assert seen[0].total == 3
    assert workspace.facts.list("nord") == [] and len(workspace.facts.pending("nord")) == 3  # nothing half-stored
    result = drive(workspace.facts.extract, ("nord",), on_progress=seen.append)
    assert result.documents == 3 and seen[-1].done == seen[-1].total == 3


def test_no_model_configured_is_a_clear_error(workspace: Workspace, tmp_path: Path) -> None:
    write_docs(tmp_path)
    workspace.facts.ingest(tmp_path / "docs", "nord")
    code, out, _ = lk(workspace.root, "facts", "extract", "--project", "nord")
    assert code == 4 and out["error"]["code"] == "ERR_LLM_UNAVAILABLE"


def test_a_provider_without_structured_output_gets_the_schema_in_the_prompt(
    workspace: Workspace, tmp_path: Path, anthropic_server, monkeypatch
) -> None:
    workspace.llm.configure(
        LLMSettings(provider="anthropic", model="claude-test", base_url=anthropic_server.url, max_retries=0, timeout=10)
    )
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-env")
    anthropic_server.behaviour.reply = lambda body: "```json\n" + json.dumps({"facts": [GOOD]}) + "\n```"
    write_docs(tmp_path)
    workspace.facts.ingest(tmp_path / "docs", "nord")
    report = drive(workspace.facts.extract, ("nord",))
    assert len(report.kept) == 1 and report.errors == []
    prompt = last_user_text(anthropic_server.posts()[-1].body)
    assert "matching this JSON schema" in prompt and '"required":["facts"]' in prompt
