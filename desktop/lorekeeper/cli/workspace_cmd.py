"""`lorekeeper workspace adopt-copy`: a copied workspace folder gets its own id and witness (issue 25)."""

from __future__ import annotations

from pathlib import Path

import click

from lorekeeper.cli.common import emit_json, handle_errors, json_option, open_workspace, workspace_option


@click.group()
def workspace() -> None:
    """The workspace itself: adopt a copied folder as a workspace of its own."""


@workspace.command("adopt-copy")
@workspace_option
@json_option
@handle_errors
def adopt_copy_cmd(workspace_dir: Path | None, as_json: bool) -> None:
    """Give this copied workspace its own id and head witness (the original is not touched)."""
    from lorekeeper.audit.copies import adopt_copy
    from lorekeeper.locations import resolve_workspace_dir

    if workspace_dir is None:
        workspace_dir = (click.get_current_context().find_root().obj or {}).get("workspace_dir")
    result = adopt_copy(resolve_workspace_dir(workspace_dir))
    ws = open_workspace(Path(result["workspace"]))
    try:
        ws.audit.check_writable()  # the copy's log, adopted under its new id (a signed head_adopted event)
    finally:
        ws.close()
    if as_json:
        emit_json(result)
        return
    click.echo(
        f"adopted {result['workspace']} as a workspace of its own: id {result['id']} "
        f"(was {result['old_id']}, still the id of {result['original']})"
    )
