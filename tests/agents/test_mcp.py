"""`lorekeeper mcp` over stdio with the official MCP client SDK: the tools, their schemas, results
equal to the CLI's, stable error codes, freshness after another process's change, signed writes.

One server process per test (its start-up is the cost), several calls each."""

from __future__ import annotations

import json

from mcp_helpers import payload, with_session

from helpers.cli import run_lorekeeper

TOOLS = {
    "route_skills",
    "build_prompt",
    "evaluate_response",
    "record_feedback",
    "ctx_pack",
    "facts_pack",
    "conventions_for_path",
    "memory_search",
    "story_start",
    # the connection's context session (issue 16)
    "ctx_read",
    "ctx_session_status",
    "ctx_session_note",
    "ctx_handoff",
}


def cli_json(ws, *args, input=None):
    res = run_lorekeeper("--workspace", str(ws.root), *args, "--json", input=input)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def test_tools_match_the_cli_and_see_other_processes_changes(demo_workspace, tmp_path):
    ws = demo_workspace
    message = "Review this code for XSS vulnerabilities"
    new_skill = tmp_path / "lib" / "xss-hunter"
    new_skill.mkdir(parents=True)
    (new_skill / "SKILL.md").write_text(
        "---\nname: xss-hunter\ndescription: Finds XSS sinks.\nmetadata:\n"
        '  triggers: "review"\n  keywords: "XSS, sinks"\n---\n# XSS hunter\n',
        encoding="utf-8",
    )
    src = tmp_path / "src"
    src.mkdir()
    body_lines = [
        f'def step_{i}(value: int) -> int:\n    """Step {i} of the pipeline."""\n    return value + {i}\n'
        for i in range(40)
    ]
    (src / "app.py").write_text("\n\n".join(body_lines), encoding="utf-8")

    cli_route = cli_json(ws, "route", message)
    cli_prompt = cli_json(ws, "prompt", message, "--project", "citadel-v2")
    cli_eval = cli_json(ws, "eval", "--skill", "git-manager", "--response", "-", input="git push --force origin main")

    async def body(session):
        listed = await session.list_tools()
        tools = {t.name: t for t in listed.tools}
        route_before = payload(await session.call_tool("route_skills", {"message": message}))
        prompt = payload(await session.call_tool("build_prompt", {"message": message, "project": "citadel-v2"}))
        evaluated = payload(
            await session.call_tool(
                "evaluate_response", {"response": "git push --force origin main", "skill": "git-manager"}
            )
        )
        missing = await session.call_tool("evaluate_response", {"response": "x", "skill": "no-such-skill"})
        bad_type = await session.call_tool("route_skills", {"message": 42})
        # another process imports a skill while the server runs
        res = run_lorekeeper("--workspace", str(ws.root), "skills", "import", str(new_skill.parent))
        assert res.returncode == 0, res.stderr
        route_after = payload(await session.call_tool("route_skills", {"message": message}))
        packed = payload(await session.call_tool("ctx_pack", {"path": str(src), "budget": 2000}))
        return tools, route_before, prompt, evaluated, missing, bad_type, route_after, packed

    tools, route_before, prompt, evaluated, missing, bad_type, route_after, packed = with_session(ws.root, body)

    assert set(tools) == TOOLS
    schema = tools["route_skills"].input_schema
    assert schema["required"] == ["message"]
    assert schema["properties"]["message"]["type"] == "string"
    assert tools["ctx_pack"].input_schema["properties"]["mode"]["enum"] == ["auto", "full", "map", "signatures"]
    assert set(tools["record_feedback"].input_schema["required"]) == {"answer", "positive"}

    assert route_before == cli_route
    assert prompt == cli_prompt
    assert "LEARNINGS" in prompt["prompt"]
    assert evaluated == cli_eval
    assert evaluated["passed"] is False and "No force push" in evaluated["footnote"]

    assert missing.is_error and "ERR_NOT_FOUND" in missing.content[0].text
    assert bad_type.is_error  # the typed schema refuses a number for `message`

    assert "xss-hunter" not in [s["name"] for s in route_before["skills"]]
    assert "xss-hunter" in [s["name"] for s in route_after["skills"]]  # fresh without a restart
    assert packed["text"] and packed["output_tokens"] <= 2000
    cli_pack = cli_json(ws, "ctx", "pack", str(src), "--budget", "2000")
    assert {k: v for k, v in packed.items() if k not in ("text", "seconds")} == {
        k: v for k, v in cli_pack.items() if k not in ("text", "seconds")
    }


