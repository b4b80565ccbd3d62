"""A new holder of story-linked data cannot be forgotten by the purge.

Every store table with a column that holds a story id, and every folder of the workspace, must be
covered by some registered `Purgeable` (or named here with the reason it holds no story data)."""

from __future__ import annotations

from lorekeeper.protocols import Purgeable
from lorekeeper.store.models import Base
from lorekeeper.workspace import SUBDIRS, Workspace

STORY_COLUMNS = ("story", "story_id", "stories")
#: tables whose story column is the purge's own proof: ids and counts, never content
PROOF_TABLES = {"purge_runs": "the purge journal", "purge_steps": "the purge journal"}
#: workspace folders that hold no story data, and why
STORY_FREE = {
    "skills": "skill files derived from the store's skill versions (no story column)",
    "sources": "research notes: front matter verdict/impact/date/tags, no story",
    "locks": "empty flock files",
    "exports": "operator-chosen copies: verified byte for byte by every purge, never edited",
    "logs": "error tracebacks",
    "schedule": "the scheduler's last-run record",
}


def story_tables() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for name, table in Base.metadata.tables.items():
        cols = [c.name for c in table.columns if c.name in STORY_COLUMNS]
        if name == "stories":
            cols.append("id")
        if cols:
            out[name] = cols
    return out


def test_every_story_table_is_covered_by_a_purgeable(workspace: Workspace) -> None:
    purgeables = workspace.purge.purgeables
    assert all(isinstance(p, Purgeable) for p in purgeables)
    covered = {t for p in purgeables for t in p.purge_tables}
    tables = story_tables()
    assert "clarifications" in tables and "learnings" in tables and "memory_injections" in tables
    missing = sorted(set(tables) - covered - set(PROOF_TABLES))
    assert not missing, f"tables holding story ids that no Purgeable erases: {missing}"


def test_every_workspace_folder_is_covered_or_story_free(workspace: Workspace) -> None:
    covered = {f for p in workspace.purge.purgeables for f in p.purge_folders}
    folders = set(SUBDIRS) | {p.name for p in workspace.root.iterdir() if p.is_dir()}
    missing = sorted(folders - covered - set(STORY_FREE))
    assert not missing, f"workspace folders no Purgeable covers (or says are story-free): {missing}"
    assert {"clarifications", "indexes", "sessions"} <= covered
    # the three index files of each corpus are one purgeable's three artefacts
    arts = {a for p in workspace.purge.purgeables for a in p.purge_artefacts}
    assert arts == {"store", "faiss", "embeddings", "cache", "sessions", "markdown"}
