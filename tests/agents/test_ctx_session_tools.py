"""The MCP tools keep one context session per connection: a second ctx_pack sends deltas, ctx_read
knows what the packs sent, status and hand-off describe the session (AgentTools in-process; the
server's registration of the tools is checked by test_mcp's tool list)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from lorekeeper.agents.tools import AgentTools
from lorekeeper.context import tokens
from lorekeeper.errors import InvalidInputError, NotFoundError


def _tools() -> AgentTools:
    config = SimpleNamespace(get=lambda key, default=None: default)
    return AgentTools(SimpleNamespace(config=config))  # type: ignore[arg-type]


def test_ctx_pack_sends_deltas_within_a_connection(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    for name in ("app", "lib"):
        (src / f"{name}.py").write_text(
            "\n\n".join(f"def {name}_{i}(x: int) -> int:\n    return x + {i}\n" for i in range(12)), encoding="utf-8"
        )
    tools = _tools()
    with pytest.raises(NotFoundError, match="call ctx_pack or ctx_read first"):
        tools.ctx_session_status()
    first = tools.ctx_pack(str(src), mode="full")
    second = tools.ctx_pack(str(src), mode="full")
    assert {k: v for k, v in first.items() if k not in ("text", "seconds")} == {
        k: v for k, v in second.items() if k not in ("text", "seconds")
    }  # the same JSON as `ctx pack --json`: only the text is the session's
    assert "def app_3" in first["text"] and "def app_3" not in second["text"]
    assert "=== app.py [unchanged since turn 1: full]" in second["text"]
    assert tokens.count(second["text"]) < tokens.count(first["text"]) / 3

    whole = next(f["rel"] for f in first["files"] if f["mode"] == "full")
    read = tools.ctx_read(str(src / whole), mode="full")  # the pack sent it whole: one line
    assert read["unchanged"] == [whole] and read["sent_tokens"] < 50
    with pytest.raises(InvalidInputError):
        tools.ctx_read(str(src / "missing.py"))

    tools.ctx_session_note("lib_3 is the one to change", "decision")
    status = tools.ctx_session_status()
    assert status["turn"] == 3 and status["totals"]["saved_tokens"] > 0
    assert {f["path"] for f in status["files"]} == {"app.py", "lib.py"}
    handed = tools.ctx_handoff("tester", budget=200)
    assert handed["tokens"] <= 200 and "lib_3 is the one to change" in handed["text"]
    with pytest.raises(InvalidInputError, match="unknown role"):
        tools.ctx_handoff("intern")

    other = tools.ctx_pack(str(tmp_path), mode="full")  # another folder: its own session, nothing held
    assert "unchanged since" not in other["text"]
