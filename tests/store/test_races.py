"""Processes racing against one store (SQLite and PostgreSQL), 2 rounds each: concurrent nightly runs,
concurrent imports of the same skill, concurrent saves of one skill. Exit codes 0 or 4 only, no
traceback, at most one pending proposal per skill scope, consecutive version numbers."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from sqlalchemy import select, update
from store_helpers import assert_clean, make_demo, run_many, write_skill

from lorekeeper.store.models import Proposal, Skill, SkillVersion
from lorekeeper.workspace import Workspace

ROUNDS = 2
PROCS = 3


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def race_ws(request, tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp(f"race-{request.param}") / "ws"
    if request.param == "sqlite":
        yield make_demo(root)
        return
    from helpers.pg import fresh_database

    with fresh_database(request.getfixturevalue("pg_cluster")) as url:
        yield make_demo(root, url)


def _versions(root: Path, name: str) -> list[int]:
    with Workspace.open(root) as ws, ws.store.session() as s:
        sk = s.scalar(select(Skill).where(Skill.name == name, Skill.project == ""))
        assert sk is not None
        rows = s.scalars(select(SkillVersion.version).where(SkillVersion.skill_id == sk.id)).all()
        return sorted(rows)


def test_concurrent_nightly_runs_leave_one_pending_proposal_per_skill(race_ws: Path) -> None:
    report = []
    for rnd in range(ROUNDS):
        with Workspace.open(race_ws) as ws, ws.store.write() as s:  # the previous round's proposals are decided
            s.execute(update(Proposal).where(Proposal.status == "pending").values(status="rejected"))
        outcomes = run_many(race_ws, [["nightly", "--json"]] * PROCS)
        codes = assert_clean(outcomes)
        with Workspace.open(race_ws) as ws, ws.store.session() as s:
            pending = Counter(s.execute(select(Proposal.skill, Proposal.scope).where(Proposal.status == "pending")))
        assert pending, "the demo's underperforming skill gets a proposal"
        assert max(pending.values()) == 1, pending
        report.append((rnd, dict(codes), sum(pending.values())))
    print(f"\nnightly x{PROCS}: (round, exit codes, pending proposals) {report}")


def test_concurrent_imports_of_the_same_skill(race_ws: Path, tmp_path: Path) -> None:
    report = []
    for rnd in range(ROUNDS):
        src = write_skill(tmp_path / f"r{rnd}", "race-import", f"Round {rnd}: the same content for every process.")
        outcomes = run_many(race_ws, [["skills", "import", str(src), "--on-conflict", "new-version"]] * PROCS)
        codes = assert_clean(outcomes)
        versions = _versions(race_ws, "race-import")
        assert versions == list(range(1, rnd + 2)), versions  # one new version per round, whoever won
        report.append((rnd, dict(codes), versions[-1]))
    print(f"\nsame import x{PROCS}: (round, exit codes, latest version) {report}")


def test_concurrent_saves_give_consecutive_versions(race_ws: Path, tmp_path: Path) -> None:
    report = []
    saved = 0
    for rnd in range(ROUNDS):
        srcs = [
            write_skill(tmp_path / f"r{rnd}p{i}", "race-save", f"Round {rnd}, process {i}: its own edit.")
            for i in range(PROCS)
        ]
        outcomes = run_many(race_ws, [["skills", "import", str(src), "--on-conflict", "new-version"] for src in srcs])
        codes = assert_clean(outcomes)
        saved += codes.get(0, 0)
        versions = _versions(race_ws, "race-save")
        assert versions == list(range(1, saved + 1)), versions  # every successful save is a version, no gap
        with Workspace.open(race_ws) as ws:
            latest = ws.skills.get("race-save").content
        folder = (race_ws / "skills" / "race-save" / "SKILL.md").read_text(encoding="utf-8")
        assert folder == latest, "the skills folder holds the latest version, whoever exported last"
        assert not list((race_ws / "skills").rglob(".*.tmp")), "no writer's temp file is left"
        report.append((rnd, dict(codes), versions[-1]))
    print(f"\nsaves x{PROCS}: (round, exit codes, latest version) {report}")
