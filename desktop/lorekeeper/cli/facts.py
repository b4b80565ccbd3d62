"""`lorekeeper facts ...`: typed facts from documentation (seed 003, issue 11).

JSON shapes (DESIGN.md): a fact is `{"id", "project", "type", "statement", "detail", "scope",
"tags", "confidence", "status", "provenance": [{"document_id", "origin", "quote"}],
"corroboration", ...}`; `list` → `{"facts": [...]}`; `conflicts` → `{"conflicts": [{"id",
"facts", "reason", ...}]}`; `conventions` → `{"path", "facts": [...]}`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from lorekeeper.cli.common import (
    emit_json,
    emit_json_items,
    handle_errors,
    json_option,
    open_workspace,
    same_operator,
    workspace_option,
)
from lorekeeper.cli.progress import current, progress_option
from lorekeeper.facts.model import STATUSES, TYPES, FactInfo
from lorekeeper.jobs import drive

REASON_HELP = "Why (required; kept in the signed audit event)."


def _line(f: FactInfo) -> str:
    flags = []
    if f.flag:
        flags.append(f.flag)
    if f.conflict is not None:
        flags.append(f"conflict #{f.conflict}")
    if f.merged_into:
        flags.append(f"merged into {f.merged_into}")
    extra = f"  [{', '.join(flags)}]" if flags else ""
    scope = f"  scope: {', '.join(f.scope)}" if f.scope else ""
    return f"{f.id}  {f.status:<11} {f.confidence:.2f} ×{f.corroboration}  {f.statement}{scope}{extra}"


def _print_fact(f: FactInfo) -> None:
    click.echo(f"{f.id}  ({f.type}, {f.status}, confidence {f.confidence:.2f}, corroboration {f.corroboration})")
    click.echo(f"  {f.statement}")
    if f.detail:
        click.echo(f"  detail: {f.detail}")
    if f.scope:
        click.echo(f"  scope: {', '.join(f.scope)}")
    if f.tags:
        click.echo(f"  tags: {', '.join(f.tags)}")
    for p in f.provenance:
        click.echo(f'  source: {p.origin} ({p.document_id}): "{p.quote}"')
    if f.flag:
        click.echo(f"  flagged: {f.flag}")
    if f.conflict is not None:
        click.echo(f"  in conflict #{f.conflict}: `lorekeeper facts resolve {f.conflict} ...`")
    if f.merged_into:
        click.echo(f"  merged into {f.merged_into}")
    if f.decided_by and f.decided_at:
        click.echo(
            f"  decided by {f.decided_by} at {f.decided_at}" + (f": {f.decision_reason}" if f.decision_reason else "")
        )


@click.group("facts")
def facts() -> None:
    """Typed facts from documentation: ingest, extract, review, arbitrate, pack."""


# ---------------------------------------------------------------------- documents and extraction
@facts.command("ingest")
@click.argument("path", type=click.Path(exists=True, path_type=Path))
@click.option("--project", default=None, help="The project the documents belong to (default: the folder's name).")
@click.option("--no-extract", is_flag=True, help="Record the documents only; extract later with `facts extract`.")
@click.option(
    "--recorded",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help='Apply a recorded extraction ({"documents": {origin: {"facts": [...]}}}) instead of calling the model.',
)
@workspace_option
@json_option
@progress_option("facts ingest")
@handle_errors
def facts_ingest(
    path: Path, project: str | None, no_extract: bool, recorded: Path | None, workspace_dir: Path | None, as_json: bool
) -> None:
    """Ingest the markdown, text and source files of PATH (a folder, a git checkout or a file).

    An unchanged file is skipped; a new or changed one is extracted (the configured model, or
    --recorded); facts whose quote vanished from a changed file are flagged for review."""
    from lorekeeper.facts.service import load_recording

    recording = load_recording(recorded) if recorded is not None else None  # refused before anything is written
    with open_workspace(workspace_dir) as ws:
        report = ws.facts.ingest(path, project)
        extraction: dict[str, Any] | None = None
        note = ""
        if recording is not None:
            extraction = ws.facts.apply_recorded(recording, report.project).to_dict()
        elif not no_extract and report.to_extract:
            status = ws.llm.status()
            if status.ready:
                result = drive(
                    ws.facts.extract,
                    (report.project, report.to_extract),
                    on_progress=current().job,
                )
                extraction = result.to_dict()
            else:
                note = f"not extracted: {status.reason} Then run `lorekeeper facts extract --project {report.project}`."
        pending = ws.facts.pending(report.project)
    out = {**report.to_dict(), "extraction": extraction, "pending": pending, "note": note or None}
    if as_json:
        emit_json(out)
        return
    click.echo(
        f"{report.project}: {len(report.new)} new, {len(report.changed)} changed, {len(report.unchanged)} unchanged, "
        f"{len(report.removed)} removed, {len(report.skipped)} skipped"
    )
    for skipped in report.skipped:  # issue 31 item 7: why, not only how many
        click.echo(f"skipped {skipped['origin']}: {skipped['reason']}")
    if report.flagged:
        click.echo(f"flagged for review (quote vanished): {', '.join(report.flagged)}")
    if extraction is not None:
        _print_extraction(extraction)
    if note:
        click.echo(note)


def _print_extraction(rep: dict[str, Any]) -> None:
    click.echo(
        f"extraction ({rep['model']}): {rep['documents']} document(s), {rep['proposed']} proposed, "
        f"{len(rep['kept'])} new candidate(s), {len(rep['merged'])} merged, {len(rep['dropped'])} dropped"
    )
    for d in rep["dropped"]:
        click.echo(f"  dropped ({d['document']}): {d['reason']}: {d.get('statement') or ''}")
    for e in rep["errors"]:
        click.echo(f"  error ({e['document']}): {e['error']}", err=True)


@facts.command("extract")
@click.option("--project", default=None, help="Extract this project's pending documents.")
@click.option("--document", "document_ids", multiple=True, help="A document id to (re-)extract; repeatable.")
@click.option(
    "--recorded",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Apply a recorded extraction instead of calling the model (needs --project).",
)
@workspace_option
@json_option
@progress_option("facts extract")
@handle_errors
def facts_extract(
    project: str | None, document_ids: tuple[str, ...], recorded: Path | None, workspace_dir: Path | None, as_json: bool
) -> None:
    """Extract facts with the configured model (a job; invalid facts and invented quotes are dropped)."""
    from lorekeeper.facts.service import load_recording

    recording = load_recording(recorded) if recorded is not None else None
    with open_workspace(workspace_dir) as ws:
        if recording is not None:
            if not project:
                raise click.UsageError("--recorded needs --project")
            rep = ws.facts.apply_recorded(recording, project).to_dict()
        else:
            result = drive(ws.facts.extract, (project, list(document_ids) or None), on_progress=current().job)
            rep = result.to_dict()
    if as_json:
        emit_json(rep)
    else:
        _print_extraction(rep)


@facts.command("documents")
@click.option("--project", default=None)
@workspace_option
@json_option
@handle_errors
def facts_documents(project: str | None, workspace_dir: Path | None, as_json: bool) -> None:
    """The ingested documents, their ids and whether their current content was extracted."""
    with open_workspace(workspace_dir) as ws:
        docs = ws.facts.documents(project)
    if as_json:
        emit_json({"documents": [d.to_dict() for d in docs]})
        return
    for d in docs:
        state = "missing" if d.missing else "extracted" if d.extracted else "pending"
        click.echo(f"{d.id}  {state:<9} {d.origin}")


@facts.command("runs")
@click.option("--limit", type=int, default=10, show_default=True)
@workspace_option
@json_option
@handle_errors
def facts_runs(limit: int, workspace_dir: Path | None, as_json: bool) -> None:
    """The last extraction runs and their reports (kept, merged, dropped with reasons)."""
    with open_workspace(workspace_dir) as ws:
        runs = ws.facts.runs(limit)
    if as_json:
        emit_json({"runs": runs})
        return
    for r in runs:
        rep = r["report"]
        click.echo(
            f"#{r['id']} {r['kind']} {r['project']} {r['started_at'][:19]}: {len(rep.get('kept', []))} kept, "
            f"{len(rep.get('merged', []))} merged, {len(rep.get('dropped', []))} dropped"
        )


# ---------------------------------------------------------------------- review
@facts.command("list")
@click.option("--project", default=None)
@click.option("--status", type=click.Choice(STATUSES), default=None)
@click.option("--type", "type_", type=click.Choice(TYPES), default=None)
@click.option("--document", default=None, help="Only facts with a provenance in this document id.")
@click.option("--flagged", is_flag=True, help="Only facts flagged for review (quote vanished, document removed).")
@click.option("--all", "include_merged", is_flag=True, help="Also the facts merged into others (their history).")
@click.option(
    "--by",
    "by",
    default=None,
    help='Only the decisions of this operator (the Vault identity or OS login shown as "by").',
)
@workspace_option
@json_option
@handle_errors
def facts_list(
    project: str | None,
    status: str | None,
    type_: str | None,
    document: str | None,
    flagged: bool,
    include_merged: bool,
    by: str | None,
    workspace_dir: Path | None,
    as_json: bool,
) -> None:
    """List facts (merged ones only with --all); --by: those this operator decided."""
    with open_workspace(workspace_dir) as ws:
        found = ws.facts.list(
            project, status, type_, document=document, flagged=True if flagged else None, include_merged=include_merged
        )
    if by is not None:
        found = [f for f in found if same_operator(f.decided_by, by)]
    if as_json:
        emit_json_items("facts", found)
        return
    for f in found:
        click.echo(_line(f))


@facts.command("show")
@click.argument("fact_id")
@workspace_option
@json_option
@handle_errors
def facts_show(fact_id: str, workspace_dir: Path | None, as_json: bool) -> None:
    """Show one fact with its provenances."""
    with open_workspace(workspace_dir) as ws:
        f = ws.facts.show(fact_id)
    if as_json:
        emit_json(f.to_dict())
    else:
        _print_fact(f)


def _emit_facts(found: list[FactInfo], as_json: bool, verb: str) -> None:
    if as_json:
        emit_json(found[0].to_dict() if len(found) == 1 else {"facts": [f.to_dict() for f in found]})
        return
    for f in found:
        click.echo(f"{verb} {f.id}: {f.statement}")


@facts.command("approve")
@click.argument("fact_ids", nargs=-1, required=True)
@click.option("--reason", "--why", "reason", default="", help="Why (kept in the signed audit event).")
@click.option("--by", default=None, help="Who decides (default: the login name).")
@workspace_option
@json_option
@handle_errors
def facts_approve(
    fact_ids: tuple[str, ...], reason: str, by: str | None, workspace_dir: Path | None, as_json: bool
) -> None:
    """Approve one or more facts (a signed decision)."""
    with open_workspace(workspace_dir) as ws:
        d = ws.facts.approve_many(fact_ids, why=reason, by=by)
    _emit_facts(d.facts, as_json, "approved")


@facts.command("reject")
@click.argument("fact_id")
@click.option("--reason", "--why", "reason", required=True, help=REASON_HELP)
@click.option("--by", default=None, help="Who decides (default: the login name).")
@workspace_option
@json_option
@handle_errors
def facts_reject(fact_id: str, reason: str, by: str | None, workspace_dir: Path | None, as_json: bool) -> None:
    """Reject a fact; a reason is required (a signed decision). It never enters a pack."""
    with open_workspace(workspace_dir) as ws:
        d = ws.facts.reject(fact_id, why=reason, by=by)
    _emit_facts(d.facts, as_json, "rejected")


@facts.command("reopen")
@click.argument("fact_id")
@click.option("--reason", "--why", "reason", default="", help="Why (kept in the signed audit event).")
@click.option("--by", default=None)
@workspace_option
@json_option
@handle_errors
def facts_reopen(fact_id: str, reason: str, by: str | None, workspace_dir: Path | None, as_json: bool) -> None:
    """Put an approved or rejected fact back to candidate (undo a decision; signed)."""
    with open_workspace(workspace_dir) as ws:
        d = ws.facts.reopen(fact_id, why=reason, by=by)
    _emit_facts(d.facts, as_json, "reopened")


@facts.command("edit")
@click.argument("fact_id")
@click.option("--statement", default=None)
@click.option("--detail", default=None)
@click.option("--scope", "scope", multiple=True, help="A glob (gitignore style); repeatable; replaces the scope.")
@click.option("--clear-scope", is_flag=True, help="Make the fact universal (no scope).")
@click.option("--type", "type_", type=click.Choice(TYPES), default=None, help="A new type (the fact gets a new id).")
@click.option("--tag", "tags", multiple=True, help="A tag; repeatable; replaces the tags.")
@click.option("--confidence", type=float, default=None)
@click.option("--reason", "--why", "reason", default="", help="Why (kept in the signed audit event).")
@click.option("--by", default=None)
@workspace_option
@json_option
@handle_errors
def facts_edit(
    fact_id: str,
    statement: str | None,
    detail: str | None,
    scope: tuple[str, ...],
    clear_scope: bool,
    type_: str | None,
    tags: tuple[str, ...],
    confidence: float | None,
    reason: str,
    by: str | None,
    workspace_dir: Path | None,
    as_json: bool,
) -> None:
    """Edit a fact's statement, detail, scope, type, tags or confidence (a signed decision)."""
    with open_workspace(workspace_dir) as ws:
        d = ws.facts.edit(
            fact_id,
            statement=statement,
            detail=detail,
            scope=[] if clear_scope else (list(scope) if scope else None),
            type=type_,
            tags=list(tags) if tags else None,
            confidence=confidence,
            why=reason,
            by=by,
        )
    _emit_facts(d.facts, as_json, "edited")


