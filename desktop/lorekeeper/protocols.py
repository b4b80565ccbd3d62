"""Small protocols the services implement, so tools (repair, purge, export) can iterate over them.

- `Derived`: files derived from the store (the workspace's `skills/` folder, later FAISS indexes),
  rebuilt idempotently by `lorekeeper repair`.
- `Purgeable`: holds data linked to a story (GDPR erasure): count, erase, verify.
- `Exportable`: can write its data to a portable file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol, runtime_checkable


@runtime_checkable
class Derived(Protocol):  # files derived from the store, rebuilt idempotently
    derived_name: str

    def stale(self) -> list[str]: ...  # what is missing or out of date (empty: all good)

    def rebuild(self) -> int: ...  # rewrite from the store; returns files written


@runtime_checkable
class Purgeable(Protocol):  # holds data linked to a story (GDPR erasure)
    purge_name: str

    def count_for_story(self, story_id: str) -> int: ...

    def erase_story(self, story_id: str) -> int: ...

    def verify_erased(self, story_id: str) -> bool: ...


@runtime_checkable
class Exportable(Protocol):  # can write its data to a portable file
    export_name: str

    def export_to(self, dest: Path) -> Path: ...
