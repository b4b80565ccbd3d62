"""The demo workspace's content: projects, forks, eval history, quality events, sources, learnings.

`Workspace.init(demo=True)` calls `load_demo` with the services it seeds, then `record_demo_audit`
for the first signed events (when the audit key is there). The content comes from the bundled
`data/` folder (`lorekeeper.paths.demo_data_dir`); the result is deterministic (no model).
"""

from __future__ import annotations

import json
import shutil
from dataclasses import asdict, dataclass
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from lorekeeper.audit.service import AuditService
from lorekeeper.evals.service import EvalService
from lorekeeper.facts.service import FactService
from lorekeeper.improve.service import ImproveService
from lorekeeper.learnings import mdformat
from lorekeeper.learnings.service import LearningService
from lorekeeper.paths import demo_data_dir
from lorekeeper.quality.tracker import QualityTracker
from lorekeeper.skills.library import SkillLibrary
from lorekeeper.store.models import SkillVersion, utcnow

if TYPE_CHECKING:  # living memory's modules load when the demo loads, not with this module
    from lorekeeper.memory.clarify import ClarificationService
    from lorekeeper.memory.indexes import MemoryIndexes
    from lorekeeper.memory.layout import MemoryLayout
    from lorekeeper.memory.stories import StoryService
    from lorekeeper.store.engine import Store


@dataclass
class DemoReport:
    projects: int = 0
    forks: int = 0
    eval_runs: int = 0
    sources: int = 0