@facts.command("add")
@click.option("--project", required=True)
@click.option("--type", "type_", required=True, help=f"One of: {', '.join(TYPES)}.")
@click.option("--statement", required=True, help="One imperative, self-contained sentence.")
@click.option("--document", required=True, help="The document (a file, ingested if needed, or a document id).")
@click.option("--quote", required=True, help="The sentence of the document that justifies it, verbatim.")
@click.option("--detail", default="")
@click.option("--scope", "scope", multiple=True, help="A glob (gitignore style); repeatable; none: everywhere.")
@click.option("--tag", "tags", multiple=True, help="A tag; repeatable.")
@click.option("--confidence", type=float, default=0.9, show_default=True)
@click.option("--by", default=None)
@workspace_option
@json_option
@handle_errors
def facts_add(
    project: str,
    type_: str,
    statement: str,
    document: str,
    quote: str,
    detail: str,
    scope: tuple[str, ...],
    tags: tuple[str, ...],
    confidence: float,
    by: str | None,
    workspace_dir: Path | None,
    as_json: bool,
) -> None:
    """Add a fact by hand: its quote must occur verbatim in its document (else ERR_INVALID_SPEC)."""
    with open_workspace(workspace_dir) as ws:
        d = ws.facts.add(
            project,
            type_,
            statement,
            document,
            quote,
            detail=detail,
            scope=list(scope),
            tags=list(tags),
            confidence=confidence,
            by=by,
        )
    f = d.fact
    if as_json:
        emit_json(f.to_dict())
    else:
        _print_fact(f)


