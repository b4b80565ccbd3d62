"""The improvement loop's commands (issue 6):

- `lorekeeper nightly [--project P] [--days N | --all-time]`: template proposals for underperformers;
- `lorekeeper sage analyze [--skill S] [--project P] [--no-benchmark]`: model-written proposals;
- `lorekeeper proposals list|show|approve|reject|undo`: the review queue (decisions are signed);
- `lorekeeper bench run PROPOSAL [--scenarios N] [--scenario TEXT]...`, `bench list|show`,
  `bench scenarios SKILL [--add TEXT]`: A/B benchmarks.
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from lorekeeper.cli.common import emit_json, handle_errors, json_option, open_workspace, same_operator, workspace_option
from lorekeeper.cli.progress import progress_option
from lorekeeper.errors import EXIT_UNAVAILABLE, InvalidInputError
from lorekeeper.improve.bench import DEFAULT_SCENARIOS, MAX_SCENARIOS
from lorekeeper.improve.nightly import DEFAULT_DAYS

if TYPE_CHECKING:
    from lorekeeper.improve.bench import BenchmarkInfo

_days = click.option(
    "--days",
    type=click.FloatRange(min=0, min_open=True),
    default=DEFAULT_DAYS,
    show_default=True,
    help="Window of quality events analysed.",
)
_all_time = click.option("--all-time", is_flag=True, help="Analyse every quality event (no window).")
_by = click.option("--by", "by", default=None, help="Who decides (default: the login name).")


@click.command("nightly")
@click.option("--project", default=None, help="Only this project ('' or omitted: every project).")
@_days
@_all_time
@click.option(
    "--sage/--no-sage",
    "use_sage",
    default=None,
    help="Also ask Sage (needs a model) for the underperformers first; default: [improve] nightly_sage (off).",
)
@workspace_option
@json_option
@progress_option("nightly")
@handle_errors
def nightly(
    project: str | None,
    days: float,
    all_time: bool,
    use_sage: bool | None,
    workspace_dir: Path | None,
    as_json: bool,
) -> None:
    """Find underperforming skills and write one template proposal per skill (no model needed).

    Underperforming: applied >= 3 times and success rate < 80% or more thumbs down than up.
    A skill that already has a pending proposal gets no second one. Schedulers run this at 03:00 UTC.
    """
    with open_workspace(workspace_dir) as ws:
        ws.audit.require_key()  # issue 18: signed evidence in, signed proposals out; no key, nothing written
        if use_sage is None:
            use_sage = bool(ws.config.get("improve.nightly_sage", False))
        summary = ws.improve.run_nightly(project, days=None if all_time else days, sage=use_sage)
    if as_json:
        emit_json(summary.to_dict())
    else:
        click.echo(summary.text())


def read_text_arg(path: Path) -> str:
    """A UTF-8 text file (or stdin for '-'), with clear errors instead of a traceback."""
    from lorekeeper.fsutil import read_user_bytes

    raw = read_user_bytes(path, what="file")  # bounded; a FIFO or device is refused, never read
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInputError(f"{path} is not UTF-8 text (byte {exc.start})") from exc


@click.group("sage")
def sage() -> None:
    """Sage: model-written skill improvements, benchmarked before review."""


@sage.command("analyze")
@click.option("--skill", default=None, help="Only this skill (default: up to 5 targets, underperformers first).")
@click.option("--project", default=None, help="The project whose fork (or view of the global skill) is analysed.")
@click.option("--no-benchmark", is_flag=True, help="Do not benchmark the new proposals.")
@click.option("--scenarios", type=click.IntRange(1, MAX_SCENARIOS), default=DEFAULT_SCENARIOS, show_default=True)
@_days
@_all_time
@workspace_option
@json_option
@progress_option("sage analyze")
@handle_errors
def sage_analyze(
    skill: str | None,
    project: str | None,
    no_benchmark: bool,
    scenarios: int,
    days: float,
    all_time: bool,
    workspace_dir: Path | None,
    as_json: bool,
) -> None:
    """Ask the model for better versions of up to 5 skills; NO_CHANGE creates nothing.

    Exits 4 when an answer could not be used (the others are kept).
    """
    with open_workspace(workspace_dir) as ws:
        summary = ws.improve.sage.analyze(
            skill, project, days=None if all_time else days, benchmark=not no_benchmark, scenarios=scenarios
        )
    if as_json:
        emit_json(summary.to_dict())
    else:
        click.echo(summary.text())
    if summary.errors:
        for e in summary.errors:
            click.echo(f"error: {e.get('code', 'ERR')}: {e['error']}", err=True)
        sys.exit(EXIT_UNAVAILABLE)


@click.group("proposals")
def proposals() -> None:
    """The review queue: list, show, approve, reject, undo (decisions are signed audit events)."""


@proposals.command("list")
@click.option(
    "--status", type=click.Choice(["pending", "approved", "rejected", "all"]), default="pending", show_default=True
)
@click.option("--skill", default=None)
@click.option(
    "--by",
    "by",
    default=None,
    help='Only the decisions of this operator (the Vault identity or OS login shown as "by").',
)
@workspace_option
@json_option
@handle_errors
def proposals_list(status: str, skill: str | None, by: str | None, workspace_dir: Path | None, as_json: bool) -> None:
    """Proposals (pending: oldest first, the review order); --by: those this operator decided."""
    with open_workspace(workspace_dir) as ws:
        rows = ws.improve.proposals.list(status, skill=skill)
    if by is not None:
        rows = [p for p in rows if same_operator(p.decided_by, by)]
    if as_json:
        emit_json([p.to_dict() for p in rows])
        return
    if not rows:
        click.echo(f"No {status if status != 'all' else ''} proposals.".replace("  ", " "))
        return
    click.echo(
        f"{'id':>4}  {'status':<9} {'source':<8} {'skill':<22} {'project':<12} {'benchmark':<26} {'by':<12} reason"
    )
    for p in rows:
        badge = p.benchmark.text if p.benchmark else "-"
        click.echo(
            f"{p.id:>4}  {p.status:<9} {p.source:<8} {p.skill:<22} {(p.project or '-'):<12} {badge:<26} "
            f"{(p.decided_by or '-'):<12} {p.reason}"
        )


@proposals.command("show")
@click.argument("proposal_id", type=int)
@click.option("--diff/--no-diff", default=True, show_default=True, help="Print the unified diff current → proposed.")
@workspace_option
@json_option
@handle_errors
def proposals_show(proposal_id: int, diff: bool, workspace_dir: Path | None, as_json: bool) -> None:
    """The proposal card: project, skill, reason, metrics, feedback, related learnings, benchmark, diff."""
    with open_workspace(workspace_dir) as ws:
        p = ws.improve.proposals.get(proposal_id)
    if as_json:
        emit_json(p.to_dict(contents=True))
        return
    click.echo(f"Proposal #{p.id} [{p.status}] — {p.source}" + (f" ({p.model})" if p.model else ""))
    click.echo(
        f"Project: {p.project or '-'}   Skill: {p.skill}"
        + (f" (fork of {p.scope})" if p.scope else " (global)")
        + f"   base v{p.base_version}"
    )
    click.echo(f"Reason: {p.reason}")
    click.echo(f"Change: {p.summary}")
    from lorekeeper.quality.metrics import format_rate  # 79.9% never reads as 80%

    for m in p.metrics.get("by_project", []):
        rate = format_rate(m.get("success_rate"), none="n/a")
        click.echo(
            f"Metrics ({m.get('project') or 'no project'}): applied {m['applied_count']}, success {rate}, "
            f"feedback +{m['feedback_positive']} / -{m['feedback_negative']}"
        )
    from lorekeeper.improve.optimise import card_rows

    for title, text in card_rows(p.metrics):  # an optimiser proposal: its trigger cases before -> after
        click.echo(f"{title}: {text}")
    for r in p.failing_rules:
        click.echo(f"Failing rule: {r['name']} ({r['failed']}/{r['checked']})")
    if p.learnings:
        click.echo("Related learnings:")
        for item in p.learnings:
            click.echo(f"  • {item['rule']}")
    click.echo(
        f"Benchmark: {p.benchmark.text if p.benchmark else 'not run (`lorekeeper bench run ' + str(p.id) + '`)'}"
    )
    if p.status != "pending":
        click.echo(
            f"Decision: {p.status} by {p.decided_by} at {p.decided_at.isoformat() if p.decided_at else '?'}"
            + (f" — {p.decision_reason}" if p.decision_reason else "")
        )
    if diff:
        click.echo("")
        click.echo(
            "".join(
                difflib.unified_diff(
                    p.current_content.splitlines(keepends=True),
                    p.proposed_content.splitlines(keepends=True),
                    fromfile=f"{p.skill} v{p.base_version}",
                    tofile=f"{p.skill} proposed",
                )
            ),
            nl=False,
        )


@proposals.command("approve")
@click.argument("proposal_id", type=int)
@click.option("--reason", "--why", "why", default="", help="Why (kept in the signed event; --why is the same option).")
@_by
@click.option("--force", is_flag=True, help="Approve even though the skill changed since the proposal was made.")
@click.option(
    "--content-file",
    type=click.Path(dir_okay=False, path_type=Path, allow_dash=True),
    default=None,
    help="Approve this edited SKILL.md instead of the proposed one ('-': stdin); the edit is signed.",
)
@workspace_option
@json_option
@handle_errors
def proposals_approve(
    proposal_id: int,
    why: str,
    by: str | None,
    force: bool,
    content_file: Path | None,
    workspace_dir: Path | None,
    as_json: bool,
) -> None:
    """Make the proposed content current; the old version stays in the skill's history (undo: restore it).

    With --content-file, the operator's edited content is approved instead ("approve with edits")."""
    content = None if content_file is None else read_text_arg(content_file)
    with open_workspace(workspace_dir) as ws:
        p = ws.improve.proposals.approve(proposal_id, why=why, by=by, force=force, content=content)
    if as_json:
        emit_json(p.to_dict())
    else:
        edited = " with your edits" if content is not None and content != p.proposed_content else ""
        click.echo(
            f"approved #{p.id}{edited}: {p.skill} v{p.base_version} → v{p.applied_version} (backup: v{p.base_version})"
        )


