"""`lorekeeper eval (--skill NAME [--project P] | --rules FILE) --response FILE|- [--json] [--strict]`."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from lorekeeper.cli.common import emit_json, handle_errors, json_option, open_workspace, workspace_option
from lorekeeper.errors import EXIT_CHECK_FAILED, InvalidInputError
from lorekeeper.evals.engine import EvalReport
from lorekeeper.evals.footnote import ICONS
from lorekeeper.evals.rules import load_rules_file
from lorekeeper.fsutil import read_user_bytes, shown_path
from lorekeeper.learnings.mdformat import decode_utf8


def read_response(source: str) -> str:
    """The response exactly as given: bytes decoded as UTF-8, newlines untouched."""
    raw = read_user_bytes(source, what="response file")  # bounded; a FIFO or device is refused
    return decode_utf8(raw, "stdin" if source == "-" else f"response file {shown_path(source)}")


def print_report(report: EvalReport) -> None:
    for w in report.warnings:
        click.echo(f"warning: {w}", err=True)
    for r in report.results:
        mark = "PASS" if r.passed else "FAIL"
        icon = ICONS[r.severity]
        click.echo(f"{mark}  {icon} {r.id}  {r.name}  [{r.type}]" + (f"  ({r.reason})" if r.reason else ""))
    if not report.results:
        click.echo("No rules to check.")
    click.echo()
    click.echo(report.footnote or "Eval: all rules passed")


@click.command("eval")
@click.option("--skill", default=None, help="Check against this skill's rules.")
@click.option("--project", default=None, help="Use the project's fork of the skill when it has one.")
@click.option(
    "--rules",
    "rules_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Check against a rules file instead of a skill.",
)
@click.option("--response", "response_src", required=True, help="The response to check: a file, or - for stdin.")
@click.option("--strict", is_flag=True, help="Exit 1 when a warning rule fails (evals never block otherwise).")
@click.option("--no-record", is_flag=True, help="Do not keep this run in the eval history.")
@workspace_option
@json_option
@handle_errors
def eval_cmd(
    skill: str | None,
    project: str | None,
    rules_file: Path | None,
    response_src: str,
    strict: bool,
    no_record: bool,
    workspace_dir: Path | None,
    as_json: bool,
) -> None:
    """Check a response against deterministic eval rules and print the footnote."""
    if (skill is None) == (rules_file is None):
        raise InvalidInputError("give exactly one of --skill NAME or --rules FILE")
    if rules_file is not None:
        if project:
            raise InvalidInputError("--project goes with --skill, not with --rules")
        rules = load_rules_file(rules_file)  # validated before the response is even read
        from lorekeeper.evals.engine import evaluate

        report = evaluate(rules, read_response(response_src))
    else:
        assert skill is not None
        with open_workspace(workspace_dir) as ws:
            ws.skills.rules(skill, project)  # validate the rules first: exit 2 before reading input
            report = ws.evals.run_skill(read_response(response_src), skill, project, record=not no_record)
    if as_json:
        emit_json(report.to_dict())
    else:
        print_report(report)
    if strict and not report.passed:
        sys.exit(EXIT_CHECK_FAILED)
