"""The `lorekeeper` command line. Every command goes through the same services as the app.

Exit codes: 0 success; 1 a check failed (`eval --strict`); 2 invalid input (ERR_INVALID_SPEC,
bad arguments); 3 not found; 4 unavailable (key, lock, store, model).
"""

from __future__ import annotations

from pathlib import Path

import click

from lorekeeper import __version__
from lorekeeper.cli import audit as _audit
from lorekeeper.cli import ctx as _ctx
from lorekeeper.cli import evals as _evals
from lorekeeper.cli import gui as _gui
from lorekeeper.cli import improve as _improve
from lorekeeper.cli import init as _init
from lorekeeper.cli import learn as _learn
from lorekeeper.cli import llm as _llm
from lorekeeper.cli import prompt as _prompt
from lorekeeper.cli import quality as _quality
from lorekeeper.cli import route as _route
from lorekeeper.cli import skills as _skills


@click.group(invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
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
        ctx.invoke(_gui.gui, workspace_dir=workspace_dir, screenshot=None)


main.add_command(_init.init)
main.add_command(_gui.gui)
main.add_command(_skills.skills)
main.add_command(_evals.eval_cmd)
main.add_command(_route.route)
main.add_command(_audit.audit)
main.add_command(_llm.llm)
main.add_command(_prompt.prompt_cmd)
main.add_command(_learn.learn)
main.add_command(_quality.quality)
main.add_command(_ctx.ctx)
for _cmd in _improve.COMMANDS:  # nightly, sage, proposals, bench (issue 6)
    main.add_command(_cmd)
