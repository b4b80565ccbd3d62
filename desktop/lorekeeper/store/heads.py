"""Is the store at the newest schema? Answered without importing Alembic.

Every command opens the store, and importing Alembic (with Mako and Pygments behind it) costs a
few hundred milliseconds that an up-to-date store never needs. The migration files name their
revision and its parents in two plain assignments (``revision = "..."``, ``down_revision = ...``);
the heads are the revisions no other file names as a parent, exactly as Alembic computes them
(tests/unit/test_store.py checks both agree). Only a store behind the heads imports Alembic.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError, ProgrammingError

VERSIONS = Path(__file__).resolve().parent / "migrations" / "versions"
_ASSIGN = re.compile(r"^(revision|down_revision)\s*(?::[^=\n]+)?=\s*(.+?)\s*$", re.MULTILINE)


@cache
def script_heads() -> frozenset[str]:
    """The head revisions of the migration files (computed once per process)."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in VERSIONS.glob("*.py"):
        found = dict(_ASSIGN.findall(path.read_text(encoding="utf-8")))
        if "revision" not in found:
            continue
        revisions.add(ast.literal_eval(found["revision"]))
        down = ast.literal_eval(found.get("down_revision", "None"))
        if isinstance(down, str):
            parents.add(down)
        elif down:
            parents.update(down)
    return frozenset(revisions - parents)


def stored_heads(engine: Engine) -> frozenset[str]:
    """The revisions the store records (empty for a store never migrated)."""
    with engine.connect() as conn:
        try:
            rows = conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
        except (OperationalError, ProgrammingError) as exc:
            if "alembic_version" not in str(exc):  # a damaged or busy file, not a new store
                raise
            return frozenset()
    return frozenset(rows)


def is_current(engine: Engine) -> bool:
    return stored_heads(engine) == script_heads()
