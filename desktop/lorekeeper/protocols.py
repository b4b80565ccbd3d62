"""Small protocols the services implement, so tools (repair, purge, export) can iterate over them.

- `Derived`: files derived from the store (the workspace's `skills/` folder, the memory indexes),
  rebuilt idempotently by `lorekeeper repair`.
- `Purgeable`: holds data linked to a story (GDPR erasure): count, erase, verify, and what the
  purge run needs besides (probes, other stories' text, retention dates); `privacy.purgeables.
  StoryData` gives the defaults, so the run never probes for an optional member.
- `Exportable`: can write its data to a portable file.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable


@runtime_checkable
class Derived(Protocol):  # files derived from the store, rebuilt idempotently
    derived_name: str

    def stale(self) -> list[str]: ...  # what is missing or out of date (empty: all good)

    def rebuild(self) -> int: ...  # rewrite from the store; returns files written


@runtime_checkable
class Purgeable(Protocol):  # holds data linked to a story (GDPR erasure); the purge run reads only these
    purge_name: str
    #: the purge report's keys (store, faiss, embeddings, cache, sessions, markdown) it counts in:
    #: one journaled step per artefact
    purge_artefacts: tuple[str, ...]
    purge_on_retention: bool  # the daily retention erases it too (else only `purge --story`)
    purge_tables: tuple[str, ...]  # what it covers (tests/privacy/test_coverage.py)
    purge_folders: tuple[str, ...]

    def count_for_story(self, story_id: str) -> int: ...

    def artefact_counts(self, story_id: str) -> dict[str, int]: ...  # what it holds, per artefact

    def erase_story(self, story_id: str) -> int: ...

    def erase_artefacts(self, story_id: str) -> dict[str, int]: ...  # erase; what it erased, per artefact

    def verify_erased(self, story_id: str) -> bool: ...

    def probes(self, story_id: str) -> list[str]: ...  # distinctive text, searched in every file after

    def others_text(self, stories: Sequence[str]) -> Iterable[tuple[str, str]]: ...  # (story, text) kept

    def retention_dates(self) -> list[tuple[str, str]]: ...  # (story, retention_until) it knows

    def erase_text(self, probes: Sequence[str]) -> int: ...  # copies of the story's text elsewhere


@runtime_checkable
class Exportable(Protocol):  # can write its data to a portable file
    export_name: str

    def export_to(self, dest: Path) -> Path: ...
