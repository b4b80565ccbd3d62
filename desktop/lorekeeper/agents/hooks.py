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
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lorekeeper.agents import hookctx
from lorekeeper.fsutil import read_regular_raw

if TYPE_CHECKING:
    from lorekeeper.prompt import AssembledPrompt
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
    """What the hook's context depends on, read through the services (the slow path): the same
    builder as `lorekeeper prompt`, so the hook's blocks and notices are the prompt's."""
    from lorekeeper.store.scopes import validate_project

    proj = validate_project(project or None)
    revision = ws.store.revision()  # read first: a change racing with the reads below invalidates it
    assembled = static_prompt(ws, proj, story)  # starts the key session when the key can be loaded
    # issue 24: then only skills whose row and current version verify are routed (as `prompt`)
    skills = list(ws.skills.routable(proj or None, verified=True))
    return hookctx.Snapshot(
        revision=revision,
        config_mtime=hookctx.config_mtime(ws.root),
        project=proj,
        story=story,
        top=int(ws.config.get("router.top", hookctx.DEFAULT_TOP)),
        budget=budget_of(ws.config.get("hooks.budget", hookctx.DEFAULT_BUDGET)),
        skills=skills,
        learnings=assembled.learnings.text,
        blocks=[(name, block) for name, block in assembled.blocks if block],
        workspace_id=ws.audit.workspace_id,
        key_env=hookctx.key_env(),
        notices=list(assembled.notices),
    )


def static_prompt(ws: Workspace, project: str, story: str = "") -> AssembledPrompt:
    """The prompt injectors' blocks, which depend on the project and the story, not on the message:
    LEARNINGS, FACTS (the project's pack) and, for a started story, its memory block."""
    from lorekeeper.errors import LorekeeperError

    try:
        return ws.prompts.build(STATIC_PROBE, project or None, story=story or None)
    except LorekeeperError as exc:
        if not story:
            raise
        # an unknown or unstarted story: the context goes on without its memory, and says why in the log
        log_failure(ws.root, f"UserPromptSubmit (story {story} left out)", exc)
        return ws.prompts.build(STATIC_PROBE, project or None)


def static_blocks(ws: Workspace, project: str, story: str = "") -> list[tuple[str, str]]:
    return list(static_prompt(ws, project, story).blocks)


STATIC_PROBE = "."  # the message the static blocks are built for (they do not read it)


def prompt_context(
    root: Path, project: str, prompt: str, *, budget: int | None = None, story: str = ""
) -> hookctx.HookContext:
    """The fast path when the witnessed snapshot is still valid; else open the workspace, check the
    file that was there (report a forged or replayed one), rebuild it from verified rows and sign it."""
    from lorekeeper.errors import LorekeeperError

    found = hookctx.probe(root, project, story)
    if found.snapshot is not None:
        return hookctx.compose(found.snapshot, prompt, budget=budget, fast=True)
    from lorekeeper.workspace import Workspace

    with Workspace.open(root) as ws:
        snap = build_snapshot(ws, project, story)
        if snap.notices:  # no key session: nothing can be checked, signed or served from the cache
            untrusted(ws.root, ws.audit.workspace_id, snap.notices, event=EVENT_PROMPT)
            if found.suspect:
                log_notice(
                    ws.root,
                    EVENT_PROMPT,
                    f"hook snapshot {hookctx.snapshot_path(root, snap.project, story).name} not served "
                    f"({found.reason}); it is checked when the audit key is back",
                )
        else:
            signer = ws.audit.require_key().signer
            if found.suspect:
                check_replaced(ws, signer, snap.project, story)
            try:
                ws.audit.check_writable()  # a broken chain: the context is served, nothing is written
                hookctx.save_snapshot(root, snap, signer)
            except LorekeeperError as exc:
                log_notice(ws.root, EVENT_PROMPT, f"hook snapshot not saved: {exc}")
                if found.suspect:
                    hookctx.snapshot_path(root, snap.project, story).unlink(missing_ok=True)
            except OSError as exc:  # the answer stands; the next prompt takes the slow path again
                log_notice(ws.root, EVENT_PROMPT, f"hook snapshot not saved: {exc}")
                if found.suspect:  # never leave the rejected copy in place
                    hookctx.snapshot_path(root, snap.project, story).unlink(missing_ok=True)
    return hookctx.compose(snap, prompt, budget=budget, fast=False)


def check_replaced(ws: Workspace, signer: hookctx.SignerLike, project: str, story: str) -> hookctx.Examined | None:
    """The slow path found a snapshot that is not the witnessed one: check it with the key and
    report it when it does not verify, belongs elsewhere or is an older one written back."""
    path = hookctx.snapshot_path(ws.root, project, story)
    try:  # a FIFO or device in its place reads as damage, never a hang
        data = read_regular_raw(path, limit=hookctx.SNAPSHOT_LIMIT)
    except FileNotFoundError:
        return None
    except OSError:
        data = b""
    witness = hookctx.Witness(ws.audit.workspace_id)
    found = hookctx.examine(
        data,
        signer,
        workspace_id=ws.audit.workspace_id,
        project=project,
        story=story,
        witnessed=witness.digest(hookctx.snapshot_tag(project, story)),
    )
    if found.forged:
        report_rejected(ws, path.name, found, witness)
    elif not found.ok:
        log_notice(ws.root, EVENT_PROMPT, f"hook snapshot {path.name} of another format replaced")
    return found


