"""Issue 31 item 2: `--json` everywhere. Every command a script calls takes `--json` (the
protocol servers and hooks speak their own JSON on stdout, the app has no output); `skills diff`,
`learn export`, `llm set-key|delete-key` and `audit set-secret` did not."""

from __future__ import annotations

import json

import click

from helpers.cli import run_lorekeeper
from lorekeeper.cli import COMMANDS, main
from lorekeeper.workspace import Workspace

#: stdout is a protocol (MCP, the hooks' JSON, the agent service) or there is none (the app)
NO_JSON = {"mcp", "agentd serve", "hooks claude-code stop", "hooks claude-code user-prompt-submit", "gui"}


def test_every_command_takes_json_but_the_protocol_ones() -> None:
    ctx = click.Context(main)
    stack: list[tuple[str, click.Command]] = [(n, c) for n in COMMANDS if (c := main.get_command(ctx, n))]
    lacking = []
    while stack:
        path, command = stack.pop()
        if isinstance(command, click.Group):
            stack.extend((f"{path} {n}", c) for n, c in command.commands.items())
            if not command.invoke_without_command:
                continue
        options = {o for p in command.params for o in getattr(p, "opts", [])}
        if "--json" not in options and path not in NO_JSON:
            lacking.append(path)
    assert not lacking, f"without --json: {sorted(lacking)}"


def test_skills_diff_learn_export_and_delete_key_print_json(workspace: Workspace) -> None:
    root = str(workspace.root)
    r = run_lorekeeper("--workspace", root, "skills", "versions", "code-review", "--json")
    assert r.returncode == 0, r.stderr
    r = run_lorekeeper("--workspace", root, "skills", "diff", "code-review", "1", "1", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"name": "code-review", "project": None, "a": 1, "b": 1, "diff": ""}
    run_lorekeeper("--workspace", root, "learn", "add", "Pin every base image by digest")
    r = run_lorekeeper("--workspace", root, "learn", "export", "--json")
    assert r.returncode == 0, r.stderr
    assert "Pin every base image by digest" in json.loads(r.stdout)["markdown"]
    r = run_lorekeeper("--workspace", root, "llm", "delete-key", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"provider": "anthropic", "removed": False}
