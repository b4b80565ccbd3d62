"""Apply Alembic migrations programmatically (no alembic.ini needed at run time)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Engine

from lorekeeper.store.engine import MIGRATIONS

if TYPE_CHECKING:
    from lorekeeper.store.engine import Store


def alembic_config(engine: Engine | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if engine is not None:
        cfg.attributes["engine"] = engine
    return cfg


def head_revisions() -> set[str]:
    """The history has exactly one head (tests/unit/test_migrations.py fails on two)."""
    return set(ScriptDirectory.from_config(alembic_config()).get_heads())


def current_revisions(engine: Engine) -> set[str]:
    with engine.connect() as conn:
        return set(MigrationContext.configure(conn).get_current_heads())


def upgrade(target: Store | Engine, revision: str = "heads") -> None:
    """Upgrade; given a Store, under its write lock, so two processes opening a store migrate once."""
    engine = target if isinstance(target, Engine) else target.engine
    if revision == "heads" and current_revisions(engine) == head_revisions():
        return
    cfg = alembic_config()
    if isinstance(target, Engine):
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, revision)
        return
    with target.locked_connection() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)


def downgrade(engine: Engine, revision: str) -> None:
    with engine.begin() as conn:
        cfg = alembic_config()
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, revision)
