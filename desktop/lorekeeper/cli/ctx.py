"""`lorekeeper ctx pack|read|overview|smells|bench`: the context compression engine from the shell.

These commands work on a source tree and need no workspace: they read files and write only the
`-o` output (atomically).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from lorekeeper.cli.common import emit_json, handle_errors, json_option, workspace_option
from lorekeeper.cli.progress import current, progress_option
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
@click.option(
    "--no-cache",
    is_flag=True,
    help="Parse everything again and store nothing (the cache is in the workspace's cache/ folder, "
    "else the user cache folder; $LOREKEEPER_CACHE_DIR overrides; safe to delete).",
)
@click.option(
    "--include-secrets",
    is_flag=True,
    help="Also pack files that look like secrets (.env, private keys, credentials), left out by default; "
    "a warning names them.",
)
@json_option
@progress_option("ctx pack")
@handle_errors
@click.pass_context
def pack_cmd(
    ctx: click.Context,
    directory: Path,
    task: str | None,
    budget: int | None,
    mode: str,
    output: Path | None,
    no_cache: bool,
    include_secrets: bool,
    as_json: bool,
) -> None:
    """Pack DIRECTORY into one text for an agent, never over the budget nor over the input size.
    Parse results and packs are cached between runs by content: packing an unchanged tree again
    is answered from the cache."""
    from lorekeeper.context.diskcache import DiskCache, default_dir
    from lorekeeper.context.pack import pack
    from lorekeeper.fsutil import atomic_write_text

    workspace = (ctx.obj or {}).get("workspace_dir")
    cache = None if no_cache else DiskCache(default_dir(Path(workspace) if workspace else None))
    try:
        result = pack(
            directory,
            task=task,
            budget=budget,
            mode=mode,
            cache=cache,
            include_secrets=include_secrets,
            progress=current().step,
        )
    finally:
        if cache is not None:
            cache.close()
    if include_secrets:
        from lorekeeper.context.scan import is_secret

        packed = sorted(e.rel for e in result.entries if is_secret(e.rel))
        if packed:
            click.echo(
                f"warning: --include-secrets: the pack holds files that look like secrets: {', '.join(packed)}",
                err=True,
            )
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
    if result.output_tokens > result.input_tokens:
        # a tiny tree is sent whole: the pack's headers are all it adds, not a "negative saving"
        saving = f"the whole tree, +{result.output_tokens - result.input_tokens:,} header tokens"
    else:
        saving = f"{(1 - result.output_tokens / max(1, result.input_tokens)):.1%} less"
    click.echo(
        f"packed {len(result.entries)} files: {result.input_tokens:,} -> {result.output_tokens:,} tokens "
        f"({saving}; limit {result.cap:,}) "
        f"in {result.seconds:.2f}s{' (cached)' if result.cached else ''} [{summary}]"
        + (f" -> {output}" if output else ""),
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
@progress_option("ctx bench")
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


# --- ctx session (issue 16 d5): a context session that sends deltas, evicts by RRF, hands off ---------


def _session_store(workspace_dir: Path | None) -> Any:
    """The workspace's session store, found without opening the workspace (no store, fast)."""
    from lorekeeper.cli.common import open_workspace
    from lorekeeper.context.session import SessionStore
    from lorekeeper.errors import WorkspaceError
    from lorekeeper.locations import default_workspace_dir, resolve_workspace_dir

    if workspace_dir is None:
        cur = click.get_current_context(silent=True)
        workspace_dir = ((cur.find_root().obj or {}) if cur is not None else {}).get("workspace_dir")
    path = resolve_workspace_dir(workspace_dir)
    if not (path / "lorekeeper.toml").exists():
        if path != default_workspace_dir():
            raise WorkspaceError(f"no workspace at {path}: run `lorekeeper init {path}` first")
        open_workspace(None)  # the default workspace is created on first use, as everywhere
    return SessionStore(path)


def _print_delivery(d: Any, output: Path | None, as_json: bool) -> None:
    from lorekeeper.fsutil import atomic_write_text

    if output is not None:
        atomic_write_text(output, d.text)
    if as_json:
        data = d.to_dict()
        if output is not None:
            data.pop("text")
        emit_json(data)
        return
    if output is None:
        sys.stdout.write(d.text)
    click.echo(
        f"session {d.session} turn {d.turn}: sent {d.sent_tokens:,} tokens (without the session "
        f"{d.plain_tokens:,}); {len(d.unchanged)} unchanged, {len(d.evicted)} evicted; window "
        f"{d.used:,}/{d.window:,} ({d.pressure})",
        err=True,
    )


