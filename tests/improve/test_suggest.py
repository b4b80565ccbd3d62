"""`skills suggest NAME`: router words proposed from the description, approved like any proposal."""

from __future__ import annotations

import json

import pytest

from helpers.cli import run_lorekeeper
from lorekeeper.errors import InvalidInputError
from lorekeeper.improve.suggest import extract_terms, with_router_words

POSTMORTEM = (
    "---\n"
    "name: postmortem-writing\n"
    "description: Write blameless postmortems with root cause analysis, timelines and action items. Use when\n"
    '  conducting incident reviews or writing a "postmortem document".\n'
    "license: MIT\n"
    "---\n"
    "\n# Postmortems\n\nKeep it blameless.\n"
)


@pytest.fixture
def pm_ws(ws, tmp_path):
    folder = tmp_path / "src" / "postmortem-writing"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(POSTMORTEM, encoding="utf-8")
    ws.skills.import_path(folder.parent)
    return ws


def _cli(ws, *args):
    return run_lorekeeper(*args, "--workspace", str(ws.root), "--json")


def test_extraction_is_deterministic_and_keeps_every_other_byte() -> None:
    triggers, keywords = extract_terms(
        "postmortem-writing", 'Write blameless postmortems with root cause analysis. Say "postmortem document".'
    )
    assert triggers == ("postmortem writing", "postmortem", "postmortem document")
    assert "blameless" in keywords and "write" not in keywords and "postmortems" not in keywords
    crlf = POSTMORTEM.replace("\n", "\r\n")
    out = with_router_words(crlf, ("a b",), ("c",))
    assert out.replace('metadata:\r\n  triggers: "a b"\r\n  keywords: "c"\r\n', "") == crlf
    nested = POSTMORTEM.replace("license: MIT\n", "metadata:\n    author: x\n")
    assert '    triggers: "a b"\n' in with_router_words(nested, ("a b",), ())


def test_suggest_without_a_model_queues_a_proposal_that_approve_applies(pm_ws) -> None:
    r = _cli(pm_ws, "route", "please write the postmortem")
    assert [s.get("via") for s in json.loads(r.stdout)["skills"] if s["name"] == "postmortem-writing"] == [
        "description"
    ]
    r = _cli(pm_ws, "skills", "suggest", "postmortem-writing")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["model"] is None and "postmortem" in out["triggers"] and out["proposal"]
    assert pm_ws.skills.get("postmortem-writing").version == 1  # nothing applied before approval
    p = pm_ws.improve.proposals.get(out["proposal"])
    assert p.source == "suggest" and p.status == "pending"
    r = _cli(pm_ws, "proposals", "approve", str(out["proposal"]))
    assert r.returncode == 0, r.stderr
    cur = pm_ws.skills.get("postmortem-writing")
    assert cur.version == 2 and cur.content.endswith("\n# Postmortems\n\nKeep it blameless.\n")
    # now routed by the seed rule: an integer score, no `via`
    r = json.loads(_cli(pm_ws, "route", "please write the postmortem").stdout)
    mine = next(s for s in r["skills"] if s["name"] == "postmortem-writing")
    assert "via" not in mine and mine["score"] >= 2 and "postmortem" in mine["triggers"]
    # a skill with router words gets no suggestion
    r = _cli(pm_ws, "skills", "suggest", "postmortem-writing")
    assert r.returncode == 2 and "already declares router words" in r.stderr
    with pytest.raises(InvalidInputError):
        pm_ws.improve.suggest.suggest("code-review")


def test_suggest_with_the_configured_model(pm_ws, anthropic_server, monkeypatch) -> None:
    from lorekeeper.llm.base import LLMSettings

    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-env")
    pm_ws.llm.configure(
        LLMSettings(provider="anthropic", base_url=anthropic_server.url, model="claude-test", max_retries=0, timeout=10)
    )
    anthropic_server.behaviour.reply = lambda body: (
        "TRIGGERS: write a postmortem, incident review, RCA\nKEYWORDS: blameless, timeline, outage"
    )
    sug = pm_ws.improve.suggest.suggest("postmortem-writing")
    assert sug.triggers == ("write a postmortem", "incident review", "RCA")
    assert sug.keywords == ("blameless", "timeline", "outage")
    assert sug.model == "anthropic:claude-test" and sug.proposal is not None
    asked = anthropic_server.requests[-1].body["messages"][-1]["content"]
    assert "postmortem-writing" in str(asked) and "Write blameless postmortems" in str(asked)
    # a second suggestion while one is pending is refused, naming it
    r = _cli(pm_ws, "skills", "suggest", "postmortem-writing", "--no-model")
    assert r.returncode == 2 and f"#{sug.proposal.id}" in r.stderr
    # an answer without the two lines stores nothing
    pm_ws.improve.proposals.reject(sug.proposal.id, why="test")
    anthropic_server.behaviour.reply = lambda body: "Sure! Here are some ideas."
    r = _cli(pm_ws, "skills", "suggest", "postmortem-writing")
    assert r.returncode != 0 and "ERR_MODEL_ANSWER_INVALID" in r.stderr
    assert pm_ws.improve.proposals.list("pending") == []
