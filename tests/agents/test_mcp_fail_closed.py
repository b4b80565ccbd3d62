"""Issue 24 (5), judged from outside on the MCP server (`lorekeeper mcp` over stdio, the official
client SDK): with the key unavailable or the chain broken, every tool that writes (story_start,
record_feedback, evaluate_response recorded, by skill and by message, memory_search with a trace)
answers an error with its stable code, and the database file and every workspace file but the
logs are byte-identical; the read-only tools keep answering."""

from __future__ import annotations

from typing import Any

import pytest
from mcp_helpers import payload, with_session

from helpers.workspaces import cut_last_event, file_hashes

PROJECT = "citadel-v2"
WRITES: list[tuple[str, dict[str, Any]]] = [
    ("story_start", {"story": "PD-950", "domain": "billing", "project": PROJECT}),
    ("record_feedback", {"answer": "{answer}", "positive": False, "reason": "Never force push", "project": PROJECT}),
    ("record_feedback", {"answer": "{answer}", "positive": True, "project": PROJECT}),
    ("evaluate_response", {"response": "An answer.", "skill": "code-review"}),
    ("evaluate_response", {"response": "git push --force", "message": "push my branch", "project": PROJECT}),
]


@pytest.mark.parametrize("mode", ["failing backend", "broken chain"])
def test_every_writing_mcp_tool_fails_closed_and_writes_nothing(demo_workspace, monkeypatch, mode: str) -> None:
    ws = demo_workspace
    prompt = ws.reflect.prepare("please review this pull request before I push", PROJECT)
    answer = ws.reflect.check(prompt, "Looks good. Push it with --force.", model="fake:model").interaction
    root = ws.root
    ws.close()
    if mode == "failing backend":
        monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")  # the server's env
    else:
        cut_last_event(root)
    code = "ERR_AUDIT_KEY_UNAVAILABLE" if mode == "failing backend" else "ERR_AUDIT_CHAIN_BROKEN"
    before = file_hashes(root)

    async def body(session: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for i, (tool, args) in enumerate(WRITES):
            args = {k: (answer if v == "{answer}" else v) for k, v in args.items()}
            result = await session.call_tool(tool, args)
            out[f"{i}:{tool}"] = (result.is_error, result.content[0].text if result.content else "")
        out["route_skills"] = payload(await session.call_tool("route_skills", {"message": "review this diff"}))
        return out

    out = with_session(root, body)
    # story_start names the cause inside its own code (DESIGN: a trace not written is ERR_TRACE_WRITE_FAILED)
    wrong = {
        k: v
        for k, v in out.items()
        if (k != "route_skills" and not (v[0] and (v[1].startswith(code) or v[1].startswith("ERR_TRACE_WRITE_FAILED"))))
        or (k != "route_skills" and code not in v[1])
    }
    assert wrong == {}, wrong
    assert out["route_skills"]  # deterministic: still answers
    after = file_hashes(root)
    assert sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k)) == []
