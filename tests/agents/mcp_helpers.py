"""Drive `lorekeeper mcp` over stdio with the official MCP client SDK (one server per call)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio

ROOT = Path(__file__).resolve().parents[2]


def server_params(workspace: Path, *extra: str) -> Any:
    from mcp.client.stdio import StdioServerParameters

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "desktop"), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return StdioServerParameters(
        command=sys.executable, args=["-m", "lorekeeper", "--workspace", str(workspace), "mcp", *extra], env=env
    )


def with_session(workspace: Path, body: Callable[[Any], Awaitable[Any]], *extra: str) -> Any:
    """Start the server, initialise a client session, run `body(session)`, close everything."""
    from mcp.client.session import ClientSession
    from mcp.client.stdio import stdio_client

    async def main() -> Any:
        with open(os.devnull, "w") as errlog:
            async with (
                stdio_client(server_params(workspace, *extra), errlog=errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                with anyio.fail_after(120):
                    return await body(session)

    return anyio.run(main)


def payload(result: Any) -> Any:
    """A tool result's JSON: the structured content, else the text content parsed."""
    assert not result.is_error, result.content[0].text
    if result.structured_content is not None:
        data = result.structured_content
        return data.get("result", data) if isinstance(data, dict) and set(data) == {"result"} else data
    return json.loads(result.content[0].text)
