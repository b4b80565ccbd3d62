"""Which projects a workspace knows: the names a `--project` filter may take.

A project has no row of its own until something is written for it (a fork, a learning, a fact
document, a story, ...): `projects` holds the demo's and the ones named explicitly, the other
tables name the rest. A filter on a name none of them holds is a typo, not an empty project, so
the commands that only read a project say ERR_NOT_FOUND instead of an empty success (issue 31).
"""

from __future__ import annotations

from sqlalchemy import select, union
from sqlalchemy.orm import Session

from lorekeeper.errors import NotFoundError
from lorekeeper.store.models import (
    GLOBAL,
    AnswerRecord,
    Clarification,
    EvalRun,
    Fact,
    FactDocument,
    Learning,
    Project,
    Proposal,
    QualityEvent,
    ResearchNote,
    Skill,
    Story,
)
from lorekeeper.store.scopes import validate_project

_TABLES = (Skill, Learning, QualityEvent, AnswerRecord, EvalRun, Proposal, Story, ResearchNote, Clarification)


def known_projects(s: Session) -> set[str]:
    """Every project name the store holds a row for (never the global scope '')."""
    selects = [select(Project.name.label("p")), select(FactDocument.project), select(Fact.project)]
    selects += [select(t.project).distinct() for t in _TABLES]
    names = set(s.scalars(select(union(*selects).subquery().c[0])))
    return {n for n in names if n and n != GLOBAL}


def require_project(s: Session, project: str | None) -> str:
    """`project` validated; ERR_NOT_FOUND when the store knows no such project ('' is the global scope)."""
    name = validate_project(project)
    if not name:
        return name
    known = known_projects(s)
    if name not in known:
        listed = ", ".join(sorted(known)[:10]) or "none yet"
        raise NotFoundError(
            f"no project {name!r} in this workspace (known: {listed}); a project comes into being with its "
            f"first fork, learning or document (`skills fork NAME --project {name}`, `learn add --project {name}`, "
            f"`facts ingest PATH --project {name}`)"
        )
    return name
