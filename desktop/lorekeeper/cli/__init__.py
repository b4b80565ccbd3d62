"""The `lorekeeper` command line. Every command goes through the same services as the app.

Exit codes: 0 success; 1 a check failed (`eval --strict`, `audit verify`); 2 invalid input
(ERR_INVALID_SPEC, bad arguments); 3 not found; 4 unavailable (key, lock, store, model,
ERR_STORE_BUSY); 5 an unexpected error (ERR_INTERNAL, the traceback in `<workspace>/logs/errors.log`).
`LazyGroup.invoke` maps errors for every command, decorated with `handle_errors` or not.

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
    "feedback": "lorekeeper.cli.feedback:feedback",
    "fixit": "lorekeeper.cli.feedback:fixit",
    "ctx": "lorekeeper.cli.ctx:ctx",
    "nightly": "lorekeeper.cli.improve:nightly",
    "sage": "lorekeeper.cli.improve:sage",
    "proposals": "lorekeeper.cli.improve:proposals",
    "bench": "lorekeeper.cli.improve:bench",
    "repair": "lorekeeper.cli.repair:repair",
    "schedule": "lorekeeper.cli.schedule:schedule",
    "desktop": "lorekeeper.cli.desktop:desktop",
    "market": "lorekeeper.cli.market:market",
    "mcp": "lorekeeper.cli.mcp:mcp",
    "hooks": "lorekeeper.cli.hooks:hooks",
    "plugin": "lorekeeper.cli.plugin:plugin",  # issue 26: a Claude Code plugin
    "agentd": "lorekeeper.cli.agentd:agentd",  # issue 26: the resident agent service
    "ask": "lorekeeper.cli.ask:ask",
    # living memory (issue 12)
    "memory": "lorekeeper.cli.memory:memory",
    "story": "lorekeeper.cli.story:story",
    "clarify": "lorekeeper.cli.clarify:clarify",
    "morning": "lorekeeper.cli.morning:morning",
    "measure": "lorekeeper.cli.measure:measure",
    "privacy": "lorekeeper.cli.privacy:privacy",
    "purge": "lorekeeper.cli.purge:purge",
    "facts": "lorekeeper.cli.facts:facts",
    # backups and recovery (issue 23)
    "backup": "lorekeeper.cli.backup:backup",
    "workspace": "lorekeeper.cli.workspace_cmd:workspace",  # issue 25: adopt-copy
    "restore": "lorekeeper.cli.backup:restore",
}

#: command name -> its one-line help, so `lorekeeper --help` lists the commands without importing
#: them (importing all of them took over a second). tests/cli/test_help_summaries.py keeps each
#: line equal to the command's own short help.
SUMMARIES = {
    "audit": "The signed audit chain: key, session log, verification, rotation.",
    "bench": "A/B benchmarks: current vs proposed content, evals (60%) + a two-order LLM judge (40%).",
    "ctx": "Compress code context for an agent: pack a tree, read a file, inspect the graph.",
    "eval": "Check a response against deterministic eval rules and print the footnote.",
    "feedback": "Thumbs up or down on an answer (the Playground's buttons): quality feedback, signed.",
    "fixit": "Fix It for ANSWER: the correction becomes a learning (source fixit); --reask sends the fix request.",
    "gui": "Open the desktop app.",
    "init": "Create a workspace in DIRECTORY (config, store, starter skills).",
    "learn": "Learnings: rules from corrections that every next prompt carries.",
    "llm": "The model provider: anthropic, ollama, claude-cli or none.",
    "nightly": "Find underperforming skills and write one template proposal per skill (no model needed).",
    "prompt": "Print the assembled prompt for MESSAGE: SKILLS_HINT, LEARNINGS, then the message.",
    "proposals": "The review queue: list, show, approve, reject, undo (decisions are signed audit events).",
    "quality": "Skill health: applied count, success rate, feedback; underperformers marked (worst first).",
    "route": "Rank the skills for MESSAGE and print the SKILLS_HINT block.",
    "sage": "Sage: model-written skill improvements, benchmarked before review.",
    "skills": "The skill library: global skills and project forks, every version kept.",
    "repair": "Rewrite what is missing or out of date in the workspace's derived files (safe to run any time).",
    "schedule": "The daily scheduled run of a workspace (nightly analysis, retention purge, backup).",
    "desktop": "Desktop integration: the menu entry, metainfo and icons in the user's data folders.",
    "market": "Marketplaces: add skill sources, search them, see a skill's fit for a project, install or fork.",
    "mcp": "The MCP server on stdio: skills, prompt, evals, feedback, context, facts and memory tools.",
    "hooks": "Agent hooks: Claude Code's UserPromptSubmit (context) and Stop (evals, quality) hooks.",
    "plugin": "Claude Code plugin: hooks, MCP server and skills in one package a team installs from a marketplace.",
    "agentd": "The resident agent service: hooks, route, prompt, eval, ctx read, facts list and pack answered warm.",
    "ask": "Answer QUESTION from the knowledge (skills, learnings, documents, facts) with numbered citations.",
    "memory": "Living memory: research notes, clarification summaries and learnings, indexed and searched.",
    "story": "Stories: the memory injected at their start, promotion and eviction when they close.",
    "clarify": "Summarise STORY's clarification (4 answers on stdin) without personal data, validate, keep.",
    "morning": "The 3 most reused learnings, one line each: - [story] [tags] score=<reuse score, 4 decimals>.",
    "measure": "Memory success measures CS-1..CS-4 over 30, 60 or 90 days (defined in the README).",
    "privacy": "Privacy: the PII gate that clarification summaries must pass.",
    "purge": "GDPR purge: erase a story from every artefact (--story S --force) or by retention (--retention).",
    "facts": "Typed facts from documentation: ingest, extract, review, arbitrate, pack.",
    "workspace": "The workspace itself: adopt a copied folder as a workspace of its own.",
    "backup": "An online copy of the store and its signed log, under backups/ (or DEST); --list shows them.",
    "restore": "Put BACKUP back (the current database is renamed aside, never overwritten); close the app first.",
}


def _json_usage_error(exc: click.UsageError, as_json: bool) -> None:
    """With --json, a usage error (unknown option, missing argument, bad value) is also the JSON
    error object on stdout, like every other error; click still prints its usage text on stderr
    and exits 2."""
    if not as_json:
        return
    import json

    error = {"code": "ERR_INVALID_INPUT", "message": exc.format_message()}
    if exc.ctx is not None:
        error["command"] = exc.ctx.command_path
    click.echo(json.dumps({"error": error}, ensure_ascii=False, indent=2))


def _sweep_after_parse(ctx: click.Context) -> None:
    """The end-of-command sweep for what ends while the group's own arguments are parsed (eager
    options, usage errors): its `--workspace` may not be parsed yet, so it is read from the args."""
    from lorekeeper.locations import resolve_workspace_dir
    from lorekeeper.skills.debris import sweep  # not cli.common: `--help` imports no command module

    args: list[str] = ctx.meta.get("lorekeeper.args", [])
    workspace: str | None = None
    for i, arg in enumerate(args):
        if arg == "--workspace" and i + 1 < len(args):
            workspace = args[i + 1]
        elif arg.startswith("--workspace="):
            workspace = arg.partition("=")[2]
    try:
        root = resolve_workspace_dir(workspace)
        if (root / "lorekeeper.toml").is_file():
            sweep(root / "skills")
    except Exception:  # noqa: BLE001 - never the reason `--help` fails; `lorekeeper repair` sweeps too
        pass


class LazyGroup(click.Group):
    """A group whose subcommands are imported on first use (click's documented lazy-loading pattern)."""

    def __init__(self, *args: Any, lazy: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta["lorekeeper.args"] = list(args)  # the catch-all below needs to know about --json
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            _json_usage_error(exc, "--json" in ctx.meta["lorekeeper.args"])  # click consumed `args`
            _sweep_after_parse(ctx)
            raise
        except click.exceptions.Exit:
            _sweep_after_parse(ctx)  # `--version`, `--help`: no command runs, the sweep still does
            raise
        except BrokenPipeError:
            # `lorekeeper --help | head`: the eager options print while the arguments are parsed,
            # before `invoke`; click itself would end with exit 1 (issue 23 d5)
            from lorekeeper.cli.common import closed_stdout

            closed_stdout()

    def invoke(self, ctx: click.Context) -> object:
        """Every command's errors mapped: stable codes and exit codes, never a traceback."""
        from lorekeeper.cli.common import (
            PASS_THROUGH,
            WORKSPACE_META,
            closed_stdout,
            fail,
            fail_unexpected,
            flush_stdout,
            sweep_debris,
        )
        from lorekeeper.errors import LorekeeperError

        as_json = "--json" in ctx.meta.get("lorekeeper.args", [])
        try:
            try:
                return super().invoke(ctx)
            except click.UsageError as exc:
                _json_usage_error(exc, as_json)
                raise
            except PASS_THROUGH:
                raise
            except BrokenPipeError:
                raise
            except LorekeeperError as exc:
                fail(exc, as_json)
            except Exception as exc:  # noqa: BLE001 - the catch-all: ERR_INTERNAL, exit 5, traceback logged
                fail_unexpected(exc, as_json)
            finally:
                # a killed export's temp files (issue 31), in the workspace the command was given
                sweep_debris(ctx.meta.get(WORKSPACE_META) or ctx.params.get("workspace_dir"))
                flush_stdout()  # a closed pipe surfaces here, not as a traceback at interpreter exit
        except BrokenPipeError:
            closed_stdout()  # `lorekeeper ... | head`: the reader is gone, end quietly

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

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """click's listing, with the lazy commands' lines taken from `SUMMARIES` (no import)."""
        rows: list[tuple[str, str]] = []
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(n) for n in names)
        for name in names:
            if name in self.lazy and name in SUMMARIES:
                rows.append((name, click.Command(name, help=SUMMARIES[name]).get_short_help_str(limit)))
                continue
            cmd = self.get_command(ctx, name)
            if cmd is not None and not cmd.hidden:
                rows.append((name, cmd.get_short_help_str(limit)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


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
