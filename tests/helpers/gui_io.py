"""Catch I/O on the GUI thread: store queries (a SQLAlchemy `before_cursor_execute` listener) and
OS keyring calls made while `QThread.currentThread()` is the application's thread."""

from __future__ import annotations

import contextlib
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

KEYRING_CALLS = ("get_password", "set_password", "delete_password", "get_keyring", "get_credential")


@dataclass
class GuiThreadIO:
    hits: list[tuple[str, str]] = field(default_factory=list)  # (what, where: a short stack)

    def report(self) -> str:
        return "\n\n".join(f"{what}\n{where}" for what, where in self.hits[:5])


def _on_gui_thread() -> bool:
    from PySide6.QtCore import QThread
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    return app is not None and QThread.currentThread() is app.thread()


@contextlib.contextmanager
def watch_gui_thread_io(store: Any, monkeypatch: Any) -> Iterator[GuiThreadIO]:
    """Record every store query and keyring call made on the GUI thread while the block runs."""
    import keyring
    from sqlalchemy import event

    seen = GuiThreadIO()

    def record(what: str) -> None:
        if _on_gui_thread():
            seen.hits.append((what, "".join(traceback.format_stack(limit=12)[:-2])))

    def listener(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        record(f"store: {statement.strip()[:80]}")

    engines = {id(e): e for e in (store.engine, getattr(store, "_write_engine", store.engine))}.values()
    for engine in engines:
        event.listen(engine, "before_cursor_execute", listener)
    for name in KEYRING_CALLS:
        original = getattr(keyring, name)

        def wrapped(*args: Any, _original: Any = original, _name: str = name, **kwargs: Any) -> Any:
            record(f"keyring.{_name}")
            return _original(*args, **kwargs)

        monkeypatch.setattr(keyring, name, wrapped)
    try:
        yield seen
    finally:
        for engine in engines:
            event.remove(engine, "before_cursor_execute", listener)
