"""CS-1..CS-4: the seed names four continuous success measures without defining them; here they are
(README "Living memory"), each over a window of 30, 60 or 90 days ending today:

- CS-1 injection coverage: share of the stories started in the window whose injection was
  non-empty (at least one item, traced).
- CS-2 learning reuse: share of the learnings injected in the window that were injected again
  into a later, different story within the window.
- CS-3 gate lift: GO rate of the stories closed in the window that had a non-empty injection,
  minus the GO rate of those that had none (both rates are reported).
- CS-4 stale share: share of all learnings that are archived (evicted as stale or by hand) at the end
  of the window.

Rows whose signature does not verify are ignored (ERR_UNSIGNED_ENTRY), as everywhere else.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import func, select

from lorekeeper.audit.rows import RowVerifier
from lorekeeper.errors import InvalidInputError
from lorekeeper.rates import json_rate
from lorekeeper.store.engine import Store
from lorekeeper.store.models import Learning, MemoryInjection, Story

WINDOWS = (30, 60, 90)
METRICS = ("cs1", "cs2", "cs3", "cs4")
TITLES = {
    "cs1": "Stories started with a non-empty injection",
    "cs2": "Injected learnings reused in a later story",
    "cs3": "Gate GO rate lift with injection",
    "cs4": "Learnings archived as stale",
}


def _day(iso: str) -> date | None:
    try:
        return datetime.fromisoformat(iso).astimezone(UTC).date() if iso else None
    except ValueError:
        return None


def _ratio(num: int, den: int) -> float | None:
    return json_rate(num / den) if den else None  # rounded down: the one rule for rates (issue 31 item 8)


class Measures:
    def __init__(self, store: Store, verifier: Callable[[], RowVerifier]) -> None:
        self.store = store
        self.verifier = verifier

    def measure(self, metric: str, days: int = 30, today: date | None = None) -> dict[str, Any]:
        if metric not in METRICS:
            raise InvalidInputError(f"unknown measure {metric!r}: use one of {', '.join(METRICS)}")
        if days not in WINDOWS:
            raise InvalidInputError(f"--days must be one of {', '.join(map(str, WINDOWS))}")
        end = today or datetime.now(UTC).date()
        start = end - timedelta(days=days)
        v = self.verifier()
        with self.store.session() as s:
            stories = v.filter(s.scalars(select(Story)).all(), purpose=metric)
            inj = v.filter(s.scalars(select(MemoryInjection)).all(), purpose=metric)
            total_learnings = int(s.scalar(select(func.count(Learning.id))) or 0)
            archived = int(s.scalar(select(func.count(Learning.id)).where(Learning.status == "archived")) or 0)

        def within(d: date | None) -> bool:
            return d is not None and start < d <= end

        injected_stories = {r.story for r in inj if within(_day(r.created_at))}
        out: dict[str, Any] = {
            "metric": metric,
            "title": TITLES[metric],
            "days": days,
            "since": start.isoformat(),
            "until": end.isoformat(),
        }
        if metric == "cs1":
            started = [st for st in stories if within(_day(st.started_at))]
            num = sum(1 for st in started if st.id in injected_stories)
            out.update(value=_ratio(num, len(started)), numerator=num, denominator=len(started))
        elif metric == "cs2":
            rows = sorted(
                (r for r in inj if r.kind == "learning" and within(_day(r.created_at))),
                key=lambda r: (r.created_at, r.id),
            )
            first: dict[str, str] = {}
            reused: set[str] = set()
            for r in rows:
                if r.item not in first:
                    first[r.item] = r.story
                elif r.story != first[r.item]:
                    reused.add(r.item)
            out.update(value=_ratio(len(reused), len(first)), numerator=len(reused), denominator=len(first))
        elif metric == "cs3":
            closed = [st for st in stories if within(_day(st.closed_at)) and st.gate]
            with_inj = [st for st in closed if st.id in {r.story for r in inj}]
            without = [st for st in closed if st not in with_inj]
            a = _ratio(sum(st.gate == "GO" for st in with_inj), len(with_inj))
            b = _ratio(sum(st.gate == "GO" for st in without), len(without))
            out.update(
                value=None if a is None or b is None else round(a - b, 4),
                with_injection=a,
                without_injection=b,
                stories_with=len(with_inj),
                stories_without=len(without),
            )
        else:
            out.update(value=_ratio(archived, total_learnings), numerator=archived, denominator=total_learnings)
        return out
