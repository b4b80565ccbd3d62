"""Comments on review items and their assignment (issue 30 d3, `lorekeeper.review`): signed rows
written with a signed event, validated first, a tampered comment never shown."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from lorekeeper.errors import InvalidInputError
from lorekeeper.review import reviewer_name


def test_a_comment_is_signed_and_listed_with_its_author(workspace) -> None:
    notes = workspace.review
    first = notes.comment("proposal", 7, "the benchmark is too small to trust")
    notes.comment("proposal", 7, "ran it again: same verdict", by="camille")
    notes.comment("fact", "shop:convention:abc", "quote is from an old revision")
    got = notes.comments("proposal", "7")
    assert [(c.author, c.text) for c in got] == [
        (reviewer_name(), "the benchmark is too small to trust"),
        ("camille", "ran it again: same verdict"),
    ]
    assert got[0].id == first.id and [c.text for c in notes.comments("fact", "shop:convention:abc")]
    with workspace.store.session() as s:
        sigs = s.execute(text("SELECT sig, event_sig FROM review_comments")).all()
    assert all(sig and event_sig for sig, event_sig in sigs)
    events = [e for e in workspace.audit.log.events() if e.type == "review_comment"]
    assert len(events) == 3 and events[1].data["by"] == "camille" and "text" not in events[1].data


@pytest.mark.parametrize(
    ("kind", "item", "body", "words"),
    [
        ("proposal", 1, "   ", "needs some text"),
        ("skill", 1, "hello", "unknown review item kind"),
        ("fact", "", "hello", "needs its id"),
        ("fact", "x", "y" * 4001, "at most 4000"),
    ],
)
def test_bad_comments_are_refused_before_anything_is_written(workspace, kind, item, body, words) -> None:
    with pytest.raises(InvalidInputError, match=words) as err:
        workspace.review.comment(kind, item, body)
    assert err.value.code == "ERR_INVALID_INPUT"
    with workspace.store.session() as s:
        assert s.execute(text("SELECT count(*) FROM review_comments")).scalar() == 0


def test_a_tampered_comment_is_not_shown(workspace) -> None:
    notes = workspace.review
    notes.comment("conflict", 3, "keep A, the runbook is current")
    with workspace.store.write() as s:  # behind the service's back: the signature no longer matches
        s.execute(text("UPDATE review_comments SET text = 'keep B'"))
    assert notes.comments("conflict", 3) == []


def test_assignment_and_mine(workspace) -> None:
    notes = workspace.review
    me = reviewer_name()
    notes.assign("proposal", 1, me)
    notes.assign("proposal", 2, "camille")
    notes.assign("fact", "f1", me)
    assert notes.mine("proposal") == {"1"} and notes.mine("proposal", "camille") == {"2"}
    assert notes.assignments("proposal")["2"].assigned_by == me
    notes.assign("proposal", 2, me)  # reassigned
    assert notes.mine("proposal") == {"1", "2"}
    assert notes.assign("proposal", 1, "") is None  # unassigned
    assert notes.mine("proposal") == {"2"} and "camille" not in notes.operators()
    events = [e.data for e in workspace.audit.log.events() if e.type == "review_assigned"]
    assert [(d["item"], d["from"], d["to"]) for d in events][-2:] == [("2", "camille", me), ("1", me, "")]
    with pytest.raises(InvalidInputError):
        notes.assign("proposal", 3, "two\nlines")
