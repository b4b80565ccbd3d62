"""`skills optimise NAME` (issue 27 d3): description and router-word edits from the model, scored on
the skill's own trigger cases with a held-out split, filed as a proposal for review."""

from __future__ import annotations

import json

import pytest

from helpers.cli import run_lorekeeper
from lorekeeper.improve.optimise import split_cases, with_candidate
from lorekeeper.skills.triggers import TriggerCase

VAGUE = (
    "---\n"
    "name: office-helper\n"
    "description: Helps with office\n"
    "  work of many kinds.\n"
    "license: MIT\n"
    "---\n"
    "\n# Spreadsheets\n\nPrefer XLOOKUP over VLOOKUP.\n"
)
CASES = [
    TriggerCase("Write an Excel formula to sum column B when column A says paid", True),
    TriggerCase("Fix my VLOOKUP that returns #N/A", True),
    TriggerCase("Build a pivot table of sales by region in the spreadsheet", True),
    TriggerCase("Convert this XLSX to CSV keeping the formulas", True),
    TriggerCase("My Google Sheets SUMIF gives the wrong total", True),
    TriggerCase("Make a spreadsheet chart of monthly revenue", True),
    TriggerCase("Review my PR before I merge it", False),
    TriggerCase("Draft the release notes for version 2.4", False),
    TriggerCase("Deploy the API to production with a canary", False),
    TriggerCase("Add unit tests for the invoice parser", False),
]
RUNBOOK_CASES = [
    TriggerCase("The payments service is down, we need the on-call runbook", True),
    TriggerCase("Errors are spiking in production after the deploy, it is an outage", True),
    TriggerCase("Make a spreadsheet chart of monthly revenue", False),
]
GOOD = {
    "description": "Write and fix spreadsheet formulas in Excel and Google Sheets (SUMIF, VLOOKUP, XLOOKUP), "
    "pivot tables, charts, XLSX and CSV conversion. Use when the user works on a spreadsheet or workbook.",
    "triggers": ["spreadsheet", "excel formula", "pivot table", "google sheets"],
    "keywords": ["vlookup", "sumif", "xlsx", "excel", "workbook"],
}
# as good on its own cases, but it takes the runbook's query (the router's first, with --top 1)
GREEDY = {
    **GOOD,
    "triggers": [*GOOD["triggers"], "payments service", "service is down", "on-call runbook", "we need the"],
}


@pytest.fixture
def sheet_ws(ws, tmp_path, anthropic_server, monkeypatch):
    from lorekeeper.llm.base import LLMSettings

    folder = tmp_path / "src" / "office-helper"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(VAGUE, encoding="utf-8")
    ws.skills.import_path(folder.parent)
    ws.skills.set_trigger_cases("office-helper", None, CASES)
    ws.skills.set_trigger_cases("incident-runbook", None, RUNBOOK_CASES)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-env")
    ws.llm.configure(
        LLMSettings(provider="anthropic", base_url=anthropic_server.url, model="claude-test", max_retries=0, timeout=10)
    )
    return ws


def _cli(ws, *args):
    return run_lorekeeper(*args, "--workspace", str(ws.root), "--json")


def _scores(ws) -> dict[str, dict]:
    r = _cli(ws, "skills", "trigger-eval")
    assert r.returncode == 0, r.stderr
    return {s["name"]: s for s in json.loads(r.stdout)["skills"]}


def test_optimise_files_a_proposal_whose_approval_improves_the_trigger_eval(sheet_ws, anthropic_server) -> None:
    anthropic_server.behaviour.reply = lambda body: "Here you are:\n" + json.dumps({"candidates": [GOOD]})
    before = _scores(sheet_ws)
    assert before["office-helper"]["recall"] == 0.0  # the vague description: none of its cases
    v_before = sheet_ws.skills.get("office-helper").version

    r = _cli(sheet_ws, "skills", "optimise", "office-helper")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["split"]["held_out"] == 4 and out["split"]["train"] == 6  # 40 %, stratified
    assert out["before"]["recall"] < 1.0 and out["after"] == {"precision": 1.0, "recall": 1.0}
    assert out["proposal"] and out["model"] == "anthropic:claude-test"
    # the held-out queries never reach the model
    _train, held = split_cases(CASES, 0.4, 0)
    prompts = "\n".join(anthropic_server.prompts())
    assert held and not any(c.query in prompts for c in held)
    assert "Helps with office work of many kinds." in prompts

    p = sheet_ws.improve.proposals.get(out["proposal"])
    assert p.source == "optimiser" and p.status == "pending"
    assert p.metrics["optimiser"]["held_out"]["after"] == {"precision": 1.0, "recall": 1.0}
    assert sheet_ws.skills.get("office-helper").version == v_before  # nothing applied yet
    from lorekeeper.ui.panels.proposals import card_html

    card = card_html(p)
    assert "Held-out trigger cases" in card and "100%" in card
    shown = run_lorekeeper("proposals", "show", str(p.id), "--workspace", str(sheet_ws.root)).stdout
    assert "Held-out trigger cases: 4 cases: precision n/a → 100%, recall 0% → 100%" in shown

    # only the front matter changes: the body is byte for byte the same
    assert p.proposed_content.endswith("\n---\n\n# Spreadsheets\n\nPrefer XLOOKUP over VLOOKUP.\n")
    assert "license: MIT\n" in p.proposed_content

    r = _cli(sheet_ws, "proposals", "approve", str(out["proposal"]))
    assert r.returncode == 0, r.stderr
    after = _scores(sheet_ws)
    assert after["office-helper"]["recall"] == 1.0 and after["office-helper"]["precision"] == 1.0
    for name, sc in before.items():
        if name != "office-helper":
            assert after[name]["recall"] >= sc["recall"] and (after[name]["precision"] or 0) >= (sc["precision"] or 0)
    cur = sheet_ws.skills.get("office-helper")
    assert "triggers.json" in [f.path for f in cur.files]  # the cases stay with the skill


