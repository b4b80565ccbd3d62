"""Issue 31 item 1: every MCP tool error starts with a stable code and is one line (bad arguments
are ERR_INVALID_INPUT naming the field, never pydantic's text and web link); a line that is not
JSON-RPC gets the JSON-RPC error reply instead of silence."""

from __future__ import annotations

import json
import subprocess
import sys

import anyio
import pytest

from lorekeeper.workspace import Workspace


def _error_of(ws: Workspace, tool: str, arguments: dict[str, object]) -> str:
    from mcp.server.mcpserver.exceptions import ToolError

    from lorekeeper.agents.mcp_server import build_server

    server = build_server(ws)
    with pytest.raises(ToolError) as err:
        anyio.run(server.call_tool, tool, arguments)
    return str(err.value)


@pytest.mark.parametrize(
    ("tool", "arguments", "field"),
    [
        ("route_skills", {"message": "review this", "top": -1}, "top"),
        ("route_skills", {}, "message"),
        ("memory_search", {"query": "x", "corpus": "everything"}, "corpus"),
        ("route_skills", {"message": "review this", "projct": "citadel"}, "projct"),  # was ignored
    ],
)
def test_bad_arguments_are_err_invalid_input_naming_the_field(
    workspace: Workspace, tool: str, arguments: dict[str, object], field: str
) -> None:
    text = _error_of(workspace, tool, arguments)
    assert text.startswith(f"ERR_INVALID_INPUT: invalid arguments for {tool}: {field}: "), text
    assert "\n" not in text and "http" not in text and "pydantic" not in text


def test_our_own_codes_lead_and_an_unknown_tool_is_not_found(workspace: Workspace) -> None:
    text = _error_of(workspace, "ctx_read", {"path": str(workspace.root / "no-such-file.py")})
    assert text.startswith("ERR_"), text
    assert "Error executing tool" not in text
    assert _error_of(workspace, "no_such_tool", {}).startswith("ERR_NOT_FOUND: ")


def test_a_line_that_is_not_json_rpc_gets_a_parse_error_reply(workspace: Workspace) -> None:
    root = workspace.root
    workspace.close()
    proc = subprocess.Popen(
        [sys.executable, "-m", "lorekeeper", "--workspace", str(root), "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        out, _ = proc.communicate('{"jsonrpc": "2.0", "id": 1, "method": \n{"not": "a message"}\n', timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    replies = [json.loads(line) for line in out.splitlines() if line.strip()]
    assert [r["error"]["code"] for r in replies] == [-32700, -32600]
    assert all(r["id"] is None and r["jsonrpc"] == "2.0" for r in replies)


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("route_skills", {"message": "review this deploy script"}),
        ("build_prompt", {"message": "review this deploy script"}),
        ("facts_pack", {}),
        ("conventions_for_path", {"path": "src/app.py"}),
        ("memory_search", {"query": "deploy"}),
        ("evaluate_response", {"response": "git push origin topic", "skill": "code-review"}),
    ],
)
def test_an_unknown_project_is_err_not_found_as_in_the_cli(
    workspace: Workspace, tool: str, arguments: dict[str, object]
) -> None:
    """It used to be an empty success (no skills, no facts, no hits) the agent took for an answer."""
    text = _error_of(workspace, tool, {**arguments, "project": "no-such-project"})
    assert text.startswith("ERR_NOT_FOUND: no project 'no-such-project'"), text


def test_story_start_may_name_a_new_project_as_story_start_does(workspace: Workspace) -> None:
    from lorekeeper.agents.tools import AgentTools

    workspace.audit.require_key()
    out = AgentTools(workspace).story_start("PD-900", "billing", "brand-new-project")
    assert "PD-900" in json.dumps(out)


def test_a_client_that_closes_stdin_after_its_requests_gets_every_answer(workspace: Workspace) -> None:
    """The SDK's loop cancelled the calls still in flight when the input ended: a client that wrote
    its requests then closed stdin got no answer to them (the calls queued behind a slow one)."""
    root = workspace.root
    workspace.close()
    init = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        *(
            {
                "jsonrpc": "2.0",
                "id": n,
                "method": "tools/call",
                "params": {"name": "build_prompt", "arguments": {"message": f"review this deploy script {n}"}},
            }
            for n in range(2, 14)
        ),
        {"jsonrpc": "2.0", "id": 14, "method": "tools/call", "params": {"name": "route_skills", "arguments": {}}},
    ]
    proc = subprocess.run(
        [sys.executable, "-m", "lorekeeper", "--workspace", str(root), "mcp"],
        input="".join(json.dumps(line) + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=120,
    )
    replies = {r["id"]: r for r in (json.loads(line) for line in proc.stdout.splitlines() if line.strip())}
    assert sorted(replies) == list(range(1, 15)), proc.stderr[-2000:]
    assert all(not replies[n]["result"].get("isError") for n in range(2, 14))
    assert replies[14]["result"]["content"][0]["text"].startswith("ERR_INVALID_INPUT: ")


def test_the_end_of_input_does_not_wait_for_a_request_the_client_cancelled() -> None:
    from mcp_types import JSONRPCNotification, JSONRPCRequest, JSONRPCResponse

    from lorekeeper.agents.mcp_server import _InFlight

    async def main() -> None:
        pending = _InFlight()
        pending.saw_incoming(JSONRPCRequest(jsonrpc="2.0", id=7, method="tools/call", params={}))
        pending.saw_incoming(JSONRPCRequest(jsonrpc="2.0", id=8, method="tools/call", params={}))
        pending.saw_outgoing(JSONRPCResponse(jsonrpc="2.0", id=8, result={}))
        with anyio.move_on_after(0.05) as waited:
            await pending.idle()
        assert waited.cancelled_caught  # 7 is still running
        cancel = {"requestId": 7, "reason": "user"}
        pending.saw_incoming(JSONRPCNotification(jsonrpc="2.0", method="notifications/cancelled", params=cancel))
        with anyio.fail_after(5):
            await pending.idle()

    anyio.run(main)
