"""`lorekeeper ask`: BM25 passages with exact line ranges, cited answers from the (local fake)
model, "no answer in the knowledge", and the ranked passages without a model."""

from __future__ import annotations

import json

from helpers.cli import run_lorekeeper
from helpers.fake_llm import last_user_text


def ask(ws, *args):
    res = run_lorekeeper("--workspace", str(ws.root), "ask", *args, "--json")
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def test_without_a_model_the_ranked_passages_cite_exact_lines(demo_workspace):
    ws = demo_workspace
    out = ask(ws, "Vitest browser mode for storefront components")
    assert out["answered"] is False and out["model"] is None
    assert "no model is ready" in out["note"]
    top = out["passages"][0]
    assert top["document"] == "sources/research-2026-11-vitest-browser-mode.md" and top["n"] == 1
    lines = (ws.root / top["document"]).read_text(encoding="utf-8").split("\n")
    start, end = top["lines"]
    assert "\n".join(lines[start - 1 : end]) == top["text"]  # the passage is exactly those lines
    scores = [p["score"] for p in out["passages"]]
    assert scores == sorted(scores, reverse=True)


def test_skills_and_learnings_are_searched_too(demo_workspace):
    ws = demo_workspace
    ws.learnings.add("Never force-push a shared branch; use --force-with-lease", project=None, source="fixit")
    out = ask(ws, "force push a shared branch", "--no-model")
    corpora = {p["corpus"] for p in out["passages"]}
    assert {"learnings", "skills"} <= corpora
    skill = next(p for p in out["passages"] if p["corpus"] == "skills")
    content = ws.skills.get(skill["document"].split("/")[1]).content.split("\n")
    assert "\n".join(content[skill["lines"][0] - 1 : skill["lines"][1]]) == skill["text"]


def test_nothing_relevant_is_no_answer_in_the_knowledge(model_ws):
    out = ask(model_ws, "What is the capital of France?")
    assert out == {**out, "answered": False, "answer": "no answer in the knowledge", "passages": []}
    assert model_ws.server.requests == []  # the model is not asked when nothing matches


def test_the_model_answers_with_numbered_citations(model_ws):
    model_ws.server.behaviour.reply = lambda body: (
        "Keep jsdom as the default and run browser mode as a second project [1][2]."
        if "Question: Should we move storefront tests to Vitest browser mode?" in last_user_text(body)
        else "NO_ANSWER"
    )
    out = ask(model_ws, "Should we move storefront tests to Vitest browser mode?")
    assert out["answered"] is True and out["model"] == "anthropic:claude-test"
    assert out["answer"].startswith("Keep jsdom")
    assert [c["n"] for c in out["citations"]] == [1, 2]
    assert out["citations"][0] == out["passages"][0]
    prompt = last_user_text(model_ws.server.posts()[-1].body)
    first = out["passages"][0]
    assert f"[1] {first['document']} lines {first['lines'][0]}-{first['lines'][1]}\n{first['text']}" in prompt

    model_ws.server.behaviour.reply = lambda body: "NO_ANSWER"
    out = ask(model_ws, "Should we move storefront tests to Vitest browser mode?")
    assert out["answered"] is False and out["answer"] == "no answer in the knowledge"
    assert out["passages"]  # the passages it looked at are still shown


def test_facts_are_cited_by_the_lines_that_hold_their_quote(demo_workspace):
    ws = demo_workspace
    ws.audit.require_key()  # fact rows are signed: without the key they are never a source
    out = ask(
        ws,
        "disable the cron jobs touching stock before an upgrade",
        "--project",
        "citadel-v2",
        "--no-model",
        "--top",
        "12",
    )
    facts = [p for p in out["passages"] if p["corpus"] == "facts"]
    assert facts, [p["document"] for p in out["passages"]]
    fact = facts[0]
    assert fact["document"].startswith("sources/")  # named like the documents corpus names it
    text = (ws.root / fact["document"]).read_text(encoding="utf-8").split("\n")
    assert "\n".join(text[fact["lines"][0] - 1 : fact["lines"][1]]) == fact["text"]
    assert fact["title"].split(":", 1)[0] in ws.facts.types()
    # a conflicting fact (the Friday deploys) is never a source
    friday = ask(ws, "We deploy on Friday evenings", "--project", "citadel-v2", "--no-model", "--top", "20")
    assert not [p for p in friday["passages"] if p["corpus"] == "facts" and "Friday evenings" in p["text"]]