REASONS = {
    "unreadable": "it is not a readable snapshot",
    "does not verify": "its signature does not verify (edited or forged)",
    "foreign": "it is signed for another workspace, project or story",
    "older": "it is an older signed snapshot written back over the latest one",
}


def report_rejected(ws: Workspace, name: str, found: hookctx.Examined, witness: hookctx.Witness) -> None:
    """Discarded (it is rebuilt right after), reported: hooks.log, the witness's count (`audit
    status`) and a signed `unsigned_entry` event; never on the agent's stdout."""
    why = REASONS.get(found.reason, found.reason)
    if found.reason == "older" and found.revision is not None:
        why += f" (revision {found.revision})"
    log_notice(
        ws.root,
        EVENT_PROMPT,
        f"ERR_UNSIGNED_ENTRY: hook snapshot indexes/{name} rejected: {why}; discarded and rebuilt from verified rows",
    )
    with witness.locked(exclusive=True) as held:
        if held:
            with contextlib.suppress(OSError):
                witness.reject(name, found.reason)
    from lorekeeper.errors import LorekeeperError

    try:
        ws.audit.log.record(
            "unsigned_entry",
            {
                "code": "ERR_UNSIGNED_ENTRY",
                "table": hookctx.SNAPSHOT_KIND,
                "count": 1,
                "first_id": [name],
                "purpose": f"hook snapshot: {found.reason}",
            },
        )
    except LorekeeperError as exc:  # the log refuses (a broken chain): hooks.log and the count still have it
        log_notice(ws.root, EVENT_PROMPT, f"the rejection could not be signed in the audit log: {exc}")


def untrusted(root: Path, workspace_id: str, notices: Sequence[str], *, event: str) -> None:
    """An agent-path call found the key session unavailable: log its notices and revoke the
    workspace's witnessed snapshots, so the hook serves no learnings it cannot verify now."""
    for notice in notices:
        log_notice(root, event, notice)
    hookctx.Witness(workspace_id).revoke()


def snapshot_status(ws: Workspace, signer: hookctx.SignerLike) -> dict[str, Any]:
    """For `audit status`: the hook snapshots on disk, those that would be rejected now, and how
    many were rejected (and rebuilt) so far."""
    witness = hookctx.Witness(ws.audit.workspace_id)
    data = witness.read()
    files = hookctx.snapshot_files(ws.root)
    invalid = 0
    tags = data.get("entries") if isinstance(data.get("entries"), dict) else {}
    for path in files:
        tag = path.stem.removeprefix("hook-context-")
        try:
            raw = read_regular_raw(path, limit=hookctx.SNAPSHOT_LIMIT)
        except OSError:
            invalid += 1
            continue
        entry = tags.get(tag) if isinstance(tags, dict) else None
        found = hookctx.examine(
            raw,
            signer,
            workspace_id=ws.audit.workspace_id,
            witnessed=str(entry["sha256"]) if isinstance(entry, dict) and "sha256" in entry else None,
        )
        if (
            found.ok
            and found.snapshot is not None
            and hookctx.snapshot_tag(found.snapshot.project, found.snapshot.story) != tag
        ):
            invalid += 1  # a signed snapshot moved to another project's name
        elif found.forged:
            invalid += 1
    rejected = witness.rejected()
    return {
        "files": len(files),
        "invalid": invalid,
        "rejected": int(rejected.get("count", 0) or 0),
        "last_rejected": rejected.get("last"),
        "witness": str(witness.path),
    }


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
    last = payload.get("last_assistant_message")
    given = isinstance(last, str) and bool(last.strip())
    # Claude Code may run Stop before the transcript holds the answer (the case the field exists
    # for): the transcript then gives only the prompt, the answer is `last_assistant_message`
    turn = last_turn(Path(str(path)).expanduser(), need_answer=not given) if isinstance(path, str) and path else None
    if given and turn is not None:
        turn = Turn(turn.prompt, str(last))
    if turn is None or not turn.answer.strip():
        return None
    prompt = ws.prompts.build(turn.prompt, project or None, story=story or None)
    if prompt.notices:  # the key is gone: the next UserPromptSubmit must not serve the old snapshot
        untrusted(ws.root, ws.audit.workspace_id, prompt.notices, event=EVENT_STOP)
    answer = ws.reflect.check(prompt, turn.answer, model=SOURCE, source=SOURCE)
    out = answer.to_dict()
    out.pop("answer", None)
    out["session"] = payload.get("session_id")
    return out


def log_notice(root: Path, event: str, text: str) -> None:
    """One block in `<workspace>/logs/hooks.log` (the agent path's log: hooks and `prompt`)."""
    from lorekeeper import errorlog

    with contextlib.suppress(OSError):  # a FIFO put in its place is refused, never waited on
        errorlog.write(root / "logs" / HOOK_LOG, f"{event}: {text}")


def log_failure(root: Path | None, event: str, exc: BaseException) -> None:
    """Append the failure to `<workspace>/logs/hooks.log` (the user's state folder's without a
    workspace: a hook pointed at a folder that does not exist, or is not a workspace, must not
    create it, issue 31; never a shared temp folder, issue 28)."""
    from lorekeeper import errorlog

    errorlog.log_exception(root, event, exc, name=HOOK_LOG)
