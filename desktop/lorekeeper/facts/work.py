"""`FactWork`: ingest, extraction and consolidation, the fact jobs (seed 003, issue 11).

- `ingest(path, project=None) -> IngestReport` (quick: reads files, detects changes, flags facts
  whose quote vanished); `document_for(project, document)`: a document id, or a file ingested now.
- `extract(project=None, documents=None, cancel=None)` -> `ExtractReport` (the configured model);
  `apply_recorded(path_or_data, project)` -> `ExtractReport` (a recorded extraction: the demo, tests).
- `consolidate(project=None, llm=False)` -> `ConsolidateReport`; `apply_recorded_consolidation`.
`extract` and `consolidate` are jobs: generators yielding `jobs.Progress` (`jobs.drive`, `ui.workers`).
"""

from __future__ import annotations

import builtins
import stat
from collections.abc import Callable, Generator, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from lorekeeper.errors import InvalidInputError, InvalidSpecError, LorekeeperError
from lorekeeper.facts import documents as docs
from lorekeeper.facts import extract as ex
from lorekeeper.facts.model import FactInfo, Provenance, check_statement, document_id, dumps, posix, squash
from lorekeeper.facts.reading import FactReader
from lorekeeper.facts.reports import (
    CONSOLIDATE_BATCH,
    EVENT_CONSOLIDATED,
    EVENT_EXTRACTED,
    MAX_REASON,
    ConsolidateReport,
    DocumentInfo,
    ExtractReport,
    IngestReport,
    load_recording,
    loads,
)
from lorekeeper.facts.rows import FactRows
from lorekeeper.facts.writer import FactWriter
from lorekeeper.fsutil import not_regular, shown_path, utf8_name
from lorekeeper.jobs import CancelToken, Progress
from lorekeeper.store.models import Fact, FactDocument, FactRun, utcnow
from lorekeeper.store.scopes import validate_project

if TYPE_CHECKING:
    from lorekeeper.llm.base import Provider