# ---------------------------------------------------------------------- consolidation and conflicts
@facts.command("consolidate")
@click.option("--project", default=None)
@click.option("--llm", "use_llm", is_flag=True, help="Also the model pass: paraphrases merged, contradictions flagged.")
@workspace_option
@json_option
@progress_option("facts consolidate")
@handle_errors
def facts_consolidate(project: str | None, use_llm: bool, workspace_dir: Path | None, as_json: bool) -> None:
    """Merge near-duplicate facts (lexical, Jaccard >= 0.62; --llm: paraphrases and contradictions)."""
    with open_workspace(workspace_dir) as ws:
        rep = drive(ws.facts.consolidate, (project,), {"llm": use_llm}, on_progress=current().job)
    if as_json:
        emit_json(rep.to_dict())
        return
    click.echo(
        f"{len(rep.lexical)} lexical merge(s), {len(rep.paraphrases)} paraphrase merge(s), "
        f"{len(rep.conflicts)} conflict(s) to arbitrate"
    )
    for m in rep.lexical:
        click.echo(f"  {m['fact']} → {m['into']}")
    for c in rep.conflicts:
        click.echo(f"  conflict #{c}: `lorekeeper facts conflicts` then `lorekeeper facts resolve {c} ...`")


@facts.command("conflicts")
@click.option("--project", default=None)
@click.option("--all", "show_all", is_flag=True, help="Resolved conflicts too.")
@click.option("--by", "by", default=None, help="Only the conflicts this operator resolved (implies --all).")
@workspace_option
@json_option
@handle_errors
def facts_conflicts(
    project: str | None, show_all: bool, by: str | None, workspace_dir: Path | None, as_json: bool
) -> None:
    """Contradictions waiting for a human (never decided automatically); --by: who resolved them."""
    with open_workspace(workspace_dir) as ws:
        found = ws.facts.conflicts(project, None if show_all or by is not None else "open")
        if by is not None:
            found = [c for c in found if same_operator(c.resolved_by, by)]
        details = {c.id: [ws.facts.show(i) for i in c.facts] for c in found} if not as_json else {}
    if as_json:
        emit_json({"conflicts": [c.to_dict() for c in found]})
        return
    if not found:
        click.echo("no open conflict")
    for c in found:
        click.echo(
            f"#{c.id} ({c.project}, {c.status}): {c.reason}" + (f" (by {c.resolved_by})" if c.resolved_by else "")
        )
        for f in details[c.id]:
            quotes = "; ".join(f'{p.origin}: "{p.quote}"' for p in f.provenance)
            click.echo(f"  {f.id}  {f.statement}\n      {quotes}")


