"""`lorekeeper hooks claude-code install|uninstall|user-prompt-submit|stop`.

The two hook commands are what Claude Code runs: they read the hook JSON on stdin and never fail
the agent: any error is logged to `<workspace>/logs/hooks.log`, nothing is printed, exit 0. The
UserPromptSubmit path imports as little as it can (see `lorekeeper.agents.hookctx`).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from lorekeeper import agentwire

# `lorekeeper.cli.common` (and platformdirs behind it) is imported by the install commands only: the
# two hook commands run on every prompt and keep their imports to the standard library and click.
_workspace = click.option(
    "--workspace",
    "workspace_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Workspace folder (default: $LOREKEEPER_WORKSPACE, else the user data folder).",
)
_json = click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")


@click.group("hooks")
def hooks() -> None:
    """Agent hooks: Claude Code's UserPromptSubmit (context) and Stop (evals, quality) hooks."""


@hooks.group("claude-code")
def claude_code() -> None:
    """Claude Code hooks in a project's .claude/settings.json."""


def _root(workspace_dir: Path | None) -> Path:
    ctx = click.get_current_context(silent=True)
    if workspace_dir is None and ctx is not None:
        workspace_dir = (ctx.find_root().obj or {}).get("workspace_dir")
    if workspace_dir is not None:  # what `hooks claude-code install` writes: no platformdirs needed
        return Path(workspace_dir).expanduser().resolve()
    from lorekeeper.locations import resolve_workspace_dir

    return resolve_workspace_dir(None)


#: a hook payload is a prompt and a few paths: far below this (`< /dev/zero` is refused, not read forever)
PAYLOAD_LIMIT = 16 * 1024 * 1024


def _payload() -> dict[str, object]:
    from lorekeeper import safejson
    from lorekeeper.fsutil import read_stream_bytes

    raw = read_stream_bytes(limit=PAYLOAD_LIMIT, what="hook input").decode("utf-8")
    data = safejson.loads(raw or "{}", what="hook input")
    if not isinstance(data, dict):
        raise ValueError("the hook input is not a JSON object")
    return data


#: seconds a hook may take (Claude Code kills it at the 10 s our install sets): as the warm client's wait
BUDGET_ENV = "LOREKEEPER_HOOK_WAIT"
DEFAULT_BUDGET = 8.0


class Budget:
    """The hook's deadline on the cold path (issue 26): past it, the hook answers with what it has
    (no context this turn; for Stop, nothing recorded: its transaction is never committed), exit 0,
    and says so in `<workspace>/logs/hooks.log`, instead of running into Claude Code's timeout.
    `answer()` holds the answer's write against the deadline: an answer being written is finished."""

    def __init__(self, root: Path, event: str) -> None:
        import datetime  # noqa: F401 - imported here, not in the timer thread (the import lock)
        import os
        import threading

        from lorekeeper.fsutil import append_text  # noqa: F401 - likewise

        try:
            self.seconds = float(os.environ.get(BUDGET_ENV, "") or DEFAULT_BUDGET)
        except ValueError:
            self.seconds = DEFAULT_BUDGET
        self.root, self.event = root, event
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        if agentwire.HOOK_DEADLINE:  # the program's own process only (see there)
            self._timer = threading.Timer(max(self.seconds, 0.0), self._expired)
            self._timer.daemon = True
            self._timer.start()

    def _expired(self) -> None:
        import os

        if not self._lock.acquire(blocking=False):
            return  # the answer is being written: it goes out
        from lorekeeper.agents.hooks import log_notice

        log_notice(
            self.root, self.event, f"exceeded its {self.seconds:g} s budget: answered with what it had (nothing)"
        )
        try:
            sys.stdout.flush()
        finally:
            os._exit(0)

    def answer(self, text: str) -> None:
        with self._lock:
            self.cancel()
            if text:
                sys.stdout.write(text)
                sys.stdout.flush()

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()