class FactWork:
    def __init__(
        self, rows: FactRows, writer: FactWriter, reader: FactReader, provider: Callable[[], Provider]
    ) -> None:
        self.rows = rows
        self.store = rows.store
        self.writer = writer
        self.reader = reader
        self.provider = provider

    # ------------------------------------------------------------------ ingest
    def ingest(self, path: str | Path, project: str | None = None) -> IngestReport:
        """Read the markdown, text and source files under `path` (a folder, a git checkout or one
        file). New and changed files are recorded for extraction; an unchanged file does nothing;
        facts whose quote vanished from a changed file are flagged for review."""
        target = Path(path).expanduser()
        if not target.exists():
            raise InvalidSpecError(f"{shown_path(path)} does not exist: give a folder, a git checkout or a file")
        mode = target.stat().st_mode
        if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):  # a FIFO or a device: refused, never read
            raise not_regular(target, mode, "document")
        root, found = docs.scan(target)
        proj = validate_project(project or self._default_project(root))
        report = self._ingest_files(proj, root, found, whole_root=target.is_dir())
        return report

    @staticmethod
    def _default_project(root: Path) -> str:
        name = "".join(c if c.isalnum() or c in "._-" else "-" for c in root.name).strip("-._") or "docs"
        return name[:128]

    def _ingest_files(
        self, project: str, root: Path, found: Sequence[docs.Candidate], *, whole_root: bool = False
    ) -> IngestReport:
        report = IngestReport(project=project, root=str(root))
        texts: dict[str, tuple[docs.Candidate, str, str]] = {}
        import hashlib

        for cand in found:
            if not utf8_name(cand.origin) or not utf8_name(str(cand.path)):
                report.skipped.append({"origin": shown_path(cand.origin), "reason": "the file name is not UTF-8"})
                continue
            text = docs.read_text(cand.path)
            if isinstance(text, docs.Skipped):
                report.skipped.append({"origin": cand.origin, "reason": text.reason})
                continue
            if not text.strip():
                report.skipped.append({"origin": cand.origin, "reason": "empty"})
                continue
            texts[document_id(project, cand.origin)] = (cand, text, hashlib.sha256(text.encode("utf-8")).hexdigest())
        signer: Any = None
        with self.store.write() as s:
            existing = {r.id: r for r in s.scalars(select(FactDocument).where(FactDocument.project == project)).all()}
            changed_docs: dict[str, str] = {}
            for did, (cand, text, sha) in texts.items():
                row = existing.get(did)
                now = utcnow()
                if row is None:
                    s.add(
                        FactDocument(
                            id=did,
                            project=project,
                            origin=posix(cand.origin),
                            path=self.rows.stored_path(cand.path),
                            kind=cand.kind,
                            sha256=sha,
                            text=text,
                            size=len(text.encode("utf-8")),
                            created_at=now,
                            updated_at=now,
                        )
                    )
                    report.new.append(did)
                elif row.sha256 == sha and not row.missing:
                    report.unchanged.append(did)
                else:
                    row.sha256, row.text, row.size = sha, text, len(text.encode("utf-8"))
                    row.path, row.kind, row.missing = self.rows.stored_path(cand.path), cand.kind, False
                    row.updated_at = now
                    report.changed.append(did)
                    changed_docs[did] = text
            if whole_root:  # files gone from the folder: their facts are flagged
                resolved_root = root.resolve()
                for did, row in existing.items():
                    if (
                        did not in texts
                        and not row.missing
                        and self.rows.absolute_path(row.path).is_relative_to(resolved_root)
                    ):
                        row.missing = True
                        row.updated_at = utcnow()
                        report.removed.append(did)
                        changed_docs[did] = ""
            if changed_docs:
                flat_docs = {did: squash(text) if text else "\0" for did, text in changed_docs.items()}
                facts = s.scalars(select(Fact).where(Fact.project == project, Fact.merged_into == "")).all()
                for frow in self.rows.filter(facts, "ingest"):
                    prov = [Provenance.from_dict(p) for p in loads(frow.provenance, [])]
                    mine = [p for p in prov if p.document_id in changed_docs]
                    if not mine:
                        continue
                    vanished = [p for p in mine if squash(p.quote) not in flat_docs[p.document_id]]
                    flag = ""
                    if vanished:
                        flag = (
                            "document_removed"
                            if all(not changed_docs[p.document_id] for p in vanished)
                            else "quote_vanished"
                        )
                    if flag != frow.flag and (flag or frow.flag in ("quote_vanished", "document_removed")):
                        if signer is None:
                            signer = self.rows.signer()
                        frow.flag = flag
                        self.rows.sign(frow, signer)
                        if flag:
                            report.flagged.append(frow.id)
        report.changes = self.store.last_changes()
        return report

    def document_for(self, project: str, document: str) -> FactDocument:
        """A document id of the project, or a file (ingested now when it is new or changed)."""
        with self.store.session() as s:
            row = s.get(FactDocument, document)
            if row is not None:
                if row.project != project:
                    raise InvalidSpecError(f"document {document} belongs to project {row.project}, not {project}")
                s.expunge(row)
                return row
        path = Path(document).expanduser()
        if not path.is_file():
            raise InvalidSpecError(f"no document {document!r}: give a file path or a document id of {project}")
        resolved = path.resolve()
        readable = docs.read_text(resolved)
        if isinstance(readable, docs.Skipped):  # say why (the size cap, binary, not UTF-8), not just "unreadable"
            raise InvalidSpecError(f"cannot be a fact's document: {readable.reason}", file=str(document))
        with self.store.session() as s:
            known = s.scalars(
                select(FactDocument).where(
                    FactDocument.project == project, FactDocument.path == self.rows.stored_path(resolved)
                )
            ).first()
            origin = known.origin if known is not None else self._origin_for(resolved)
        self._ingest_files(
            project, resolved.parent, [docs.Candidate(origin, resolved, docs.kind_of(resolved) or "text")]
        )
        with self.store.session() as s:
            row = s.get(FactDocument, document_id(project, origin))
            if row is None:
                raise InvalidSpecError(f"{document} could not be read as a text document")
            s.expunge(row)
            return row

    @staticmethod
    def _origin_for(path: Path) -> str:
        try:
            return path.relative_to(Path.cwd().resolve()).as_posix()
        except ValueError:
            return path.name

    def extract(
        self,
        project: str | None = None,
        documents: Sequence[str] | None = None,
        cancel: CancelToken | None = None,
    ) -> Generator[Progress, None, ExtractReport]:
        """A job: extract facts from `documents` (default: the project's pending ones) with the
        configured model; yields Progress per part, returns an ExtractReport."""
        proj = validate_project(project) if project else ""
        provider = self.provider()
        status = provider.status()
        if not status.ready:
            from lorekeeper.llm.base import LLMUnavailableError

            raise LLMUnavailableError(status.reason or "no model is configured")
        self.rows.audit_log()  # fail closed before the first model call
        ids = list(documents) if documents else self.reader.pending(proj or None)
        work: builtins.list[tuple[DocumentInfo, int, str]] = []
        for did in ids:
            doc = self.reader.document(did)
            if proj and doc.project != proj:
                raise InvalidInputError(f"document {did} belongs to project {doc.project}, not {proj}")
            for i, part in enumerate(ex.chunks(doc.text)):
                work.append((doc, i, part))
        report = ExtractReport(project=proj, model=provider.model)
        total = len(work)
        answers: dict[str, builtins.list[Any]] = {}
        started = utcnow()
        yield Progress(0, total, f"extracting {len({d.id for d, _, _ in work})} document(s)")
        for n, (doc, i, part) in enumerate(work):
            if cancel is not None:
                cancel.raise_if_cancelled()
            parts = len(ex.chunks(doc.text))
            label = f" (part {i + 1} of {parts})" if parts > 1 else ""
            prompt = ex.prompt_for(doc.origin, part, part=label)
            try:
                text = provider.complete_json(prompt, schema=ex.ANSWER_SCHEMA, system=ex.SYSTEM)
                items = ex.parse_answer(str(text))
            except LorekeeperError as exc:
                report.errors.append({"document": doc.origin, "error": f"{exc.code}: {exc.message}"})
                items = None
            if items is not None:
                answers.setdefault(doc.id, []).extend(items)
            yield Progress(n + 1, total, f"{doc.origin}{label}")
        if cancel is not None:
            cancel.raise_if_cancelled()
        failed = {e["document"] for e in report.errors}
        done = [
            did for did in dict.fromkeys(d.id for d, _, _ in work) if self.reader.document(did).origin not in failed
        ]
        self._store_extraction(report, {d: answers.get(d, []) for d in done}, kind="extract", started=started)
        return report

    def apply_recorded(self, recording: str | Path | dict[str, Any], project: str) -> ExtractReport:
        """Apply a recorded extraction (`{"documents": {origin or document id: {"facts": [...]}}}`,
        the model's answers as they were given): the same checks as a live one. The demo and the
        tests use it; so can an operator who ran the prompt elsewhere."""
        proj = validate_project(project)
        data = recording if isinstance(recording, dict) else load_recording(recording)
        entries = data.get("documents") if isinstance(data, dict) else None
        if not isinstance(entries, dict):
            raise InvalidSpecError('a recorded extraction is {"documents": {origin: {"facts": [...]}}}')
        by_origin = {d.origin: d.id for d in self.reader.documents(proj)}
        report = ExtractReport(project=proj, model=str(data.get("model", "recorded")))
        answers: dict[str, builtins.list[Any]] = {}
        for key, answer in entries.items():
            did = key if key in by_origin.values() else by_origin.get(posix(key))
            if did is None:
                report.errors.append({"document": key, "error": "ERR_NOT_FOUND: not an ingested document"})
                continue
            items = answer.get("facts") if isinstance(answer, dict) else answer
            if not isinstance(items, list):
                report.errors.append({"document": key, "error": 'ERR_MODEL_ANSWER_INVALID: no "facts" list'})
                continue
            answers.setdefault(did, []).extend(items)
        self._store_extraction(report, answers, kind="recorded", started=utcnow())
        return report

    def _store_extraction(
        self, report: ExtractReport, answers: dict[str, builtins.list[Any]], *, kind: str, started: datetime
    ) -> None:
        log = self.rows.audit_log()
        checked: dict[str, tuple[DocumentInfo, ex.Checked]] = {}
        for did, items in answers.items():
            doc = self.reader.document(did)
            report.documents += 1
            report.proposed += len(items)
            result = ex.check_items(items, doc.text, doc.origin)
            report.dropped.extend(result.dropped)
            checked[did] = (doc, result)
        with self.store.write() as s:
            new_rows: builtins.list[Fact] = []
            for did, (doc, result) in checked.items():
                for p in result.kept:
                    row = self.writer.new_fact(
                        s,
                        log.signer,
                        project=doc.project,
                        type_=p.type,
                        statement=p.statement,
                        detail=p.detail,
                        scope=p.scope,
                        tags=p.tags,
                        confidence=p.confidence,
                        provenance=[Provenance(doc.id, doc.origin, p.quote)],
                        source="extraction",
                    )
                    new_rows.append(row)
                drow = s.get(FactDocument, did)
                if drow is not None:
                    drow.extracted_sha256 = drow.sha256
                    drow.extracted_at = utcnow()
            report.merged = self.writer.lexical(s, log.signer, new_rows)
            merged_ids = {m["fact"] for m in report.merged}
            report.kept = [r.id for r in new_rows if r.id not in merged_ids]
            run = FactRun(
                kind=kind,
                project=report.project,
                model=report.model,
                report=dumps(report.to_dict()),
                started_at=started,
                finished_at=utcnow(),
            )
            s.add(run)
            s.flush()
            report.run_id = int(run.id)
            run.report = dumps(report.to_dict())
            log.record(  # in the run's own transaction (issue 24): the facts and their event, or neither
                EVENT_EXTRACTED,
                {
                    "run": report.run_id,
                    "kind": kind,
                    "project": report.project,
                    "model": report.model,
                    "documents": report.documents,
                    "kept": len(report.kept),
                    "merged": len(report.merged),
                    "dropped": len(report.dropped),
                },
            )
        report.changes = self.store.last_changes()

    # ------------------------------------------------------------------ consolidation
    def consolidate(
        self, project: str | None = None, *, llm: bool = False, cancel: CancelToken | None = None
    ) -> Generator[Progress, None, ConsolidateReport]:
        """A job: the lexical pass over every fact (older survives), then with `llm` the model pass:
        paraphrases merged with a rewritten statement, contradictions marked `conflicting` with a
        conflict record (never decided). Returns a ConsolidateReport."""
        proj = validate_project(project) if project else ""
        log = self.rows.audit_log()
        report = ConsolidateReport(project=proj)
        yield Progress(0, 0, "lexical consolidation")
        with self.store.capture() as cap:
            with self.store.write() as s:
                q = select(Fact).where(Fact.merged_into == "")
                if proj:
                    q = q.where(Fact.project == proj)
                rows = sorted(self.rows.filter(s.scalars(q).all(), "consolidation"), key=lambda r: (r.ordinal, r.id))
                report.lexical = self.writer.lexical(s, log.signer, rows)
                # each pass's event in the pass's own transaction (issue 24)
                log.record(EVENT_CONSOLIDATED, {"project": proj, "pass": "lexical", "lexical": len(report.lexical)})
            if llm:
                provider = self.provider()
                status = provider.status()
                if not status.ready:
                    from lorekeeper.llm.base import LLMUnavailableError

                    raise LLMUnavailableError(status.reason or "no model is configured")
                report.model = provider.model
                active = [
                    f
                    for f in self.reader.list(proj or None)
                    if f.status in ("candidate", "approved") and f.conflict is None
                ]
                groups: dict[str, builtins.list[FactInfo]] = {}
                for f in active:
                    groups.setdefault(f.project, []).append(f)
                batches = [
                    fs[i : i + CONSOLIDATE_BATCH]
                    for fs in groups.values()
                    for i in range(0, len(fs), CONSOLIDATE_BATCH)
                ]
                batches = [b for b in batches if len(b) > 1]
                for n, batch in enumerate(batches):
                    if cancel is not None:
                        cancel.raise_if_cancelled()
                    yield Progress(n, len(batches), f"model consolidation {n + 1} of {len(batches)}")
                    prompt = ex.consolidate_prompt(
                        [{"id": f.id, "type": f.type, "statement": f.statement} for f in batch]
                    )
                    answer = provider.complete_json(prompt, schema=ex.CONSOLIDATE_SCHEMA, system=ex.SYSTEM)
                    data = ex.parse_consolidation(str(answer))
                    self._apply_consolidation(data, {f.id for f in batch}, report, by="model")
                yield Progress(len(batches), len(batches), "model consolidation done")
        report.changes = cap.changes
        return report

    def _apply_consolidation(
        self, data: dict[str, Any], allowed: set[str], report: ConsolidateReport, *, by: str
    ) -> None:
        """Apply a (validated) model consolidation answer: merges, then contradictions."""
        log = self.rows.audit_log()
        paraphrases, conflicts = len(report.paraphrases), len(report.conflicts)
        with self.store.write() as s:
            used: set[str] = set()
            for merge in data.get("merges", []):
                ids = [i for i in dict.fromkeys(merge["facts"]) if i in allowed and i not in used]
                rows = [r for r in (s.get(Fact, i) for i in ids) if r is not None and not r.merged_into]
                rows = self.rows.filter(rows, "consolidation")
                if len(rows) < 2:
                    report.ignored.append({"merge": merge["facts"], "reason": "fewer than two known facts"})
                    continue
                try:
                    statement = check_statement(merge["statement"])
                except LorekeeperError as exc:
                    report.ignored.append({"merge": merge["facts"], "reason": exc.message})
                    continue
                rows.sort(key=lambda r: (r.ordinal, r.id))
                survivor = rows[0]
                survivor.statement = statement
                for loser in rows[1:]:
                    self.writer.merge_into(survivor, loser, log.signer)
                self.rows.sign(survivor, log.signer)
                used.update(r.id for r in rows)
                report.paraphrases.append({"facts": [r.id for r in rows], "into": survivor.id, "statement": statement})
            for contra in data.get("contradictions", []):
                ids = [i for i in dict.fromkeys(contra["facts"]) if i in allowed and i not in used]
                rows = [r for r in (s.get(Fact, i) for i in ids) if r is not None and not r.merged_into]
                rows = [r for r in self.rows.filter(rows, "consolidation") if r.status != "conflicting"]
                if len(rows) < 2:
                    report.ignored.append({"contradiction": contra["facts"], "reason": "fewer than two open facts"})
                    continue
                cid = self.writer.open_conflict(s, log.signer, rows, squash(contra["reason"])[:MAX_REASON])
                used.update(r.id for r in rows)
                report.conflicts.append(cid)
            if len(report.paraphrases) > paraphrases or len(report.conflicts) > conflicts:
                log.record(
                    EVENT_CONSOLIDATED,
                    {
                        "project": report.project,
                        "pass": by,
                        "model": report.model,
                        "paraphrases": report.paraphrases[paraphrases:],
                        "conflicts": report.conflicts[conflicts:],
                    },
                )

    def apply_recorded_consolidation(self, data: dict[str, Any], project: str) -> ConsolidateReport:
        """A recorded model consolidation (the demo): statements instead of ids are accepted, so a
        recording does not depend on hashes; the same rules as a live answer."""
        proj = validate_project(project)
        facts = self.reader.list(proj)
        by_statement = {f.statement: f.id for f in facts}

        def ident(x: str) -> str:
            return by_statement.get(squash(x), x)

        translated = {
            "merges": [{**m, "facts": [ident(i) for i in m.get("facts", [])]} for m in data.get("merges", [])],
            "contradictions": [
                {**c, "facts": [ident(i) for i in c.get("facts", [])]} for c in data.get("contradictions", [])
            ],
        }
        errors = list(ex.validator("consolidate").iter_errors(translated))
        if errors:
            raise InvalidSpecError(f"recorded consolidation: {errors[0].message}")
        report = ConsolidateReport(project=proj, model=str(data.get("model", "recorded")))
        with self.store.capture() as cap:
            self._apply_consolidation(translated, {f.id for f in facts}, report, by="recorded")
        report.changes = cap.changes
        return report
