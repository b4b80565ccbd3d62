"""Reuse scores, promotion and eviction of learnings (seed 004 B3 and B4).

- Score: `tanh((injections*0.4 + stories_gate_go*0.4 + distinct_domains*0.2)/10)`, serialised with
  4 decimals and never above 0.9999, from the SIGNED injection rows (`memory_injections`, kind
  learning) and the SIGNED story rows (gate outcome). A row whose signature fails is ignored and
  reported (ERR_UNSIGNED_ENTRY), never counted. `injections` counts injection rows; `gate_go` the
  distinct stories it was injected into that passed their gate (GO); `domains` the distinct
  domains of those injections where the learning is at home (its own domain; every domain once it
  is global) or, for an injection on trial in another domain (issue 25 d5, see
  `lorekeeper.memory.stories`), where that story passed its gate (GO).
- Promotion: score >= 0.3 and domains >= 1 -> `domain`; score >= 0.6 and domains >= 2 -> `global`.
  Never a demotion. Each promotion is a signed `learning_promoted` event.
- Eviction: an active learning with no injection and older than 8 weeks (56 days: at 56 days it
  stays, at 57 it goes) is archived (no longer indexed); a signed `learnings_evicted` event.
  `restore` brings one back with a signed `learning_restored_from_archive` event.
- Every step holds the memory files' lock: exclusive for scoring, promotion, eviction and restore
  (shared for `morning`, a read), 30 s, ERR_LOCK_TIMEOUT past it (fail closed).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import select

from lorekeeper.audit.log import SessionLog
from lorekeeper.audit.rows import RowVerifier, register_signed_model, sign_row
from lorekeeper.errors import InvalidInputError
from lorekeeper.learnings.service import LearningService
from lorekeeper.locks import RWLock
from lorekeeper.store.engine import Store
from lorekeeper.store.models import Learning, LearningScore, MemoryInjection, Story

MAX_SCORE = 0.9999
EVICT_AFTER_DAYS = 56  # 8 weeks: archived when older than this
DOMAIN_SCORE, GLOBAL_SCORE = 0.3, 0.6
SCOPE_RANK = {"story": 0, "domain": 1, "global": 2}

for _model in (LearningScore, MemoryInjection, Story):
    register_signed_model(_model)


def reuse_score(injections: int, gate_go: int, domains: int) -> float:
    raw = injections * 0.4 + gate_go * 0.4 + domains * 0.2
    return min(float(f"{math.tanh(raw / 10):.4f}"), MAX_SCORE)


def format_score(score: float) -> str:
    return f"{min(score, MAX_SCORE):.4f}"


def promoted_scope(score: float, domains: int) -> str | None:
    if score >= GLOBAL_SCORE and domains >= 2:
        return "global"
    if score >= DOMAIN_SCORE and domains >= 1:
        return "domain"
    return None


@dataclass(frozen=True)
class ScoreInfo:
    id: int
    injections: int
    gate_go: int
    domains: int
    reuse_score: float
    scope: str
    rule: str = ""
    story: str = ""
    domain: str = ""
    tags: tuple[str, ...] = ()
    status: str = "active"

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "injections": self.injections,
            "gate_go": self.gate_go,
            "domains": self.domains,
            "reuse_score": float(format_score(self.reuse_score)),
            "scope": self.scope,
            "rule": self.rule,
            "story": self.story or None,
            "domain": self.domain or None,
            "tags": list(self.tags),
            "status": self.status,
        }

    def morning_line(self) -> str:
        return f"- [{self.story or '-'}] [{', '.join(self.tags)}] score={format_score(self.reuse_score)}"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


class ReuseService:
    def __init__(
        self,
        store: Store,
        learnings: LearningService,
        *,
        audit_log: Callable[[], SessionLog],
        verifier: Callable[[], RowVerifier],
        lock: RWLock,
    ) -> None:
        self.store = store
        self.learnings = learnings
        self.audit_log = audit_log
        self.verifier = verifier
        self.lock = lock

    # ------------------------------------------------------------------ B3
    def _tally(self, learning_ids: Iterable[int] | None = None) -> dict[int, tuple[int, int, int]]:
        """learning id -> (injections, gate_go, domains) from verified rows only."""
        v = self.verifier()
        with self.store.session() as s:
            inj = v.filter(
                s.scalars(select(MemoryInjection).where(MemoryInjection.kind == "learning")).all(),
                purpose="reuse score",
            )
            stories = {st.id: st for st in v.filter(s.scalars(select(Story)).all(), purpose="reuse score")}
            home = {
                lid: (dom, scope) for lid, dom, scope in s.execute(select(Learning.id, Learning.domain, Learning.scope))
            }
        per: dict[int, list[MemoryInjection]] = {}
        for row in inj:
            try:
                per.setdefault(int(row.item), []).append(row)
            except ValueError:
                continue
        wanted = None if learning_ids is None else set(learning_ids)
        out: dict[int, tuple[int, int, int]] = {}
        for lid, rows in per.items():
            if wanted is not None and lid not in wanted:
                continue
            go = {r.story for r in rows if (st := stories.get(r.story)) is not None and st.gate == "GO"}
            own, scope = home.get(lid, ("", "global"))
            # a domain counts where the learning is at home (its own domain, or anywhere once
            # global); an injection on trial in another domain counts once that story passed (GO)
            domains = {r.domain for r in rows if r.domain and (scope == "global" or r.domain == own or r.story in go)}
            out[lid] = (len(rows), len(go), len(domains))
        return out

    def _infos(self, tally: dict[int, tuple[int, int, int]], rows: list[Learning]) -> list[ScoreInfo]:
        out = []
        for r in rows:
            n, go, dom = tally.get(r.id, (0, 0, 0))
            out.append(
                ScoreInfo(
                    r.id,
                    n,
                    go,
                    dom,
                    reuse_score(n, go, dom),
                    r.scope,
                    r.rule,
                    r.story,
                    r.domain,
                    tuple(t for t in r.tags.split(",") if t),
                    r.status,
                )
            )
        return out

    def _learning_rows(self, status: str | None = "active") -> list[Learning]:
        stmt = select(Learning).order_by(Learning.id)
        if status:
            stmt = stmt.where(Learning.status == status)
        with self.store.session() as s:
            return list(s.scalars(stmt))

    def compute(self) -> list[ScoreInfo]:
        """Recompute every learning's score and store it as a signed row (exclusive lock)."""
        signer = self.audit_log().signer  # fail closed before anything is written
        with self.lock.exclusive():
            rows = self._learning_rows(status=None)
            infos = self._infos(self._tally(), rows)
            now = _now()
            with self.store.write() as s:
                for info in infos:
                    row = s.get(LearningScore, info.id) or LearningScore(learning_id=info.id)
                    row.injections, row.gate_go, row.domains = info.injections, info.gate_go, info.domains
                    row.reuse_score = format_score(info.reuse_score)
                    row.computed_at = now
                    s.add(row)
                    sign_row(signer, row)
        return infos

    def scores(self) -> list[ScoreInfo]:
        """Every learning's score (recomputed and stored; archived ones too, marked by `status`), highest first."""
        return sorted(self.compute(), key=lambda i: (-i.reuse_score, i.id))

    def stored_scores(self) -> dict[int, tuple[float, int]]:
        """learning id -> (score, domains) of the verified stored rows (promotion reads these: an
        unsigned or forged score is never trusted)."""
        with self.store.session() as s:
            rows = self.verifier().filter(s.scalars(select(LearningScore)).all(), purpose="promotion")
        return {r.learning_id: (float(r.reuse_score), r.domains) for r in rows}

    def live_scores(self, learning_ids: Iterable[int] | None = None) -> dict[int, float]:
        """Scores computed now from the verified injection rows (no write: injection ranking, morning)."""
        return {lid: reuse_score(*t) for lid, t in self._tally(learning_ids).items()}

    def morning(self, n: int = 3) -> list[ScoreInfo]:
        with self.lock.shared():
            infos = self._infos(self._tally(), self._learning_rows())
        return sorted(infos, key=lambda i: (-i.reuse_score, -i.id))[:n]

    # ------------------------------------------------------------------ B4
    def promote(self, *, recompute: bool = True) -> list[dict[str, Any]]:
        """Apply the promotion rules to the signed scores (computed first unless `recompute` is
        False: `on_story_close` has just computed them); exclusive lock."""
        if recompute:
            self.compute()
        log = self.audit_log()
        done: list[dict[str, Any]] = []
        with self.lock.exclusive():
            scores = self.stored_scores()
            with self.store.write() as s:
                for row in s.scalars(select(Learning).where(Learning.status == "active")):
                    if row.id not in scores:
                        continue
                    score, domains = scores[row.id]
                    target = promoted_scope(score, domains)
                    if target is None or SCOPE_RANK[target] <= SCOPE_RANK.get(row.scope, 0):
                        continue
                    done.append(
                        {
                            "id": row.id,
                            "from": row.scope,
                            "to": target,
                            "reuse_score": score,
                            "domains": domains,
                            "story": row.story or None,
                        }
                    )
                    row.scope = target
                    row.updated_at = datetime.now(UTC)
                for p in done:  # in the promotion's transaction (issue 24)
                    log.record("learning_promoted", p, story=p["story"])
        if done:
            self.learnings.revision += 1
        return done

    def archive_stale(self, today: date | None = None) -> list[dict[str, Any]]:
        """Archive the active learnings with no injection that are older than 8 weeks (exclusive lock)."""
        day = today or datetime.now(UTC).date()
        log = self.audit_log()
        with self.lock.exclusive():
            injected = set(self._tally())
            stale: list[dict[str, Any]] = []
            ids: list[int] = []
            for r in self._learning_rows():
                age = (day - r.created_at.astimezone(UTC).date()).days
                if r.id not in injected and age > EVICT_AFTER_DAYS:
                    stale.append({"id": r.id, "age_days": age, "story": r.story or None})
                    ids.append(r.id)
            if ids:
                with self.store.write():  # the statuses and the eviction event: one commit (issue 24)
                    self.learnings.set_status(ids, "archived")
                    log.record(
                        "learnings_evicted",
                        {"ids": ids, "today": day.isoformat(), "older_than_days": EVICT_AFTER_DAYS},
                    )
        return stale

    def restore(self, ids: Iterable[int]) -> list[int]:
        """Bring archived learnings back (exclusive lock), each with a signed event."""
        wanted = list(dict.fromkeys(int(i) for i in ids))
        if not wanted:
            raise InvalidInputError("no learning selected")
        log = self.audit_log()  # fail closed: a restore without its signed event does not happen
        with self.lock.exclusive():
            infos = {i.id: i for i in (self.learnings.get(x) for x in wanted)}
            not_archived = [i for i in wanted if infos[i].status != "archived"]
            if not_archived:
                raise InvalidInputError(
                    f"learning {', '.join(map(str, not_archived))} is not archived: nothing to restore"
                )
            with self.store.write():  # the statuses and their events: one commit (issue 24)
                self.learnings.set_status(wanted, "active")
                for i in wanted:
                    log.record(
                        "learning_restored_from_archive", {"id": i, "rule": infos[i].rule}, story=infos[i].story or None
                    )
        return wanted
