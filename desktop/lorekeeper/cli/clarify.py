"""`lorekeeper clarify STORY --domain D --project P`: the 4 answers on stdin, a non-PII summary,
the operator's validation, then `clarifications/STORY-clarifications.md` (seed 004 B2).

stdin holds the four answers (problem, criteria, constraints, priorities), as a JSON object with
those keys, or four blocks separated by lines holding only `---`, or by blank lines, or four
lines. On a terminal each answer is asked in turn. The verbatim stays in this process's memory
and the sanitizer's pipes: it is never written, logged or passed as an argument.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import click

from lorekeeper import safejson
from lorekeeper.cli.common import emit_json, handle_errors, json_option, open_workspace, workspace_option
from lorekeeper.errors import InvalidInputError
from lorekeeper.fsutil import read_stream_bytes

SECTIONS = ("problem", "criteria", "constraints", "priorities")
ANSWERS_LIMIT = 1024 * 1024  # four answers typed by a person: `< /dev/zero` is refused, not read forever


def parse_answers(raw: bytearray) -> dict[str, str]:
    """The four answers of `raw` (which is zeroed): JSON, `---` blocks, blank-line blocks or 4 lines."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidInputError("the answers are not UTF-8 text") from None
    finally:
        raw[:] = b"\0" * len(raw)
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            data = safejson.loads(stripped, what="the answers")
        except ValueError:
            raise InvalidInputError("the answers look like JSON but do not parse") from None
        if not isinstance(data, dict):
            raise InvalidInputError(
                "the JSON answers must be an object with problem, criteria, constraints, priorities"
            )
        return {s: str(data.get(s) or "") for s in SECTIONS}
    for splitter in (r"^\s*---\s*$", r"\n\s*\n"):
        parts = [p.strip() for p in re.split(splitter, stripped, flags=re.MULTILINE) if p.strip()]
        if len(parts) == 4:
            return dict(zip(SECTIONS, parts, strict=True))
    lines = [ln.strip() for ln in stripped.splitlines() if ln.strip()]
    if len(lines) == 4:
        return dict(zip(SECTIONS, lines, strict=True))
    raise InvalidInputError(
        "expected 4 answers (problem, criteria, constraints, priorities) on stdin: a JSON object, "
        "4 blocks separated by '---' lines or blank lines, or 4 lines"
    )


def _ask_terminal() -> dict[str, str]:
    from lorekeeper.memory.clarify import QUESTIONS

    return {s: click.prompt(QUESTIONS[s]) for s in SECTIONS}


def _confirm(yes: bool, no: bool) -> bool | None:
    """True/False from the flags or the terminal; None when nobody can be asked."""
    if yes:
        return True
    if no:
        return False
    if sys.stdin.isatty():
        return click.confirm("Validate this summary?", default=False, err=True)
    try:
        with open("/dev/tty", "r+", encoding="utf-8") as tty:
            tty.write("Validate this summary? [y/N]: ")
            tty.flush()
            return tty.readline().strip().lower() in ("y", "yes", "o", "oui")
    except OSError:
        return None


def _show(summary: dict[str, str]) -> None:
    from lorekeeper.memory.clarify import QUESTIONS

    for s in SECTIONS:
        click.echo(f"## {QUESTIONS[s]}\n{summary[s]}\n", err=True)


@click.command("clarify")
@click.argument("story_id", metavar="STORY")
@click.option("--domain", required=True)
@click.option("--project", required=True)
@click.option("--yes", is_flag=True, help="Validate the summary without asking (scripts).")
@click.option("--no", "reject", is_flag=True, help="Reject the summary: nothing is kept.")
@click.option("--date", "day", type=click.DateTime(formats=["%Y-%m-%d"]), default=None, help="The clarification date.")
@workspace_option
@json_option
@handle_errors
def clarify(
    story_id: str,
    domain: str,
    project: str,
    yes: bool,
    reject: bool,
    day: Any,
    workspace_dir: Path | None,
    as_json: bool,
) -> None:
    """Summarise STORY's clarification (4 answers on stdin) without personal data, validate, keep."""
    if yes and reject:
        raise InvalidInputError("--yes and --no together: choose one")
    from lorekeeper.memory.layout import check_story_id

    sid = check_story_id(story_id)
    with open_workspace(workspace_dir) as ws:
        answers = (
            _ask_terminal() if sys.stdin.isatty() else parse_answers(bytearray(read_stream_bytes(limit=ANSWERS_LIMIT)))
        )
        draft = ws.clarifications.sanitize(sid, domain, project, answers)  # empties `answers`
        if not as_json:
            _show(draft.summary)
        decision = _confirm(yes, reject)
        out: dict[str, Any] = {**draft.to_dict(), "validated": bool(decision), "written": None}
        if decision:
            info = ws.clarifications.save(draft, today=day.date() if day is not None else None)
            out.update(written=info.path, date=info.date, retention_until=info.retention_until)
    if as_json:
        emit_json(out)
    elif decision:
        click.echo(f"saved {out['written']} (retention until {out['retention_until']})")
    elif decision is None:
        click.echo("not validated (no terminal to ask: pass --yes): the summary was discarded", err=True)
    else:
        click.echo("rejected: the summary was discarded, nothing was kept")
