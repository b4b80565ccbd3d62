"""`lorekeeper skills generate --goal G`: the (local fake) model writes a rulebook skill from the
cited passages; it arrives as a pending proposal, benchmarked like Sage's, and approving it
creates the skill with its eval rules."""

from __future__ import annotations

import json

from helpers.cli import run_lorekeeper
from helpers.fake_llm import last_user_text

GENERATED = """NAME: citadel-deploy
REASON: makes the agent deploy Citadel the way the runbook says
<<<SKILL
---
name: citadel-deploy
description: Deploy Citadel v2 releases following the team's runbook.
metadata:
  triggers: "deploy citadel, citadel release"
  keywords: "citadel, runbook, cron"
---
# Citadel deployment rulebook

- Run the deploy scripts as the `citadel` user; never add sudo [1][2].
- Disable the stock cron jobs before a stock-related upgrade [2].
SKILL>>>
<<<EVALS
{"version": 1, "skill": "citadel-deploy", "rules": [
  {"id": "cd-001", "name": "No sudo", "type": "string_not_contains", "value": "sudo", "severity": "warning"}
]}
EVALS>>>
"""


def scripted(body: dict) -> str:
    text = last_user_text(body)
    system = body.get("system") or ""
    if isinstance(system, list):
        system = "".join(p.get("text", "") for p in system)
    if text.startswith("You are the skill generator"):
        return GENERATED
    if text.startswith("Write "):
        return json.dumps(["Deploy Citadel 2.3 to production", "Ship the stock module upgrade"])
    if text.startswith("You are an impartial judge"):
        a = text.split("Response A:", 2)[-1].split("Response B:")[0]
        good_in_a = "sudo" not in a
        return json.dumps({"score_a": 9 if good_in_a else 3, "score_b": 3 if good_in_a else 9, "reason": "sudo"})
    if "Citadel deployment rulebook" in system:
        return "Run ./deploy.sh as the citadel user."
    return "Run sudo ./deploy.sh."


def test_a_generated_skill_is_a_benchmarked_proposal_that_creates_the_skill(model_ws):
    ws = model_ws
    ws.server.behaviour.reply = scripted
    res = run_lorekeeper(
        "--workspace",
        str(ws.root),
        "skills",
        "generate",
        "--goal",
        "how to deploy citadel",
        "--scenarios",
        "2",
        "--json",
    )
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    proposal = out["proposal"]
    assert out["skill"] == "citadel-deploy" and proposal["status"] == "pending" and proposal["source"] == "generator"
    assert out["cited"] == [1, 2]
    assert out["passages"][0]["document"].startswith("sources/citadel-v2-")
    prompt = last_user_text(ws.server.posts()[0].body)
    assert "how to deploy citadel" in prompt and out["passages"][0]["text"] in prompt
    assert out["evals"]["rules"][0]["id"] == "cd-001"
    # benchmarked like Sage's: no skill (old) against the generated one (new), on its rules
    assert out["benchmark"]["verdict"] == "PASSED", out["benchmark"]
    assert not ws.skills.exists("citadel-deploy")

    ws.audit.require_key()
    approved = run_lorekeeper("--workspace", str(ws.root), "proposals", "approve", str(proposal["id"]), "--json")
    assert approved.returncode == 0, approved.stderr + approved.stdout
    skill = ws.skills.get("citadel-deploy")
    assert "never add sudo [1][2]" in skill.content
    assert [r.id for r in skill.rules().rules] == ["cd-001"]
    assert (ws.root / "skills" / "citadel-deploy" / "citadel-deploy.evals.json").is_file()
    routed = json.loads(run_lorekeeper("--workspace", str(ws.root), "route", "deploy citadel now", "--json").stdout)
    assert routed["skills"][0]["name"] == "citadel-deploy"


def test_an_invalid_answer_or_an_existing_name_stores_nothing(model_ws):
    ws = model_ws
    before = ws.improve.proposals.counts()
    ws.server.behaviour.reply = lambda body: "Here is a skill: be careful."
    res = run_lorekeeper("--workspace", str(ws.root), "skills", "generate", "--goal", "deploy citadel", "--no-bench")
    assert res.returncode != 0 and "ERR_MODEL_ANSWER_INVALID" in res.stderr
    ws.server.behaviour.reply = lambda body: GENERATED.replace("citadel-deploy", "git-manager")
    res = run_lorekeeper("--workspace", str(ws.root), "skills", "generate", "--goal", "deploy citadel", "--no-bench")
    assert res.returncode == 2 and "already exists" in res.stderr
    assert ws.improve.proposals.counts() == before


def test_without_a_model_the_generator_says_why(demo_workspace):
    res = run_lorekeeper("--workspace", str(demo_workspace.root), "skills", "generate", "--goal", "deploy citadel")
    assert res.returncode == 4 and "ERR_LLM_UNAVAILABLE" in res.stderr
