"""`lorekeeper memory collect|index|search|status`: research notes, clarification summaries and
learnings as FAISS + BM25 indexes (seed 004 B1)."""

from __future__ import annotations

from pathlib import Path

import click

from lorekeeper.cli.common import emit_json, handle_errors, json_option, open_workspace, workspace_option
from lorekeeper.cli.progress import current, progress_option
from lorekeeper.memory.layout import CORPORA


@click.group()
def memory() -> None:
    """Living memory: research notes, clarification summaries and learnings, indexed and searched."""


@memory.command("collect")
@workspace_option
@json_option
@progress_option("memory collect")
@handle_errors
def collect_cmd(workspace_dir: Path | None, as_json: bool) -> None:
    """Read the research notes under sources/ (front matter + H1 + summary) into the store."""
    from lorekeeper.memory.collect import collect

    with open_workspace(workspace_dir) as ws:
        report = collect(
            ws.store, ws.memory_layout, ws.clarifications, workspace=ws.audit.workspace_id, progress=current().phases
        )
    if as_json:
        emit_json(report.to_dict())
        return
    click.echo(
        f"notes: {report.added} added, {report.updated} updated, {report.unchanged} unchanged, "
        f"{report.removed} removed; clarification files imported: {report.clarifications}"
    )
    for path, reason in report.skipped:
        click.echo(f"  skipped {path}: {reason}", err=True)


@memory.command("index")
@click.option("--corpus", type=click.Choice(CORPORA), default=None, help="One corpus (default: all three).")
@workspace_option
@json_option
@progress_option("memory index")
@handle_errors
def index_cmd(corpus: str | None, workspace_dir: Path | None, as_json: bool) -> None:
    """(Re)build the FAISS index, embeddings and cache of each corpus from the store."""
    out = []
    with open_workspace(workspace_dir) as ws:
        # an explicit rebuild writes the index files from rows it must verify: fail closed (issue 24)
        ws.audit.check_writable()
        for c in [corpus] if corpus else list(CORPORA):
            out.append(ws.memory.build(c, progress=current().phase(c)))
    if as_json:
        emit_json({"indexes": out})
        return
    for m in out:
        click.echo(f"{m['corpus']}: {m['count']} item(s), {m['embedder']} ({m['model']}, {m['dimension']} dims)")


@memory.command("status")
@workspace_option
@json_option
@handle_errors
def status_cmd(workspace_dir: Path | None, as_json: bool) -> None:
    """Each corpus: documents, indexed items, embedder, dimension, stale or not."""
    with open_workspace(workspace_dir) as ws:
        rows = [ws.memory.status(c).to_dict() for c in CORPORA]
    if as_json:
        emit_json({"corpora": rows})
        return
    for r in rows:
        state = f"stale ({r['reason']})" if r["stale"] else "up to date"
        click.echo(
            f"{r['corpus']:<15} {r['documents']:>6} docs  {r['indexed']:>6} indexed  {r['embedder']} {r['dimension']}d  "
            f"{r['backend']}  {state}"
        )
    if rows and rows[0]["backend_note"]:
        click.echo(f"note: the indexes stay in this workspace (FAISS): {rows[0]['backend_note']}")


@memory.command("search")
@click.argument("query")
@click.option("--corpus", type=click.Choice(CORPORA), default="notes", show_default=True)
@click.option("--impact", default=None, help="fort | modere | faible (notes).")
@click.option("--verdict", default=None, help="signal | bruit | veille (notes).")
@click.option("--domain", default=None, help="Only this domain (required with --corpus clarifications).")
@click.option("--project", default=None, help="Only this project (required with --corpus clarifications).")
@click.option(
    "--min-score", type=float, default=None, help="Learnings: only those with a reuse score at least this (0 to 1)."
)
@click.option("--top", type=click.IntRange(min=1), default=5, show_default=True)
@click.option("--mode", type=click.Choice(["hybrid", "bm25", "vector"]), default="hybrid", show_default=True)
@click.option("--trace", "trace_story", default=None, help="Record the query and its results for STORY (signed).")
@workspace_option
@json_option
@progress_option("memory search")
@handle_errors
def search_cmd(
    query: str,
    corpus: str,
    impact: str | None,
    verdict: str | None,
    domain: str | None,
    project: str | None,
    min_score: float | None,
    top: int,
    mode: str,
    trace_story: str | None,
    workspace_dir: Path | None,
    as_json: bool,
) -> None:
    """Search a corpus: BM25 and vectors fused by reciprocal rank fusion, with filters. Learnings
    come by relevance, then reuse score; clarifications need --domain and --project."""
    run_search(
        query, corpus, impact, verdict, domain, project, min_score, top, mode, trace_story, workspace_dir, as_json
    )


def run_search(
    query: str,
    corpus: str,
    impact: str | None,
    verdict: str | None,
    domain: str | None,
    project: str | None,
    min_score: float | None,
    top: int,
    mode: str,
    trace_story: str | None,
    workspace_dir: Path | None,
    as_json: bool,
) -> None:
    """`memory search` (and `learn search`, its learnings corpus)."""
    from lorekeeper.memory.indexes import Filters
    from lorekeeper.memory.layout import check_story_id

    flt = Filters.of(impact, verdict, domain, project)
    with open_workspace(workspace_dir) as ws:
        story = check_story_id(trace_story) if trace_story else None
        if story:  # a traced search writes: no key or a broken chain, no search (not even an index build)
            ws.audit.check_writable()
        hits = [
            h.to_dict() for h in ws.memory.search(query, corpus, filters=flt, top=top, mode=mode, min_score=min_score)
        ]
        if story:  # the trace is written before the results are shown (fail closed)
            ws.audit.log.record(
                "memory_search",
                {
                    "story_id": story,
                    "query": query,
                    "corpus": corpus,
                    "mode": mode,
                    "filters": {k: v for k, v in flt.__dict__.items() if v}
                    | ({"min_score": min_score} if min_score is not None else {}),
                    "results": [h["id"] for h in hits],
                },
                story=story,
            )
    if as_json:
        emit_json({"results": hits})
        return
    if not hits:
        click.echo("No results.")
    for h in hits:
        reuse = f"  reuse={h['reuse_score']:.4f}" if "reuse_score" in h else ""
        click.echo(f"{h['score']:.4f}  {h['id']}  {h['title']}{reuse}")
