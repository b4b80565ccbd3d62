"""B1 and the indexes: collect, search with filters, the three index files, stable ids and
erasure by remove_ids, embedder mismatch refused and rebuilt, the ollama embedder (768 dims)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from memory_support import add_clarification, events, write_note

from helpers.cli import run_lorekeeper


@pytest.fixture
def notes_ws(workspace):
    ws = workspace
    write_note(
        ws,
        "veille/2026-11/faiss.md",
        "FAISS IDMap for stable ids",
        "Use IndexIDMap2 so erasure is remove_ids.",
        verdict="signal",
        impact="fort",
        tags="faiss, vectors",
    )
    write_note(
        ws,
        "veille/2026-11/bm25.md",
        "BM25 beats vectors on identifiers",
        "Exact tokens like ERR codes need BM25.",
        verdict="veille",
        impact="modere",
        tags="bm25",
    )
    write_note(
        ws,
        "veille/2026-10/hype.md",
        "Vector database hype",
        "Most vector databases add nothing here.",
        verdict="bruit",
        impact="faible",
        tags="vectors",
        extra="project: backend\n",
    )
    (Path(ws.root) / "sources" / "plain.md").write_text("# Not a note\n\nA plain document.\n", encoding="utf-8")
    (Path(ws.root) / "sources" / "bad.md").write_text(
        "---\nverdict: maybe\nimpact: fort\n---\n# Bad\n", encoding="utf-8"
    )
    return ws


def test_collect_index_and_search_with_filters(notes_ws) -> None:
    ws = notes_ws
    root = str(ws.root)
    out = json.loads(run_lorekeeper("memory", "collect", "--json", "--workspace", root).stdout)
    assert out["added"] == 3 and [s["path"] for s in out["skipped"]] == ["bad.md"]
    again = json.loads(run_lorekeeper("memory", "collect", "--json", "--workspace", root).stdout)
    assert again["unchanged"] == 3 and again["added"] == 0
    assert run_lorekeeper("memory", "index", "--corpus", "notes", "--workspace", root).returncode == 0
    for suffix in ("-index.faiss", "-embeddings.npy", "-cache.json"):
        assert (Path(root) / "indexes" / f"notes{suffix}").is_file()
    cache = json.loads((Path(root) / "indexes" / "notes-cache.json").read_text())
    assert (cache["embedder"], cache["dimension"], cache["count"]) == ("hashing", 512, 3)

    def search(*args: str) -> list[str]:
        r = run_lorekeeper("memory", "search", *args, "--json", "--workspace", root)
        assert r.returncode == 0, r.stderr
        return [h["id"] for h in json.loads(r.stdout)["results"]]

    assert search("stable ids remove_ids erasure", "--corpus", "notes")[0] == "veille/2026-11/faiss.md"
    assert search("vectors", "--verdict", "bruit") == ["veille/2026-10/hype.md"]
    assert search("vectors", "--impact", "fort") == ["veille/2026-11/faiss.md"]
    assert search("vectors", "--impact", "moderate") == ["veille/2026-11/bm25.md"]  # an alias of modere
    assert search("vectors", "--project", "backend") == ["veille/2026-10/hype.md"]
    assert len(search("vectors", "--top", "1")) == 1
    bad = run_lorekeeper("memory", "search", "x", "--impact", "huge", "--workspace", root)
    assert bad.returncode == 2 and "ERR_INVALID_INPUT" in bad.stderr
    # --trace STORY: a signed event of the query and its results, written before they are shown
    assert search("bm25 identifiers", "--trace", "PD-3")
    ev = events(ws, "memory_search")
    assert ev[-1]["story"] == "PD-3" and ev[-1]["content"]["data"]["query"] == "bm25 identifiers"


def test_index_is_derived_stale_when_the_store_changes_and_refuses_other_vectors(notes_ws) -> None:
    from lorekeeper.memory.collect import collect
    from lorekeeper.memory.embedders import HashingEmbedder
    from lorekeeper.memory.index import IndexMismatchError
    from lorekeeper.memory.items import Item

    ws = notes_ws
    collect(ws.store, ws.memory_layout)
    assert any("notes-index.faiss (missing)" in s for s in ws.memory.stale())
    assert ws.memory in ws.derived()
    ws.memory.rebuild()
    assert ws.memory.stale() == []
    ids_before = ws.memory.index("notes").faiss_ids()
    write_note(ws, "new.md", "A new note", "New finding.")
    collect(ws.store, ws.memory_layout)
    assert ws.memory.status("notes").stale
    ws.memory.ensure("notes")
    assert ids_before < ws.memory.index("notes").faiss_ids()  # stable ids: the old ones are kept as they were
    other = HashingEmbedder(64)
    with pytest.raises(IndexMismatchError, match="refuses to mix"):
        ws.memory.index("notes").add([Item(1, "x", "x")], other.embed(["x"]), other)
    # another configured embedder: the index is stale and rebuilt with it
    ws.memory._embedder = other
    st = ws.memory.status("notes")
    assert st.stale and "built by hashing" in st.reason
    ws.memory.ensure("notes")
    assert ws.memory.index("notes").meta()["dimension"] == 64


def test_a_story_erasure_removes_its_vectors_embeddings_and_cache_entry(workspace) -> None:
    ws = workspace
    add_clarification(ws, "PD-1", "auth", "backend", text="export invoices")
    add_clarification(ws, "PD-2", "auth", "backend", text="rotate keys")
    ws.memory.ensure("clarifications")
    assert ws.memory.count_for_story("PD-1") == 1
    assert ws.memory.artefacts_for_story("PD-1") == {"faiss": 1, "embeddings": 1, "cache": 1}
    assert ws.clarifications.count_for_story("PD-1") == 2  # the row and the markdown file
    from lorekeeper.protocols import Purgeable

    assert all(isinstance(p, Purgeable) for p in ws.purge.purgeables)
    for p in ws.purge.purgeables:
        p.erase_story("PD-1")
    for p in ws.purge.purgeables:
        assert p.verify_erased("PD-1"), p.purge_name
    idx = ws.memory.index("clarifications")
    assert len(idx.faiss_ids()) == 1
    assert np.load(idx.paths.embeddings).shape[0] == 1
    assert "PD-1" not in idx.paths.cache.read_text()
    assert ws.memory.status("clarifications").stale is False  # PD-2 alone, as the store says


def test_ollama_embedder_through_the_sdk(workspace, ollama_server) -> None:
    from lorekeeper.memory.embedders import OLLAMA_DIM, embedder_from_config

    ollama_server.embed_dims = OLLAMA_DIM
    ws = workspace
    ws.config.data["embeddings"] = {"provider": "ollama", "base_url": ollama_server.url}
    emb = embedder_from_config(ws.config)
    assert (emb.name, emb.model, emb.dimension) == ("ollama", "nomic-embed-text", 768)
    vecs = emb.embed(["a", "b", "c"])
    assert vecs.shape == (3, 768)
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    posts = [r for r in ollama_server.posts() if r.path == "/api/embed"]
    assert posts and posts[0].body["model"] == "nomic-embed-text"


def test_sentence_transformers_is_optional(workspace, monkeypatch) -> None:
    import sys

    from lorekeeper.errors import LorekeeperError
    from lorekeeper.memory.embedders import embedder_from_config

    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # not installed
    workspace.config.data["embeddings"] = {"provider": "sentence-transformers"}
    with pytest.raises(LorekeeperError) as err:
        embedder_from_config(workspace.config)
    assert err.value.code == "ERR_LLM_UNAVAILABLE" and "pip install sentence-transformers" in err.value.message