_project = click.option("--project", default="", help="Project: its skill forks and learnings.")
_story = click.option(
    "--story",
    default="",
    envvar="LOREKEEPER_STORY",
    help="A started story: its memory block joins the context (default: $LOREKEEPER_STORY).",
)
_dir = click.option(
    "--dir",
    "directory",
    type=click.Path(file_okay=False, path_type=Path),
    default=".",
    show_default=True,
    help="The project folder whose .claude/settings.json is changed.",
)


@claude_code.command("install")
@_dir
@click.option("--project", default=None, help="The Lorekeeper project the hooks use (forks, learnings).")
@_workspace
@_json
def install(directory: Path, project: str | None, workspace_dir: Path | None, as_json: bool) -> None:
    """Merge Lorekeeper's UserPromptSubmit and Stop hooks into D/.claude/settings.json (keeps the rest)."""
    from lorekeeper.agents.install import install_hooks, settings_path
    from lorekeeper.cli.common import emit_json, open_workspace

    with open_workspace(workspace_dir) as ws:
        root = ws.root
        if project:
            from lorekeeper.store.scopes import validate_project

            validate_project(project)
    directory = directory.expanduser().resolve()
    data = install_hooks(directory, root, project)
    path = settings_path(directory)
    if as_json:
        emit_json({"path": str(path), "settings": data})
    else:
        click.echo(f"installed the Lorekeeper hooks (UserPromptSubmit, Stop) in {path}")


@claude_code.command("uninstall")
@_dir
@_json
def uninstall(directory: Path, as_json: bool) -> None:
    """Remove Lorekeeper's hooks from D/.claude/settings.json (only ours; the rest stays)."""
    from lorekeeper.agents.install import settings_path, uninstall_hooks
    from lorekeeper.cli.common import emit_json

    directory = directory.expanduser().resolve()
    data, removed = uninstall_hooks(directory)
    if as_json:
        emit_json({"path": str(settings_path(directory)), "removed": removed, "settings": data})
    else:
        click.echo(f"removed {removed} Lorekeeper hook(s) from {settings_path(directory)}")


@claude_code.command("user-prompt-submit")
@_project
@_story
@click.option("--budget", type=click.IntRange(min=200), default=None, help="Characters of context at most.")
@_workspace
def user_prompt_submit(project: str, story: str, budget: int | None, workspace_dir: Path | None) -> None:
    """The UserPromptSubmit hook: hook JSON on stdin; prints SKILLS_HINT, LEARNINGS, ... as additionalContext."""
    root: Path | None = None
    deadline: Budget | None = None
    try:
        root = _root(workspace_dir)
        deadline = Budget(root, "UserPromptSubmit")
        from lorekeeper.agents.hooks import user_prompt_submit as run

        out = run(root, _payload(), project=project, budget=budget, story=story)
    except BaseException as exc:
        if deadline is not None:
            deadline.cancel()
        if isinstance(exc, KeyboardInterrupt):
            raise
        from lorekeeper.agents.hooks import log_failure

        log_failure(root, "UserPromptSubmit", exc)
        return
    deadline.answer(json.dumps(out, ensure_ascii=False) + "\n")


@claude_code.command("stop")
@_project
@_story
@_workspace
def stop(project: str, story: str, workspace_dir: Path | None) -> None:
    """The Stop hook: checks the transcript's last answer with the routed skills' rules (quality events)."""
    root: Path | None = None
    deadline: Budget | None = None
    try:
        root = _root(workspace_dir)
        deadline = Budget(root, "Stop")
        from lorekeeper.agents.hooks import stop as run
        from lorekeeper.workspace import Workspace

        payload = _payload()
        with Workspace.open(root) as ws:
            run(ws, payload, project=project, story=story)
            deadline.answer("")  # recorded: the deadline no longer applies (closing is not cut short)
    except BaseException as exc:
        if deadline is not None:
            deadline.cancel()
        if isinstance(exc, KeyboardInterrupt):
            raise
        from lorekeeper.agents.hooks import log_failure

        log_failure(root, "Stop", exc)