def test_a_candidate_that_breaks_another_skills_case_is_never_proposed(sheet_ws, anthropic_server) -> None:
    anthropic_server.behaviour.reply = lambda body: json.dumps({"candidates": [GREEDY]})
    r = _cli(sheet_ws, "skills", "optimise", "office-helper", "--top", "1", "--rounds", "1")
    assert r.returncode == 1, r.stderr
    out = json.loads(r.stdout)
    assert out["proposal"] is None and out["after"] is None
    assert out["candidates"][0]["verdict"].startswith("breaks 1 case(s) of other skills (incident-runbook")
    assert sheet_ws.improve.proposals.list("pending") == []
    # offered beside the good one, the greedy one (first, as good on the train part) is passed over
    anthropic_server.behaviour.reply = lambda body: json.dumps({"candidates": [GREEDY, GOOD]})
    out = json.loads(_cli(sheet_ws, "skills", "optimise", "office-helper", "--top", "1").stdout)
    assert out["proposal"] and out["proposed"]["triggers"] == GOOD["triggers"]


def test_without_a_model_optimise_says_so(ws, tmp_path) -> None:
    folder = tmp_path / "src" / "office-helper"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(VAGUE, encoding="utf-8")
    ws.skills.import_path(folder.parent)
    ws.skills.set_trigger_cases("office-helper", None, CASES)
    r = _cli(ws, "skills", "optimise", "office-helper")
    assert r.returncode == 4 and "ERR_LLM_UNAVAILABLE" in r.stderr and "needs a model" in r.stderr
    r = _cli(ws, "skills", "optimise", "code-review")
    assert r.returncode == 3 and "no trigger cases" in r.stderr


def test_the_split_is_seeded_and_stratified_and_the_edit_keeps_other_lines() -> None:
    train, held = split_cases(CASES, 0.4, 7)
    assert (train, held) == split_cases(list(CASES), 0.4, 7)
    assert sum(c.should_trigger for c in held) == 2 and sum(not c.should_trigger for c in held) == 2
    assert split_cases(CASES, 0.4, 8) != (train, held)
    out = with_candidate(
        VAGUE.replace("license: MIT\n", 'metadata:\n  author: me\n  triggers: "x"\n'), "New d.", ("a b",), ()
    )
    assert out.startswith(
        '---\nname: office-helper\ndescription: "New d."\nmetadata:\n  triggers: "a b"\n  author: me\n---\n'
    )


def test_the_models_answer_may_be_json_tags_or_labelled_lines() -> None:
    from lorekeeper.improve.judge import ModelAnswerError
    from lorekeeper.improve.optimise import parse_candidates

    assert parse_candidates('```json\n[{"description": "D", "triggers": "a, b"}]\n```') == [
        {"description": "D", "triggers": "a, b"}
    ]
    assert parse_candidates("Sure.\n<new_description>Write\n sheets.</new_description>") == [
        {"description": "Write sheets."}
    ]
    assert parse_candidates("DESCRIPTION: Write sheets.\nTRIGGERS: excel formula, pivot table\n") == [
        {"description": "Write sheets.", "triggers": "excel formula, pivot table"}
    ]
    with pytest.raises(ModelAnswerError):
        parse_candidates("I cannot help with that.")


def test_a_folded_description_stays_folded_and_reads_back_the_same() -> None:
    from lorekeeper.skills.spec import parse_skill_md

    folded = "---\nname: x-y\ndescription: >-\n  Old words\n  over two lines.\nlicense: MIT\n---\nBody\n"
    new = "Write and fix spreadsheet formulas: SUMIF, VLOOKUP and #REF! errors, " * 3 + "Use when asked."
    out = with_candidate(folded, new, (), ())
    assert out.startswith("---\nname: x-y\ndescription: >-\n  Write") and out.endswith("license: MIT\n---\nBody\n")
    assert parse_skill_md(out, file="x").description == " ".join(new.split())
