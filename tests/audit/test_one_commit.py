"""Issue 24 (4): one user operation is one commit, its signed events inside it (the audit outbox).

A SQLAlchemy listener on the store's write sessions notes the tables each committed transaction
touched. The chain's own bookkeeping after the commit (the outbox written to the day file: head,
checkpoint, outbox rows deleted) is not the operation; every other commit is. Each operation must
make exactly one such commit, holding its rows and its outbox events together, and its events
must then be in the signed log."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import Session

CHAIN_TABLES = {"audit_heads", "audit_checkpoints", "audit_outbox", "store_changes", "store_revision", "row_anchors"}
PROJECT = "citadel-v2"


@contextmanager
def commits(ws: Any) -> Iterator[list[set[str]]]:
    """The tables of each commit of `ws.store` inside the block that is not only the chain's."""
    out: list[set[str]] = []
    maker = ws.store.write_sessionmaker

    def after_flush(session: Session, _ctx: Any) -> None:
        touched = session.info.setdefault("test_tables", set())
        for obj in [*session.new, *session.dirty, *session.deleted]:
            touched.add(obj.__table__.name)

    def after_execute(conn: Any, clause: Any, *_a: Any) -> None:  # Core writes (UPDATE/DELETE statements)
        table = getattr(getattr(clause, "table", None), "name", None)
        if table and hasattr(clause, "is_dml") and clause.is_dml:
            sess = conn.info.get("test_session")
            if sess is not None:
                sess.info.setdefault("test_tables", set()).add(table)

    def after_begin(session: Session, _tx: Any, conn: Any) -> None:
        conn.info["test_session"] = session

    def after_commit(session: Session) -> None:
        tables = session.info.pop("test_tables", set())
        if tables - CHAIN_TABLES:
            out.append(tables)

    event.listen(maker, "after_flush", after_flush)
    event.listen(maker, "after_begin", after_begin)
    event.listen(maker, "after_commit", after_commit)
    event.listen(ws.store.engine, "after_execute", after_execute)
    try:
        yield out
    finally:
        event.remove(maker, "after_flush", after_flush)
        event.remove(maker, "after_begin", after_begin)
        event.remove(maker, "after_commit", after_commit)
        event.remove(ws.store.engine, "after_execute", after_execute)


def types_after(ws: Any, before: int) -> list[str]:
    return [e.type for e in ws.audit.log.events()[before:]]


def an_answer(ws: Any) -> Any:
    prompt = ws.reflect.prepare("please review this pull request before I push", PROJECT)
    return ws.reflect.check(prompt, "Looks good. Push it with --force.", model="fake:model")


def test_a_thumbs_down_is_one_commit_with_its_events(workspace) -> None:
    answer = an_answer(workspace)
    n = len(workspace.audit.log.events())
    with commits(workspace) as done:
        learning = workspace.reflect.thumbs_down(answer, "Never push with --force")
    assert len(done) == 1, done  # it was 5 separate commits
    assert {"learnings", "quality_events", "audit_outbox"} <= done[0]
    assert types_after(workspace, n) == ["learning_added", "answer_feedback"]
    assert workspace.audit.log.pending() == 0 and learning.rule == "Never push with --force"


def test_a_fix_it_and_a_thumbs_up_are_one_commit_each(workspace) -> None:
    answer = an_answer(workspace)
    n = len(workspace.audit.log.events())
    with commits(workspace) as done:
        workspace.reflect.save_fix(answer, "Publish with --force-with-lease")
        workspace.reflect.thumbs_up(answer)
    assert len(done) == 2, done
    assert {"learnings", "audit_outbox"} <= done[0] and {"quality_events", "audit_outbox"} <= done[1]
    assert types_after(workspace, n) == ["learning_added", "answer_fixed", "answer_feedback"]


def test_an_eval_with_its_quality_events_is_one_commit(workspace) -> None:
    prompt = workspace.reflect.prepare("please review this pull request before I push", PROJECT)
    with commits(workspace) as done:
        workspace.reflect.check(prompt, "Looks good.", model="fake:model")
    assert len(done) == 1, done
    assert {"eval_runs", "quality_events", "answers"} <= done[0]


def test_an_import_and_a_fork_are_one_commit_each(workspace, tmp_path) -> None:
    src = tmp_path / "imp" / "one-commit"
    src.mkdir(parents=True)
    (src / "SKILL.md").write_text("---\nname: one-commit\ndescription: One commit.\n---\n\nBody\n", encoding="utf-8")
    n = len(workspace.audit.log.events())
    with commits(workspace) as done:
        workspace.skills.import_path(src.parent)
        workspace.skills.fork("code-review", "fork-project")
    assert len(done) == 2, done
    assert {"skills", "skill_versions", "audit_outbox"} <= done[0]
    assert {"projects", "skills", "skill_versions", "audit_outbox"} <= done[1]  # the project came with it
    assert types_after(workspace, n) == ["skills_imported", "skill_forked"]
    assert (workspace.root / "skills" / "one-commit" / "SKILL.md").is_file()


def test_a_fact_decision_and_a_proposal_decision_are_one_commit_each(demo_workspace) -> None:
    ws = demo_workspace
    fact = next(f for f in ws.facts.list() if f.status == "candidate" and f.conflict is None)
    ws.quality.log_applied(["code-review"] * 4, None)
    for _ in range(4):
        ws.quality.log_eval("code-review", None, False)
    (created,) = [c for c in ws.improve.run_nightly().created if c["skill"] == "code-review"]
    n = len(ws.audit.log.events())
    with commits(ws) as done:
        decision = ws.facts.approve(fact.id, why="checked")
        ws.improve.proposals.reject(created["proposal"], why="not now")
    assert len(done) == 2, done
    assert {"facts", "audit_outbox"} <= done[0] and {"proposals", "audit_outbox"} <= done[1]
    events = ws.audit.log.events()[n:]
    assert [e.type for e in events] == ["fact_approved", "proposal_rejected"]
    header = json.loads(events[0].raw)
    assert decision.event_sig == header["content_sha256"]  # the row names its signed event


def test_a_story_start_is_one_commit(workspace) -> None:
    with commits(workspace) as done:
        inj = workspace.stories.start("PD-31", "billing", PROJECT)
    assert inj.error is None
    assert len(done) == 1, done
    assert {"stories", "audit_outbox"} <= done[0]  # the refused case: test_fail_closed_matrix (story start)
