"""`lorekeeper ctx pack|read|overview|smells|bench`: the context compression engine from the shell.

These commands work on a source tree and need no workspace: they read files and write only the
`-o` output (atomically).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from lorekeeper.cli.common import emit_json, handle_errors, json_option
from lorekeeper.context.pack import PACK_MODES
from lorekeeper.context.read import READ_MODES

_DIR = click.Path(exists=True, file_okay=True, dir_okay=True, path_type=Path)


@click.group()
def ctx() -> None:
    """Compress code context for an agent: pack a tree, read a file, inspect the graph."""


@ctx.command("pack")
@click.argument("directory", type=_DIR)
@click.option("--task", "-t", default=None, help="What the agent is about to do; drives relevance.")
@click.option("--budget", "-b", type=click.IntRange(min=1), default=None, help="Hard limit in o200k_base tokens.")
@click.option(
    "--mode",
    "-m",
    type=click.Choice(PACK_MODES),
    default="auto",
    show_default=True,
    help="auto: per-file modes from relevance and budget; otherwise one mode for every file.",
)
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the pack here (default: standard output).",
)
@json_option
@handle_errors
def pack_cmd(
    directory: Path, task: str | None, budget: int | None, mode: str, output: Path | None, as_json: bool
) -> None:
    """Pack DIRECTORY into one text for an agent, never over the budget nor over the input size."""
    from lorekeeper.context.pack import pack
    from lorekeeper.fsutil import atomic_write_text

    result = pack(directory, task=task, budget=budget, mode=mode)
    if output is not None:
        atomic_write_text(output, result.text)
    if as_json:
        emit_json(result.to_dict(with_text=output is None))
        return
    if output is None:
        sys.stdout.write(result.text)
    modes: dict[str, int] = {}
    for e in result.entries:
        modes[e.mode] = modes.get(e.mode, 0) + 1
    summary = ", ".join(f"{m} {c}" for m, c in sorted(modes.items()))
    click.echo(
        f"packed {len(result.entries)} files: {result.input_tokens:,} -> {result.output_tokens:,} tokens "
        f"({(1 - result.output_tokens / max(1, result.input_tokens)):.1%} less; limit {result.cap:,}) "
        f"in {result.seconds:.2f}s [{summary}]" + (f" -> {output}" if output else ""),
        err=True,
    )


@ctx.command("read")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--mode", "-m", type=click.Choice(READ_MODES), default="auto", show_default=True)
@click.option("--task", "-t", default=None, help="Keep whole the definitions this task needs.")
@click.option("--budget", "-b", type=click.IntRange(min=1), default=None, help="Hard limit in tokens.")
@json_option
@handle_errors
def read_cmd(file: Path, mode: str, task: str | None, budget: int | None, as_json: bool) -> None:
    """Print FILE compressed, with its header (mode and tokens dropped)."""
    from lorekeeper.context.read import read_file

    res = read_file(file, mode=mode, task=task, budget=budget)
    r = res.rendered
    if as_json:
        emit_json(
            {
                "path": str(file),
                "mode": r.mode,
                "original_tokens": r.original_tokens,
                "body_tokens": r.body_tokens,
                "dropped": r.dropped,
                "note": r.note,
                "bodies": r.bodies,
                "header": r.header,
                "text": r.body,
            }
        )
        return
    if not res.fits_with_header:
        # the header would make the output larger than the file: it goes to stderr instead
        click.echo(r.header, err=True)
    sys.stdout.write(res.text)


@ctx.command("overview")
@click.argument("directory", type=_DIR)
@click.option("--task", "-t", default=None, help="Rank the files for this task.")
@click.option("--top", type=click.IntRange(min=1), default=30, show_default=True, help="Files listed.")
@json_option
@handle_errors
def overview_cmd(directory: Path, task: str | None, top: int, as_json: bool) -> None:
    """Files ranked by relevance (heat + PageRank), communities and the import graph's shape."""
    from lorekeeper.context.overview import overview

    ov = overview(directory, task=task)
    if as_json:
        emit_json(ov.to_dict())
        return
    click.echo(f"{ov.files} files, {ov.tokens:,} tokens, {ov.edges} import edges, {ov.communities} communities")
    if ov.intent.task:
        i = ov.intent
        click.echo(
            f"task: {i.task_type} ({i.confidence:.2f}), scope {i.scope}, specificity {i.specificity}, "
            f"targets {', '.join(i.targets) or '-'}"
        )
    click.echo(f"{'relevance':>9} {'pagerank':>8} {'tokens':>7} {'comm':>4}  path")
    for f in ov.ranked[:top]:
        click.echo(f"{f['relevance']:>9.3f} {f['pagerank']:>8.3f} {f['tokens']:>7,} {f['community']:>4}  {f['rel']}")
    for s in ov.deficits:
        click.echo(f"suggest: {s}")


