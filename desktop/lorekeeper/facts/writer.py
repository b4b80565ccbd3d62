"""`FactWriter`: new fact rows, lexical merges and conflict records, inside a caller's transaction.

Shared by the decisions (`add`, `resolve`) and the ingest/extraction/consolidation jobs, so a fact
is created, merged and put in conflict one way only. Every method takes the caller's write session
and signer: it never opens a transaction of its own.
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any

from sqlalchemy import LargeBinary, and_, case, cast, false, func, or_, select
from sqlalchemy.orm import Session

from lorekeeper.facts.model import Provenance, check_provenance, dumps, fact_id, merge_provenance, words
from lorekeeper.facts.reports import loads
from lorekeeper.facts.rows import FactRows
from lorekeeper.store.models import Fact, FactConflict, utcnow


class FactWriter:
    def __init__(self, rows: FactRows) -> None:
        self.rows = rows

    def free_id(self, s: Session, project: str, type_: str, statement: str) -> str:
        """A fact id not used yet: one primary-key look-up per id tried (not a load of every id,
        which grew with the store), plus the ids given earlier in this transaction (not flushed)."""
        taken: set[str] = s.info.setdefault("facts_taken_ids", set())
        salt = 0
        while True:
            fid = fact_id(project, type_, statement, salt)
            if fid not in taken:
                with s.no_autoflush:
                    used = s.scalar(select(Fact.id).where(Fact.id == fid)) is not None
                if not used:
                    taken.add(fid)
                    return fid
            salt += 1

    def next_ordinal(self, s: Session) -> int:
        """Creation order, computed once per transaction (the write lock is held: no race)."""
        nxt = s.info.get("facts_next_ordinal")
        if nxt is None:
            with s.no_autoflush:
                nxt = int(s.scalar(select(func.max(Fact.ordinal))) or 0) + 1
        s.info["facts_next_ordinal"] = nxt + 1
        return int(nxt)

    def new_fact(
        self,
        s: Session,
        signer: Any,
        *,
        project: str,
        type_: str,
        statement: str,
        detail: str,
        scope: Sequence[str],
        tags: Sequence[str],
        confidence: float,
        provenance: Sequence[Provenance],
        source: str,
        status: str = "candidate",
    ) -> Fact:
        prov = check_provenance(provenance)  # a fact without provenance is invalid by construction
        row = Fact(
            id=self.free_id(s, project, type_, statement),
            project=project,
            type=type_,
            statement=statement,
            detail=detail,
            scope=dumps(list(scope)),
            tags=dumps(list(tags)),
            confidence=confidence,
            status=status,
            provenance=dumps([p.to_dict() for p in prov]),
            ordinal=self.next_ordinal(s),
            source=source,
            merged_into="",
            flag="",
            created_at=utcnow(),
        )
        self.rows.sign(row, signer)  # every signed field is set above: no flush needed per fact
        s.add(row)
        return row

    # ------------------------------------------------------------------ lexical consolidation
    def lexical(self, s: Session, signer: Any, new_rows: Sequence[Fact]) -> builtins.list[dict[str, str]]:
        """Merge each new fact into the most similar older fact of its project and type (Jaccard
        >= 0.62; ties: the oldest). The older survives with its id and statement and gains the
        provenances; the newer stays as history (`merged_into`)."""
        merged: builtins.list[dict[str, str]] = []
        if not new_rows:
            return merged
        in_conflict = set(self.rows.open_conflicts(s))
        if len(new_rows) == 1:  # one add: only the older facts it could merge into are loaded
            row = new_rows[0]
            pool = sorted(
                [*self.rows.filter(self.candidates(s, row), "consolidation"), row], key=lambda r: (r.ordinal, r.id)
            )
            return self.merge_pool(pool, {row.id}, in_conflict, signer)
        by_key: dict[tuple[str, str], builtins.list[Fact]] = {}
        for row in new_rows:
            by_key.setdefault((row.project, row.type), [])
        for project, type_ in by_key:
            q = select(Fact).where(Fact.project == project, Fact.type == type_, Fact.merged_into == "")
            by_key[(project, type_)] = sorted(
                self.rows.filter(s.scalars(q).all(), "consolidation"), key=lambda r: (r.ordinal, r.id)
            )
        fresh = {r.id for r in new_rows}
        for pool in by_key.values():
            merged += self.merge_pool(pool, fresh, in_conflict, signer)
        return merged

    def candidates(self, s: Session, row: Fact) -> builtins.list[Fact]:
        """The older unmerged facts of `row`'s project and type whose Jaccard with it is >= 0.62,
        found without loading the others: exactly the facts the full pass could merge it into.

        A fact B with Jaccard(A, B) >= 0.62 holds at least ceil(0.62 |A|) of A's words, so it holds
        one of ANY |A| - ceil(0.62 |A|) + 1 of them: those are asked for with LIKE (non-ASCII words
        first, they cost nothing, then the longest, likely the rarest). LIKE finds a word in a row
        whose statement is ASCII (there the folded words are the lower-cased text, and LIKE ignores
        ASCII case); a statement with any other character (an accent folds away, a ligature
        unfolds) is always read. Only (id, statement) pairs are read and checked exactly in Python;
        the full rows of the matches are loaded last."""
        mine = words(row.statement)
        n = len(mine)
        if not n:
            return []  # no word: the full pass never merges it (an empty union)
        need = n - (62 * n + 99) // 100 + 1
        asked = sorted(mine, key=lambda w: (w.isascii(), -len(w), w))[:need]
        non_ascii = func.length(Fact.statement) != func.length(cast(Fact.statement, LargeBinary))
        # SQLite's LIKE ignores ASCII case; PostgreSQL's does not (ILIKE does)
        sqlite = s.get_bind().dialect.name == "sqlite"

        def found(w: str) -> Any:
            return (Fact.statement.like if sqlite else Fact.statement.ilike)(_like(w), escape="\\")

        likes = [found(w) for w in asked if w.isascii()]
        # an ASCII statement holds at least ceil(0.62 |A|) of A's words, each one a LIKE match:
        # SQLite counts them only on the rows one of the asked words found
        every = [case((found(w), 1), else_=0) for w in sorted(mine) if w.isascii()]
        enough = sum(every[1:], every[0]) >= (62 * n + 99) // 100 if every else false()
        with s.no_autoflush:
            pairs = s.execute(
                select(Fact.id, Fact.statement).where(
                    Fact.project == row.project,
                    Fact.type == row.type,
                    Fact.merged_into == "",
                    Fact.id != row.id,
                    or_(and_(or_(*likes), enough), non_ascii) if likes else non_ascii,
                )
            ).all()
            ids = []
            for fid, statement in pairs:
                theirs = words(statement)
                if len(mine & theirs) * 100 >= 62 * len(mine | theirs):
                    ids.append(fid)
            return list(s.scalars(select(Fact).where(Fact.id.in_(ids)))) if ids else []

    def merge_pool(
        self, pool: Sequence[Fact], fresh: set[str], in_conflict: set[str], signer: Any
    ) -> builtins.list[dict[str, str]]:
        """One project and type, in creation order: each fresh fact merges into the most similar
        older survivor. Candidates come from a prefix-filter index (AllPairs): two word sets with
        Jaccard >= 0.62 share a word among the first |A| - ceil(0.62 |A|) + 1 of each, rarest
        words first; each candidate is then checked exactly, so 10k facts stay fast."""
        wsets = {r.id: words(r.statement) for r in pool}
        df: dict[str, int] = {}
        for ws_ in wsets.values():
            for w in ws_:
                df[w] = df.get(w, 0) + 1

        def prefix(ws_: frozenset[str]) -> builtins.list[str]:
            ordered = sorted(ws_, key=lambda w: (df[w], w))
            n = len(ordered)
            return ordered[: n - (62 * n + 99) // 100 + 1] if n else []

        index: dict[str, builtins.list[Fact]] = {}
        merged: builtins.list[dict[str, str]] = []
        for row in pool:  # sorted by (ordinal, id)
            mine = wsets[row.id]
            head = prefix(mine)
            if row.id in fresh and not row.merged_into and row.id not in in_conflict:
                seen: set[str] = set()
                best: tuple[float, int, Fact] | None = None
                for w in head:
                    for other in index.get(w, ()):
                        if other.id in seen or other.merged_into or other.ordinal >= row.ordinal:
                            continue
                        seen.add(other.id)
                        theirs = wsets[other.id]
                        inter, union = len(mine & theirs), len(mine | theirs)
                        if union == 0 or inter * 100 < 62 * union:
                            continue
                        score = inter / union
                        if best is None or score > best[0] or (score == best[0] and other.ordinal < best[1]):
                            best = (score, other.ordinal, other)
                if best is not None:
                    self.merge_into(best[2], row, signer)
                    merged.append({"fact": row.id, "into": best[2].id})
                    continue  # merged: no longer a survivor to index
            for w in head:
                index.setdefault(w, []).append(row)
        return merged

    def merge_into(self, survivor: Fact, loser: Fact, signer: Any) -> None:
        a = [Provenance.from_dict(p) for p in loads(survivor.provenance, [])]
        b = [Provenance.from_dict(p) for p in loads(loser.provenance, [])]
        survivor.provenance = dumps([p.to_dict() for p in merge_provenance(a, b)])
        loser.merged_into = survivor.id
        self.rows.sign(survivor, signer)
        self.rows.sign(loser, signer)

    def open_conflict(self, s: Session, signer: Any, rows: Sequence[Fact], reason: str) -> int:
        conflict = FactConflict(
            project=rows[0].project,
            facts=dumps([r.id for r in rows]),
            reason=reason or "contradictory facts",
            status="open",
            created_at=utcnow(),
        )
        s.add(conflict)
        s.flush()
        self.rows.sign(conflict, signer)
        for r in rows:
            r.prior_status = r.status
            r.status = "conflicting"
            self.rows.sign(r, signer)
        return int(conflict.id)


def _like(word: str) -> str:
    """A LIKE pattern finding `word` anywhere (`_`, a word character, escaped)."""
    return "%" + word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
