"""`lorekeeper story start|close|list|show`: stories, the memory injection at their start (seed 004 B5)
and `on_story_close` (scores, promotion, eviction, retention purge)."""

from __future__ import annotations

import json
import sys
from datetime import date
from pathlib import Path

import click

from lorekeeper.cli.common import emit_json, handle_errors, json_option, open_workspace, workspace_option
from lorekeeper.memory.stories import GATES, STATES


@click.group()
def story() -> None:
    """Stories: the memory injected at their start, promotion and eviction when they close."""


@story.command("start")
@click.argument("story_id", metavar="STORY")
@click.option("--domain", required=True)
@click.option("--project", required=True)
@workspace_option
@json_option
@handle_errors
def start(story_id: str, domain: str, project: str, workspace_dir: Path | None, as_json: bool) -> None:
    """Start STORY: 5 learnings + 3 research notes + 3 clarification summaries, traced before shown."""
    with open_workspace(workspace_dir) as ws:
        inj = ws.stories.start(story_id, domain, project)
    data = inj.to_dict()
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        eff = data["count_effective"]
        click.echo(
            f"{inj.story}: {eff['learnings']} learnings, {eff['notes']} notes, {eff['clarifications']} clarifications"
            + (" (under_corpus)" if data["under_corpus"] else "")
        )
        if inj.block:
            click.echo("")
            click.echo(inj.block)
    if inj.error is not None:  # failed closed: the block is empty, the caller goes on without memory
        click.echo(f"error: {inj.error}", err=True)
        sys.exit(inj.error.exit_code)


@story.command("close")
@click.argument("story_id", metavar="STORY")
@click.option("--state", type=click.Choice(STATES), required=True)
@click.option("--gate", type=click.Choice(GATES), default=None)
@click.option("--today", type=click.DateTime(formats=["%Y-%m-%d"]), default=None, help="Eviction date (YYYY-MM-DD).")
@workspace_option
@json_option
@handle_errors
def close(
    story_id: str, state: str, gate: str | None, today: object, workspace_dir: Path | None, as_json: bool
) -> None:
    """Close STORY and run on_story_close: reuse scores, promotion, eviction, retention purge."""
    day: date | None = today.date() if today is not None else None  # type: ignore[attr-defined]
    with open_workspace(workspace_dir) as ws:
        out = ws.stories.close(story_id, state, gate, today=day)
    if as_json:
        emit_json(out)
        return
    click.echo(
        f"{story_id} closed ({state}{', gate ' + gate if gate else ''}): {out['scores']} scores, "
        f"{len(out['promoted'])} promoted, {len(out['archived'])} archived"
    )


@story.command("list")
@workspace_option
@json_option
@handle_errors
def list_cmd(workspace_dir: Path | None, as_json: bool) -> None:
    """The stories, newest first."""
    with open_workspace(workspace_dir) as ws:
        rows = ws.stories.stories()
    if as_json:
        emit_json({"stories": rows})
        return
    for r in rows:
        click.echo(f"{r['id']:<12} {r['state']:<18} {r['gate'] or '-':<6} {r['domain']} / {r['project']}")


@story.command("show")
@click.argument("story_id", metavar="STORY")
@workspace_option
@json_option
@handle_errors
def show(story_id: str, workspace_dir: Path | None, as_json: bool) -> None:
    """One story and its latest injection block."""
    with open_workspace(workspace_dir) as ws:
        row = ws.stories.get(story_id)
        block = ws.stories.block_for(story_id, inject=False)
    if as_json:
        emit_json({**row, "block": block})
        return
    click.echo(f"{row['id']}: {row['state']} gate={row['gate'] or '-'} {row['domain']} / {row['project']}")
    if block:
        click.echo("\n" + block)