@ctx.group("session")
@workspace_option
def session_group(workspace_dir: Path | None) -> None:
    """A context session: send only what the agent lacks, evict by RRF, hand off to another role."""
    cur = click.get_current_context()
    cur.obj = {**(cur.find_root().obj or {}), **({"workspace_dir": workspace_dir} if workspace_dir else {})}


def _ws(cur: click.Context) -> Path | None:
    value = (cur.obj or {}).get("workspace_dir")
    return Path(value) if value else None


@session_group.command("start")
@click.argument("directory", type=_DIR)
@click.option("--id", "sid", default=None, help="Session id (default: a random s-xxxxxxxx).")
@click.option("--window", "-w", type=click.IntRange(min=1), default=None, help="The model's window in tokens.")
@click.option("--task", "-t", default=None, help="What the agent is about to do.")
@click.option("--role", default="coder", show_default=True, help="The agent's role (coder, reviewer, ...).")
@click.option("--agent", default="agent", show_default=True, help="The agent's name, for hand-offs.")
@click.option("--policy", type=click.Choice(("rrf", "lru")), default="rrf", show_default=True, help="Eviction.")
@json_option
@handle_errors
def session_start_cmd(
    directory: Path,
    sid: str | None,
    window: int | None,
    task: str | None,
    role: str,
    agent: str,
    policy: str,
    as_json: bool,
) -> None:
    """Start a context session on DIRECTORY; prints its id."""
    from lorekeeper.context.ledger import DEFAULT_WINDOW
    from lorekeeper.errors import InvalidInputError

    try:
        from lorekeeper.context.handoff import depth_for

        depth_for(role)
    except ValueError as exc:
        raise InvalidInputError(str(exc)) from None
    store = _session_store(_ws(click.get_current_context()))
    s = store.start(
        directory, sid=sid, window=window or DEFAULT_WINDOW, task=task, role=role, agent=agent, policy=policy
    )
    if as_json:
        emit_json({"session": s.id, "root": str(s.root), "window": s.window, "role": s.role, "policy": s.policy})
        return
    click.echo(s.id)


@session_group.command("pack")
@click.argument("session_id")
@click.option("--task", "-t", default=None, help="The task now (default: the session's).")
@click.option("--budget", "-b", type=click.IntRange(min=1), default=None, help="Hard limit in o200k_base tokens.")
@click.option("--mode", "-m", type=click.Choice(PACK_MODES), default="auto", show_default=True)
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), default=None)
@json_option
@handle_errors
def session_pack_cmd(
    session_id: str, task: str | None, budget: int | None, mode: str, output: Path | None, as_json: bool
) -> None:
    """Pack the session's tree: files the agent already holds come back as one line each."""
    store = _session_store(_ws(click.get_current_context()))
    with store.editing(session_id) as s:
        d = s.pack(task=task, budget=budget, mode=mode)
    _print_delivery(d, output, as_json)


@session_group.command("read")
@click.argument("session_id")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--mode", "-m", type=click.Choice(READ_MODES), default="auto", show_default=True)
@click.option("--task", "-t", default=None, help="Keep whole the definitions this task needs.")
@click.option("--budget", "-b", type=click.IntRange(min=1), default=None, help="Hard limit in tokens.")
@json_option
@handle_errors
def session_read_cmd(
    session_id: str, file: Path, mode: str, task: str | None, budget: int | None, as_json: bool
) -> None:
    """Read FILE in the session: one line if the agent already holds it unchanged."""
    store = _session_store(_ws(click.get_current_context()))
    with store.editing(session_id) as s:
        d = s.read(file, mode=mode, task=task, budget=budget)
    _print_delivery(d, None, as_json)


@session_group.command("note")
@click.argument("session_id")
@click.argument("text")
@click.option("--kind", type=click.Choice(("decision", "open", "discovery")), default="decision", show_default=True)
@json_option
@handle_errors
def session_note_cmd(session_id: str, text: str, kind: str, as_json: bool) -> None:
    """Record a decision, an open item or a discovery for the hand-off."""
    store = _session_store(_ws(click.get_current_context()))
    with store.editing(session_id) as s:
        n = s.note(text, kind)
    if as_json:
        emit_json({"session": session_id, **n})
        return
    click.echo(f"{kind} noted at turn {n['turn']}")


