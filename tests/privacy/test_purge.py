"""GDPR purge (issue 13): zero residue byte for byte, other stories intact and searchable, the
erased vector's neighbour gone, the chain verifies, idempotent, retention strictly after the date."""

from __future__ import annotations

from pathlib import Path

import pytest
from purge_helpers import WORDS, build_index, files_holding, nearest, purge_json, seed

from helpers.cli import run_lorekeeper
from lorekeeper.memory.layout import item_id64
from lorekeeper.workspace import Workspace

ARTEFACTS = {"store", "faiss", "embeddings", "cache", "sessions", "markdown"}


def _seeded(ws: Workspace) -> Path:
    seed(ws, "PD-1")
    seed(ws, "PD-2")
    # PD-2's injection trace served PD-1's summary: its row and its event name PD-1
    from lorekeeper.store.models import MemoryInjection

    with ws.store.write() as s:
        s.add(MemoryInjection(trace="t-2", story="PD-2", kind="clarification", item="PD-1", position=0))
    ws.audit.log.append("memory_injected", {"clarifications": ["PD-1"]}, story="PD-2")
    build_index(ws, ["PD-1", "PD-2"])
    root = ws.root
    ws.close()
    return root


def _purge_and_check(root: Path) -> None:
    assert files_holding(root, "zanzibar-quokka"), "the seed did not reach the files"
    proc = run_lorekeeper("--workspace", str(root), "purge", "--story", "PD-1", "--force", "--json")
    assert proc.returncode == 0, proc.stderr
    out = purge_json(proc.stdout)
    assert out["stories"] == ["PD-1"] and set(out["artefacts"]) == ARTEFACTS and out["verified"] is True
    # clarification + injection row that served it + story + learning; one vector in each index file
    assert out["artefacts"]["store"] == 4
    assert (out["artefacts"]["faiss"], out["artefacts"]["embeddings"], out["artefacts"]["cache"]) == (1, 1, 1)
    assert out["artefacts"]["markdown"] == 1
    assert out["artefacts"]["sessions"] == 2  # its own event and PD-2's trace that named it

    # zero residue: no byte of any workspace file (db, WAL, indexes, logs) holds PD-1's words
    for word in ("zanzibar-quokka", WORDS["PD-1"]):
        assert files_holding(root, word) == []
    # the other story is intact and still found, and the erased vector's nearest neighbour is gone
    assert files_holding(root, "pamplemousse-cobalt")
    with Workspace.open(root) as ws:
        from lorekeeper.memory.index import CorpusIndex
        from lorekeeper.memory.layout import MemoryLayout

        index = CorpusIndex("clarifications", MemoryLayout(root).index("clarifications"))
        assert index.faiss_ids() == {item_id64("clarifications", "PD-2")}
        assert nearest(index, WORDS["PD-1"]) != item_id64("clarifications", "PD-1")
        assert nearest(index, WORDS["PD-2"]) == item_id64("clarifications", "PD-2")
        events = [e for e in ws.audit.log.events() if e.type == "clarification_purged"]
        assert len(events) == 1 and events[0].status == "valid" and events[0].story == "PD-1"
        assert events[0].data["artefacts"] == out["artefacts"]  # counts, never content
        assert "zanzibar" not in str(events[0].data)
    verify = run_lorekeeper("--workspace", str(root), "audit", "verify")
    assert verify.returncode == 0, verify.stdout + verify.stderr

    again = run_lorekeeper("--workspace", str(root), "purge", "--story", "PD-1", "--force", "--json")
    assert again.returncode == 0, again.stderr
    second = purge_json(again.stdout)
    assert second["verified"] and set(second["artefacts"].values()) == {0}


def test_purge_story_leaves_no_byte_of_it_and_keeps_the_others(workspace: Workspace) -> None:
    _purge_and_check(_seeded(workspace))


