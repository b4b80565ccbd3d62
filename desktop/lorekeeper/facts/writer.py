"""`FactWriter`: new fact rows, lexical merges and conflict records, inside a caller's transaction.

Shared by the decisions (`add`, `resolve`) and the ingest/extraction/consolidation jobs, so a fact
is created, merged and put in conflict one way only. Every method takes the caller's write session
and signer: it never opens a transaction of its own.
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from lorekeeper.facts import terms
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
        if len(new_rows) == 1:  # one add: only the older facts it could merge into are loaded
            row = new_rows[0]
            pool = sorted(
                [*self.rows.filter(self.candidates(s, row), "consolidation"), row], key=lambda r: (r.ordinal, r.id)
            )
            # a fact created in this transaction (`free_id` gave its id) is in no conflict yet:
            # the open conflicts, which only exclude the fresh facts, are not read for one add
            created = row.id in s.info.get("facts_taken_ids", ())
            in_conflict = set() if created else set(self.rows.open_conflicts(s))
            return self.merge_pool(pool, {row.id}, in_conflict, signer)
        in_conflict = set(self.rows.open_conflicts(s))
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

        The word index (`terms.near`, issue 26 d3) gives the facts sharing at least
        ceil(0.62 |A|) of its words, from the postings of its rarest words; each is then checked
        exactly on its statement (the index only proposes). Costs the postings of a few words,
        not a scan of every fact of the project and type."""
        mine = words(row.statement)
        with s.no_autoflush:
            ids = terms.near(s, row.project, row.type, mine, row.id)
            if not ids:
                return []
            found = s.scalars(select(Fact).where(Fact.id.in_(ids), Fact.merged_into == "")).all()
        out = []
        for other in found:
            theirs = words(other.statement)
            if len(mine & theirs) * 100 >= 62 * len(mine | theirs):
                out.append(other)
        return out

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
