"""Claude Code hooks: UserPromptSubmit adds Lorekeeper's context, Stop checks the answer.

- `user_prompt_submit(payload)`: the hook JSON (`prompt`, `cwd`, `session_id`, ...) in, the
  output object `{"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext":
  ...}}` out: SKILLS_HINT for the prompt, the LEARNINGS block and the other context blocks within
  the character budget (see `hookctx` for the fast path).
- `stop(payload)`: reads the transcript (`transcript_path`), checks the last answer with the rules
  of the skills routed for the prompt that asked it (`ReflectLoop.check`, eval runs of source
  "claude-code") and records the quality events, so the nightly loop sees real agent sessions.

A failing hook never blocks the agent: the CLI wrapper catches everything, prints nothing, exits 0
and appends the error to `<workspace>/logs/hooks.log`.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lorekeeper.agents import hookctx

if TYPE_CHECKING:
    from lorekeeper.workspace import Workspace

EVENT_PROMPT = "UserPromptSubmit"
EVENT_STOP = "Stop"
SOURCE = "claude-code"
HOOK_LOG = "hooks.log"


def budget_of(config_value: object) -> int:
    try:
        n = int(str(config_value))
    except ValueError:
        return hookctx.DEFAULT_BUDGET
    return max(200, n)


def build_snapshot(ws: Workspace, project: str, story: str = "") -> hookctx.Snapshot:
    """What the hook's context depends on, read through the services (the slow path)."""
    from lorekeeper.store.scopes import validate_project

    proj = validate_project(project or None)
    revision = ws.store.revision()  # read first: a change racing with the reads below invalidates it
    skills = list(ws.skills.routable(proj or None))
    learnings = ws.learnings.block(proj or None).text
    blocks = [(name, block) for name, block in static_blocks(ws, proj, story) if block]
    return hookctx.Snapshot(
        revision=revision,
        config_mtime=hookctx.config_mtime(ws.root),
        project=proj,
        story=story,
        top=int(ws.config.get("router.top", hookctx.DEFAULT_TOP)),
        budget=budget_of(ws.config.get("hooks.budget", hookctx.DEFAULT_BUDGET)),
        skills=skills,
        learnings=learnings,
        blocks=blocks,
    )


def static_blocks(ws: Workspace, project: str, story: str = "") -> list[tuple[str, str]]:
    """The prompt injectors' blocks, which depend on the project and the story, not on the message:
    FACTS (the project's pack) and, for a started story, its memory block. The same builder as
    `lorekeeper prompt`, so the hook's blocks are the prompt's."""
    from lorekeeper.errors import LorekeeperError

    try:
        return list(ws.prompts.build(STATIC_PROBE, project or None, story=story or None).blocks)
    except LorekeeperError as exc:
        if not story:
            raise
        # an unknown or unstarted story: the context goes on without its memory, and says why in the log
        log_failure(ws.root, f"UserPromptSubmit (story {story} left out)", exc)
        return list(ws.prompts.build(STATIC_PROBE, project or None).blocks)


STATIC_PROBE = "."  # the message the static blocks are built for (they do not read it)


def prompt_context(
    root: Path, project: str, prompt: str, *, budget: int | None = None, story: str = ""
) -> hookctx.HookContext:
    """The fast path when the snapshot is still valid; else open the workspace and rebuild it."""
    ctx = hookctx.fast_context(root, project, prompt, budget=budget, story=story)
    if ctx is not None:
        return ctx
    from lorekeeper.workspace import Workspace

    with Workspace.open(root) as ws:
        snap = build_snapshot(ws, project, story)
    with contextlib.suppress(OSError):  # the answer stands; the next prompt takes the slow path again
        hookctx.save_snapshot(root, snap)
    return hookctx.compose(snap, prompt, budget=budget, fast=False)


def user_prompt_submit(
    root: Path, payload: dict[str, Any], *, project: str = "", budget: int | None = None, story: str = ""
) -> dict[str, Any]:
    prompt = payload.get("prompt")
    if not isinstance(prompt, str):
        raise ValueError("the UserPromptSubmit input has no `prompt` string")
    ctx = prompt_context(root, project, prompt, budget=budget, story=story)
    return {"hookSpecificOutput": {"hookEventName": EVENT_PROMPT, "additionalContext": ctx.text}}


def stop(ws: Workspace, payload: dict[str, Any], *, project: str = "", story: str = "") -> dict[str, Any] | None:
    """Check the last answer of the transcript and record the quality events; None when the
    transcript holds no answer (or this Stop continues one a Stop hook already checked)."""
    from lorekeeper.agents.transcript import Turn, last_turn

    if payload.get("stop_hook_active"):
        return None
    path = payload.get("transcript_path")
    turn = last_turn(Path(str(path)).expanduser()) if isinstance(path, str) and path else None
    last = payload.get("last_assistant_message")
    if isinstance(last, str) and last.strip() and turn is not None:
        turn = Turn(turn.prompt, last)
    if turn is None:
        return None
    prompt = ws.prompts.build(turn.prompt, project or None, story=story or None)
    answer = ws.reflect.check(prompt, turn.answer, model=SOURCE, source=SOURCE)
    out = answer.to_dict()
    out.pop("answer", None)
    out["session"] = payload.get("session_id")
    return out


def log_failure(root: Path | None, event: str, exc: BaseException) -> None:
    """Append the failure to `<workspace>/logs/hooks.log` (the temp folder's without a workspace)."""
    import datetime
    import tempfile
    import traceback

    entry = f"---- {datetime.datetime.now(datetime.UTC).isoformat()} {event}\n" + "".join(
        traceback.format_exception(type(exc), exc, exc.__traceback__)
    )
    targets = [root / "logs" / HOOK_LOG] if root is not None else []
    targets.append(Path(tempfile.gettempdir()) / "lorekeeper-hooks.log")
    for target in targets:
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "a", encoding="utf-8") as fh:
                fh.write(entry)
            return
        except OSError:
            continue