@pytest.mark.postgres
def test_purge_story_on_postgresql(tmp_path: Path, pg_url: str) -> None:
    ws = Workspace.init(tmp_path / "pgws")
    ws.close()
    cfg = ws.root / "lorekeeper.toml"
    cfg.write_text(cfg.read_text().replace('url = "sqlite:///lorekeeper.db"', f'url = "{pg_url}"'))
    ws = Workspace.open(ws.root)
    assert ws.store.url.startswith("postgresql")
    root = _seeded(ws)
    proc = run_lorekeeper("--workspace", str(root), "purge", "--story", "PD-1", "--force", "--json")
    out = purge_json(proc.stdout)
    assert proc.returncode == 0 and out["verified"], proc.stderr
    assert out["artefacts"]["store"] == 4
    assert any("VACUUM" in n and "WAL" in n for n in out["notes"])  # says what VACUUM does not do
    assert files_holding(root, "zanzibar-quokka") == []  # the workspace files (the server's are its own)
    from sqlalchemy import text

    with Workspace.open(root) as pg, pg.store.session() as s:
        assert s.execute(text("SELECT count(*) FROM clarifications WHERE story = 'PD-1'")).scalar() == 0
        assert s.execute(text("SELECT count(*) FROM clarifications WHERE story = 'PD-2'")).scalar() == 1
    assert run_lorekeeper("--workspace", str(root), "audit", "verify").returncode == 0


def test_retention_is_strict_and_idempotent(workspace: Workspace) -> None:
    seed(workspace, "PD-1", until="2026-10-11")  # yesterday: erased
    seed(workspace, "PD-2", until="2026-10-12")  # today: kept
    build_index(workspace, ["PD-1", "PD-2"])
    root = workspace.root
    workspace.close()
    preview = run_lorekeeper("--workspace", str(root), "purge", "preview", "--today", "2026-10-12", "--json")
    info = purge_json(preview.stdout)
    assert info["stories"] == ["PD-1"] and info["due"][0]["artefacts"]["markdown"] == 1
    assert info["next_expiry"] == {"story": "PD-2", "retention_until": "2026-10-12"}

    proc = run_lorekeeper("--workspace", str(root), "purge", "--retention", "--today", "2026-10-12", "--json")
    assert proc.returncode == 0, proc.stderr
    out = purge_json(proc.stdout)
    assert out["stories"] == ["PD-1"] and out["verified"]
    assert out["artefacts"]["markdown"] == 1 and out["artefacts"]["faiss"] == 1
    assert out["artefacts"]["store"] == 1  # the summary row; the story and its learning stay
    # the summary is gone from the indexes, the logs and the markdown; only its learning's row stays
    assert files_holding(root, "zanzibar-quokka") == ["lorekeeper.db"]
    assert (root / "clarifications" / "PD-2-clarifications.md").is_file()

    again = run_lorekeeper("--workspace", str(root), "purge", "--retention", "--today", "2026-10-12", "--json")
    assert again.returncode == 0
    second = purge_json(again.stdout)
    assert second["stories"] == [] and set(second["artefacts"].values()) == {0}
    runs = purge_json(run_lorekeeper("--workspace", str(root), "purge", "runs", "--json").stdout)["runs"]
    assert [r["mode"] for r in runs] == ["retention", "retention"] and all(r["verified"] for r in runs)


def test_a_copy_left_elsewhere_fails_with_purge_incomplete(workspace: Workspace) -> None:
    seed(workspace, "PD-1")
    root = workspace.root
    workspace.close()
    (root / "exports" / "copy.txt").write_text(WORDS["PD-1"] + ".\n", encoding="utf-8")
    proc = run_lorekeeper("--workspace", str(root), "purge", "--story", "PD-1", "--force", "--json")
    assert proc.returncode == 1
    out = purge_json(proc.stdout)
    assert out["verified"] is False and out["error"]["code"] == "ERR_PURGE_INCOMPLETE"
    assert any("exports/copy.txt" in r for r in out["remaining"])
    assert "ERR_PURGE_INCOMPLETE" in proc.stderr and "exports/copy.txt" in proc.stderr


