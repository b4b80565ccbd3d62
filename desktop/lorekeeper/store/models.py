"""SQLAlchemy 2 models. The schema itself is created and evolved only by Alembic migrations."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy import (
    text as sql_text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from lorekeeper.store.signed import SignedColumns, VersionedColumns
from lorekeeper.store.types import UTCDateTime

GLOBAL = ""  # the project value of a global skill


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class Project(Base):
    __tablename__ = "projects"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(128), unique=True)
    description: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class Skill(VersionedColumns, Base):
    """A skill: global (project == "") or a project's fork that overrides content and rules."""

    __tablename__ = "skills"
    # signed (issue 24): the version exported to skills/ is the one the operator made current
    __signed_fields__ = ("id", "name", "project", "current_version", "created_at")
    __table_args__ = (UniqueConstraint("name", "project", name="uq_skills_name_project"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64), index=True)
    project: Mapped[str] = mapped_column(String(128), default=GLOBAL)
    current_version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    versions: Mapped[list[SkillVersion]] = relationship(
        back_populates="skill", order_by="SkillVersion.version", cascade="all, delete-orphan"
    )


class SkillVersion(VersionedColumns, Base):
    """One immutable version of a skill: the whole SKILL.md and the whole rules file."""

    __tablename__ = "skill_versions"
    # signed (issue 24): SKILL.md, the rules and the files manifest (`files_digest`) reach agents
    __signed_fields__ = (
        "id", "skill_id", "version", "content", "evals", "description", "triggers", "keywords", "message",
        "author", "created_at", "files_digest",
    )  # fmt: skip
    __table_args__ = (UniqueConstraint("skill_id", "version", name="uq_skill_versions_skill_version"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    skill_id: Mapped[int] = mapped_column(ForeignKey("skills.id", ondelete="CASCADE"))
    version: Mapped[int] = mapped_column(Integer)
    content: Mapped[str] = mapped_column(Text)
    evals: Mapped[str] = mapped_column(Text, default="")
    description: Mapped[str] = mapped_column(Text, default="")
    triggers: Mapped[str] = mapped_column(Text, default="")
    keywords: Mapped[str] = mapped_column(Text, default="")
    message: Mapped[str] = mapped_column(Text, default="")
    author: Mapped[str] = mapped_column(String(128), default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    # sha256 of the files manifest ([path, sha256, mode] sorted), set by the commit hook before signing
    files_digest: Mapped[str] = mapped_column(String(64), default="")

    skill: Mapped[Skill] = relationship(back_populates="versions")

    def sign_prepare(self, s: Any) -> None:
        """Before it is signed (commit hook): the digest of its files manifest as the store holds it."""
        self.files_digest = files_digest_in(s, self.id)

    @classmethod
    def sign_prepare_many(cls, s: Any, rows: list[SkillVersion]) -> None:
        """`sign_prepare` for every version a transaction signs: one manifest query per 500 (issue 26)."""
        digests = files_digests_in(s, [r.id for r in rows])
        for r in rows:
            r.files_digest = digests[r.id]

    @classmethod
    def sign_prepare_values(cls, s: Any, rows: list[dict[str, Any]]) -> tuple[str, ...]:
        """`sign_prepare_many` for versions written through Core (their column values); returns
        the names of the fields it set (the commit hook writes them to the rows)."""
        digests = files_digests_in(s, [r["id"] for r in rows])
        for r in rows:
            r["files_digest"] = digests[r["id"]]
        return ("files_digest",)


def files_digest(files: Any) -> str:
    """sha256 of a files manifest: (path, sha256, mode) triples, in path order (issue 24)."""
    rows = sorted([str(p), str(h), int(m)] for p, h, m in files)
    return hashlib.sha256(json.dumps(rows, separators=(",", ":"), ensure_ascii=False).encode("utf-8")).hexdigest()


def files_digests_in(s: Any, version_ids: list[int]) -> dict[int, str]:
    """`files_digest_in` of many versions: one manifest query per 500."""
    from sqlalchemy import select

    manifests: dict[int, list[tuple[str, str, int]]] = {vid: [] for vid in version_ids}
    ids = list(manifests)
    for i in range(0, len(ids), 500):
        for vid, path, sha, mode in s.execute(
            select(
                SkillVersionFile.version_id, SkillVersionFile.path, SkillVersionFile.sha256, SkillVersionFile.mode
            ).where(SkillVersionFile.version_id.in_(ids[i : i + 500]))
        ):
            manifests[vid].append((path, sha, mode))
    return {vid: files_digest(files) for vid, files in manifests.items()}


def files_digest_in(s: Any, version_id: int) -> str:
    from sqlalchemy import select

    rows = s.execute(
        select(SkillVersionFile.path, SkillVersionFile.sha256, SkillVersionFile.mode).where(
            SkillVersionFile.version_id == version_id
        )
    ).all()
    return files_digest(rows)


class EvalRun(Base):
    """One response checked against one rule set (from the CLI, a panel or the playground)."""

    __tablename__ = "eval_runs"
    __table_args__ = (Index("ix_eval_runs_created", "created_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    skill: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    project: Mapped[str] = mapped_column(String(128), default=GLOBAL)
    skill_version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    source: Mapped[str] = mapped_column(String(32), default="cli")
    response: Mapped[str] = mapped_column(Text)
    passed: Mapped[bool] = mapped_column(Boolean)
    rules_total: Mapped[int] = mapped_column(Integer, default=0)
    rules_failed: Mapped[int] = mapped_column(Integer, default=0)
    results: Mapped[str] = mapped_column(Text, default="[]")  # JSON list of rule results
    footnote: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class StoreRevision(Base):
    """One row: a counter bumped by every write transaction, so any process sees that data changed."""

    __tablename__ = "store_revision"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    value: Mapped[int] = mapped_column(BigInteger, default=0)


class StoreChange(Base):
    """What one committed write transaction touched (kinds JSON), so other processes can see it.

    Written in the same transaction as the revision bump; pruned to the last `CHANGES_KEPT` rows
    (`lorekeeper.store.feed`). A gap in the revisions means "pruned: assume everything changed"."""

    __tablename__ = "store_changes"

    revision: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    kinds: Mapped[str] = mapped_column(Text, default="{}")  # ChangeSet.to_json()
    at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


# --------------------------------------------------------------------------- learnings and quality (issue 4)


class Learning(VersionedColumns, Base):
    """A rule learnt from a correction (seed 000/001 reflect loop), per project ("" = no project).

    `stamp` keeps the timestamp text exactly as a learnings.md file wrote it, so an import
    followed by an export gives the same bytes; `created_at` is the same instant, for sorting.
    """

    __tablename__ = "learnings"
    # signed (issue 18): a rule edited in the database is not injected
    __signed_fields__ = (
        "id", "project", "rule", "source", "stamp", "created_at", "story", "domain", "tags", "scope", "status",
        "extra", "lead",
    )  # fmt: skip
    __table_args__ = (
        Index("ix_learnings_project_status", "project", "status"),
        Index("ix_learnings_created", "created_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    project: Mapped[str] = mapped_column(String(128), default=GLOBAL)
    rule: Mapped[str] = mapped_column(Text)
    source: Mapped[str] = mapped_column(String(32), default="manual")
    stamp: Mapped[str] = mapped_column(String(64), default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    story: Mapped[str] = mapped_column(String(128), default="")
    domain: Mapped[str] = mapped_column(String(128), default="")
    tags: Mapped[str] = mapped_column(Text, default="")  # comma-separated
    scope: Mapped[str] = mapped_column(String(16), default="story")
    status: Mapped[str] = mapped_column(String(16), default="active")
    extra: Mapped[str] = mapped_column(Text, default="")  # unknown metadata from an imported file (JSON)
    lead: Mapped[str] = mapped_column(Text, default="")  # non-rule lines just above it in the imported file


class LearningFile(Base):
    """What a project's imported learnings.md had before its first rule (title, notes, heading)."""

    __tablename__ = "learning_files"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    project: Mapped[str] = mapped_column(String(128), unique=True)
    preamble: Mapped[str] = mapped_column(Text, default="")
    trailer: Mapped[str] = mapped_column(Text, default="")  # what followed its last rule
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class QualityEvent(SignedColumns, Base):
    """One fact the quality metrics are computed from: a skill applied, an eval outcome, a feedback."""

    __tablename__ = "quality_events"
    # signed (issue 18): forged events do not move the metrics nightly acts on
    __signed_fields__ = (
        "id", "kind", "skill", "project", "interaction", "passed", "positive", "eval_run_id", "detail", "created_at",
    )  # fmt: skip
    __table_args__ = (
        Index("ix_quality_events_skill_created", "skill", "created_at"),
        Index("ix_quality_events_project_created", "project", "created_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))  # applied | eval | feedback
    skill: Mapped[str] = mapped_column(String(64), default="")
    project: Mapped[str] = mapped_column(String(128), default=GLOBAL)
    interaction: Mapped[str] = mapped_column(String(64), default="")  # groups the events of one answer
    passed: Mapped[bool | None] = mapped_column(Boolean, nullable=True)  # eval: no warning rule failed
    positive: Mapped[bool | None] = mapped_column(Boolean, nullable=True)  # feedback: thumbs up / down
    eval_run_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    detail: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class AnswerRecord(Base):
    """One answer the Playground or `llm ask` produced, kept so that it can be rated or fixed later
    (`lorekeeper feedback up|down ANSWER`, `lorekeeper fixit ANSWER`) by its interaction id."""

    __tablename__ = "answers"
    __table_args__ = (
        UniqueConstraint("interaction", name="uq_answers_interaction"),
        Index("ix_answers_created", "created_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    interaction: Mapped[str] = mapped_column(String(64))  # = QualityEvent.interaction
    project: Mapped[str] = mapped_column(String(128), default=GLOBAL)
    message: Mapped[str] = mapped_column(Text, default="")  # the operator's request
    prompt: Mapped[str] = mapped_column(Text, default="")  # the assembled prompt that was sent
    answer: Mapped[str] = mapped_column(Text, default="")
    skills: Mapped[str] = mapped_column(Text, default="[]")  # JSON [[name, score], ...] in route order
    model: Mapped[str] = mapped_column(String(128), default="")
    footnote: Mapped[str] = mapped_column(Text, default="")
    passed: Mapped[bool] = mapped_column(Boolean, default=True)
    truncated: Mapped[bool] = mapped_column(Boolean, default=False)
    eval_runs: Mapped[str] = mapped_column(Text, default="[]")  # JSON list of EvalRun ids
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


# --------------------------------------------------------------------------- signed audit chain (issue 3)


class AuditCheckpoint(SignedColumns, Base):
    """The head of one session-log file's chain, so a cut tail or a deleted file is detected.

    Keyed by workspace (its `[workspace] id`) and file, so workspaces sharing one store each keep
    their own; rows written before migration 0008 have workspace '' and keep verifying.
    """

    __tablename__ = "audit_checkpoints"
    __signed_manually__ = True  # signed by the session log itself
    __signed_fields__ = ("workspace", "file", "events", "head_seq", "head_sig", "updated_at")

    workspace: Mapped[str] = mapped_column(String(64), primary_key=True, default="")
    file: Mapped[str] = mapped_column(String(64), primary_key=True)  # e.g. "2026-04-11.jsonl"
    events: Mapped[int] = mapped_column(Integer, default=0)
    head_seq: Mapped[int] = mapped_column(Integer, default=0)
    head_sig: Mapped[str] = mapped_column(String(64), default="")
    updated_at: Mapped[str] = mapped_column(String(40), default="")  # ISO 8601, part of the signature


# --------------------------------------------------------------------------- improvement loop (issue 6)


class ImprovementRun(Base):
    """One nightly analysis or Sage pass: what it looked at and what it created (JSON summary)."""

    __tablename__ = "improvement_runs"
    __table_args__ = (Index("ix_improvement_runs_started", "started_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))  # nightly | sage
    project: Mapped[str | None] = mapped_column(String(128), nullable=True)  # the --project filter, None = all
    started_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    model: Mapped[str] = mapped_column(String(128), default="")
    summary: Mapped[str] = mapped_column(Text, default="{}")  # JSON


class Proposal(VersionedColumns, Base):
    """A proposed new content for one skill scope, waiting for (or carrying) the operator's decision."""

    __tablename__ = "proposals"
    # signed (issue 18): the content approved is the content proposed, the decision is the one recorded
    __signed_fields__ = (
        "id", "skill", "scope", "project", "source", "status", "reason", "summary", "metrics", "failing_rules",
        "learnings", "base_version", "current_content", "proposed_content", "model", "run_id", "created_at",
        "decided_at", "decided_by", "decision_reason", "applied_version", "event_sig",
    )  # fmt: skip
    __table_args__ = (
        Index("ix_proposals_status", "status"),
        Index("ix_proposals_skill_scope", "skill", "scope"),
        # at most one pending proposal per skill scope, whatever process creates it: migration 0008
        # creates it WHERE status = 'pending' on SQLite and PostgreSQL alike (the schema is always
        # the migrations'). Only the SQLite option is spelled here: a `postgresql_*` option imports
        # SQLAlchemy's PostgreSQL dialect (about 40 ms) in every command on a SQLite store.
        Index(
            "uq_proposals_pending",
            "skill",
            "scope",
            unique=True,
            sqlite_where=sql_text("status = 'pending'"),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    skill: Mapped[str] = mapped_column(String(64))
    scope: Mapped[str] = mapped_column(String(128), default=GLOBAL)  # the skill changed: "" global or a fork's project
    project: Mapped[str] = mapped_column(String(128), default=GLOBAL)  # where the weakness was seen
    source: Mapped[str] = mapped_column(String(16))  # template | sage
    status: Mapped[str] = mapped_column(String(16), default="pending")  # pending | approved | rejected
    reason: Mapped[str] = mapped_column(Text, default="")
    summary: Mapped[str] = mapped_column(Text, default="")  # what the change does (Sage's words or the template's)
    metrics: Mapped[str] = mapped_column(Text, default="{}")  # JSON: the metrics that triggered it
    failing_rules: Mapped[str] = mapped_column(Text, default="[]")  # JSON
    learnings: Mapped[str] = mapped_column(Text, default="[]")  # JSON
    base_version: Mapped[int] = mapped_column(Integer, default=1)
    current_content: Mapped[str] = mapped_column(Text, default="")
    proposed_content: Mapped[str] = mapped_column(Text, default="")
    model: Mapped[str] = mapped_column(String(128), default="")
    prompt: Mapped[str] = mapped_column(Text, default="")  # Sage: the exact prompt sent
    answer: Mapped[str] = mapped_column(Text, default="")  # Sage: the model's raw answer
    run_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    decided_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    decided_by: Mapped[str] = mapped_column(String(128), default="")
    decision_reason: Mapped[str] = mapped_column(Text, default="")
    applied_version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    event_sig: Mapped[str] = mapped_column(String(64), default="")  # the signed decision event


class BenchmarkScenario(Base):
    """A test request for a skill, generated by the model or written by the operator, kept for reuse."""

    __tablename__ = "benchmark_scenarios"
    __table_args__ = (Index("ix_benchmark_scenarios_skill", "skill", "scope"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    skill: Mapped[str] = mapped_column(String(64))
    scope: Mapped[str] = mapped_column(String(128), default=GLOBAL)
    text: Mapped[str] = mapped_column(Text)
    source: Mapped[str] = mapped_column(String(16), default="operator")  # operator | model
    model: Mapped[str] = mapped_column(String(128), default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class BenchmarkRun(Base):
    """One A/B benchmark of a proposal: old vs proposed content on N scenarios, evals + a two-order judge."""

    __tablename__ = "benchmark_runs"
    __table_args__ = (Index("ix_benchmark_runs_proposal", "proposal_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    proposal_id: Mapped[int] = mapped_column(Integer)
    skill: Mapped[str] = mapped_column(String(64), default="")
    scope: Mapped[str] = mapped_column(String(128), default=GLOBAL)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    provider: Mapped[str] = mapped_column(String(32), default="")
    model: Mapped[str] = mapped_column(String(128), default="")
    judge_model: Mapped[str] = mapped_column(String(128), default="")
    seed: Mapped[int] = mapped_column(Integer, default=0)
    verdict: Mapped[str] = mapped_column(String(8), default="TIE")  # PASSED | FAILED | TIE
    wins_new: Mapped[int] = mapped_column(Integer, default=0)
    wins_old: Mapped[int] = mapped_column(Integer, default=0)
    ties: Mapped[int] = mapped_column(Integer, default=0)
    old_avg: Mapped[float] = mapped_column(Float, default=0.0)
    new_avg: Mapped[float] = mapped_column(Float, default=0.0)
    improvement_pct: Mapped[float | None] = mapped_column(Float, nullable=True)
    config: Mapped[str] = mapped_column(Text, default="{}")  # JSON: prompt templates, weights, rules, contents


class BenchmarkResult(Base):
    """One scenario of a run: both outputs, eval scores, both judge orders, combined scores, the winner."""

    __tablename__ = "benchmark_results"
    __table_args__ = (Index("ix_benchmark_results_run", "run_id", "position"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("benchmark_runs.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer, default=0)
    scenario_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    scenario: Mapped[str] = mapped_column(Text)
    old_output: Mapped[str] = mapped_column(Text, default="")
    new_output: Mapped[str] = mapped_column(Text, default="")
    old_eval: Mapped[float | None] = mapped_column(Float, nullable=True)  # share of rules passed, 0-1
    new_eval: Mapped[float | None] = mapped_column(Float, nullable=True)
    old_judge: Mapped[float] = mapped_column(Float, default=0.0)  # mean of its two judge scores, 1-10
    new_judge: Mapped[float] = mapped_column(Float, default=0.0)
    old_score: Mapped[float] = mapped_column(Float, default=0.0)  # combined, 0-10
    new_score: Mapped[float] = mapped_column(Float, default=0.0)
    judge_winner: Mapped[str] = mapped_column(String(8), default="tie")  # old | new | tie
    winner: Mapped[str] = mapped_column(String(8), default="tie")
    detail: Mapped[str] = mapped_column(
        Text, default="{}"
    )  # JSON: rule results, both judge calls (prompts, raw answers)


# --- agents (issue 14) ---
class SkillGeneration(Base):
    """A skill the generator wrote from an extraction goal: its proposal, the eval rules it proposes
    (the proposal row holds the SKILL.md) and the passages it was written from."""

    __tablename__ = "skill_generations"
    __table_args__ = (UniqueConstraint("proposal_id", name="uq_skill_generations_proposal"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    proposal_id: Mapped[int] = mapped_column(ForeignKey("proposals.id", ondelete="CASCADE"))
    goal: Mapped[str] = mapped_column(Text, default="")
    project: Mapped[str] = mapped_column(String(128), default=GLOBAL)
    evals: Mapped[str] = mapped_column(Text, default="")  # the proposed <name>.evals.json
    passages: Mapped[str] = mapped_column(Text, default="[]")  # JSON: the cited passages (document, lines, text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


# --- marketplaces (issue 10) ---
class MarketSource(Base):
    """A place skills are discovered in: a folder, a git checkout, a zip or a plugin marketplace file."""

    __tablename__ = "market_sources"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    kind: Mapped[str] = mapped_column(String(16))  # folder | git | zip | marketplace
    location: Mapped[str] = mapped_column(Text)  # an absolute path (a git URL's clone lives under sources/market/)
    origin: Mapped[str] = mapped_column(Text, default="")  # what the operator gave (a git URL), when it differs
    added_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


# --- skill files ---
class SkillBlob(Base):
    """A file's bytes, content-addressed: shared by every skill version and fork that holds them."""

    __tablename__ = "skill_blobs"

    sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    size: Mapped[int] = mapped_column(BigInteger)
    data: Mapped[bytes] = mapped_column(LargeBinary)


class SkillVersionFile(Base):
    """One file of a skill version besides SKILL.md and its evals file: path, mode bits, blob."""

    __tablename__ = "skill_version_files"
    __table_args__ = (UniqueConstraint("version_id", "path", name="uq_skill_version_files_path"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    version_id: Mapped[int] = mapped_column(ForeignKey("skill_versions.id", ondelete="CASCADE"), index=True)
    path: Mapped[str] = mapped_column(String(1024))  # POSIX, relative to the skill folder
    sha256: Mapped[str] = mapped_column(ForeignKey("skill_blobs.sha256"), index=True)
    mode: Mapped[int] = mapped_column(Integer, default=0o644)
    #: (ORM only) lets a bulk import add a version and its files before either is flushed
    version: Mapped[SkillVersion] = relationship()


# --- memory (issue 12: seed 004 B1-B5) ---
# Stories, research notes, clarification summaries (never verbatim), signed injection rows and
# signed reuse scores. Signed rows keep their times as ISO 8601 strings (part of the signature).


class Story(VersionedColumns, Base):
    """A story (`PD-42`) of this workspace: domain, project, state and gate outcome (signed: the
    gate outcome drives reuse scores)."""

    __tablename__ = "stories"
    __signed_fields__ = ("id", "domain", "project", "state", "gate", "started_at", "closed_at")

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    domain: Mapped[str] = mapped_column(String(128), default="")
    project: Mapped[str] = mapped_column(String(128), default="")
    state: Mapped[str] = mapped_column(String(24), default="OPEN")  # OPEN | DONE | REJECTED | DONE_WITH_ANOMALY
    gate: Mapped[str] = mapped_column(String(8), default="")  # "" | GO | NO_GO
    started_at: Mapped[str] = mapped_column(String(40), default="")
    closed_at: Mapped[str] = mapped_column(String(40), default="")


class ResearchNote(VersionedColumns, Base):
    """A research note (seed 004 B1) collected from the workspace's `sources/` (front matter + H1 + summary)."""

    __tablename__ = "research_notes"
    # signed (issue 24): `story start` injects notes verbatim
    __signed_fields__ = (
        "id", "path", "title", "summary", "body", "verdict", "impact", "date", "tags", "domain", "project", "sha256",
    )  # fmt: skip
    __table_args__ = (UniqueConstraint("path", name="uq_research_notes_path"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    path: Mapped[str] = mapped_column(String(512))  # relative to the workspace's sources/
    title: Mapped[str] = mapped_column(Text, default="")
    summary: Mapped[str] = mapped_column(Text, default="")
    body: Mapped[str] = mapped_column(Text, default="")  # the markdown after the front matter (indexed)
    verdict: Mapped[str] = mapped_column(String(16), default="")  # signal | bruit | veille
    impact: Mapped[str] = mapped_column(String(16), default="")  # fort | modere | faible
    date: Mapped[str] = mapped_column(String(10), default="")  # YYYY-MM-DD
    tags: Mapped[str] = mapped_column(Text, default="")  # comma-separated
    domain: Mapped[str] = mapped_column(String(128), default="")
    project: Mapped[str] = mapped_column(String(128), default="")
    sha256: Mapped[str] = mapped_column(String(64), default="")
    collected_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    # issue 25 d3: the workspace whose sources/ it came from ("" before 0019); on a shared store a
    # workspace's collect removes only its own notes. Not signed: it decides no injection, and
    # adding it to the signed fields would make every note signed before 0019 fail to verify.
    workspace: Mapped[str] = mapped_column(String(64), default="", server_default="")


class Clarification(VersionedColumns, Base):
    """The validated, non-PII summary of a story's clarification (seed 004 B2); never the verbatim.

    The file `clarifications/<story>-clarifications.md` is written from this row; retention erases
    both (and every derived artefact) where today > retention_until."""

    __tablename__ = "clarifications"
    # signed (issue 24): `story start` injects the summaries verbatim
    __signed_fields__ = (
        "story", "domain", "project", "date", "retention_until", "problem", "criteria", "constraints", "priorities",
    )  # fmt: skip
    __table_args__ = (Index("ix_clarifications_domain_project", "domain", "project"),)

    story: Mapped[str] = mapped_column(String(64), primary_key=True)
    domain: Mapped[str] = mapped_column(String(128), default="")
    project: Mapped[str] = mapped_column(String(128), default="")
    date: Mapped[str] = mapped_column(String(10))  # YYYY-MM-DD
    retention_until: Mapped[str] = mapped_column(String(10))  # date + 18 months
    problem: Mapped[str] = mapped_column(Text, default="")
    criteria: Mapped[str] = mapped_column(Text, default="")
    constraints: Mapped[str] = mapped_column(Text, default="")
    priorities: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class MemoryInjection(VersionedColumns, Base):
    """One item injected at a story's start (seed 004 B5), signed: reuse scores are computed from these."""

    __tablename__ = "memory_injections"
    __table_args__ = (
        Index("ix_memory_injections_story", "story"),
        Index("ix_memory_injections_item", "kind", "item"),
    )
    __signed_fields__ = ("id", "trace", "story", "domain", "project", "kind", "item", "position", "created_at")

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    trace: Mapped[str] = mapped_column(String(64))  # the injection's id, as in its signed session event
    story: Mapped[str] = mapped_column(String(64))
    domain: Mapped[str] = mapped_column(String(128), default="")
    project: Mapped[str] = mapped_column(String(128), default="")
    kind: Mapped[str] = mapped_column(String(16))  # learning | note | clarification
    item: Mapped[str] = mapped_column(String(128))  # learning id, note id or clarification story
    position: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[str] = mapped_column(String(40), default="")


class LearningScore(VersionedColumns, Base):
    """A learning's reuse score (seed 004 B3), signed: promotion reads only verified scores."""

    __tablename__ = "learning_scores"
    __signed_fields__ = ("learning_id", "injections", "gate_go", "domains", "reuse_score", "computed_at")

    learning_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    injections: Mapped[int] = mapped_column(Integer, default=0)
    gate_go: Mapped[int] = mapped_column(Integer, default=0)
    domains: Mapped[int] = mapped_column(Integer, default=0)
    reuse_score: Mapped[str] = mapped_column(String(8), default="0.0000")  # 4 decimals, at most 0.9999
    computed_at: Mapped[str] = mapped_column(String(40), default="")


# --- purge (issue 13) ---


class PurgeRun(Base):
    """One GDPR purge run (a story erased now, or the daily retention), its journal and its proof.

    The run's steps (`PurgeStep`) make it resumable: a run killed midway stays `running` and the
    next purge finishes it. It records story ids and counts per artefact, never the erased content.
    """

    __tablename__ = "purge_runs"
    __table_args__ = (Index("ix_purge_runs_started", "started_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    mode: Mapped[str] = mapped_column(String(16))  # story | retention
    stories: Mapped[str] = mapped_column(Text, default="[]")  # JSON list of story ids
    today: Mapped[str] = mapped_column(String(10), default="")  # retention: the date it compared with
    status: Mapped[str] = mapped_column(String(16), default="running")  # running | done | incomplete
    counts: Mapped[str] = mapped_column(Text, default="{}")  # JSON {artefact: erased}
    verified: Mapped[bool] = mapped_column(Boolean, default=False)
    remaining: Mapped[str] = mapped_column(Text, default="[]")  # JSON list of what verification still found
    notes: Mapped[str] = mapped_column(Text, default="[]")  # JSON list (compaction, VACUUM, resumed)
    by: Mapped[str] = mapped_column(String(128), default="")
    started_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    verified_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)


class PurgeStep(Base):
    """One (story, purgeable) of a run: planned count, erased count, verification outcome."""

    __tablename__ = "purge_steps"
    __table_args__ = (UniqueConstraint("run_id", "story", "purgeable", name="uq_purge_steps_run_story_purgeable"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("purge_runs.id", ondelete="CASCADE"), index=True)
    story: Mapped[str] = mapped_column(String(128))
    purgeable: Mapped[str] = mapped_column(String(64))
    artefact: Mapped[str] = mapped_column(String(16))  # store | faiss | embeddings | cache | sessions | markdown
    status: Mapped[str] = mapped_column(String(16), default="pending")  # pending | erased | verified | remains
    planned: Mapped[int] = mapped_column(Integer, default=0)
    erased: Mapped[int] = mapped_column(Integer, default=0)


# --------------------------------------------------------------------------- facts (issue 11, seed 003)


class FactDocument(Base):
    """An ingested document: markdown, text or source. `id` is `<project>:file:<hash10>` of its origin.

    `text` is kept so quotes can be checked verbatim and shown highlighted; `extracted_sha256` is
    the content hash the last extraction read (a changed file is re-extracted alone)."""

    __tablename__ = "fact_documents"
    __table_args__ = (Index("ix_fact_documents_project", "project", "origin"),)

    id: Mapped[str] = mapped_column(String(160), primary_key=True)
    project: Mapped[str] = mapped_column(String(128))
    origin: Mapped[str] = mapped_column(Text)  # the path relative to the ingested folder
    path: Mapped[str] = mapped_column(Text, default="")  # the absolute path it was read from
    kind: Mapped[str] = mapped_column(String(16), default="text")  # markdown | text | source
    sha256: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text, default="")
    size: Mapped[int] = mapped_column(Integer, default=0)
    missing: Mapped[bool] = mapped_column(Boolean, default=False)  # gone from its folder at the last ingest
    extracted_sha256: Mapped[str] = mapped_column(String(64), default="")
    extracted_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class Fact(VersionedColumns, Base):
    """A typed, scoped, sourced fact (seed 003). Decision-driving: signed, filtered on read.

    `scope`, `tags` and `provenance` are JSON text; `merged_into` names the surviving fact of a
    consolidation (the row stays: history is never lost)."""

    __tablename__ = "facts"
    # ix_facts_ordinal (migration 0021): the next ordinal of an add is max(ordinal), read from the index
    __table_args__ = (Index("ix_facts_project_status", "project", "status"), Index("ix_facts_ordinal", "ordinal"))
    __signed_fields__ = (
        "id",
        "project",
        "type",
        "statement",
        "detail",
        "scope",
        "tags",
        "confidence",
        "status",
        "provenance",
        "merged_into",
        "flag",
        "ordinal",
    )

    id: Mapped[str] = mapped_column(String(160), primary_key=True)
    project: Mapped[str] = mapped_column(String(128))
    type: Mapped[str] = mapped_column(String(16))
    statement: Mapped[str] = mapped_column(Text)
    detail: Mapped[str] = mapped_column(Text, default="")
    scope: Mapped[str] = mapped_column(Text, default="[]")
    tags: Mapped[str] = mapped_column(Text, default="[]")
    confidence: Mapped[float] = mapped_column(Float, default=0.9)
    status: Mapped[str] = mapped_column(String(16), default="candidate")
    provenance: Mapped[str] = mapped_column(Text, default="[]")
    merged_into: Mapped[str] = mapped_column(String(160), default="")
    flag: Mapped[str] = mapped_column(String(32), default="")  # "" | quote_vanished | document_removed
    ordinal: Mapped[int] = mapped_column(Integer, default=0)  # creation order: the older fact survives
    source: Mapped[str] = mapped_column(String(16), default="extraction")  # extraction | operator | merge | demo
    prior_status: Mapped[str] = mapped_column(String(16), default="")  # before it became conflicting
    decided_by: Mapped[str] = mapped_column(String(128), default="")
    decided_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    decision_reason: Mapped[str] = mapped_column(Text, default="")
    event_sig: Mapped[str] = mapped_column(String(64), default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class FactTerm(Base):
    """The word index of the facts (issue 26 d3, migration 0021): one row per distinct folded word
    (`facts.model.words`) of a fact's statement, with the fact's project and type, so the
    near-duplicate search of `facts add` reads the postings of a few words instead of every fact
    of the project and type. Derived data, unsigned: it only proposes candidates, each checked
    exactly against the fact's verified statement; `facts.terms` keeps it exact on every write."""

    __tablename__ = "fact_terms"
    __table_args__ = (Index("ix_fact_terms_lookup", "project", "type", "term"),)

    fact_id: Mapped[str] = mapped_column(ForeignKey("facts.id", ondelete="CASCADE"), primary_key=True)
    term: Mapped[str] = mapped_column(Text, primary_key=True)
    project: Mapped[str] = mapped_column(String(128))
    type: Mapped[str] = mapped_column(String(16))


class FactConflict(VersionedColumns, Base):
    """A contradiction the LLM consolidation found between facts: never decided without a human."""

    __tablename__ = "fact_conflicts"
    __table_args__ = (Index("ix_fact_conflicts_project_status", "project", "status"),)
    __signed_fields__ = ("id", "project", "facts", "reason", "status", "resolution", "result")

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    project: Mapped[str] = mapped_column(String(128))
    facts: Mapped[str] = mapped_column(Text, default="[]")  # JSON list of fact ids
    reason: Mapped[str] = mapped_column(Text, default="")
    status: Mapped[str] = mapped_column(String(16), default="open")  # open | resolved
    resolution: Mapped[str] = mapped_column(String(16), default="")  # keep | merge | reject_all
    result: Mapped[str] = mapped_column(String(160), default="")  # the kept or merged fact's id
    resolved_by: Mapped[str] = mapped_column(String(128), default="")
    resolved_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    resolution_reason: Mapped[str] = mapped_column(Text, default="")
    event_sig: Mapped[str] = mapped_column(String(64), default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class FactRun(Base):
    """One extraction or consolidation run and its report (JSON: kept, merged, dropped with reasons)."""

    __tablename__ = "fact_runs"
    __table_args__ = (Index("ix_fact_runs_started", "started_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))  # extract | recorded | consolidate
    project: Mapped[str] = mapped_column(String(128), default="")
    model: Mapped[str] = mapped_column(String(128), default="")
    report: Mapped[str] = mapped_column(Text, default="{}")
    started_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)


# --- audit chain, round 2 (issue 18) ---


class AuditHead(SignedColumns, Base):
    """The one signed head of a workspace's whole session log: how many events, the last one, an epoch.

    `epoch` only grows (+1 per event, +1 on adoption); copies of the head outside the store (Vault
    KV, the user's state dir) carry it too, so a head written back from an older state is named.
    """

    __tablename__ = "audit_heads"
    __signed_fields__ = ("workspace", "epoch", "count", "file", "seq", "head_sig", "updated_at")
    __signed_manually__ = True

    workspace: Mapped[str] = mapped_column(String(64), primary_key=True, default="")
    epoch: Mapped[int] = mapped_column(Integer, default=0)
    count: Mapped[int] = mapped_column(Integer, default=0)  # signed events in the whole log
    file: Mapped[str] = mapped_column(String(64), default="")  # the file holding the last event
    seq: Mapped[int] = mapped_column(Integer, default=0)  # the last event's number in that file
    head_sig: Mapped[str] = mapped_column(String(64), default="")
    updated_at: Mapped[str] = mapped_column(String(40), default="")


class AuditTrustRoot(Base):
    """The store's one trust root (issue 25): per key version, the fingerprint of the HMAC key that
    signs this store's rows, so a workspace with another key is refused before it writes.

    `fingerprint` is HMAC-SHA256(key, "lorekeeper-key-fingerprint") truncated to 32 hex characters:
    it names the key without revealing it. `sig` is HMAC of the whole row with that key version
    (provider, location and the recording workspace cannot be edited unnoticed by those who hold it).
    """

    __tablename__ = "audit_trust_roots"

    key_version: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    fingerprint: Mapped[str] = mapped_column(String(64))
    provider: Mapped[str] = mapped_column(String(16), default="")
    location: Mapped[str] = mapped_column(String(400), default="")  # e.g. the Vault address, mount and path
    workspace: Mapped[str] = mapped_column(String(64), default="")  # the workspace that recorded it
    recorded_at: Mapped[str] = mapped_column(String(40), default="")
    sig: Mapped[str] = mapped_column(String(64), default="")


class AuditOutbox(SignedColumns, Base):
    """An event committed with the change it records, waiting to be written to the day file."""

    __tablename__ = "audit_outbox"
    __signed_fields__ = ("id", "workspace", "type", "story", "data", "salt", "created_at")
    __signed_manually__ = True

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    workspace: Mapped[str] = mapped_column(String(64), default="")
    type: Mapped[str] = mapped_column(String(64))
    story: Mapped[str | None] = mapped_column(String(128), nullable=True)
    data: Mapped[str] = mapped_column(Text, default="null")  # canonical JSON
    salt: Mapped[str] = mapped_column(String(32))  # the event's content salt: finds it in the file after a crash
    created_at: Mapped[str] = mapped_column(String(40), default="")


# --- row ledger (issue 24) ---


class RowLedger(Base):
    """The version and signature a versioned row must carry (by table and a hash of its key)."""

    __tablename__ = "row_ledger"

    tbl: Mapped[str] = mapped_column(String(64), primary_key=True)
    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    version: Mapped[int] = mapped_column(
        BigInteger
    )  # -1: legacy unsigned (sign-rows may sign it); 0: signed before 0017
    sig: Mapped[str] = mapped_column(String(64), default="")


class RowLedgerHead(SignedColumns, Base):
    """Per table: the signed digest of its ledger entries and its clock (the last row version)."""

    __tablename__ = "row_ledger_heads"
    __signed_fields__ = ("tbl", "clock", "count", "digest")
    __signed_manually__ = True

    tbl: Mapped[str] = mapped_column(String(64), primary_key=True)
    clock: Mapped[int] = mapped_column(BigInteger, default=0)
    count: Mapped[int] = mapped_column(Integer, default=0)
    digest: Mapped[str] = mapped_column(String(64), default="")


class RowAnchor(SignedColumns, Base):
    """The ledger heads' clocks as of the session log's head (epoch and head_sig): a ledger head
    written back from an older state is behind its anchor, and the head is kept by the witness."""

    __tablename__ = "row_anchors"
    __signed_fields__ = ("workspace", "epoch", "head_sig", "clocks")
    __signed_manually__ = True

    workspace: Mapped[str] = mapped_column(String(64), primary_key=True, default="")
    epoch: Mapped[int] = mapped_column(Integer, default=0)
    head_sig: Mapped[str] = mapped_column(String(64), default="")
    clocks: Mapped[str] = mapped_column(Text, default="{}")  # canonical JSON {table: clock}


class ReviewComment(VersionedColumns, Base):
    """A comment on a proposal, a fact or a conflict (issue 30 d3): signed, append-only, shown in
    the item's history. `kind` is proposal | fact | conflict, `item` the item's id as text."""

    __tablename__ = "review_comments"
    __table_args__ = (Index("ix_review_comments_item", "kind", "item"),)
    __signed_fields__ = ("id", "kind", "item", "author", "text", "created_at")

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    item: Mapped[str] = mapped_column(String(160))
    author: Mapped[str] = mapped_column(String(128))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    event_sig: Mapped[str] = mapped_column(String(64), default="")


class ReviewAssignment(VersionedColumns, Base):
    """Who reviews an item (issue 30 d3): one named operator per proposal, fact or conflict."""

    __tablename__ = "review_assignments"
    __table_args__ = (Index("ix_review_assignments_assignee", "kind", "assignee"),)
    __signed_fields__ = ("kind", "item", "assignee", "assigned_by", "assigned_at")

    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    item: Mapped[str] = mapped_column(String(160), primary_key=True)
    assignee: Mapped[str] = mapped_column(String(128))
    assigned_by: Mapped[str] = mapped_column(String(128), default="")
    assigned_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    event_sig: Mapped[str] = mapped_column(String(64), default="")
