"""Typed change sets: what a write transaction touched, published in-process, polled across processes."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from helpers import forkcli
from lorekeeper.changes import KINDS, ChangeSet
from lorekeeper.store import Store
from lorekeeper.store.feed import CHANGES_KEPT


def write_skill(root: Path, name: str) -> Path:
    d = root / name
    d.mkdir(parents=True)
    (d / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: Handles {name} questions about quokkas.\n---\n\n# {name}\n\nAnswer briefly.\n",
        encoding="utf-8",
    )
    return d


def test_an_import_yields_the_skill_names_and_is_published_after_commit(workspace, tmp_path):
    got: list[ChangeSet] = []
    seen_committed: list[bool] = []

    def on_change(changes: ChangeSet) -> None:
        got.append(changes)
        # published after commit: a fresh read session already sees the skill
        seen_committed.append(any(s.name == "quokka-care" for s in workspace.skills.list()))

    unsubscribe = workspace.store.feed.subscribe(on_change)
    report = workspace.skills.import_path(write_skill(tmp_path / "src", "quokka-care"))
    unsubscribe()
    assert report.created == ["quokka-care"]
    assert report.changes.ids("skills") == {"quokka-care"}
    assert report.changes.revision == workspace.store.revision()
    # two transactions: the skill, then its signed `skills_imported` event (the audit checkpoint)
    assert [c.ids("skills") for c in got] == [frozenset({"quokka-care"}), frozenset()]
    assert "audit" in got[1].kinds and "audit" in report.changes.kinds
    assert seen_committed == [True, True]
    assert workspace.store.last_changes() == got[-1]
    assert report.to_dict() == {"created": ["quokka-care"], "updated": [], "unchanged": []}  # the CLI JSON is unchanged


def test_learn_add_yields_learnings(workspace):
    with workspace.store.capture() as captured:
        info = workspace.learnings.add("Quokkas never drink coffee", project=None, source="manual")
    changes = captured.changes
    assert str(info.id) in changes.ids("learnings")
    assert "skills" not in changes


def test_a_failed_write_publishes_nothing(workspace):
    got: list[ChangeSet] = []
    workspace.store.feed.subscribe(got.append)
    before = workspace.store.revision()
    try:
        with workspace.store.write() as s:
            from lorekeeper.store.models import Project

            s.add(Project(name="doomed"))
            s.flush()
            raise RuntimeError("boom")
    except RuntimeError:
        pass
    assert got == []
    assert workspace.store.revision() == before


def test_poll_sees_another_store_objects_commits_but_not_its_own(workspace, tmp_path):
    other = Store(workspace.store.url)
    try:
        assert other.feed.poll() == ChangeSet(revision=workspace.store.revision())  # the first poll notes the revision
        assert workspace.store.feed.poll().kinds == {}
        workspace.skills.import_path(write_skill(tmp_path / "src", "quokka-care"))
        workspace.learnings.add("Quokkas smile", project=None)
        changes = other.feed.poll()
        assert changes.ids("skills") == {"quokka-care"}
        assert "learnings" in changes
        assert changes.revision == workspace.store.revision()
        assert other.feed.poll().kinds == {}  # nothing new since
        assert workspace.store.feed.poll().kinds == {}  # its own commits are not reported twice
    finally:
        other.close()


def test_poll_sees_another_process_import(workspace, tmp_path):
    workspace.store.feed.poll()
    src = write_skill(tmp_path / "src", "quokka-care")
    r = forkcli.run("--workspace", str(workspace.root), "skills", "import", str(src), timeout=120)  # another process
    assert r.returncode == 0, r.stderr
    changes = workspace.store.feed.poll()
    assert changes.ids("skills") == {"quokka-care"}


def test_poll_falls_back_to_everything_when_the_history_was_pruned(workspace):
    other = Store(workspace.store.url)
    try:
        other.feed.poll()
        for _ in range(CHANGES_KEPT + 60):
            with workspace.store.write():
                pass  # an empty transaction still moves the revision and records a row
        changes = other.feed.poll()
        assert changes.names == frozenset(KINDS)
        assert all(not changes.ids(k) for k in KINDS)
    finally:
        other.close()


def test_subscribers_are_thread_safe_and_see_every_commit(workspace):
    got: list[int] = []
    learnt: list[int] = []
    lock = threading.Lock()

    def on_change(c: ChangeSet) -> None:
        with lock:
            got.append(c.revision)
            if "learnings" in c:
                learnt.append(c.revision)

    workspace.store.feed.subscribe(on_change)

    def add(n: int) -> None:
        for i in range(5):
            workspace.learnings.add(f"Rule {n}-{i} about quokkas", project=None)

    threads = [threading.Thread(target=add, args=(n,)) for n in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == len(set(got))  # one change set per commit, each with its own revision
    assert len(learnt) == 15


def test_change_set_json_round_trip_and_union():
    a = ChangeSet.of(3, skills=["plan"], proposals=[7])
    b = ChangeSet.of(5, skills=["ship"])
    u = a | b
    assert u.ids("skills") == {"plan", "ship"} and u.ids("proposals") == {"7"} and u.revision == 5
    assert ChangeSet.from_json(json.loads(json.dumps(u.to_json())), 5) == u
    assert ChangeSet.from_json("garbage").names == frozenset(KINDS)
