"""The `lorekeeper` command line. Every command goes through the same services as the app.

Exit codes: 0 success; 1 a check failed (`eval --strict`, `audit verify`); 2 invalid input
(ERR_INVALID_SPEC, bad arguments); 3 not found; 4 unavailable (key, lock, store, model).

Command modules are imported only when their command runs, so `lorekeeper ctx pack` or
`lorekeeper eval --rules` never pay for the store, the models or Qt.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import click

from lorekeeper import __version__

#: command name -> "module:attribute"; one line per command group.
COMMANDS = {
    "init": "lorekeeper.cli.init:init",
    "gui": "lorekeeper.cli.gui:gui",
    "skills": "lorekeeper.cli.skills:skills",
    "eval": "lorekeeper.cli.evals:eval_cmd",
    "route": "lorekeeper.cli.route:route",
    "audit": "lorekeeper.cli.audit:audit",
    "llm": "lorekeeper.cli.llm:llm",
    "prompt": "lorekeeper.cli.prompt:prompt_cmd",
    "learn": "lorekeeper.cli.learn:learn",
    "quality": "lorekeeper.cli.quality:quality",
    "ctx": "lorekeeper.cli.ctx:ctx",
    "nightly": "lorekeeper.cli.improve:nightly",
    "sage": "lorekeeper.cli.improve:sage",
    "proposals": "lorekeeper.cli.improve:proposals",
    "bench": "lorekeeper.cli.improve:bench",
}


class LazyGroup(click.Group):
    """A group whose subcommands are imported on first use (click's documented lazy-loading pattern)."""

    def __init__(self, *args: Any, lazy: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy:
            module, attr = self.lazy[cmd_name].split(":")
            command = getattr(importlib.import_module(module), attr)
            if not isinstance(command, click.Command):  # pragma: no cover - a wiring mistake
                raise TypeError(f"{self.lazy[cmd_name]} is not a click command")
            return command
        return super().get_command(ctx, cmd_name)


@click.group(
    cls=LazyGroup,
    lazy=COMMANDS,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.option(
    "--workspace",
    "workspace_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Workspace folder for every command (default: $LOREKEEPER_WORKSPACE, else the user data folder).",
)
@click.version_option(__version__, prog_name="lorekeeper")
@click.pass_context
def main(ctx: click.Context, workspace_dir: Path | None) -> None:
    """Lorekeeper: skills, evals, learnings and memory for AI coding agents.

    Without a command, opens the desktop app.
    """
    ctx.obj = {"workspace_dir": workspace_dir}
    if ctx.invoked_subcommand is None:
        gui = main.get_command(ctx, "gui")
        assert gui is not None
        ctx.invoke(gui, workspace_dir=workspace_dir, screenshot=None)
