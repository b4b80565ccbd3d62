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
