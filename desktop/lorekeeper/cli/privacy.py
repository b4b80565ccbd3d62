"""`lorekeeper privacy check [FILE|-]`: the deterministic PII gate on a text (seed 004 §3.1)."""

from __future__ import annotations

from pathlib import Path

import click

from lorekeeper.cli.common import emit_json, handle_errors, json_option, workspace_option


@click.group()
def privacy() -> None:
    """Privacy: the PII gate that clarification summaries must pass."""


@privacy.command("check")
@click.argument("path", default="-")
@workspace_option
@json_option
@handle_errors
def check(path: str, workspace_dir: Path | None, as_json: bool) -> None:
    """Check a text (FILE or stdin) for personal data; ERR_PII_DETECTED when it holds some."""
    from lorekeeper.fsutil import decode_text, read_user_bytes, shown_path
    from lorekeeper.privacy.pii import check_text, find_pii

    shown = "stdin" if path == "-" else shown_path(path)  # bounded; a FIFO or device is refused, never read
    text = decode_text(read_user_bytes(path, what="text"), shown, what="text")
    found = find_pii(text)
    if as_json and not found:
        emit_json({"pii": False, "findings": []})
        return
    if not found:
        click.echo("no personal data found")
        return
    check_text(text, what=path if path != "-" else "the text")
