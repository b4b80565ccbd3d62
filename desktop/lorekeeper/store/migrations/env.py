"""Alembic environment: runs on the connection handed over by lorekeeper.store.migrate."""

from alembic import context

from lorekeeper.store.models import Base

config = context.config
target_metadata = Base.metadata


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is None:  # `alembic` command line: build an engine from sqlalchemy.url
        from sqlalchemy import create_engine

        url = config.get_main_option("sqlalchemy.url")
        if not url:
            raise RuntimeError("alembic.ini names no sqlalchemy.url (lorekeeper passes its own connection)")
        engine = create_engine(url)
        with engine.begin() as connection:
            context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
            with context.begin_transaction():
                context.run_migrations()
        return
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


run()
