"""`lorekeeper mcp install`: Claude Code's `.mcp.json` shape, merged without losing other servers."""

from __future__ import annotations

import json

from helpers.cli import run_lorekeeper


def test_prints_and_merges_the_claude_code_configuration(workspace, tmp_path):
    printed = run_lorekeeper("--workspace", str(workspace.root), "mcp", "install", "--client", "claude-code")
    assert printed.returncode == 0, printed.stderr
    entry = json.loads(printed.stdout)["mcpServers"]["lorekeeper"]
    assert entry["type"] == "stdio" and entry["command"]
    assert entry["args"][-3:] == ["--workspace", str(workspace.root), "mcp"]

    (tmp_path / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"memory": {"command": "npx", "args": ["-y", "@acme/memory"]}}}), encoding="utf-8"
    )
    res = run_lorekeeper(
        "--workspace", str(workspace.root), "mcp", "install", "--write", "--dir", str(tmp_path), "--project", "shop"
    )
    assert res.returncode == 0, res.stderr
    written = json.loads((tmp_path / ".mcp.json").read_text(encoding="utf-8"))
    assert written["mcpServers"]["memory"] == {"command": "npx", "args": ["-y", "@acme/memory"]}
    assert written["mcpServers"]["lorekeeper"]["args"][-2:] == ["--project", "shop"]


def test_generic_configuration_and_its_write_target(workspace, tmp_path):
    printed = run_lorekeeper("--workspace", str(workspace.root), "mcp", "install", "--client", "generic")
    entry = json.loads(printed.stdout)["mcpServers"]["lorekeeper"]
    assert "type" not in entry and entry["args"][-1] == "mcp"
    res = run_lorekeeper("--workspace", str(workspace.root), "mcp", "install", "--client", "generic", "--write")
    assert res.returncode == 2 and "--file" in res.stderr
    target = tmp_path / "client.json"
    res = run_lorekeeper(
        "--workspace", str(workspace.root), "mcp", "install", "--client", "generic", "--write", "--file", str(target)
    )
    assert res.returncode == 0, res.stderr
    assert "lorekeeper" in json.loads(target.read_text(encoding="utf-8"))["mcpServers"]
