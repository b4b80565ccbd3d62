"""`lorekeeper --help` lists every command without importing the command modules."""

from __future__ import annotations

import subprocess
import sys

import click

from lorekeeper.cli import COMMANDS, SUMMARIES, main


def test_every_summary_is_the_commands_own_short_help() -> None:
    ctx = click.Context(main)
    assert set(SUMMARIES) == set(COMMANDS)
    for name in COMMANDS:
        command = main.get_command(ctx, name)
        assert command is not None
        assert SUMMARIES[name] == command.get_short_help_str(limit=10_000), name


def test_help_lists_the_commands_without_importing_them() -> None:
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from lorekeeper.cli import main\n"
        "out = CliRunner().invoke(main, ['--help']).output\n"
        "print(out)\n"
        "print(sorted(m for m in sys.modules if m.startswith('lorekeeper.cli.')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60).stdout
    help_text, modules = out.rsplit("\n", 2)[0], out.rsplit("\n", 2)[1]
    for name in COMMANDS:
        assert f"  {name} " in help_text
    assert "Compress code context for an agent" in help_text
    assert modules == "[]"