@proposals.command("reject")
@click.argument("proposal_id", type=int)
@click.option(
    "--reason",
    "--why",
    "why",
    required=True,
    help="Why it is rejected (required; kept in the signed event; --why is the same option).",
)
@_by
@workspace_option
@json_option
@handle_errors
def proposals_reject(proposal_id: int, why: str, by: str | None, workspace_dir: Path | None, as_json: bool) -> None:
    """Mark the proposal rejected; the skill does not change."""
    with open_workspace(workspace_dir) as ws:
        p = ws.improve.proposals.reject(proposal_id, why=why, by=by)
    if as_json:
        emit_json(p.to_dict())
    else:
        click.echo(f"rejected #{p.id}: {p.skill} — {p.decision_reason}")


@proposals.command("undo")
@click.argument("proposal_id", type=int)
@click.option("--reason", "--why", "why", default="", help="Why (kept in the signed event; --why is the same option).")
@_by
@workspace_option
@json_option
@handle_errors
def proposals_undo(proposal_id: int, why: str, by: str | None, workspace_dir: Path | None, as_json: bool) -> None:
    """Undo a decision: an approval restores the backed-up version; the proposal is pending again."""
    with open_workspace(workspace_dir) as ws:
        p = ws.improve.proposals.undo(proposal_id, why=why, by=by)
        current = ws.skills.get(p.skill, p.scope or None).version
    if as_json:
        emit_json(p.to_dict())
    else:
        click.echo(f"#{p.id} is pending again; {p.skill} is at v{current}")


