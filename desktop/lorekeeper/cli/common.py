"""Shared CLI plumbing: the --workspace and --json options, output, and error → exit code mapping."""

from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from lorekeeper import agentwire
from lorekeeper.errors import LorekeeperError
from lorekeeper.locations import ENV_VAR, default_workspace_dir, resolve_workspace_dir

if TYPE_CHECKING:
    from lorekeeper.workspace import Workspace

F = TypeVar("F", bound=Callable[..., Any])
ERROR_LOG = "errors.log"


#: `ctx.meta` key (shared by every context of one invocation): the `--workspace` a command was
#: given after its name, so the end-of-command sweep (`sweep_debris`) looks in that workspace
WORKSPACE_META = "lorekeeper.workspace_dir"


def _remember_workspace(ctx: click.Context, _param: click.Parameter, value: Path | None) -> Path | None:
    if value is not None:
        ctx.meta[WORKSPACE_META] = value
    return value


def workspace_option(f: F) -> F:
    return click.option(
        "--workspace",
        "workspace_dir",
        type=click.Path(file_okay=False, path_type=Path),
        default=None,
        callback=_remember_workspace,
        help=f"Workspace folder (default: ${ENV_VAR}, else the user data folder).",
    )(f)


def json_option(f: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")(f)


def open_workspace(workspace_dir: Path | None) -> Workspace:
    """Open the chosen workspace. The default location is created on first use (starter skills)."""
    from lorekeeper.workspace import Workspace

    ctx = click.get_current_context(silent=True)
    if workspace_dir is None and ctx is not None:
        workspace_dir = (ctx.find_root().obj or {}).get("workspace_dir")
    path = resolve_workspace_dir(workspace_dir)
    if not (path / "lorekeeper.toml").exists() and path == default_workspace_dir():
        ws = Workspace.init(path)
    else:
        ws = Workspace.open(path)
    if ctx is not None:
        try:
            check_project(ws, ctx)
        except BaseException:
            ws.close()
            raise
    return ws


#: the commands whose `--project` may name a new project: they write its first row
CREATES_PROJECT = frozenset(
    {
        "skills import",
        "skills fork",
        "skills generate",
        "market install",
        "facts ingest",
        "facts add",
        "facts settings",
        "learn add",
        "learn import",
        "clarify",
        "story start",
        # an agent is often set up for a project before anything is written for it: the agent's
        # configuration and its runtime (the MCP server) see the global library until then
        "hooks claude-code install",
        "mcp",
        "mcp install",
    }
)


def check_project(ws: Workspace, ctx: click.Context) -> None:
    """ERR_NOT_FOUND when a command that only reads a project names one the store does not know
    (issue 31: `--project nosuch` was an empty success); the commands of CREATES_PROJECT are exempt."""
    project = ctx.params.get("project")
    if not isinstance(project, str) or not project:
        return
    names: list[str] = []
    node: click.Context | None = ctx
    while node is not None and node.parent is not None:  # the root's name is the program's
        names.insert(0, node.info_name or "")
        node = node.parent
    if " ".join(names) in CREATES_PROJECT:
        return
    from lorekeeper.store.projects import require_project

    with ws.store.session() as s:
        require_project(s, project)


def same_operator(recorded: str | None, wanted: str) -> bool:
    """`--by NAME` (issue 25 d2): the recorded operator is NAME, case and spaces aside."""
    return (recorded or "").strip().casefold() == wanted.strip().casefold()


def emit_json(data: Any) -> None:
    """The `--json` result: indented for a terminal; on one line (the same keys and values, the
    default `", "` and `": "` separators) when stdout is a pipe or a file, which lets the C
    encoder write it (issue 26: `indent` forces the pure-Python encoder, 4 s of CPU for
    `facts list --json` at 10,000 facts)."""
    click.echo(json.dumps(data, ensure_ascii=False, indent=2 if _stdout_is_tty() else None))


def emit_json_items(key: str, items: Sequence[Any]) -> None:
    """`emit_json({key: [item.to_dict() for item in items]})` for items that keep their own
    `json_text` (`json.dumps(item.to_dict(), ensure_ascii=False)`, cached): on a pipe or a file the
    texts are joined with the separators `json.dumps` uses, the same bytes without encoding them
    again; on a terminal, indented as `emit_json` does."""
    if _stdout_is_tty():
        emit_json({key: [item.to_dict() for item in items]})
        return
    click.echo("{" + json.dumps(key, ensure_ascii=False) + ": [" + ", ".join(item.json_text for item in items) + "]}")


def _stdout_is_tty() -> bool:
    if agentwire.CLIENT_TTY is not None:  # a call the agent service runs: the client's stdout
        return agentwire.CLIENT_TTY
    try:
        return bool(sys.stdout.isatty())  # what click.echo writes to
    except (AttributeError, ValueError, OSError):  # closed or replaced by a stream without isatty
        return False


def error_log_path(workspace_dir: Path | None = None) -> Path:
    """`<workspace>/logs/errors.log`; the user's state folder's when no workspace is open."""
    ctx = click.get_current_context(silent=True)
    if workspace_dir is None and ctx is not None:
        workspace_dir = (ctx.find_root().obj or {}).get("workspace_dir")
    try:
        root = resolve_workspace_dir(workspace_dir)
        if (root / "lorekeeper.toml").is_file():
            return root / "logs" / ERROR_LOG
    except OSError:
        pass
    from lorekeeper.errorlog import state_log_dir

    return state_log_dir() / ERROR_LOG


def _append_traceback(path: Path, exc: BaseException) -> Path:
    import traceback

    from lorekeeper import errorlog

    return errorlog.write_or_fallback(
        path,
        f"lorekeeper {' '.join(sys.argv[1:])[:500]}",
        "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)),
    )


#: the exit status of a command whose standard output was closed by its reader (`... | head`):
#: 128 + SIGPIPE, what the shell reports for `yes | head` and git for the same case
EXIT_CLOSED_STDOUT = 141


def flush_stdout() -> None:
    """Flush stdout now, so a reader that went away raises BrokenPipeError here (handled) rather
    than at interpreter exit (a traceback and exit 120). A stdout already closed is left alone."""
    with contextlib.suppress(ValueError):
        sys.stdout.flush()


def sweep_debris(workspace_dir: Path | None) -> None:
    """At the end of every command, also those that open no workspace (`ctx`, `route` without a
    store...): the temp files a killed `skills import` left in the workspace's `skills/` export."""
    try:
        root = resolve_workspace_dir(workspace_dir)
        if not (root / "lorekeeper.toml").is_file():
            return
        from lorekeeper.skills.debris import sweep

        sweep(root / "skills")
    except (OSError, LorekeeperError):
        pass  # never the reason a command fails; `lorekeeper repair` lists what is left


def closed_stdout() -> NoReturn:
    """End quietly when stdout's reader went away: what is still buffered goes to /dev/null (so
    the interpreter's exit flush cannot fail again), no traceback, no error log, exit 141."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, sys.stdout.fileno())
        finally:
            os.close(devnull)
    except (OSError, ValueError, io.UnsupportedOperation):
        pass  # not a real file descriptor (an in-process runner): nothing is left to flush
    sys.exit(EXIT_CLOSED_STDOUT)


def fail(exc: LorekeeperError, as_json: bool) -> NoReturn:
    """`error: CODE: message` on stderr (and the error object on stdout with --json), then exit."""
    if as_json:
        with contextlib.suppress(BrokenPipeError):  # the reader is gone; stderr still gets the message
            click.echo(json.dumps({"error": exc.to_dict()}, ensure_ascii=False, indent=2))
    click.echo(f"error: {exc}", err=True)
    sys.exit(exc.exit_code)


def fail_unexpected(exc: BaseException, as_json: bool, workspace_dir: Path | None = None) -> NoReturn:
    """Any other exception: a busy store is ERR_STORE_BUSY (exit 4); everything else is ERR_INTERNAL
    (exit 5), one line on stderr naming the log file that holds the traceback."""
    from lorekeeper.errors import EXIT_INTERNAL

    if isinstance(exc, BrokenPipeError):
        closed_stdout()  # not an error of the command: its reader went away (`... | head`)
    if type(exc).__module__.startswith("sqlalchemy"):
        from lorekeeper.store.engine import StoreBusyError, is_lock_error

        if is_lock_error(exc):
            fail(
                StoreBusyError(
                    "the store is busy: another process holds its write lock. Run the command again in a "
                    "moment, or raise [store] busy_timeout in lorekeeper.toml."
                ),
                as_json,
            )
    if type(exc).__module__.startswith(("sqlalchemy", "sqlite3")):
        from lorekeeper.store.engine import is_damage_error

        if is_damage_error(exc):  # met mid-command (a page read): the same advice as at open
            fail(_damaged(exc, workspace_dir), as_json)
    log = _append_traceback(error_log_path(workspace_dir), exc)
    err = LorekeeperError(
        f"unexpected error ({type(exc).__name__}: {str(exc)[:200]}). The details are in {log}; "
        "please report them with the command you ran.",
        code="ERR_INTERNAL",
        log=str(log),
    )
    if as_json:
        click.echo(json.dumps({"error": err.to_dict()}, ensure_ascii=False, indent=2))
    click.echo(f"error: {err.code}: {err.message}".replace("\n", " "), err=True)
    sys.exit(EXIT_INTERNAL)


def _damaged(exc: BaseException, workspace_dir: Path | None) -> LorekeeperError:
    from lorekeeper.store.backup import damaged_advice
    from lorekeeper.store.engine import StoreDamagedError

    ctx = click.get_current_context(silent=True)
    if workspace_dir is None and ctx is not None:
        workspace_dir = (ctx.find_root().obj or {}).get("workspace_dir")
    root = resolve_workspace_dir(workspace_dir)
    db: Path | None = root / "lorekeeper.db"
    try:
        from lorekeeper.config import CONFIG_NAME, Config
        from lorekeeper.store.engine import resolve_url, sqlite_file

        url = str(Config.load(root / CONFIG_NAME).get("store.url", "sqlite:///lorekeeper.db"))
        db = sqlite_file(resolve_url(url, root))
    except LorekeeperError:
        pass
    advice, details = damaged_advice(root, db)
    reason = str(getattr(exc, "orig", None) or exc).splitlines()[0][:200]
    return StoreDamagedError(f"the store is damaged ({reason}). {advice}", **details)


#: exceptions that are not errors of the command: click's own flow, exits, Ctrl-C
PASS_THROUGH: tuple[type[BaseException], ...] = (
    click.exceptions.ClickException,
    click.exceptions.Abort,
    click.exceptions.Exit,
    SystemExit,
    KeyboardInterrupt,
    GeneratorExit,
)


def handle_errors(f: F) -> F:
    """A LorekeeperError becomes `error: CODE: message` on stderr (JSON on stdout with --json) and
    its exit code; any other exception is ERR_INTERNAL, exit 5, its traceback in the error log."""

    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return f(*args, **kwargs)
        except PASS_THROUGH:
            raise
        except LorekeeperError as exc:
            fail(exc, bool(kwargs.get("as_json")))
        except Exception as exc:  # noqa: BLE001 - the catch-all: mapped, logged, never a traceback
            fail_unexpected(exc, bool(kwargs.get("as_json")), kwargs.get("workspace_dir"))

    return wrapper  # type: ignore[return-value]
