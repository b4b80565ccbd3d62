"""Project scopes as every table stores them: "" is the global scope, otherwise a plain identifier.

Lives next to the models (below the feature services) so that skills, evals, learnings, quality
and the improvement loop all validate a project name the same way without importing each other.
"""

from __future__ import annotations

import re

from lorekeeper.errors import InvalidInputError
from lorekeeper.store.models import GLOBAL

_PROJECT_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")


def validate_project(project: str | None) -> str:
    """'' (or None) is the global scope; otherwise a plain identifier."""
    if not project:
        return GLOBAL
    if not _PROJECT_RE.match(project):
        raise InvalidInputError(f"invalid project name {project!r}: use letters, digits, '.', '_' or '-' (at most 128)")
    return project
