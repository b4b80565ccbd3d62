"""Issue 26 d3: `facts add` at 10k facts. The dedup search of an add reads only the facts it could
merge into (it loaded and verified every fact of the project and type), with the same verdicts."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import event

from lorekeeper.audit.rows import sign_row
from lorekeeper.facts.model import FactInfo, Provenance, dumps, fact_id, jaccard, similar
from lorekeeper.store.models import Fact, utcnow
from lorekeeper.workspace import Workspace

QUOTE = "Rule: use the house way."


def _doc(ws: Workspace, tmp_path: Path, project: str) -> str:
    doc = tmp_path / project / "rules.md"
    doc.parent.mkdir(parents=True, exist_ok=True)
    doc.write_text(QUOTE + "\n", encoding="utf-8")
    ws.facts.ingest(doc.parent, project=project)
    return ws.facts.documents(project)[0].id


def _fill(ws: Workspace, did: str, project: str, start: int, n: int) -> None:
    """`n` distinct signed facts inserted directly (one transaction), none similar to another."""
    signer = ws.audit.log.signer
    with ws.store.write() as s:
        for i in range(start, start + n):
            statement = f"Keep rule{i} apart from topic{i} in area{i}."
            row = Fact(
                id=fact_id(project, "convention", statement),
                project=project,
                type="convention",
                statement=statement,
                detail="",
                scope="[]",
                tags="[]",
                confidence=0.9,
                status="candidate",
                provenance=dumps([Provenance(did, "rules.md", QUOTE).to_dict()]),
                merged_into="",
                flag="",
                ordinal=i + 1,
                source="test",
                created_at=utcnow(),
            )
            sign_row(signer, row)
            s.add(row)


@contextmanager
def _loaded(ws: Workspace) -> Iterator[list[str]]:
    """The Fact rows the ORM builds from query results (what an add reads and verifies)."""
    seen: list[str] = []

    def on_load(target: Fact, _ctx: object) -> None:
        seen.append(target.id)

    event.listen(Fact, "load", on_load)
    try:
        yield seen
    finally:
        event.remove(Fact, "load", on_load)


def test_rows_read_per_add_stay_flat_as_facts_grow(workspace: Workspace, tmp_path: Path) -> None:
    """At 40 and at 240 facts of the type, an add (new, then one that merges) reads the same
    handful of rows; it read all of them before (40 then 240)."""
    ws = workspace
    ws.audit.require_key()
    did = _doc(ws, tmp_path, "grow")
    counts = []
    for start, n in ((0, 40), (40, 200)):
        _fill(ws, did, "grow", start, n)
        with _loaded(ws) as seen:
            d = ws.facts.add("grow", "convention", f"Fresh rule{n} about pipeline{n} for team{n}.", did, QUOTE)
            m = ws.facts.add("grow", "convention", "Keep rule3 apart from topic3 in area3 please.", did, QUOTE)
        assert d.facts[0].statement == f"Fresh rule{n} about pipeline{n} for team{n}."  # kept on its own
        assert m.facts[0].statement == "Keep rule3 apart from topic3 in area3."  # merged into the older
        counts.append(len(seen))
    assert counts[1] <= counts[0], counts
    assert counts[0] < 20, counts


def _expected(pool: list[FactInfo], statement: str) -> str | None:
    """The full pass's verdict: the most similar older unmerged fact (Jaccard >= 0.62), ties the oldest."""
    best: tuple[float, int, str] | None = None
    for f in pool:
        if not similar(f.statement, statement):  # an empty word set is similar to nothing
            continue
        score = jaccard(f.statement, statement)
        if best is None or (score, -f.ordinal) > (best[0], -best[1]):
            best = (score, f.ordinal, f.id)
    return best[2] if best else None


def test_add_verdicts_are_the_full_pass_verdicts(workspace: Workspace, tmp_path: Path) -> None:
    """Accents, ligatures, case, `_` and `%` in words, ties and a better later match: each add
    merges into exactly the fact the pass over every fact chooses (or stays on its own)."""
    _check_verdicts(workspace, tmp_path)


def test_add_verdicts_on_postgresql(tmp_path: Path, pg_url: str) -> None:
    """The same verdicts on PostgreSQL (its LIKE is case-sensitive: the search uses ILIKE there)."""
    ws = Workspace.init(tmp_path / "pgws")
    ws.close()
    cfg = ws.root / "lorekeeper.toml"
    cfg.write_text(cfg.read_text().replace('url = "sqlite:///lorekeeper.db"', f'url = "{pg_url}"'))
    with Workspace.open(ws.root) as pg:
        assert pg.store.url.startswith("postgresql")
        _check_verdicts(pg, tmp_path)


def _check_verdicts(ws: Workspace, tmp_path: Path) -> None:
    ws.audit.require_key()
    did = _doc(ws, tmp_path, "verdicts")
    statements = [
        "Évitez les requêtes SQL dans les boucles du service.",
        "evitez les requetes sql dans les boucles du service",  # accents fold: merges into the first
        "Use snake_case for every column name in the schema.",
        "use SNAKE_CASE for every column name in a schema",  # case and `_`: merges
        "Use snakeXcase for every column name in the schema.",  # `_` is not a LIKE wildcard here
        "NEVER PUSH DIRECTLY TO THE MAIN BRANCH OF THE REPO.",
        "never push directly to the main branch of the repo today",  # ASCII case only: merges
        "Keep the ﬁle layout flat for each module of the app.",
        "Keep the file layout flat for each module of the app.",  # the ligature unfolds: merges
        "Cap memory at 100% of the quota on every worker node.",
        "Cap memory at 100 of the quota on every worker node.",  # `%` is no word: merges
        "Alpha beta gamma delta epsilon zeta eta theta.",
        "Alpha beta gamma delta epsilon zeta eta iota.",  # a near twin: merges into the older
        "Alpha beta gamma delta epsilon zeta eta kappa.",  # tie between the two survivors? the oldest
        "Alpha beta gamma delta epsilon zeta eta theta iota.",
        "—",  # no word at all: never merges
        "—",
        "Totally unrelated statement about release trains.",
    ]
    for statement in statements:
        pool = ws.facts.list("verdicts", type="convention")
        want = _expected(pool, statement)
        d = ws.facts.add("verdicts", "convention", statement, did, QUOTE)
        got = d.facts[0]
        assert got == ws.facts.show(got.id)  # what the add returns is what the store now holds
        if want is None:
            assert got.statement == statement and got.id not in {f.id for f in pool}, statement
        else:
            assert got.id == want, statement
