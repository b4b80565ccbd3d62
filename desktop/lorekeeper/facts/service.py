"""`FactService` (`ws.facts`): typed facts from documentation (seed 003, issue 11), the front ends' facade.

The work is done by six services with one job each (issue 28), built once by `FactService.wire`:

- `FactRows` (`rows.py`): the one verification path. Every row read is verified (a row whose
  signature or ledger entry fails is dropped and reported, never shown), signed on write, and turned
  into a `FactInfo` / `ConflictInfo` / `DocumentInfo`; verified rows are cached.
- `FactReader` (`reading.py`): `list`, `show`, `counts`, `projects`, `documents`, `document`,
  `conflicts`, `conflict`, `runs`, `pending`.
- `FactDecisions` (`decisions.py`): `approve`, `approve_many`, `reject`, `reject_many`, `reopen`, `edit`, `add`,
  `resolve`, `reopen_conflict` (the undo of an arbitration); each a signed audit event in the change's own transaction (fail closed).
- `FactWork` (`work.py`): `ingest`, `extract`, `apply_recorded`, `consolidate`,
  `apply_recorded_consolidation` (jobs: generators yielding `jobs.Progress`).
- `FactPacks` (`packs.py`): `pack`, `packable`, `conventions`, `prompt_block` (the FACTS injector).
- `FactSettings` (`settings.py`): `include_candidates`, `set_include_candidates`, `prompt_budget`.
  `FactWriter` (`writer.py`) creates, merges and puts facts in conflict inside a caller's transaction
  for the decisions and the jobs.

What front ends receive (decided in issue 28): the CLI, the GUI panels, the MCP tools and the demo
keep calling `ws.facts.<name>` with the names above (stable since issue 11); `FactService` holds no
logic, each name *is* the bound method of the one service doing that job (`ws.facts.list is
ws.facts.reader.list`). Inside the house, a collaborator receives the narrow service it uses, never
the facade: the prompt builder gets `packs.prompt_block`, ask's corpus gets the `reader`.

API notes for the front ends (every method opens its own session, so call them from a worker thread,
never the GUI thread): `FactInfo.to_dict()` is DESIGN.md's JSON shape; after a decision, update a
panel's rows from `Decision.facts` rather than listing everything again; `document(doc_id)` carries
its text (`model.quote_span(quote, text)` gives a quote's span).

Change feed kinds: `facts` (ids: fact ids; also document ids `<p>:file:<hash>` and run ids from
`fact_documents` / `fact_runs`) and `fact_conflicts` (conflict ids). Facts hold no story-linked
data, so no fact service is `Purgeable`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from lorekeeper.config import Config
from lorekeeper.facts.decisions import FactDecisions
from lorekeeper.facts.model import TYPES, WEIGHTS
from lorekeeper.facts.packs import FactPacks, pack_header, render_line
from lorekeeper.facts.reading import FactReader
from lorekeeper.facts.reports import (
    ConsolidateReport,
    Decision,
    DocumentInfo,
    ExtractReport,
    IngestReport,
    Pack,
    load_recording,
    operator_name,
)
from lorekeeper.facts.rows import FactRows
from lorekeeper.facts.settings import FactSettings
from lorekeeper.facts.work import FactWork
from lorekeeper.facts.writer import FactWriter
from lorekeeper.store.engine import Store

if TYPE_CHECKING:
    from lorekeeper.audit.log import SessionLog
    from lorekeeper.audit.rows import RowVerifier
    from lorekeeper.llm.base import Provider

__all__ = [
    "ConsolidateReport",
    "Decision",
    "DocumentInfo",
    "ExtractReport",
    "FactService",
    "IngestReport",
    "Pack",
    "load_recording",
    "operator_name",
    "pack_header",
    "render_line",
]


class FactService:
    """The front ends' names over the fact services; no behaviour of its own."""

    def __init__(
        self,
        *,
        rows: FactRows,
        reader: FactReader,
        decisions: FactDecisions,
        work: FactWork,
        packs: FactPacks,
        settings: FactSettings,
    ) -> None:
        self.rows, self.reader, self.decisions = rows, reader, decisions
        self.work, self.packs, self.settings = work, packs, settings
        # reading
        self.list = reader.list
        self.show = reader.show
        self.counts = reader.counts
        self.projects = reader.projects
        self.documents = reader.documents
        self.document = reader.document
        self.conflicts = reader.conflicts
        self.conflict = reader.conflict
        self.runs = reader.runs
        self.pending = reader.pending
        # decisions
        self.approve = decisions.approve
        self.approve_many = decisions.approve_many
        self.reject = decisions.reject
        self.reject_many = decisions.reject_many
        self.reopen = decisions.reopen
        self.edit = decisions.edit
        self.add = decisions.add
        self.resolve = decisions.resolve
        self.reopen_conflict = decisions.reopen_conflict
        # ingest, extraction, consolidation (jobs)
        self.ingest = work.ingest
        self.extract = work.extract
        self.apply_recorded = work.apply_recorded
        self.consolidate = work.consolidate
        self.apply_recorded_consolidation = work.apply_recorded_consolidation
        # packs, conventions, the prompt block
        self.pack = packs.pack
        self.packable = packs.packable
        self.conventions = packs.conventions
        self.prompt_block = packs.prompt_block
        # settings
        self.include_candidates = settings.include_candidates
        self.set_include_candidates = settings.set_include_candidates
        self.prompt_budget = settings.prompt_budget

    @classmethod
    def wire(
        cls,
        store: Store,
        *,
        audit_log: Callable[[], SessionLog],
        provider: Callable[[], Provider],
        config: Config,
        workspace_root: Path | None = None,
        verifier: Callable[[], RowVerifier] | None = None,
    ) -> FactService:
        """Each fact service built once, with exactly the collaborators it uses."""
        rows = FactRows(store, audit_log=audit_log, workspace_root=workspace_root, verifier=verifier)
        writer = FactWriter(rows)
        reader = FactReader(rows)
        settings = FactSettings(config)
        work = FactWork(rows, writer, reader, provider)
        return cls(
            rows=rows,
            reader=reader,
            decisions=FactDecisions(rows, writer, reader, work),
            work=work,
            packs=FactPacks(store, reader, settings),
            settings=settings,
        )

    @staticmethod
    def types() -> tuple[str, ...]:
        return TYPES

    @staticmethod
    def weights() -> dict[str, float]:
        return dict(WEIGHTS)