@click.group("bench")
def bench() -> None:
    """A/B benchmarks: current vs proposed content, evals (60%) + a two-order LLM judge (40%)."""


def _print_run(run: BenchmarkInfo, full: bool = False) -> None:
    click.echo(f"Benchmark #{run.id} of proposal #{run.proposal_id} ({run.skill}): {run.badge}")
    click.echo(
        f"  model {run.provider}:{run.model}, judge {run.judge_model}, seed {run.seed}; "
        f"mean combined old {run.old_avg:.2f} / new {run.new_avg:.2f} (0-10)"
    )
    for r in run.results:

        def ev(v: float | None) -> str:
            return "n/a" if v is None else f"{v * 10:.1f}"

        star = {"new": "new ★", "old": "old ★", "tie": "tie"}[r.winner]
        click.echo(f"  {r.position + 1}. {r.scenario[:70]}")
        click.echo(
            f"     evals old {ev(r.old_eval)} / new {ev(r.new_eval)}; judge old {r.old_judge:.1f} / new {r.new_judge:.1f} "
            f"({r.judge_winner}); combined old {r.old_score:.2f} / new {r.new_score:.2f} → {star}"
        )
        for c in r.judge_calls:
            click.echo(f"     judge [{c.get('order')}] A {c.get('score_a')} B {c.get('score_b')}: {c.get('reason')}")
        if full:
            click.echo(f"     old: {r.old_output[:300]!r}")
            click.echo(f"     new: {r.new_output[:300]!r}")