def test_the_agent_hooks_context_cache_is_dropped_by_a_purge(workspace: Workspace) -> None:
    """The Claude Code hook keeps the learnings and a story's memory block in a snapshot under
    indexes/: a purge drops it (rebuilt by the next prompt) instead of leaving a copy behind."""
    root = _seeded(workspace)
    cache = root / "indexes" / "hook-context-citadel.json"
    cache.write_text('{"learnings": ["zanzibar-quokka rule of PD-1"]}', encoding="utf-8")
    proc = run_lorekeeper("--workspace", str(root), "purge", "--story", "PD-1", "--force", "--json")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = purge_json(proc.stdout)
    assert out["verified"] is True and out["artefacts"]["cache"] == 2  # the index's cache entry and the snapshot
    assert not cache.exists() and files_holding(root, "zanzibar-quokka") == []


def test_purging_a_story_keeps_the_file_of_a_story_whose_id_it_prefixes(workspace: Workspace) -> None:
    """Purging PD-1 globbed `PD-1-*.md` and so also deleted PD-1-2's summary file (another story's
    live data). Only files of the story itself go: `PD-1-clarifications.md`, or a file whose front
    matter names PD-1; a file whose front matter names another story is never the purged one's."""
    from lorekeeper.memory.layout import MemoryLayout

    ws = workspace
    seed(ws, "PD-1")
    seed(ws, "PD-1-2")
    other = MemoryLayout(ws.root).clarification_file("PD-1-2")
    result = ws.purge.purge_story("PD-1")
    assert result.verified, result.remaining
    assert result.artefacts["markdown"] == 1
    assert other.is_file() and WORDS["PD-1-2"] in other.read_text(encoding="utf-8")
    ws.close()
    assert files_holding(ws.root, "zanzibar-quokka") == []
    assert "clarifications/PD-1-2-clarifications.md" in files_holding(ws.root, "oursin-basalte")


SHARED = "Aucune donnée de production ne quitte le réseau interne de la société"


def test_a_line_two_summaries_share_does_not_block_the_erasure(workspace: Workspace) -> None:
    """Issue 23 d6: PD-1 and PD-2 carry the same generic constraint sentence. Purging PD-1 used to
    end in ERR_PURGE_INCOMPLETE ("bytes of its text remain in clarifications/PD-2-..."), forever.
    The shared line belongs to PD-2's live summary: the purge verifies with what is PD-1's own, says
    in its notes what was shared (never the text), and PD-2 keeps its sentence everywhere."""
    from lorekeeper.memory.layout import MemoryLayout
    from lorekeeper.store.models import Clarification

    ws = workspace
    seed(ws, "PD-1")
    seed(ws, "PD-2")
    layout = MemoryLayout(ws.root)
    for story in ("PD-1", "PD-2"):
        path = layout.clarification_file(story)
        path.write_text(path.read_text(encoding="utf-8") + f"\n## Contraintes\n{SHARED}.\n", encoding="utf-8")
        with ws.store.write() as s:
            row = s.get(Clarification, story)
            assert row is not None
            row.constraints = f"{SHARED}."
    result = ws.purge.purge_story("PD-1")
    assert result.verified, result.remaining
    assert result.remaining == []
    note = next(n for n in result.notes if "shared" in n)
    assert "PD-2" in note and SHARED not in note
    # PD-1's own words are gone from every file; PD-2's summary still holds the shared sentence
    ws.close()
    assert files_holding(ws.root, "zanzibar-quokka") == []
    assert "clarifications/PD-2-clarifications.md" in files_holding(ws.root, SHARED)
    with Workspace.open(ws.root) as again, again.store.session() as s:
        kept = s.get(Clarification, "PD-2")
        assert kept is not None and SHARED in kept.constraints
