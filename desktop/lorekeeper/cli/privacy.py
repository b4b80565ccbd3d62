"""`lorekeeper privacy check [FILE|-]`: the deterministic PII gate on a text (seed 004 §3.1)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from lorekeeper.cli.common import emit_json, handle_errors, json_option, workspace_option
from lorekeeper.errors import InvalidInputError


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
    from lorekeeper.privacy.pii import check_text, find_pii

    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInputError(f"cannot read {path}: {exc}") from None
    found = find_pii(text)
    if as_json and not found:
        emit_json({"pii": False, "findings": []})
        return
    if not found:
        click.echo("no personal data found")
        return
    check_text(text, what=path if path != "-" else "the text")