@facts.command("resolve")
@click.argument("conflict_id")
@click.option("--keep", default=None, help="Keep this fact (approved); the others are rejected.")
@click.option("--merge", default=None, help="Replace them with this statement (a new approved fact).")
@click.option("--reject-all", is_flag=True, help="Reject every fact of the conflict.")
@click.option("--reason", "--why", "reason", required=True, help=REASON_HELP)
@click.option("--by", default=None)
@workspace_option
@json_option
@handle_errors
def facts_resolve(
    conflict_id: str,
    keep: str | None,
    merge: str | None,
    reject_all: bool,
    reason: str,
    by: str | None,
    workspace_dir: Path | None,
    as_json: bool,
) -> None:
    """Arbitrate CONFLICT: --keep FACT, --merge STATEMENT or --reject-all, with --reason (signed)."""
    with open_workspace(workspace_dir) as ws:
        d = ws.facts.resolve(conflict_id, keep=keep, merge=merge, reject_all=reject_all, why=reason, by=by)
    assert d.conflict is not None
    if as_json:
        emit_json({"conflict": d.conflict.to_dict(), "facts": [f.to_dict() for f in d.facts]})
        return
    click.echo(f"conflict #{d.conflict.id} resolved ({d.conflict.resolution})")
    for f in d.facts:
        click.echo(f"  {f.id}  {f.status}  {f.statement}")


