"""The facts' word index (`fact_terms`, issue 26 d3): kept exact on every write, read by the dedup.

`fact_terms` holds, for every fact, the distinct folded words of its statement (`model.words`)
with the fact's project and type. Every ORM flush that adds a fact, changes the statement,
project or type of one, or deletes one rewrites that fact's terms in the same transaction (the
`Fact` mapper's insert/update/delete events note the rows, a session `after_flush` writes their
terms; installed when this module is imported: whatever path writes a fact, the index follows; migration 0021 filled it for the facts
that existed before). Nothing writes facts with bulk Core statements, which the listener would
not see (tests/facts/test_fact_terms.py compares the index with every fact's words after the
decisions, the demo's recorded extraction and consolidation, and the migration's backfill).

`near(s, project, type_, mine, exclude)` gives the ids of the facts (merged ones too) of that
project and type that share at least ceil(0.62 |mine|) words with `mine`: a superset of the facts whose
Jaccard with it is >= 0.62 (|A∩B| >= 0.62 |A∪B| >= 0.62 |A|), found from the postings of the
|A| - ceil(0.62 |A|) + 1 rarest of its words (any B with Jaccard >= 0.62 holds one of them). The
index is derived, unsigned data: a tampered index can only hide or propose candidates, which
the caller checks exactly against verified rows (a duplicate may then be missed, nothing
unverified is ever shown or merged).
"""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import Table, delete, event, func, insert, select
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.orm import Session, object_session

from lorekeeper.facts.model import words
from lorekeeper.store.models import Fact, FactTerm

TERMS = cast(Table, FactTerm.__table__)
_INDEXED = ("statement", "project", "type")
CHUNK = 500  # ids per IN (...) list


def need(n: int) -> int:
    """How many of a statement's n words a Jaccard >= 0.62 partner must share (ceil(0.62 n))."""
    return (62 * n + 99) // 100


def term_rows(fact: Any) -> list[dict[str, str]]:
    return [
        {"fact_id": fact.id, "term": t, "project": fact.project, "type": fact.type}
        for t in sorted(words(fact.statement or ""))
    ]


def _changed(obj: Any) -> bool:
    state = sa_inspect(obj)
    return any(state.attrs[name].history.has_changes() for name in _INDEXED)


def _mark(kind: str) -> Any:
    """A mapper event of `Fact` that notes the row in its session (no SQL, nothing for other models)."""

    def listener(_mapper: Any, _conn: Any, target: Any) -> None:
        s = object_session(target)
        if s is not None and (kind != "update" or _changed(target)):
            s.info.setdefault(_PENDING, {})[id(target)] = (kind, target)

    return listener


def _after_flush(s: Session, _ctx: Any) -> None:
    """Rewrite the terms of the facts this flush added, re-worded or deleted (same transaction,
    after their rows: the foreign key holds). A flush that wrote no fact costs a dict look-up."""
    pending: dict[int, tuple[str, Any]] | None = s.info.pop(_PENDING, None)
    if not pending:
        return
    conn = s.connection()
    stale = [str(o.id) for kind, o in pending.values() if kind != "insert"]
    for i in range(0, len(stale), CHUNK):
        conn.execute(delete(TERMS).where(TERMS.c.fact_id.in_(stale[i : i + CHUNK])))
    rows = [r for kind, o in pending.values() if kind != "delete" for r in term_rows(o)]
    for i in range(0, len(rows), 5000):
        conn.execute(insert(TERMS), rows[i : i + 5000])


_PENDING = "lorekeeper_fact_terms"  # Session.info: the facts this flush wrote, by object id
for _kind in ("insert", "update", "delete"):
    event.listen(Fact, f"after_{_kind}", _mark(_kind))
event.listen(Session, "after_flush", _after_flush)


def near(s: Session, project: str, type_: str, mine: frozenset[str], exclude: str = "") -> list[str]:
    """Ids of the facts of (project, type), other than `exclude`, sharing at least
    ceil(0.62 |mine|) words with `mine` (see the module docstring): a superset of its Jaccard
    >= 0.62 partners (merged facts included: the caller loads the unmerged ones), no order.

    Two small queries: the words' document frequencies, then the postings of the rarest words
    only. The |A| - ceil(0.62 |A|) + 1 rarest are always read (a partner holds one of them);
    further words are read while their postings stay cheap, and a fact must hold at least
    ceil(0.62 |A|) minus the number of unread words among the read ones: a common word's long
    posting list is never read."""
    n = len(mine)
    if not n:
        return []
    where = (TERMS.c.project == project, TERMS.c.type == type_)
    ordered = sorted(mine)  # a statement has at most a few hundred words (MAX_STATEMENT)
    df: dict[str, int] = dict.fromkeys(ordered, 0)
    q = select(TERMS.c.term, func.count()).where(*where, TERMS.c.term.in_(ordered)).group_by(TERMS.c.term)
    for term, count in s.execute(q):
        df[str(term)] = int(count)
    by_rarity = sorted(ordered, key=lambda w: (df[w], w))
    first = n - need(n) + 1  # a partner holds at least one of these
    budget = max(3 * sum(df[w] for w in by_rarity[:first]) // 2, 100)
    read, postings = by_rarity[:first], sum(df[w] for w in by_rarity[:first])
    for w in by_rarity[first:]:
        if postings + df[w] > budget:
            break
        read.append(w)
        postings += df[w]
    probe = [w for w in read if df[w]]
    if not probe:
        return []  # no fact holds any of the words a partner must hold one of
    held: dict[str, int] = {}
    for fid in s.scalars(select(TERMS.c.fact_id).where(*where, TERMS.c.term.in_(probe))):
        held[fid] = held.get(fid, 0) + 1
    at_least = need(n) - (n - len(read))  # >= 1: at most need(n) - 1 words are left unread
    return sorted(str(fid) for fid, k in held.items() if k >= at_least and fid != exclude)