def test_an_evaluated_answer_gets_signed_feedback_like_the_cli(demo_workspace):
    ws = demo_workspace
    ws.audit.require_key()
    cli_pack = cli_json(ws, "facts", "pack", "--project", "citadel-v2")
    cli_conv = cli_json(ws, "facts", "conventions", "deploy/release.sh", "--project", "citadel-v2")
    cli_search = cli_json(ws, "memory", "search", "vitest browser mode", "--corpus", "notes", "--top", "3")
    cli_story = cli_json(ws, "story", "start", "PD-251", "--domain", "erp", "--project", "citadel-v2")

    async def body(session):
        facts = payload(await session.call_tool("facts_pack", {"project": "citadel-v2"}))
        conventions = payload(
            await session.call_tool("conventions_for_path", {"path": "deploy/release.sh", "project": "citadel-v2"})
        )
        no_project = await session.call_tool("facts_pack", {})
        found = payload(await session.call_tool("memory_search", {"query": "vitest browser mode", "top": 3}))
        story = payload(
            await session.call_tool("story_start", {"story": "PD-252", "domain": "erp", "project": "citadel-v2"})
        )
        bad_story = await session.call_tool(
            "story_start", {"story": "no spaces allowed", "domain": "erp", "project": "p"}
        )
        checked = payload(
            await session.call_tool(
                "evaluate_response",
                {"response": "Run git push --force now.", "message": "how do I push my rebased git branch"},
            )
        )
        down = payload(
            await session.call_tool(
                "record_feedback",
                {"answer": checked["interaction"], "positive": False, "reason": "Use --force-with-lease"},
            )
        )
        return checked, down, facts, conventions, no_project, found, story, bad_story

    checked, down, facts, conventions, no_project, found, story, bad_story = with_session(ws.root, body)
    assert facts == cli_pack and facts["facts"]
    assert conventions == cli_conv
    assert no_project.is_error and "ERR_INVALID_INPUT" in no_project.content[0].text
    assert found == cli_search and found["results"]
    same = json.loads(json.dumps(story).replace("PD-252", "PD-251"))
    # the same injection as the CLI's (each start counts one more injection of its learnings)
    assert {k: v for k, v in same.items() if k not in ("trace", "learnings")} == {
        k: v for k, v in cli_story.items() if k not in ("trace", "learnings")
    }
    assert [(x["id"], x["rule"]) for x in story["learnings"]] == [(x["id"], x["rule"]) for x in cli_story["learnings"]]
    assert story["story"] == "PD-252" and story["trace"] and story["block"]
    assert bad_story.is_error and "ERR_" in bad_story.content[0].text
    assert checked["skills"] and checked["footnote"].startswith("Eval: ⚠️")
    assert down["positive"] is False and down["learning"]["rule"] == "Use --force-with-lease"
    assert down["interaction"] == checked["interaction"]
    # the same services as the CLI: the learning is in the next prompt, the feedback is signed
    assert "Use --force-with-lease" in cli_json(ws, "prompt", "push my branch")["learnings"]["block"]
    verify = run_lorekeeper("--workspace", str(ws.root), "audit", "verify", "--json")
    assert verify.returncode == 0, verify.stdout + verify.stderr
    log = "".join(p.read_text(encoding="utf-8") for p in sorted((ws.root / "sessions").glob("*.jsonl")))
    assert checked["interaction"] in log and "answer_feedback" in log
