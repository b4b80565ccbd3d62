"""Issue 31 item 3: one word for a decision's reason. Every command that takes a reason takes
`--reason` (the documented one) and `--why` as the same option: `proposals reject` took only
`--why`, `facts reject` and `feedback down` only `--reason`, `audit acknowledge|tombstone` only
`--reason`."""

from __future__ import annotations

import json

import click

from helpers.cli import run_lorekeeper
from lorekeeper.cli import COMMANDS, main
from lorekeeper.workspace import Workspace


def _commands() -> list[tuple[str, click.Command]]:
    out: list[tuple[str, click.Command]] = []
    ctx = click.Context(main)
    stack: list[tuple[str, click.Command]] = []
    for name in COMMANDS:
        command = main.get_command(ctx, name)
        assert command is not None
        stack.append((name, command))
    while stack:
        path, command = stack.pop()
        out.append((path, command))
        if isinstance(command, click.Group):
            stack.extend((f"{path} {n}", c) for n, c in command.commands.items())
    return out


def test_every_reason_taking_command_takes_both_words_as_one_option() -> None:
    reason_taking = []
    for path, command in _commands():
        for param in command.params:
            names = set(getattr(param, "opts", [])) | set(getattr(param, "secondary_opts", []))
            if names & {"--reason", "--why"}:
                reason_taking.append(path)
                assert {"--reason", "--why"} <= names, f"{path}: {sorted(names)}"
    for path in ("proposals reject", "facts reject", "feedback down", "audit acknowledge", "audit tombstone"):
        assert path in reason_taking


def test_feedback_down_and_audit_acknowledge_take_why(workspace: Workspace) -> None:
    root = str(workspace.root)
    prompt = workspace.reflect.prepare("please review this pull request before I push", None)
    workspace.reflect.check(prompt, "Publish it with git push --force.", model="fake:model")
    r = run_lorekeeper("--workspace", root, "feedback", "down", "last", "--why", "Never force push", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["learning"]["rule"] == "Never force push"
    r = run_lorekeeper("--workspace", root, "audit", "acknowledge", "--why", "checked the edit", "--json")
    assert r.returncode == 0, r.stderr
