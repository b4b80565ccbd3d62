"""`lorekeeper init DIR [--demo]`."""

from __future__ import annotations

from pathlib import Path

import click

from lorekeeper.cli.common import emit_json, handle_errors, json_option
from lorekeeper.workspace import Workspace


@click.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--demo", is_flag=True, help="Add the demo projects, forks, eval history and documents.")
@click.option("--no-starter", is_flag=True, help="Do not import the starter skill library.")
@json_option
@handle_errors
def init(directory: Path, demo: bool, no_starter: bool, as_json: bool) -> None:
    """Create a workspace in DIRECTORY (config, store, starter skills)."""
    with Workspace.init(directory, demo=demo, starter=not no_starter) as ws:
        skills = ws.skills.list()
        data = {"workspace": str(ws.root), "skills": len(skills), "projects": ws.skills.projects(), "demo": demo}
        if ws.init_warnings:  # e.g. no keyring backend: the workspace works, signing waits for a key
            data["warnings"] = list(ws.init_warnings)
            for w in ws.init_warnings:
                click.echo(f"warning: {w}", err=True)
    if as_json:
        emit_json(data)
    else:
        click.echo(f"Workspace created at {data['workspace']} with {data['skills']} skills.")
        click.echo(f"Open it with: lorekeeper --workspace {data['workspace']}")