@ctx.command("smells")
@click.argument("directory", type=_DIR)
@click.option("--top", type=click.IntRange(min=1), default=20, show_default=True)
@json_option
@handle_errors
def smells_cmd(directory: Path, top: int, as_json: bool) -> None:
    """Long functions, deep nesting and high complexity, weighted by the file's centrality."""
    from lorekeeper.context.smells import find_smells

    found = find_smells(directory)
    if as_json:
        emit_json([s.to_dict() for s in found[:top]])
        return
    if not found:
        click.echo("No smells above the thresholds.")
        return
    click.echo(f"{'score':>7}  {'kind':<13} {'value':>5}  where")
    for s in found[:top]:
        click.echo(f"{s.score:>7.2f}  {s.kind:<13} {s.value:>5}  {s.rel}:{s.line} {s.name}")


@ctx.command("bench")
@click.argument("directory", type=_DIR)
@click.option("--task", "-t", default=None, help="Task for the auto row.")
@click.option("--budget", "-b", type=click.IntRange(min=1), default=None, help="Budget for the auto row.")
@json_option
@handle_errors
def bench_cmd(directory: Path, task: str | None, budget: int | None, as_json: bool) -> None:
    """Measure the packs of DIRECTORY per language: recall, parsing, tokens, time per layer."""
    from lorekeeper.context.bench import measure

    report = measure(directory, ("full", "map", "signatures", "auto"), task=task, budget=budget)
    if as_json:
        emit_json(report.to_dict())
        return
    rows = report.rows
    click.echo(
        f"{'':<22}{'tokens':>9}{'reduct.':>9}{'names':>8}{'sigs':>8}{'multi':>8}{'imports':>8}"
        f"{'idents':>8}{'parses':>8}{'time':>8}"
    )
    for r in rows:
        parses = "-" if r.parses is None else f"{r.parses:.0%}"
        click.echo(
            f"{r.label:<22}{r.tokens_out:>9,}{r.reduction:>9.1%}{r.name_recall:>8.1%}{r.signature_recall:>8.1%}"
            f"{r.multiline_signature_recall:>8.1%}{r.import_recall:>8.1%}{r.identifier_recall:>8.1%}"
            f"{parses:>8}{r.seconds:>7.2f}s"
        )
    click.echo(
        f"input: {rows[0].tokens_in:,} tokens (o200k_base); {rows[0].files} files of a supported language measured"
    )
    for mode, why in report.errors.items():
        click.echo(f"lorekeeper {mode}: not packed: {why}")
    modes = [
        m for m in ("naive", "full", "map", "signatures", "auto") if report.languages and m in report.languages[0].modes
    ]
    if report.languages:
        click.echo(f"\nper language (tree-sitter facts; Python: ast){'':<2}tokens per mode, then names/sigs recall")
        click.echo(f"{'language':<12}{'files':>6}{'tokens in':>11}" + "".join(f"{m:>11}" for m in modes))
        for lang in report.languages:
            click.echo(
                f"{lang.language:<12}{lang.files:>6}{lang.tokens_in:>11,}"
                + "".join(f"{int(str(lang.modes[m]['tokens'])):>11,}" for m in modes)
            )
            click.echo(
                f"{'  names/sigs':<29}"
                + "".join(
                    f"{_pct(lang.modes[m]['name_recall'])}/{_pct(lang.modes[m]['signature_recall'])}".rjust(11)
                    for m in modes
                )
                + f"  ({lang.names:,} names, {lang.signatures:,} signatures)"
            )
    shown = "auto" if "auto" in report.layers else next(reversed(report.layers), None)
    for mode, layers in report.layers.items():
        if mode != shown:
            continue
        click.echo(f"\nlayers of the {mode} pack: {'tokens in':>10}{'out':>9}{'time':>9}")
        for layer in layers:
            click.echo(
                f"  {layer['layer']:<22}{layer['tokens_in']:>10,}{layer['tokens_out']:>9,}"
                f"{float(str(layer['seconds'])):>8.3f}s  {layer['note']}"
            )


def _pct(value: object) -> str:
    """A recall as a short percentage: 100 for all, one decimal below."""
    share = float(str(value))
    return "100" if share >= 1 else f"{share * 100:.1f}"