@facts.command("reopen-conflict")
@click.argument("conflict_id")
@click.option("--reason", "--why", "reason", default="", help="Why (kept in the signed audit event).")
@click.option("--by", default=None)
@workspace_option
@json_option
@handle_errors
def facts_reopen_conflict(
    conflict_id: str, reason: str, by: str | None, workspace_dir: Path | None, as_json: bool
) -> None:
    """Undo the arbitration of CONFLICT: open again, its facts back in conflict (a merge's fact rejected; signed)."""
    with open_workspace(workspace_dir) as ws:
        d = ws.facts.reopen_conflict(conflict_id, why=reason, by=by)
    assert d.conflict is not None
    if as_json:
        emit_json({"conflict": d.conflict.to_dict(), "facts": [f.to_dict() for f in d.facts]})
        return
    click.echo(f"conflict #{d.conflict.id} reopened")
    for f in d.facts:
        click.echo(f"  {f.id}  {f.status}  {f.statement}")


# ---------------------------------------------------------------------- packs
@facts.command("pack")
@click.option("--project", required=True)
@click.option("--budget", type=click.IntRange(min=0), default=None, help="o200k tokens (default 2000).")
@click.option("--format", "fmt", type=click.Choice(["md", "json"]), default="md", show_default=True)
@click.option("--approved-only", is_flag=True, help="Leave candidate facts out.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None, help="Write to a file.")
@workspace_option
@json_option
@progress_option("facts pack")
@handle_errors
def facts_pack(
    project: str,
    budget: int | None,
    fmt: str,
    approved_only: bool,
    output: Path | None,
    workspace_dir: Path | None,
    as_json: bool,
) -> None:
    """The sharpest facts within a token budget, as markdown for AGENTS.md / CLAUDE.md or JSON."""
    import json

    from lorekeeper.fsutil import atomic_write_text

    with open_workspace(workspace_dir) as ws:
        pack = ws.facts.pack(project, budget, approved_only=approved_only)
    text = (
        json.dumps(pack.to_dict(), ensure_ascii=False, indent=2) + "\n" if as_json or fmt == "json" else pack.markdown
    )
    if output is not None:
        atomic_write_text(output, text)
        click.echo(f"wrote {len(pack.facts)} fact(s), {pack.tokens} tokens, to {output}", err=True)
        return
    sys.stdout.write(text)
    sys.stdout.flush()


@facts.command("settings")
@click.option("--project", required=True)
@click.option(
    "--include-candidates/--approved-only",
    "include",
    default=None,
    help="Whether candidate facts enter this project's packs (lorekeeper.toml [facts.projects.P]).",
)
@workspace_option
@json_option
@handle_errors
def facts_settings(project: str, include: bool | None, workspace_dir: Path | None, as_json: bool) -> None:
    """Show or set a project's fact settings (include_candidates, in lorekeeper.toml)."""
    with open_workspace(workspace_dir) as ws:
        if include is None and project not in (ws.config.get("facts.projects", {}) or {}):
            # showing reads a project: a name neither the store nor lorekeeper.toml knows is a typo
            # (issue 31 item 4); setting may come before the project's first document
            from lorekeeper.store.projects import require_project

            with ws.store.session() as s:
                require_project(s, project)
        if include is not None:  # it decides which facts reach the agents: fail closed like a decision (issue 24)
            ws.audit.check_writable()
        value = (
            ws.facts.include_candidates(project)
            if include is None
            else ws.facts.set_include_candidates(project, include)
        )
    if as_json:
        emit_json({"project": project, "include_candidates": value})
    else:
        click.echo(f"{project}: include_candidates = {'true' if value else 'false'}")


@facts.command("conventions")
@click.argument("path")
@click.option("--project", required=True)
@workspace_option
@json_option
@handle_errors
def facts_conventions(path: str, project: str, workspace_dir: Path | None, as_json: bool) -> None:
    """The facts whose scope matches PATH, most specific first (universal facts live in the pack)."""
    with open_workspace(workspace_dir) as ws:
        found = ws.facts.conventions(path, project)
    if as_json:
        emit_json({"path": path, "facts": [f.to_dict() for f in found]})
        return
    for f in found:
        click.echo(f"- [{', '.join(f.scope)}] {f.statement}")
