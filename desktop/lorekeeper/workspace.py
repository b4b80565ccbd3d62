"""The composition root: opens the config, the store and the services of one workspace.

The CLI, the GUI and the tests all go through a `Workspace`; nothing else builds services.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, Self

from lorekeeper.ask.corpora import facts_corpus
from lorekeeper.ask.service import MIN_SCORE, AskService
from lorekeeper.audit.errors import AuditKeyUnavailableError
from lorekeeper.audit.log import LOCK_NAME, SessionLog
from lorekeeper.audit.service import AuditService, ensure_workspace_id
from lorekeeper.config import CONFIG_NAME, Config, default_config_text
from lorekeeper.demo import DemoReport, load_demo, load_demo_facts, load_memory_demo, record_demo_audit
from lorekeeper.errors import WorkspaceError
from lorekeeper.evals.service import EvalService
from lorekeeper.facts.service import FactService
from lorekeeper.fsutil import atomic_write_text
from lorekeeper.improve.service import ImproveService
from lorekeeper.learnings.audit_hook import audit_hook
from lorekeeper.learnings.service import LearningService
from lorekeeper.llm.service import LLMService
from lorekeeper.locations import ENV_VAR, default_workspace_dir, resolve_workspace_dir  # noqa: F401 - re-exported
from lorekeeper.locks import HeldLock, InUseError, RWLock
from lorekeeper.market.service import MarketService
from lorekeeper.paths import starter_skills_dir
from lorekeeper.privacy.purge import PurgeService
from lorekeeper.privacy.purgeables import (
    ClarificationFiles,
    ClarificationRows,
    HookSnapshots,
    IndexEntries,
    SessionEvents,
    StoreRows,
)
from lorekeeper.prompt import PromptBuilder
from lorekeeper.protocols import Derived, Purgeable
from lorekeeper.quality.answers import AnswerLog
from lorekeeper.quality.tracker import QualityTracker
from lorekeeper.reflect import ReflectLoop
from lorekeeper.review import ReviewNotes
from lorekeeper.skills.files import Limits
from lorekeeper.skills.library import SkillLibrary
from lorekeeper.skills.router import DEFAULT_TOP
from lorekeeper.skills.routers import RouterCache
from lorekeeper.store.backup import BACKUPS_DIR, BackupService, damaged_advice
from lorekeeper.store.engine import DEFAULT_BUSY_TIMEOUT, Store, StoreDamagedError, resolve_url

SUBDIRS = ("skills", "sources", "clarifications", "indexes", "sessions", "locks", "exports")
IN_USE_LOCK = "workspace.lock"  # under locks/: shared while a Workspace is open, exclusive for a restore
IN_USE_WAIT = 30.0  # seconds an open waits for a restore to finish

__all__ = ["SUBDIRS", "DemoReport", "Workspace"]


def in_use_lock_path(root: Path) -> Path:
    return root / "locks" / IN_USE_LOCK


def hold_in_use(root: Path, *, timeout: float = IN_USE_WAIT) -> HeldLock:
    """The shared in-use lock of an open workspace (waits while a restore holds it exclusively)."""
    try:
        return HeldLock.acquire(in_use_lock_path(root), timeout=timeout)
    except BlockingIOError:
        raise InUseError(
            f"the workspace {root} is being restored from a backup (another process holds "
            f"{in_use_lock_path(root)} exclusively for more than {timeout:g} s): retry when the restore has finished."
        ) from None


def purgeables(root: Path, store: Store, audit_log: Callable[[], SessionLog], memory: Any) -> list[Purgeable]:
    """Every holder of story-linked data, in erasure order (the purge run enumerates them; the
    markdown summary, the retention's source, goes last so an interrupted run stays due)."""
    from lorekeeper.memory.layout import CORPORA, MemoryLayout, item_id64
    from lorekeeper.memory.pgindex import PgCorpusIndex, PgIndexEntries
    from lorekeeper.privacy.purgeables import ReviewComments

    layout = MemoryLayout(root)

    def corpus_index(corpus: str) -> Callable[[], Any]:
        def build() -> Any:  # faiss and numpy load with the first plan or purge, not at open
            from lorekeeper.memory.index import CorpusIndex

            return CorpusIndex(corpus, layout.index(corpus))

        return build

    def index_entries(corpus: str) -> Purgeable:
        """A corpus index's purgeable: its FAISS files, or its rows in the store's shared index (a
        PostgreSQL store only: on SQLite nothing is asked at open)."""
        retention = corpus == "clarifications"
        if not (store.is_sqlite or memory.backend_setting == "faiss") and memory.shared:
            return PgIndexEntries(PgCorpusIndex(corpus, store), item_id64, on_retention=retention)
        return IndexEntries(corpus, corpus_index(corpus), layout.lock, item_id64, on_retention=retention)

    return [
        # the clarification summary and the injection rows that served it (retention erases them)
        ClarificationRows(store),
        # review comments that name the story or sit on a proposal built from its learnings (issue
        # 30 d3): before the learnings, which link those proposals to it
        ReviewComments(store, audit_log),
        # what the story itself holds: erased by the right to be forgotten, not by the retention
        StoreRows(
            store,
            "story-rows",
            [("memory_injections", "story"), ("learnings", "story"), ("stories", "id")],
            on_retention=False,
        ),
        *(index_entries(c) for c in CORPORA),
        SessionEvents(audit_log),
        HookSnapshots(root / "indexes"),  # the agent hook's caches of learnings and memory blocks
        ClarificationFiles(root / "clarifications"),
    ]


class Workspace:
    """Builds each service with exactly the collaborators it uses; holds them under stable names."""

    def __init__(self, root: Path, config: Config, store: Store) -> None:
        """Wiring only (tests/unit/test_composition_root.py holds it): each service built once with
        its collaborators in its constructor; no closures, no setters on a built service."""
        # living memory's modules load with the first open, not with `import lorekeeper.workspace`
        from lorekeeper.learnings.reuse import ReuseService
        from lorekeeper.memory.clarify import ClarificationService
        from lorekeeper.memory.indexes import MemoryIndexes
        from lorekeeper.memory.layout import MemoryLayout
        from lorekeeper.memory.measure import Measures
        from lorekeeper.memory.stories import InjectionTraces, StoryService

        self.root = root
        self.config = config  # one shared object: `ws.llm.configure` reloads it in place
        self.store = store
        self.in_use: HeldLock | None = None  # `open` sets it: released by `close`
        self.init_warnings: list[str] = []
        # the signed audit chain; the key is loaded only by `ws.audit.require_key()` (fail closed)
        audit = self.audit = AuditService(store, config, root / "sessions", root / "locks")
        audit_log = audit.session_log  # loads the key on first use, never before
        # the audit session starts before the first write transaction, never inside one
        store.before_write.append(audit.open_before_first_write)
        store.write_guards.append(audit.guard_write)  # no key or a broken chain: no write (issue 24)

        # skill saves, rule edits, forks, fork deletions and imports are signed in ws.audit.log
        self.skills = SkillLibrary.wire(  # each skill service built once (issue 28); front ends get the facade
            store,
            root / "skills",
            on_event=audit_hook(audit_log, fail_closed=True),  # in the change's transaction (issue 24)
            limits=Limits.from_mb(config.get("skills.max_file_mb"), config.get("skills.max_skill_mb")),
            verifier=audit.row_verifier,  # issue 24: only verified versions are used or reach skills/
            key_loaded=audit.key_loaded,
        )
        self.evals = EvalService(store, self.skills)

        # learnings, quality tracking, prompt assembly and the model (issue 4)
        # events signed in ws.audit.log, in the learning's own transaction; rows checked on read (issue 18)
        self.learnings = LearningService(
            store, on_event=audit_hook(audit_log, fail_closed=True), verifier=audit.row_verifier
        )
        self.quality = QualityTracker(store, verifier=audit.row_verifier)
        # routers kept per process, rebuilt when the library changes (`ws.routers.get(project)`)
        self.routers = RouterCache(store, self.skills, audit)
        self.prompts = PromptBuilder(
            self.routers.get,
            self.learnings,
            top=int(config.get("router.top", DEFAULT_TOP)),
            trust=audit.require_key,  # no key session: no LEARNINGS, FACTS or memory, and a notice (issue 24)
        )
        self.llm = LLMService(config, root / CONFIG_NAME)
        self.reflect = ReflectLoop(
            prompts=self.prompts,
            llm=self.llm,
            skills=self.skills,
            evals=self.evals,
            quality=self.quality,
            learnings=self.learnings,
            answers=AnswerLog(store),  # answers by interaction id: `feedback`, `fixit` from the CLI
            on_event=audit_hook(audit_log, fail_closed=True),  # feedback and Fix It events, in their transaction
        )
        # ask: cited answers over skills, learnings and documents; more corpora register (issue 14)
        self.ask = AskService(
            skills=self.skills,
            learnings=self.learnings,
            llm=self.llm,
            revision=store.revision,
            root=root,
            min_score=float(config.get("ask.min_score", MIN_SCORE)),
        )
        # nightly analysis, proposals, Sage and A/B benchmarks (issue 6)
        self.improve = ImproveService(
            store=store,
            skills=self.skills,
            quality=self.quality,
            learnings=self.learnings,
            llm=self.llm,
            audit_log=audit_log,
            ask=self.ask,  # the skill generator's passages (issue 14)
            verifier=audit.row_verifier,  # issue 24: a written-back proposal is not queued
        )
        # marketplaces: discover, note, install or fork skills from sources (issue 10)
        self.market = MarketService(store, self.skills, self.llm, root / "sources" / "market")
        # typed facts from documentation (issue 11): rows signed, decisions signed in ws.audit.log
        self.facts = FactService.wire(  # each fact service built once (issue 28); front ends get the facade
            store,
            audit_log=audit_log,
            provider=self.llm.provider,
            config=config,
            workspace_root=root,
            verifier=audit.row_verifier,
        )
        # comments on review items and their assignment (issue 30 d3): signed rows, signed events
        self.review = ReviewNotes(store, audit_log, verifier=audit.row_verifier)
        self.prompts.register("facts", self.facts.packs.prompt_block)  # the FACTS block, within [facts] prompt_budget
        self.ask.register("facts", facts_corpus(self.facts.reader))  # ask cites the lines that prove a fact (issue 14)

        # living memory (issue 12): indexes, clarifications, reuse scores, stories, injection, measures
        layout = self.memory_layout = MemoryLayout(root)
        lock = RWLock(layout.lock, timeout=float(config.get("memory.lock_timeout", 30)))
        self.reuse = ReuseService(store, self.learnings, audit_log=audit_log, verifier=audit.row_verifier, lock=lock)
        self.memory = MemoryIndexes(
            store,
            layout,
            config,  # its [embeddings] table: the embedder is built on first use
            backend=str(config.get("memory.backend", "auto")),
            verifier=audit.row_verifier,
            learning_scores=self.reuse.live_scores,  # issue 25 d5: learnings search, secondary sort
        )
        self.clarifications = ClarificationService(store, layout, audit_log, config)  # [privacy] sanitizer, [llm]
        # GDPR purge runs and retention (issue 13): every holder of story-linked data, built once
        # (issue 28); `story close` runs the retention purge for its story through it (seed 004 §3.8)
        self.purge = PurgeService(
            store=store,
            purgeables=purgeables(root, store, audit_log, self.memory),
            audit_log=audit_log,
            root=root,
            locks_dir=root / "locks",
        )
        self.stories = StoryService(
            store,
            indexes=self.memory,
            clarifications=self.clarifications,
            reuse=self.reuse,
            audit_log=audit_log,
            verifier=audit.row_verifier,
            lock=lock,
            counts={
                "learnings": int(config.get("memory.inject_learnings", 5)),
                "notes": int(config.get("memory.inject_notes", 3)),
                "clarifications": int(config.get("memory.inject_clarifications", 3)),
            },
            retention_purge=self.purge.on_story_close,
        )
        self.injections = InjectionTraces(store)
        self.measures = Measures(store, audit.row_verifier)
        self.prompts.register("memory", self.stories.prompt_block)  # the story's memory block (issue 12)

        # backups and recovery (issue 23): online copies of the store and its session log, under the
        # log's shared lock; a backup is recorded in the signed log
        self.backups = BackupService(
            store,
            root / BACKUPS_DIR,
            sessions_dir=root / "sessions",
            config_path=root / CONFIG_NAME,
            session_lock=RWLock(root / "locks" / LOCK_NAME).shared,
            audit_log=audit_log,
        )

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    def open(cls, root: str | os.PathLike[str], *, in_use: HeldLock | None = None) -> Workspace:
        """Open the workspace at `root`. The open workspace holds the shared in-use lock (`restore`
        refuses while any process holds it); `in_use` hands over a lock the caller already holds
        (restore opens the workspace it restored under its exclusive lock)."""
        root = Path(root).expanduser().resolve()
        cfg_path = root / CONFIG_NAME
        if not cfg_path.is_file():
            raise WorkspaceError(
                f"no workspace at {root} (no {CONFIG_NAME}). Create one with `lorekeeper init {root}`."
            )
        config = Config.load(cfg_path)
        for sub in SUBDIRS:
            (root / sub).mkdir(exist_ok=True)
        lock = in_use or hold_in_use(root)
        try:
            url = resolve_url(str(config.get("store.url", "sqlite:///lorekeeper.db")), root)
            try:
                store = Store(url, busy_timeout=float(config.get("store.busy_timeout", DEFAULT_BUSY_TIMEOUT)))
            except StoreDamagedError as exc:
                db = str(exc.details.get("database") or "")
                advice, details = damaged_advice(root, Path(db) if db else None)
                raise StoreDamagedError(f"{exc.message}. {advice}", **details) from None
            try:
                ws = cls(root, config, store)
            except BaseException:
                store.close()
                raise
        except BaseException:
            if in_use is None:
                lock.release()
            raise
        ws.in_use = lock
        try:  # issue 18: crash debris swept, a stale skills/ export rebuilt from the store
            ws.skills.folder.recover()
        except OSError as exc:
            ws.init_warnings.append(f"the skills folder could not be checked ({exc}); run `lorekeeper repair`")
        except AuditKeyUnavailableError as exc:  # issue 24: only verified versions are exported
            ws.init_warnings.append(
                f"the skills folder was not rebuilt without the key ({exc.code}); run `lorekeeper repair`"
            )
        return ws

    @classmethod
    def init(cls, root: str | os.PathLike[str], *, demo: bool = False, starter: bool = True) -> Workspace:
        """Create a workspace (config, folders, store) with the starter skills; `demo` adds sample data."""
        root = Path(root).expanduser().resolve()
        if (root / CONFIG_NAME).exists():
            raise WorkspaceError(f"{root} is already a workspace; open it instead (or choose an empty folder).")
        root.mkdir(parents=True, exist_ok=True)
        atomic_write_text(root / CONFIG_NAME, default_config_text())
        from lorekeeper.audit.witness import copy_of

        copy_of(ensure_workspace_id(root / CONFIG_NAME), root)  # names its audit key; this folder is its home
        ws = cls.open(root)
        with ws.store.unguarded():  # creating the workspace: without a keyring it still gets its skills
            ws._init(demo=demo, starter=starter)
        return ws

    def _init(self, *, demo: bool, starter: bool) -> None:
        ws = self
        ws._init_audit_key()
        if ws.audit.key_session is not None:
            ws.audit.require_trust()  # issue 25: the new store's trust root is this key (one commit, now)
        if starter:
            from lorekeeper.audit.rows import KEYLESS_LEGACY

            # issue 24: without a key yet, the starter rows are legacy rows `audit init-key` signs
            keyless = ws.audit.key_session is None
            ws.store.info[KEYLESS_LEGACY] = keyless
            try:
                ws.skills.import_path(starter_skills_dir(), message="starter library", record=False)
            finally:
                ws.store.info.pop(KEYLESS_LEGACY, None)
        if demo:
            report = load_demo(
                root=ws.root,
                skills=ws.skills,
                evals=ws.evals,
                quality=ws.quality,
                learnings=ws.learnings,
                improve=ws.improve,
            )
            record_demo_audit(ws.audit, ws.skills, report)
            load_memory_demo(
                root=ws.root,
                store=ws.store,
                audit=ws.audit,
                learnings=ws.learnings,
                layout=ws.memory_layout,
                clarifications=ws.clarifications,
                memory=ws.memory,
                stories=ws.stories,
            )
            load_demo_facts(ws.root, ws.facts, warnings=ws.init_warnings)  # candidates + one conflict (issue 11)

    def _init_audit_key(self) -> None:
        """With the keyring provider, a new workspace gets its audit key; without a keyring it
        still works for the deterministic features, and says why signing is unavailable."""
        if str(self.config.get("audit.provider", "keyring")) != "keyring":
            return
        try:
            self.audit.init_key(record=False)
        except AuditKeyUnavailableError as exc:
            self.init_warnings.append(
                f"{exc.code}: {exc.message} Deterministic features (skills, evals, route) work without it; "
                "create the key later with `lorekeeper audit init-key`."
            )

    def close(self) -> None:
        # issue 31: a killed export's temp files go at the end of the next command, not the next
        # start (`lorekeeper repair` lists and sweeps whatever is left)
        with contextlib.suppress(OSError):
            self.skills.folder.sweep()
        self.store.close()
        if self.in_use is not None:
            self.in_use.release()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def name(self) -> str:
        return str(self.config.get("workspace.name") or self.root.name)

    # ------------------------------------------------------------------ services
    def derived(self) -> list[Derived]:
        """Every artefact derived from the store (`lorekeeper repair` rebuilds them)."""
        return [self.skills.folder, self.memory]
