"""Issue 28 d6: the README's command table names every top-level command of the CLI."""

from __future__ import annotations

import re
from pathlib import Path

import click

from lorekeeper.cli import main

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_command_table_lists_every_command() -> None:
    text = README.read_text(encoding="utf-8")
    start = text.index("| command | what it does |")
    table = text[start : text.index("\n\n", start)]
    listed = set(re.findall(r"`lorekeeper ([a-z][a-z-]*)", table))
    ctx = click.Context(main)
    commands = {n for n in main.list_commands(ctx) if not (c := main.get_command(ctx, n)) or not c.hidden}
    assert {"facts", "purge", "story"} <= commands
    missing = sorted(commands - listed)
    assert not missing, f"commands missing from the README's command table: {missing}"
