"""`lorekeeper feedback up|down ANSWER` and `lorekeeper fixit ANSWER [--rule TEXT]`: the Playground's
thumbs and Fix It buttons for an answer the Playground or `llm ask` produced.

ANSWER is the answer's id (`llm ask --json` prints it as `interaction`; the Playground shows it
under the answer), a unique prefix of it, or `last`. The same services as the buttons write the
same quality events, learnings and signed audit events. These are signed writes: without the audit
key the command writes nothing and exits 4 (ERR_AUDIT_KEY_UNAVAILABLE).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from lorekeeper.cli.common import emit_json, handle_errors, json_option, open_workspace, workspace_option

if TYPE_CHECKING:
    from lorekeeper.workspace import Workspace

_answer = click.argument("answer", metavar="ANSWER")
_project = click.option(
    "--project", default=None, help="Only this project's answers (with `last`: the project's last answer)."
)


def warn_unsigned(ws: Workspace) -> None:
    """Say so when the audit chain could not sign a change (the change itself was kept)."""
    for w in [*ws.learnings.take_audit_warnings(), *ws.reflect.take_audit_warnings(), *ws.skills.take_audit_warnings()]:
        click.echo(f"warning: {w}", err=True)


@click.group()
def feedback() -> None:
    """Thumbs up or down on an answer (the Playground's buttons): quality feedback, signed."""


@feedback.command("up")
@_answer
@_project
@workspace_option
@json_option
@handle_errors
def up(answer: str, project: str | None, workspace_dir: Path | None, as_json: bool) -> None:
    """Positive feedback for the skills ANSWER was routed to."""
    with open_workspace(workspace_dir) as ws:
        a = ws.reflect.answer(answer, project)
        ws.audit.require_key()  # a signed write: no key, nothing written (exit 4)
        ws.reflect.thumbs_up(a)
        warn_unsigned(ws)
    if as_json:
        emit_json(
            {"interaction": a.interaction, "project": a.project or None, "skills": list(a.skills), "positive": True}
        )
        return
    click.echo(f"positive feedback recorded for answer {a.interaction} ({_skills(a.skills)})")


@feedback.command("down")
@_answer
@_project
@click.option(
    "--reason",
    "--why",
    "reason",
    default="",
    help="What the model should do instead (it becomes the learning's rule; --why is the same option).",
)
@workspace_option
@json_option
@handle_errors
def down(answer: str, project: str | None, reason: str, workspace_dir: Path | None, as_json: bool) -> None:
    """Negative feedback for ANSWER and a learning (source negative), as the Playground's thumbs down."""
    with open_workspace(workspace_dir) as ws:
        a = ws.reflect.answer(answer, project)
        ws.audit.require_key()
        learning = ws.reflect.thumbs_down(a, reason)
        warn_unsigned(ws)
    if as_json:
        emit_json(
            {
                "interaction": a.interaction,
                "project": a.project or None,
                "skills": list(a.skills),
                "positive": False,
                "learning": learning.to_dict(),
            }
        )
        return
    click.echo(f"negative feedback recorded for answer {a.interaction} ({_skills(a.skills)})")
    click.echo(f"learning {learning.id} saved: {learning.rule}")


def _skills(skills: tuple[str, ...]) -> str:
    return "skills: " + ", ".join(skills) if skills else "no skill routed"


@click.command("fixit")
@_answer
@click.option(
    "--rule",
    default=None,
    help="The correction, as a rule every next prompt will carry (default, as the seed: "
    "'Fix requested for: <the answer>').",
)
@_project
@click.option("--reask", is_flag=True, help="Send the fix request to the configured model at once (as the Playground).")
@workspace_option
@json_option
@handle_errors
def fixit(
    answer: str, rule: str | None, project: str | None, reask: bool, workspace_dir: Path | None, as_json: bool
) -> None:
    """Fix It for ANSWER: the correction becomes a learning (source fixit); --reask sends the fix request."""
    from lorekeeper.reflect import fixit_rule

    with open_workspace(workspace_dir) as ws:
        a = ws.reflect.answer(answer, project)
        ws.audit.require_key()
        learning = ws.reflect.save_fix(a, fixit_rule(a.text) if rule is None else rule)
        fixed = None
        note = ""
        if reask:
            st = ws.llm.status()
            if st.ready:
                live = not as_json
                if live:
                    click.echo(f"learning {learning.id} saved: {learning.rule}")
                fixed = ws.reflect.send(
                    ws.reflect.fix_prompt(a, learning), on_chunk=(lambda t: click.echo(t, nl=False)) if live else None
                )
            else:
                note = f"not re-asked: no model is ready ({st.reason}); the learning is saved"
        else:
            note = "not re-asked (add --reask to send the fix request to the configured model)"
        warn_unsigned(ws)
        limit = ws.llm.settings.max_tokens
    if as_json:
        emit_json(
            {
                "interaction": a.interaction,
                "learning": learning.to_dict(),
                "reasked": fixed is not None,
                "answer": fixed.to_dict() if fixed is not None else None,
                "note": note or None,
            }
        )
        return
    if fixed is not None:
        from lorekeeper.cli.llm import warn_truncated

        click.echo()
        if fixed.footnote:
            click.echo(f"---\n{fixed.footnote}")
        warn_truncated(fixed.truncated, limit)
        click.echo(f"answer: {fixed.interaction}")
        return
    click.echo(f"learning {learning.id} saved: {learning.rule}")
    click.echo(note)
