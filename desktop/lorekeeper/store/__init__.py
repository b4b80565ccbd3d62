"""The store: SQLAlchemy 2 models, engine/session factory, Alembic migrations applied on open."""

from lorekeeper.store.engine import Store

__all__ = ["Store"]