@session_group.command("status")
@click.argument("session_id", required=False)
@json_option
@handle_errors
def session_status_cmd(session_id: str | None, as_json: bool) -> None:
    """The session's files, window and tokens saved (no SESSION_ID: list the sessions)."""
    store = _session_store(_ws(click.get_current_context()))
    if session_id is None:
        rows = [
            {"session": s.id, "root": str(s.root), "turn": s.turn, "role": s.role, **s.totals()} for s in store.list()
        ]
        if as_json:
            emit_json(rows)
            return
        if not rows:
            click.echo("No context session. `lorekeeper ctx session start DIR` starts one.")
        for r in rows:
            click.echo(
                f"{r['session']}  turn {r['turn']}  {r['role']}  sent {r['sent_tokens']:,}/{r['plain_tokens']:,}  {r['root']}"
            )
        return
    st = store.load(session_id).status()
    if as_json:
        emit_json(st)
        return
    t = st["totals"]
    click.echo(
        f"session {st['session']} on {st['root']} ({st['role']}, {st['policy']}): turn {st['turn']}, window "
        f"{st['used']:,}/{st['window']:,} ({st['utilization']:.0%}, {st['pressure']})"
    )
    click.echo(
        f"sent {t['sent_tokens']:,} tokens; without the session {t['plain_tokens']:,} ({t['ratio']:.1%}); "
        f"{t['unchanged_lines']} unchanged lines, {t['evicted']} evicted"
    )
    click.echo(f"{'tokens':>7} {'mode':<10} {'sent':>4} {'last':>4} {'uses':>4}  path (most worth keeping first)")
    for f in st["files"][:40]:
        click.echo(
            f"{f['tokens']:>7,} {f['mode']:<10} {f['sent_turn']:>4} {f['last_turn']:>4} {f['uses']:>4}  {f['path']}"
        )
    if len(st["files"]) > 40:
        click.echo(f"... {len(st['files']) - 40} more")
    for e in st["evicted"]:
        click.echo(f"evicted at turn {e['turn']}: {e['path']}")


@session_group.command("handoff")
@click.argument("session_id")
@click.option("--to-role", default="reviewer", show_default=True, help="The receiving agent's role.")
@click.option("--to", "to_agent", default=None, help="The receiving agent's name (default: the role).")
@click.option("--budget", "-b", type=click.IntRange(min=1), default=800, show_default=True, help="Tokens at most.")
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), default=None)
@json_option
@handle_errors
def session_handoff_cmd(
    session_id: str, to_role: str, to_agent: str | None, budget: int, output: Path | None, as_json: bool
) -> None:
    """Summarise the session for another agent: files it knows, decisions, open items, in a budget."""
    from dataclasses import asdict

    from lorekeeper.errors import InvalidInputError
    from lorekeeper.fsutil import atomic_write_text

    store = _session_store(_ws(click.get_current_context()))
    s = store.load(session_id)
    try:
        pkg = s.handoff(to_role, to_agent=to_agent, budget=budget)
    except ValueError as exc:
        if isinstance(exc, InvalidInputError):
            raise
        raise InvalidInputError(str(exc)) from None
    if output is not None:
        atomic_write_text(output, pkg.text)
    if as_json:
        emit_json(asdict(pkg))
        return
    if output is None:
        sys.stdout.write(pkg.text)
    click.echo(f"hand-off: {pkg.tokens:,} of {budget:,} tokens, {pkg.dropped_files} file lines left out", err=True)


@session_group.command("end")
@click.argument("session_id")
@json_option
@handle_errors
def session_end_cmd(session_id: str, as_json: bool) -> None:
    """End the session (its file is removed) and print what it saved."""
    store = _session_store(_ws(click.get_current_context()))
    s = store.end(session_id)
    t = s.totals()
    if as_json:
        emit_json({"session": s.id, "ended": True, **t})
        return
    click.echo(
        f"ended {s.id}: {t['turns']} turns, sent {t['sent_tokens']:,} tokens instead of {t['plain_tokens']:,} "
        f"({t['saved_tokens']:,} saved)"
    )


def _pct(value: object) -> str:
    """A recall as a short percentage: 100 for all, one decimal below."""
    share = float(str(value))
    return "100" if share >= 1 else f"{share * 100:.1f}"