def load_demo(
    *,
    root: Path,
    skills: SkillLibrary,
    evals: EvalService,
    quality: QualityTracker,
    learnings: LearningService,
    improve: ImproveService,
    data: Path | None = None,
) -> DemoReport:
    """Seed the workspace at `root` through its services; returns what was added."""
    data = data or demo_data_dir()
    report = DemoReport()
    projects = data / "projects.json"
    if projects.is_file():
        for p in json.loads(projects.read_text(encoding="utf-8")):
            skills.add_project(p["name"], p.get("description", ""))
            report.projects += 1
    forks = data / "forks"
    if forks.is_dir():
        for proj in sorted(p for p in forks.iterdir() if p.is_dir()):
            rep = skills.import_path(proj, project=proj.name, message="demo fork", record=False)
            report.forks += len(rep.created) + len(rep.updated)
    samples = data / "eval_samples.json"
    if samples.is_file():
        now = utcnow()
        history = json.loads(samples.read_text(encoding="utf-8"))
        # The demo's skills existed before its history: the loop counts only the evidence after a
        # skill's current version (issue 17), so the seeded versions are dated before the oldest answer.
        oldest = max((float(x.get("days_ago", 0)) for x in history), default=0.0)
        with skills.store.write() as s:
            for v in s.query(SkillVersion):
                v.created_at = now - timedelta(days=oldest + 1)
        for sample in history:
            project = sample.get("project") or None
            version = skills.get(sample["skill"], project)
            result = evals.run_rules(sample["response"], version.rules())
            run_id = evals.record(
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
            quality.log_applied([sample["skill"]], project, at=when)
            quality.log_eval(sample["skill"], project, result.passed, eval_run_id=run_id, at=when)
            if sample.get("feedback") in ("up", "down"):  # the operator's thumbs on that answer
                quality.log_feedback([sample["skill"]], project, sample["feedback"] == "up", at=when)
            report.eval_runs += 1
    for name in ("sources",):
        src = data / name
        if src.is_dir():
            for f in src.rglob("*"):
                if f.is_file():
                    dest = root / name / f.relative_to(src)
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(f, dest)
                    report.sources += 1
    learnings_md = data / "learnings.md"
    if learnings_md.is_file():
        shutil.copyfile(learnings_md, root / "exports" / "learnings.md")
        import_demo_learnings(learnings, learnings_md)  # the Learnings panel and the LEARNINGS block (issue 4)
    # The demo history makes release-notes underperform: the first nightly run gives the
    # Proposals panel a real, template-based proposal to review (deterministic, no model).
    improve.run_nightly()
    return report


def import_demo_learnings(learnings: LearningService, path: Path) -> None:
    """The demo's learnings.md, each entry into the project its comment names (`"project"`, an extra
    field of the format; no project: the learnings without one), so the Odoo rules reach the
    citadel-v2 prompt. Each project's rules are imported in file order, the field itself dropped."""
    doc = mdformat.parse(path.read_bytes().decode("utf-8"), file=str(path))
    groups: dict[str, list[mdformat.Entry]] = {}
    for entry in doc.entries:
        project = entry.extra.pop("project", "")
        groups.setdefault(str(project or ""), []).append(entry)
    for project, entries in groups.items():
        learnings.import_text(mdformat.render(entries, doc.preamble), project or None, file=str(path))


def record_demo_audit(audit: AuditService, skills: SkillLibrary, report: DemoReport) -> None:
    """The demo workspace's first signed events (what init really did), when the key is there."""
    if audit.key_session is None:
        return
    audit.log.append("workspace_created", {"demo": True, "skills": len(skills.list())})
    audit.log.append("demo_data_loaded", asdict(report))


# --- memory (issue 12) ---


def load_memory_demo(
    *,
    root: Path,
    store: Store,
    audit: AuditService,
    learnings: LearningService,
    layout: MemoryLayout,
    clarifications: ClarificationService,
    memory: MemoryIndexes,
    stories: StoryService,
    data: Path | None = None,
) -> dict[str, int]:
    """The living memory's demo (no model needed): research notes into `sources/research/`, the
    demo learnings given the domain of their project (erp, frontend), validated clarification
    summaries (through the PII gate) and one started story, so the Memory panel shows a real,
    traced injection preview. Clarifications and the story need the audit key (signed); without
    it only the notes and domains are loaded."""
    from lorekeeper.memory.clarify import parse_markdown
    from lorekeeper.memory.collect import collect

    src = (data or demo_data_dir()) / "memory"
    out = {"notes": 0, "clarifications": 0, "stories": 0}
    if not src.is_dir():
        return out
    notes = src / "notes"
    if notes.is_dir():
        dest = root / "sources" / "research"
        dest.mkdir(parents=True, exist_ok=True)
        for f in sorted(notes.glob("*.md")):
            shutil.copyfile(f, dest / f.name)
    domains_file = src / "domains.json"
    domains = json.loads(domains_file.read_text(encoding="utf-8")) if domains_file.is_file() else {}
    for info in learnings.list(status="all"):
        domain = domains.get(info.project)
        if domain and not info.domain:
            learnings.edit(info.id, domain=domain)
    out["notes"] = collect(store, layout, workspace=audit.workspace_id).added
    if audit.key_session is None:
        return out
    from datetime import date

    for f in sorted((src / "clarifications").glob("*-clarifications.md")):
        d = parse_markdown(f.read_text(encoding="utf-8"))
        clarifications.add_validated(d["story"], d["domain"], d["project"], d, day=date.fromisoformat(d["date"]))
        out["clarifications"] += 1
    memory.rebuild()
    if stories.start("PD-250", "erp", "citadel-v2").error is None:
        out["stories"] += 1
    return out


# --------------------------------------------------------------------------- facts (issue 11)


def load_demo_facts(
    root: Path, facts: FactService, *, warnings: list[str] | None = None, data: Path | None = None
) -> int:
    """The Facts review and Conflicts panels' first content, with no model configured: the demo
    sources (plus an outdated 2024 onboarding note) ingested per project, then a recorded
    extraction and LLM consolidation (`data/facts/recorded-extraction.json`) applied through the
    same checks as a live run: candidate facts to review, one lexical corroboration, one
    paraphrase merge, two dropped answers in the run report, and one real conflict (the runbook
    forbids Friday deploys, the onboarding note says releases go out on Friday evenings).
    Returns the number of facts; skipped (with a warning) when the audit key is unavailable,
    since fact rows are signed."""
    from lorekeeper.errors import LorekeeperError

    data = data or demo_data_dir()
    recorded = data / "facts" / "recorded-extraction.json"
    if not recorded.is_file():
        return 0
    for extra in sorted((data / "facts").glob("*.md")):
        shutil.copyfile(extra, root / "sources" / extra.name)
    recording = json.loads(recorded.read_text(encoding="utf-8"))
    try:
        for project, entry in recording.get("projects", {}).items():
            for origin in entry.get("documents", {}):
                facts.ingest(root / "sources" / origin, project)
            facts.apply_recorded({"model": recording.get("model", "recorded"), **entry}, project)
            if entry.get("consolidation"):
                facts.apply_recorded_consolidation(
                    {"model": recording.get("model", "recorded"), **entry["consolidation"]}, project
                )
    except LorekeeperError as exc:
        if warnings is None:
            raise
        warnings.append(f"demo facts not loaded: {exc.code}: {exc.message}")
        return 0
    return len(facts.list())
