"""Signed rows: signed on write, filtered (and reported, signed) on read, old rows migrated."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Float, Integer, String, select, update
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from lorekeeper.audit.log import SessionLog
from lorekeeper.audit.rows import RowVerifier, sign_row, sign_unsigned, verify_row
from lorekeeper.audit.signer import Signer
from lorekeeper.store.engine import Store
from lorekeeper.store.models import SignedColumns
from lorekeeper.store.types import UTCDateTime

KEY = bytes(range(32))


class _Base(DeclarativeBase):
    pass


class Score(SignedColumns, _Base):
    """Stands in for the decision rows later features sign (learning scores, injections)."""

    __tablename__ = "test_signed_scores"
    __signed_fields__ = ("id", "learning", "score", "scored_at")

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    learning: Mapped[str] = mapped_column(String(64))
    score: Mapped[float] = mapped_column(Float)
    scored_at: Mapped[datetime] = mapped_column(UTCDateTime())


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request):
    s = Store(request.getfixturevalue("migrated_sqlite_url" if request.param == "sqlite" else "migrated_pg_url"))
    _Base.metadata.create_all(s.engine)
    yield s
    s.close()


def _add(store: Store, signer: Signer | None, n: int = 3) -> None:
    with store.write() as s:
        for i in range(n):
            row = Score(id=i + 1, learning=f"L{i}", score=0.1 * (i + 1), scored_at=datetime(2026, 4, 11, tzinfo=UTC))
            s.add(row)
            s.flush()
            if signer is not None:
                sign_row(signer, row)


def _rows(store: Store) -> list[Score]:
    with store.session() as s:
        return list(s.scalars(select(Score).order_by(Score.id)))


def test_signed_rows_survive_the_store_round_trip(store: Store):
    signer = Signer(KEY, 1)
    _add(store, signer)
    assert all(verify_row(signer, r) for r in _rows(store))


def test_tampered_rows_are_dropped_counted_and_reported_signed(store: Store, tmp_path: Path):
    signer = Signer(KEY, 1)
    _add(store, signer)
    with store.write() as s:
        s.execute(update(Score).where(Score.id == 2).values(score=0.99))  # inflate a score behind our back
        s.execute(update(Score).where(Score.id == 3).values(sig=None))
    log = SessionLog(tmp_path / "sessions", tmp_path / "locks", store, signer)
    verifier = RowVerifier(signer, report=lambda data: log.append("unsigned_entry", data))
    kept = verifier.filter(_rows(store), purpose="scoring")
    assert [r.id for r in kept] == [1]
    assert verifier.rejected_total == 2
    (event,) = log.events()
    assert event.type == "unsigned_entry" and event.status == "valid"
    assert (
        event.data["code"] == "ERR_UNSIGNED_ENTRY"
        and event.data["count"] == 2
        and event.data["table"] == "test_signed_scores"
    )


def test_rows_cannot_swap_their_contents(store: Store):
    signer = Signer(KEY, 1)
    _add(store, signer)
    a, b = _rows(store)[:2]
    with store.write() as s:
        s.execute(update(Score).where(Score.id == 1).values(sig=b.sig))
        s.execute(update(Score).where(Score.id == 2).values(sig=a.sig))
    assert not any(verify_row(signer, r) for r in _rows(store)[:2])


def test_migration_signs_unsigned_rows_but_never_launders_bad_ones(store: Store):
    signer = Signer(KEY, 1)
    _add(store, None)
    with store.write() as s:
        row = s.get(Score, 1)
        sign_row(signer, row)
        row.score = 0.5  # signed, then tampered
    with store.write() as s:
        assert sign_unsigned(s, Score, signer) == 2
    verdicts = [bool(verify_row(signer, r)) for r in _rows(store)]
    assert verdicts == [False, True, True]


def test_cli_sign_rows_covers_every_signed_table(workspace):
    # issue 18: every model with the mixin is covered without registering it; a fresh workspace's
    # rows were signed when written, so there is nothing left to sign
    from audit_helpers import run_cli

    r = run_cli("--workspace", str(workspace.root), "audit", "sign-rows", "--json")
    assert r.returncode == 0 and json.loads(r.stdout) == {
        "signed": {
            "clarifications": 0,
            "fact_conflicts": 0,
            "facts": 0,
            "learning_scores": 0,
            "learnings": 0,
            "memory_injections": 0,
            "proposals": 0,
            "quality_events": 0,
            "research_notes": 0,
            "review_assignments": 0,
            "review_comments": 0,
            "skill_versions": 0,
            "skills": 0,
            "stories": 0,
        }
    }
