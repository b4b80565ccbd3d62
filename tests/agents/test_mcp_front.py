"""`lorekeeper mcp` answers `initialize` before it imports the MCP SDK (issue 26): a real `mcp` SDK
client session over stdio initialises while the server cannot import the SDK yet, then lists the
tools and calls one, as a session of a server that started the slow way does."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import anyio
from mcp_helpers import ROOT, payload

GATE = '''
import os, sys, time

class _Gate:
    """Holds `import mcp` until the test opens the gate (the file named by MCP_TEST_GATE)."""

    def find_spec(self, name, path=None, target=None):
        if name == "mcp":
            deadline = time.monotonic() + 60
            while not os.path.exists(os.environ["MCP_TEST_GATE"]) and time.monotonic() < deadline:
                time.sleep(0.02)
        return None

sys.meta_path.insert(0, _Gate())
'''


def _session(workspace: Path, env: dict[str, str], gate: Path | None) -> dict[str, Any]:
    """One server, one client session: what `initialize` said, the tools, a route_skills call.
    `gate`: opened only once `initialize` has answered."""
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(
        command=sys.executable, args=["-m", "lorekeeper", "--workspace", str(workspace), "mcp"], env=env
    )

    async def main() -> dict[str, Any]:
        with open(os.devnull, "w") as errlog:
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                with anyio.fail_after(30):  # a server that imports the SDK first waits for the gate: 60 s
                    init = await session.initialize()
                if gate is not None:
                    gate.touch()
                with anyio.fail_after(120):
                    tools = await session.list_tools()
                    routed = await session.call_tool("route_skills", {"message": "Review this code for XSS"})
        return {
            "init": json.loads(init.model_dump_json(by_alias=True, exclude_unset=True)),
            "tools": sorted(t.name for t in tools.tools),
            "routed": payload(routed),
        }

    return anyio.run(main)


def test_initialize_answers_before_the_sdk_is_imported_and_the_session_works(demo_workspace, tmp_path):
    hooks = tmp_path / "gate"
    hooks.mkdir()
    (hooks / "sitecustomize.py").write_text(GATE)
    gate = tmp_path / "open"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(hooks), str(ROOT / "desktop")])
    env["MCP_TEST_GATE"] = str(gate)

    gate.touch()  # the first start imports everything (nothing cached yet) and keeps its answer
    slow = _session(demo_workspace.root, env, None)
    assert slow["init"]["serverInfo"]["name"] == "lorekeeper"
    assert "route_skills" in slow["tools"]
    assert slow["routed"]["skills"], slow["routed"]

    gate.unlink()  # the next start cannot import the SDK until its initialize has been answered
    fast = _session(demo_workspace.root, env, gate)
    assert fast["init"] == slow["init"]
    assert fast["tools"] == slow["tools"]
    assert fast["routed"] == slow["routed"]
