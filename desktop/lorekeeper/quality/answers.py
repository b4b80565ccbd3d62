"""The answers the Playground and `llm ask` produced, by interaction id.

The quality events of one answer share its interaction id; this keeps the answer itself (the
request, the prompt, the text, the skills it was routed to, the project) so that an answer can be
rated or fixed later from the command line (`lorekeeper feedback up|down ANSWER`, `lorekeeper
fixit ANSWER`) with the same events as the Playground's buttons. ANSWER is the interaction id, a
unique prefix of it (at least `MIN_PREFIX` characters, as git takes a commit), or `last`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import select

from lorekeeper.errors import InvalidInputError, NotFoundError
from lorekeeper.store.engine import Store
from lorekeeper.store.models import AnswerRecord, utcnow
from lorekeeper.store.scopes import validate_project

MIN_PREFIX = 6
LAST = "last"


@dataclass(frozen=True)
class StoredAnswer:
    interaction: str
    project: str
    message: str
    prompt: str
    text: str
    skills: tuple[tuple[str, float], ...]  # (name, router score) in route order
    model: str
    footnote: str
    passed: bool
    truncated: bool
    eval_runs: tuple[int, ...]
    created_at: datetime

    def to_dict(self) -> dict[str, object]:
        return {
            "interaction": self.interaction,
            "project": self.project or None,
            "message": self.message,
            "skills": [name for name, _ in self.skills],
            "model": self.model,
            "answer": self.text,
            "passed": self.passed,
            "footnote": self.footnote,
            "truncated": self.truncated,
            "eval_runs": list(self.eval_runs),
            "created_at": self.created_at.isoformat(),
        }


def _info(row: AnswerRecord) -> StoredAnswer:
    at = row.created_at
    at = at.replace(tzinfo=UTC) if at.tzinfo is None else at.astimezone(UTC)
    try:
        skills = [(str(n), int(sc)) for n, sc in json.loads(row.skills or "[]")]
        runs = [int(r) for r in json.loads(row.eval_runs or "[]")]
    except (ValueError, TypeError):
        skills, runs = [], []
    return StoredAnswer(
        interaction=row.interaction,
        project=row.project,
        message=row.message,
        prompt=row.prompt,
        text=row.answer,
        skills=tuple(skills),
        model=row.model,
        footnote=row.footnote,
        passed=bool(row.passed),
        truncated=bool(row.truncated),
        eval_runs=tuple(runs),
        created_at=at,
    )


class AnswerLog:
    def __init__(self, store: Store) -> None:
        self.store = store

    def record(
        self,
        interaction: str,
        *,
        project: str | None,
        message: str,
        prompt: str,
        text: str,
        skills: Sequence[tuple[str, float]],
        model: str = "",
        footnote: str = "",
        passed: bool = True,
        truncated: bool = False,
        eval_runs: Sequence[int] = (),
    ) -> None:
        with self.store.write() as s:
            s.add(
                AnswerRecord(
                    interaction=interaction,
                    project=validate_project(project),
                    message=message,
                    prompt=prompt,
                    answer=text,
                    skills=json.dumps([[n, int(sc)] for n, sc in skills], ensure_ascii=False),
                    model=model[:128],
                    footnote=footnote,
                    passed=bool(passed),
                    truncated=bool(truncated),
                    eval_runs=json.dumps([int(r) for r in eval_runs]),
                    created_at=utcnow(),
                )
            )

    def get(self, ref: str, project: str | None = None) -> StoredAnswer:
        """The answer `ref` names: its interaction id, a unique prefix of it, or `last`; with
        `project`, only that project's answers ("" for the answers without a project).

        ERR_NOT_FOUND when none matches, ERR_INVALID_INPUT for a prefix too short or ambiguous."""
        ref = (ref or "").strip().lower()
        if not ref:
            raise InvalidInputError("name an answer: its id (printed by `llm ask` and the Playground) or 'last'")
        where = [] if project is None else [AnswerRecord.project == validate_project(project)]
        in_project = f" in project {project}" if project else (" without a project" if project == "" else "")
        with self.store.session() as s:
            if ref == LAST:
                row = s.scalars(select(AnswerRecord).where(*where).order_by(AnswerRecord.id.desc()).limit(1)).first()
                if row is None:
                    raise NotFoundError(
                        f"no answer recorded yet{in_project}: ask one with `lorekeeper llm ask` or the Playground"
                    )
                return _info(row)
            exact = s.scalars(select(AnswerRecord).where(AnswerRecord.interaction == ref, *where)).first()
            if exact is not None:
                return _info(exact)
            if len(ref) < MIN_PREFIX:
                raise InvalidInputError(
                    f"answer id {ref!r} is too short: give at least {MIN_PREFIX} characters of it, or 'last'"
                )
            escaped = ref.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            rows = list(
                s.scalars(
                    select(AnswerRecord)
                    .where(AnswerRecord.interaction.like(escaped + "%", escape="\\"), *where)
                    .limit(2)
                )
            )
        if not rows:
            raise NotFoundError(f"no answer {ref!r}{in_project}. `lorekeeper llm ask --json` prints an answer's id")
        if len(rows) > 1:
            raise InvalidInputError(f"answer id {ref!r} is ambiguous: give more characters of it")
        return _info(rows[0])

    def recent(self, limit: int = 20) -> list[StoredAnswer]:
        with self.store.session() as s:
            rows = s.scalars(select(AnswerRecord).order_by(AnswerRecord.id.desc()).limit(limit))
            return [_info(r) for r in rows]