@bench.command("run")
@click.argument("proposal_id", type=int)
@click.option(
    "--scenarios",
    type=click.IntRange(1, MAX_SCENARIOS),
    default=DEFAULT_SCENARIOS,
    show_default=True,
    help="How many scenarios (kept ones are reused; missing ones are generated by the model).",
)
@click.option("--scenario", "extra", multiple=True, help="A scenario of your own (kept for reuse); repeatable.")
@click.option("--seed", type=int, default=None, help="Seed for the judge-order choice (default: random, stored).")
@workspace_option
@json_option
@progress_option("bench run")
@handle_errors
def bench_run(
    proposal_id: int,
    scenarios: int,
    extra: tuple[str, ...],
    seed: int | None,
    workspace_dir: Path | None,
    as_json: bool,
) -> None:
    """Run the proposal's old and new content on the scenarios and judge them."""
    with open_workspace(workspace_dir) as ws:
        run = ws.improve.bench.run(proposal_id, scenarios=scenarios, extra_scenarios=list(extra), seed=seed)
    if as_json:
        emit_json(run.to_dict())
    else:
        _print_run(run)


@bench.command("list")
@click.option("--proposal", "proposal_id", type=int, default=None)
@workspace_option
@json_option
@handle_errors
def bench_list(proposal_id: int | None, workspace_dir: Path | None, as_json: bool) -> None:
    """Benchmark runs, newest first."""
    with open_workspace(workspace_dir) as ws:
        runs = ws.improve.bench.list(proposal_id)
    if as_json:
        emit_json([r.to_dict() for r in runs])
        return
    if not runs:
        click.echo("No benchmark runs.")
    for r in runs:
        click.echo(
            f"#{r.id:<4} proposal #{r.proposal_id:<4} {r.skill:<22} {r.badge}  {r.created_at:%Y-%m-%d %H:%M} {r.model}"
        )


@bench.command("show")
@click.argument("run_id", type=int)
@workspace_option
@json_option
@handle_errors
def bench_show(run_id: int, workspace_dir: Path | None, as_json: bool) -> None:
    """One run: per scenario both outputs, scores, winner and the judge's reasons in both orders."""
    with open_workspace(workspace_dir) as ws:
        run = ws.improve.bench.get(run_id)
    if as_json:
        emit_json(run.to_dict(full=True))
    else:
        _print_run(run, full=True)


@bench.command("scenarios")
@click.argument("skill")
@click.option("--project", default=None, help="The fork's project (default: the global skill).")
@click.option("--add", "add", multiple=True, help="Add a scenario (kept for reuse); repeatable.")
@click.option("--delete", "delete", type=int, multiple=True, help="Delete a scenario by id.")
@workspace_option
@json_option
@handle_errors
def bench_scenarios(
    skill: str,
    project: str | None,
    add: tuple[str, ...],
    delete: tuple[int, ...],
    workspace_dir: Path | None,
    as_json: bool,
) -> None:
    """The kept scenarios of a skill (operator's first), with --add / --delete."""
    with open_workspace(workspace_dir) as ws:
        scope = ws.skills.resolve_scope(skill, project)
        for sid in delete:
            ws.improve.bench.delete_scenario(sid)
        for text in add:
            ws.improve.bench.add_scenario(skill, scope, text)
        rows = ws.improve.bench.scenarios(skill, scope)
    if as_json:
        emit_json([r.to_dict() for r in rows])
        return
    if not rows:
        click.echo("No scenarios kept; `bench run` generates them with the model, or add yours with --add.")
    for r in rows:
        click.echo(f"#{r.id:<4} [{r.source}] {r.text}")


COMMANDS = (nightly, sage, proposals, bench)
