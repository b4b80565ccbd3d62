"""Issue 25 d3: team memory. Two workspaces on one PostgreSQL database with one Vault key path
(a real OpenBao dev server): a note collected in A is found by a memory search in B, and B's own
collect does not remove it (the notes of a shared store are the team's)."""

from __future__ import annotations

import json
import sys
import uuid
from pathlib import Path

import pytest
from audit_helpers import BaoServer, run_cli, set_audit_config
from test_store_trust import count, new_ws

pytestmark = pytest.mark.postgres

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "memory"))
from memory_support import NOTE  # noqa: E402


def note(root: Path, name: str, title: str, summary: str) -> None:
    p = root / "sources" / name
    p.parent.mkdir(parents=True, exist_ok=True)
    text = NOTE.format(
        verdict="signal",
        impact="fort",
        date="2026-11-01",
        tags="ops",
        title=title,
        summary=summary,
        body=summary,
        extra="",
    )
    p.write_text(text, encoding="utf-8")


def cli_json(root: Path, *args: str) -> dict:
    out = run_cli("--workspace", str(root), *args, "--json")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.fixture
def team(tmp_path: Path, pg_url: str, bao: BaoServer, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """Workspaces A and B on one fresh database, one Vault KV path (A provisions the key)."""
    monkeypatch.setenv("VAULT_TOKEN", bao.token)
    monkeypatch.delenv("VAULT_ADDR", raising=False)
    path = f"lk-team/{uuid.uuid4().hex}"
    a, b = new_ws(tmp_path / "a", pg_url), new_ws(tmp_path / "b", pg_url)
    for root in (a, b):
        set_audit_config(root, provider="vault", addr=bao.addr, path=path)
    assert run_cli("--workspace", str(a), "audit", "init-key").returncode == 0
    return a, b


def test_memory_search_in_b_finds_a_note_collected_in_a(team: tuple[Path, Path], pg_url: str):
    a, b = team
    note(a, "kafka.md", "Kafka consumer lag", "Consumer lag grows when partitions rebalance too often.")
    assert cli_json(a, "memory", "collect")["added"] == 1
    note(b, "redis.md", "Redis eviction", "The allkeys-lru eviction policy suits caches.")
    note(b, "kafka.md", "Kafka by B", "Another text at the path A already used.")

    report = cli_json(b, "memory", "collect")

    assert report["added"] == 1 and report["removed"] == 0  # A's note is the team's, not a file gone missing
    assert [s["path"] for s in report["skipped"]] == ["kafka.md"]
    assert "collected by workspace" in report["skipped"][0]["reason"]
    assert count(pg_url, "SELECT count(*) FROM research_notes") == 2
    for root in (a, b):
        hits = cli_json(root, "memory", "search", "partition rebalance lag", "--corpus", "notes")["results"]
        assert hits and hits[0]["id"] == "kafka.md" and hits[0]["title"] == "Kafka consumer lag", root.name
    # A removes its note: A's collect erases it for the team; B's note stays
    (a / "sources" / "kafka.md").unlink()
    assert cli_json(a, "memory", "collect")["removed"] == 1
    hits = cli_json(b, "memory", "search", "partition rebalance lag eviction", "--corpus", "notes")["results"]
    assert [h["id"] for h in hits] == ["redis.md"]


# --------------------------------------------------------------------------- the store's shared index (pgvector)

ANSWERS = "Invoices reach customers late\nSent within one day\nNo new service\nSpeed first\n"


@pytest.fixture
def vteam(tmp_path: Path, pgvector_url: str, bao: BaoServer, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A and B on one database of a PostgreSQL server with pgvector, one Vault KV path."""
    monkeypatch.setenv("VAULT_TOKEN", bao.token)
    monkeypatch.delenv("VAULT_ADDR", raising=False)
    path = f"lk-team/{uuid.uuid4().hex}"
    a, b = new_ws(tmp_path / "a", pgvector_url), new_ws(tmp_path / "b", pgvector_url)
    for root in (a, b):
        set_audit_config(root, provider="vault", addr=bao.addr, path=path)
    assert run_cli("--workspace", str(a), "audit", "init-key").returncode == 0
    return a, b


def test_b_finds_a_note_through_the_store_pgvector_index(vteam: tuple[Path, Path], pgvector_url: str):
    a, b = vteam
    note(a, "kafka.md", "Kafka consumer lag", "Consumer lag grows when partitions rebalance too often.")
    note(a, "redis.md", "Redis eviction", "The allkeys-lru eviction policy suits caches.")
    assert cli_json(a, "memory", "collect")["added"] == 2

    # no word in common with the note: only the vector ranking (HNSW in the store) can find it
    hits = cli_json(b, "memory", "search", "rebalancing consumers", "--corpus", "notes")["results"]

    assert hits[0]["id"] == "kafka.md" and hits[0]["bm25_rank"] is None and hits[0]["vector_rank"] == 1
    assert not list((b / "indexes").glob("*.faiss")) and not list((a / "indexes").glob("*.faiss"))
    assert count(pgvector_url, "SELECT count(*) FROM lk_memory_notes") == 2
    st = {r["corpus"]: r for r in cli_json(b, "memory", "status")["corpora"]}
    assert st["notes"]["backend"] == "pgvector" and not st["notes"]["stale"]
    assert (st["notes"]["embedder"], st["notes"]["dimension"]) == ("hashing", 512)
    # a shared word: the full-text ranking in the store finds it too, and RRF puts it first
    hits = cli_json(b, "memory", "search", "eviction policy", "--corpus", "notes")["results"]
    assert hits[0]["id"] == "redis.md" and hits[0]["bm25_rank"] == 1 and hits[0]["vector_rank"] == 1


def test_the_hnsw_index_serves_the_vector_search(vteam: tuple[Path, Path]):
    from lorekeeper.workspace import Workspace

    a, _b = vteam
    note(a, "kafka.md", "Kafka consumer lag", "Consumer lag grows when partitions rebalance too often.")
    assert cli_json(a, "memory", "collect")["added"] == 1
    with Workspace.open(a) as ws:
        ws.memory.ensure("notes")
        idx = ws.memory.index("notes")
        plan = idx.explain(ws.memory.embedder().embed(["lag"])[0], 5)  # type: ignore[union-attr]
    assert "lk_memory_notes_hnsw" in plan, plan


def test_a_purge_in_a_erases_the_clarification_for_b(vteam: tuple[Path, Path], pgvector_url: str):
    a, b = vteam
    assert (
        run_cli("--workspace", str(b), "learn", "add", "Invoices go out by noon", "--project", "shop").returncode == 0
    )
    args = ("clarify", "PD-7", "--domain", "billing", "--project", "shop", "--yes")
    out = run_cli("--workspace", str(a), *args, "--json", input=ANSWERS)
    assert out.returncode == 0, out.stderr
    query = ("memory", "search", "invoice customer lateness", "--corpus", "clarifications")
    scope = ("--domain", "billing", "--project", "shop")
    hits = cli_json(b, *query, *scope)["results"]
    assert [h["id"] for h in hits] == ["PD-7"] and hits[0]["vector_rank"] == 1
    assert count(pgvector_url, "SELECT count(*) FROM lk_memory_clarifications WHERE story = 'PD-7'") == 1

    report = cli_json(a, "purge", "--story", "PD-7", "--force")

    assert count(pgvector_url, "SELECT count(*) FROM lk_memory_clarifications") == 0
    assert report["verified"] is True and report["remaining"] == [], report
    erased = "SELECT erased FROM purge_steps WHERE purgeable = 'index:clarifications' AND story = 'PD-7'"
    assert count(pgvector_url, erased) == 1  # the run recorded the shared index's row as erased
    assert cli_json(b, *query, *scope)["results"] == []


def test_another_embedder_in_b_is_a_clear_error_not_a_mixed_index(vteam: tuple[Path, Path], pgvector_url: str):
    a, b = vteam
    note(a, "kafka.md", "Kafka consumer lag", "Consumer lag grows when partitions rebalance too often.")
    assert cli_json(a, "memory", "collect")["added"] == 1
    assert cli_json(a, "memory", "search", "lag", "--corpus", "notes")["results"]
    cfg = b / "lorekeeper.toml"
    cfg.write_text(
        cfg.read_text(encoding="utf-8").replace('provider = "hashing"', 'provider = "hashing"\ndimension = 64', 1),
        "utf-8",
    )

    out = run_cli("--workspace", str(b), "memory", "search", "lag", "--corpus", "notes", "--json")

    assert out.returncode != 0
    assert "one embedder" in out.stderr and "built by hashing" in out.stderr, out.stderr
    assert count(pgvector_url, "SELECT dimension FROM lk_memory_corpora WHERE corpus = 'notes'") == 512


def test_the_memory_panel_says_the_index_is_the_store_s(qtbot, vteam: tuple[Path, Path], sync_workers):
    from lorekeeper.ui.main_window import MainWindow
    from lorekeeper.workspace import Workspace

    a, b = vteam
    note(a, "kafka.md", "Kafka consumer lag", "Consumer lag grows when partitions rebalance too often.")
    assert cli_json(a, "memory", "collect")["added"] == 1
    with Workspace.open(b) as ws:
        win = MainWindow(ws)
        qtbot.addWidget(win)
        win.show()
        p = win.select_panel("memory")
        qtbot.waitUntil(lambda: p.corpora.rowCount() == 3)
        col = p.corpora.HEADERS.index("Index")
        assert {p.corpora.index(r, col).data() for r in range(3)} == {"the store's, shared (pgvector)"}
        notes = next(r for r in p.corpora.rows if r["corpus"] == "notes")
        assert notes["documents"] == 1  # A's note, seen from B
        win.close()


def test_vectors_wider_than_hnsw_takes_are_searched_exactly(vteam: tuple[Path, Path], pgvector_url: str):
    a, _b = vteam
    cfg = a / "lorekeeper.toml"
    cfg.write_text(
        cfg.read_text(encoding="utf-8").replace('provider = "hashing"', 'provider = "hashing"\ndimension = 2048', 1),
        "utf-8",
    )
    note(a, "kafka.md", "Kafka consumer lag", "Consumer lag grows when partitions rebalance too often.")
    assert cli_json(a, "memory", "collect")["added"] == 1

    hits = cli_json(a, "memory", "search", "rebalancing consumers", "--corpus", "notes")["results"]

    assert [h["id"] for h in hits] == ["kafka.md"] and hits[0]["vector_rank"] == 1
    assert count(pgvector_url, "SELECT dimension FROM lk_memory_corpora WHERE corpus = 'notes'") == 2048
    assert count(pgvector_url, "SELECT count(*) FROM pg_indexes WHERE indexname = 'lk_memory_notes_hnsw'") == 0
