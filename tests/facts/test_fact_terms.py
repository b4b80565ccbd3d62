"""Issue 26 d3: the facts' word index (`fact_terms`, migration 0021).

- it is exact after every write path (add, merge, edit of the statement, re-typing, an
  arbitration's merged fact, extraction) and after the migration's backfill;
- the dedup search through it proposes exactly the facts a full scan finds (Jaccard >= 0.62),
  and an add merges into the very fact the full pass over every fact chooses.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

from sqlalchemy import func, select

from lorekeeper.facts import terms
from lorekeeper.facts.model import Provenance, dumps, fact_id, words
from lorekeeper.store.engine import Store
from lorekeeper.store.migrate import downgrade
from lorekeeper.store.models import Fact, FactTerm
from lorekeeper.workspace import Workspace

QUOTE = "Rule: use the house way."
MIGRATION = Path(terms.__file__).resolve().parents[1] / "store" / "migrations" / "versions" / "0021_fact_terms.py"


def _doc(ws: Workspace, tmp_path: Path, project: str) -> str:
    doc = tmp_path / project / "rules.md"
    doc.parent.mkdir(parents=True, exist_ok=True)
    doc.write_text(QUOTE + "\n", encoding="utf-8")
    ws.facts.ingest(doc.parent, project=project)
    return ws.facts.documents(project)[0].id


def _index_is_exact(store: Store) -> int:
    """The live index equals the words of every fact's statement, with the fact's project and type."""
    with store.session() as s:
        want = {(f.id, t, f.project, f.type) for f in s.scalars(select(Fact)) for t in words(f.statement or "")}
        got = set(s.execute(select(FactTerm.fact_id, FactTerm.term, FactTerm.project, FactTerm.type)).all())
    assert got == want, (sorted(got - want)[:5], sorted(want - got)[:5])
    return len(got)


def test_the_index_follows_every_write_path(workspace: Workspace, tmp_path: Path) -> None:
    _write_paths(workspace, tmp_path)


def test_the_index_follows_every_write_path_on_postgresql(tmp_path: Path, pg_url: str) -> None:
    ws = Workspace.init(tmp_path / "pgws")
    ws.close()
    cfg = ws.root / "lorekeeper.toml"
    cfg.write_text(cfg.read_text().replace('url = "sqlite:///lorekeeper.db"', f'url = "{pg_url}"'))
    with Workspace.open(ws.root) as pg:
        assert pg.store.url.startswith("postgresql")
        _write_paths(pg, tmp_path)


def _write_paths(ws: Workspace, tmp_path: Path) -> None:
    ws.audit.require_key()
    did = _doc(ws, tmp_path, "paths")
    a = ws.facts.add("paths", "convention", "Keep the service layer free of SQL queries.", did, QUOTE).facts[0]
    ws.facts.add("paths", "convention", "Keep the service layer free of raw SQL queries.", did, QUOTE)  # merges
    b = ws.facts.add("paths", "pitfall", "Never retry a payment without its idempotency key.", did, QUOTE).facts[0]
    _index_is_exact(ws.store)
    ws.facts.edit(a.id, statement="Ban SQL from the service layer, always.")
    retyped = ws.facts.edit(b.id, type="constraint", statement="Always send the idempotency key on a retry.")
    assert retyped.facts[0].type == "constraint"
    _index_is_exact(ws.store)
    # an arbitration that merges writes a new fact: indexed too
    c = ws.facts.add("paths", "stack", "Deploy with Helm charts only.", did, QUOTE).facts[0]
    d = ws.facts.add("paths", "stack", "Deploy with Kustomize overlays only.", did, QUOTE).facts[0]
    with ws.store.write() as s:
        rows = [s.get(Fact, c.id), s.get(Fact, d.id)]
        cid = ws.facts.decisions.writer.open_conflict(s, ws.audit.log.signer, [r for r in rows if r], "tools")
    merged = ws.facts.resolve(cid, merge="Deploy with Helm charts, never Kustomize.", why="one tool")
    assert merged.facts[0].source == "merge"
    assert _index_is_exact(ws.store) > 0
    # the list (Core rows, timestamps read raw) shows exactly what `show` (an ORM row) shows
    listed = ws.facts.list("paths", include_merged=True)
    assert len(listed) >= 7 and all(f == ws.facts.show(f.id) for f in listed)
    assert all(f.created_at.endswith("+00:00") for f in listed)
    # the index finds the re-worded fact by its new words only
    with ws.store.session() as s:
        assert terms.near(s, "paths", "convention", words("Ban SQL from the service layer, always!")) == [a.id]
        # the old words find only the merged twin (kept in the index; `candidates` loads survivors only)
        old = terms.near(s, "paths", "convention", words("Keep the service layer free of SQL queries."))
        assert a.id not in old and all(ws.facts.show(f).merged_into == a.id for f in old)


def test_migration_backfills_existing_facts(tmp_path: Path) -> None:
    _backfill(f"sqlite:///{tmp_path / 'lk.db'}")


def test_migration_backfills_existing_facts_on_postgresql(pg_url: str) -> None:
    _backfill(pg_url)


def _backfill(url: str) -> None:
    store = Store(url)
    statements = ["Évitez les requêtes SQL.", "Use snake_case, ALWAYS.", "Keep the ﬁle layout flat.", "—", ""]
    try:
        with store.write() as s:
            for i, text in enumerate(statements):
                s.add(Fact(id=fact_id("m", "convention", text, i), project="m", type="convention", statement=text))
        downgrade(store.engine, "0020_desk_comments")
    finally:
        store.close()
    store = Store(url)  # behind the head: 0021 creates and fills the index
    try:
        assert _index_is_exact(store) == sum(len(words(t)) for t in statements) > 0
    finally:
        store.close()


def test_the_migration_words_are_the_model_words() -> None:
    spec = importlib.util.spec_from_file_location("m0021", MIGRATION)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    rng = random.Random(21)
    alphabet = "aZé\u0301ﬁßİ_9 -–.,%\\Straße ΣΑΣ Ǆ ǅ ½ ①𝔘𝔫𝔦"
    samples = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40))) for _ in range(500)]
    for text in samples:
        assert mod.words(text) == words(text), text


def _statement(rng: random.Random, vocab: list[str]) -> str:
    return " ".join(rng.sample(vocab, rng.randint(3, 9))).capitalize() + "."


def test_index_search_equals_the_full_scan(workspace: Workspace, tmp_path: Path) -> None:
    """A seeded set dense in near-duplicates (a 30-word vocabulary): for 100 probes, the index
    proposes a superset of the Jaccard >= 0.62 facts, `candidates` returns exactly them, and an
    add merges into the fact the full pass over every fact (`merge_pool`) chooses."""
    ws = workspace
    ws.audit.require_key()
    did = _doc(ws, tmp_path, "seeded")
    rng = random.Random(2026)
    vocab = [f"w{i}" for i in range(24)] + ["Élan", "elan", "ÉTÉ", "ete", "ﬁx", "fix"]
    with ws.store.write() as s:  # inserted directly, one transaction (the index follows any flush)
        for i in range(120):
            text = _statement(rng, vocab)
            s.add(Fact(id=fact_id("seeded", "convention", text, i), project="seeded", type="convention",
                       statement=text, provenance=dumps([Provenance(did, "rules.md", QUOTE).to_dict()]),
                       ordinal=1000 + i, source="test"))  # fmt: skip
    writer = ws.facts.decisions.writer
    merged_some = 0
    with ws.store.session() as s:
        pool = list(s.scalars(select(Fact).where(Fact.project == "seeded", Fact.merged_into == "")))
        assert len(pool) > 40
        probes = [_statement(rng, vocab) for _ in range(50)]
        for _ in range(50):  # near twins of stored facts: one word swapped or added (merges, near misses)
            parts = rng.choice(pool).statement.rstrip(".").split()
            parts[rng.randrange(len(parts))] = rng.choice(vocab)
            probes.append(" ".join(parts + ([rng.choice(vocab)] if rng.random() < 0.5 else [])) + ".")
        ordinal = int(s.scalar(select(func.max(Fact.ordinal))) or 0)
        for k, text in enumerate(probes):
            mine = words(text)
            probe = Fact(id=f"seeded:convention:probe{k}", project="seeded", type="convention", statement=text)
            probe.ordinal = ordinal + 1 + k
            full = {f.id for f in pool if mine | words(f.statement) and _jaccard_ok(mine, words(f.statement))}
            proposed = set(terms.near(s, "seeded", "convention", mine))
            assert full <= proposed, text
            assert {f.id for f in writer.candidates(s, probe)} == full, text
            # the verdict: the single-add path (the index) against the full pass (every fact)
            via_index = sorted([*writer.candidates(s, probe), probe], key=lambda r: (r.ordinal, r.id))
            everything = sorted([*pool, probe], key=lambda r: (r.ordinal, r.id))
            assert _verdict(writer, via_index, probe) == _verdict(writer, everything, probe), text
            merged_some += _verdict(writer, everything, probe) is not None
    assert merged_some > 10  # the set really exercises merges


def _jaccard_ok(a: frozenset[str], b: frozenset[str]) -> bool:
    return len(a & b) * 100 >= 62 * len(a | b)


def _verdict(writer: object, pool: list[Fact], probe: Fact) -> str | None:
    """Which fact `merge_pool` merges the probe into (without writing: the merge is not applied)."""
    chosen: list[str] = []

    class _NoWrite:
        def merge_into(self, survivor: Fact, loser: Fact, signer: object) -> None:
            chosen.append(survivor.id)

    merge_pool = type(writer).merge_pool  # type: ignore[attr-defined]
    merge_pool(_NoWrite(), pool, {probe.id}, set(), None)
    return chosen[0] if chosen else None


def test_the_demo_facts_are_indexed(demo_workspace: Workspace) -> None:
    """The demo's facts come from a recorded extraction and a recorded model consolidation
    (paraphrases merged under a rewritten statement, conflicts opened): the index is exact."""
    ws = demo_workspace
    facts = ws.facts.list(include_merged=True)
    assert {f.source for f in facts} >= {"extraction"} and any(f.merged_into for f in facts)
    assert _index_is_exact(ws.store) > 0
