"""The composition root: opens the config, the store and the services of one workspace.

The CLI, the GUI and the tests all go through a `Workspace`; nothing else builds services.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Self

from lorekeeper.config import CONFIG_NAME, Config, default_config_text
from lorekeeper.errors import WorkspaceError
from lorekeeper.evals.service import EvalService
from lorekeeper.fsutil import atomic_write_text
from lorekeeper.learnings.audit_hook import audit_hook
from lorekeeper.learnings.reflect import ReflectLoop
from lorekeeper.learnings.service import LearningService
from lorekeeper.llm.service import LLMService
from lorekeeper.locations import ENV_VAR, default_workspace_dir, resolve_workspace_dir  # noqa: F401 - re-exported
from lorekeeper.paths import demo_data_dir, starter_skills_dir
from lorekeeper.prompt import PromptBuilder
from lorekeeper.protocols import Derived
from lorekeeper.quality.tracker import QualityTracker
from lorekeeper.skills.library import SkillLibrary
from lorekeeper.skills.router import Router
from lorekeeper.store.engine import DEFAULT_BUSY_TIMEOUT, Store, resolve_url
from lorekeeper.store.models import utcnow

SUBDIRS = ("skills", "sources", "clarifications", "indexes", "sessions", "locks", "exports")


@dataclass
class DemoReport:
    projects: int = 0
    forks: int = 0
    eval_runs: int = 0
    sources: int = 0


class Workspace:
    def __init__(self, root: Path, config: Config, store: Store) -> None:
        self.root = root
        self.config = config
        self.store = store
        self.skills = SkillLibrary(store, root / "skills")
        self.evals = EvalService(store, self.skills)
        self._router_cache: dict[str, tuple[int, Router]] = {}
        # learnings, quality tracking, prompt assembly and the model (issue 4)
        self.learnings = LearningService(store, on_event=audit_hook(self))  # events signed in ws.audit.log
        self.quality = QualityTracker(store)
        self.prompts = PromptBuilder(self)
        self.llm = LLMService(self)
        self.reflect = ReflectLoop(self)
        from lorekeeper.audit.service import AuditService

        # the signed audit chain; the key is loaded only by `ws.audit.require_key()` (fail closed)
        self.audit = AuditService(self)
        from lorekeeper.improve.service import ImproveService

        # nightly analysis, proposals, Sage and A/B benchmarks (issue 6)
        self.improve = ImproveService(self)
        self.init_warnings: list[str] = []

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    def open(cls, root: str | os.PathLike[str]) -> Workspace:
        root = Path(root).expanduser().resolve()
        cfg_path = root / CONFIG_NAME
        if not cfg_path.is_file():
            raise WorkspaceError(
                f"no workspace at {root} (no {CONFIG_NAME}). Create one with `lorekeeper init {root}`."
            )
        config = Config.load(cfg_path)
        for sub in SUBDIRS:
            (root / sub).mkdir(exist_ok=True)
        url = resolve_url(str(config.get("store.url", "sqlite:///lorekeeper.db")), root)
        store = Store(url, busy_timeout=float(config.get("store.busy_timeout", DEFAULT_BUSY_TIMEOUT)))
        return cls(root, config, store)

    @classmethod
    def init(cls, root: str | os.PathLike[str], *, demo: bool = False, starter: bool = True) -> Workspace:
        """Create a workspace (config, folders, store) with the starter skills; `demo` adds sample data."""
        root = Path(root).expanduser().resolve()
        if (root / CONFIG_NAME).exists():
            raise WorkspaceError(f"{root} is already a workspace; open it instead (or choose an empty folder).")
        root.mkdir(parents=True, exist_ok=True)
        atomic_write_text(root / CONFIG_NAME, default_config_text())
        from lorekeeper.audit.service import ensure_workspace_id

        ensure_workspace_id(root / CONFIG_NAME)  # names this workspace's audit key
        ws = cls.open(root)
        ws._init_audit_key()
        if starter:
            ws.skills.import_path(starter_skills_dir(), message="starter library")
        if demo:
            report = ws.load_demo()
            ws._record_demo_audit(report)
        return ws

    def _init_audit_key(self) -> None:
        """With the keyring provider, a new workspace gets its audit key; without a keyring it
        still works for the deterministic features, and says why signing is unavailable."""
        if str(self.config.get("audit.provider", "keyring")) != "keyring":
            return
        from lorekeeper.audit.errors import AuditKeyUnavailableError

        try:
            self.audit.init_key(record=False)
        except AuditKeyUnavailableError as exc:
            self.init_warnings.append(
                f"{exc.code}: {exc.message} Deterministic features (skills, evals, route) work without it; "
                "create the key later with `lorekeeper audit init-key`."
            )

    def _record_demo_audit(self, report: DemoReport) -> None:
        """The demo workspace's first signed events (what init really did), when the key is there."""
        if self.audit.key_session is None:
            return
        from dataclasses import asdict

        self.audit.log.append("workspace_created", {"demo": True, "skills": len(self.skills.list())})
        self.audit.log.append("demo_data_loaded", asdict(report))

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def name(self) -> str:
        return str(self.config.get("workspace.name") or self.root.name)

    # ------------------------------------------------------------------ services
    def router(self, project: str | None = None) -> Router:
        """A router over what `project` sees, rebuilt only when the library changed."""
        key = project or ""
        revision = self.store.revision()  # moves on any process's change (another one's import too)
        cached = self._router_cache.get(key)
        if cached and cached[0] == revision:
            return cached[1]
        router = Router(self.skills.routable(project))
        self._router_cache[key] = (revision, router)
        return router

    def derived(self) -> list[Derived]:
        """Every artefact derived from the store (`lorekeeper repair` rebuilds them)."""
        return [self.skills.folder]

    # ------------------------------------------------------------------ demo content
    def load_demo(self, data: Path | None = None) -> DemoReport:
        data = data or demo_data_dir()
        report = DemoReport()
        projects = data / "projects.json"
        if projects.is_file():
            for p in json.loads(projects.read_text(encoding="utf-8")):
                self.skills.add_project(p["name"], p.get("description", ""))
                report.projects += 1
        forks = data / "forks"
        if forks.is_dir():
            for proj in sorted(p for p in forks.iterdir() if p.is_dir()):
                rep = self.skills.import_path(proj, project=proj.name, message="demo fork")
                report.forks += len(rep.created) + len(rep.updated)
        samples = data / "eval_samples.json"
        if samples.is_file():
            now = utcnow()
            for sample in json.loads(samples.read_text(encoding="utf-8")):
                project = sample.get("project") or None
                version = self.skills.get(sample["skill"], project)
                result = self.evals.run_rules(sample["response"], version.rules())
                run_id = self.evals.record(
                    result,
                    sample["response"],
                    skill=sample["skill"],
                    project=project or "",
                    version=version.version,
                    source="demo",
                    created_at=now - timedelta(days=float(sample.get("days_ago", 0))),
                )
                # the same answers feed the quality metrics (issue 4): skill applied + eval outcome
                when = now - timedelta(days=float(sample.get("days_ago", 0)))
                self.quality.log_applied([sample["skill"]], project, at=when)
                self.quality.log_eval(sample["skill"], project, result.passed, eval_run_id=run_id, at=when)
                if sample.get("feedback") in ("up", "down"):  # the operator's thumbs on that answer
                    self.quality.log_feedback([sample["skill"]], project, sample["feedback"] == "up", at=when)
                report.eval_runs += 1
        for name in ("sources",):
            src = data / name
            if src.is_dir():
                for f in src.rglob("*"):
                    if f.is_file():
                        dest = self.root / name / f.relative_to(src)
                        dest.parent.mkdir(parents=True, exist_ok=True)
                        shutil.copyfile(f, dest)
                        report.sources += 1
        learnings = data / "learnings.md"
        if learnings.is_file():
            shutil.copyfile(learnings, self.root / "exports" / "learnings.md")
            self.learnings.import_file(learnings)  # the Learnings panel and the LEARNINGS block (issue 4)
        # The demo history makes release-notes underperform: the first nightly run gives the
        # Proposals panel a real, template-based proposal to review (deterministic, no model).
        self.improve.run_nightly()
        return report
