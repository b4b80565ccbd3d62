"""`lorekeeper ask QUESTION [--project P] [--top N] [--no-model] [--json]`."""

from __future__ import annotations

from pathlib import Path

import click

from lorekeeper.cli.common import emit_json, handle_errors, json_option, open_workspace, workspace_option


@click.command("ask")
@click.argument("question")
@click.option("--project", default=None, help="Ask over what a project sees: its forks and learnings.")
@click.option("--top", type=click.IntRange(1, 30), default=6, show_default=True, help="Passages retrieved at most.")
@click.option("--no-model", is_flag=True, help="Only the ranked passages, even when a model is configured.")
@workspace_option
@json_option
@handle_errors
def ask(
    question: str, project: str | None, top: int, no_model: bool, workspace_dir: Path | None, as_json: bool
) -> None:
    """Answer QUESTION from the knowledge (skills, learnings, documents, facts) with numbered citations."""
    with open_workspace(workspace_dir) as ws:
        result = ws.ask.ask(question, project, top=top, use_model=not no_model)
    if as_json:
        emit_json(result.to_dict())
        return
    if not result.passages:
        click.echo(result.answer)
        return
    if result.answered:
        click.echo(result.answer)
        click.echo()
        for h in result.citations:
            p = h.passage
            click.echo(f"[{h.n}] {p.document} lines {p.start}-{p.end}")
        return
    if result.answer:
        click.echo(result.answer)
        click.echo()
    if result.note:
        click.echo(result.note, err=True)
    for h in result.passages:
        p = h.passage
        click.echo(f"[{h.n}] {p.document} lines {p.start}-{p.end}  (score {h.score:.2f})")
        for line in p.text.split("\n"):
            click.echo(f"    {line}")
