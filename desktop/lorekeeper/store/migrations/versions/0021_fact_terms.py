"""The facts' word index (issue 26 d3): `facts add` at 10,000 facts without reading them all.

Revision ID: 0021_fact_terms
Revises: 0020_desk_comments

- `fact_terms`: one row per distinct folded word of a fact's statement (`\\w+` of the NFKD,
  mark-stripped, casefolded text: `facts.model.words`), with the fact's project and type, indexed
  by (project, type, term). The near-duplicate search reads the postings of the statement's rarest
  words and checks each candidate exactly; `facts.terms` keeps the index exact on every write.
- `ix_facts_ordinal`: an add's next ordinal is `max(ordinal)`, a scan of every fact without it.
- Backfill: the words of every existing fact, computed here with a frozen copy of the rule (a
  migration does not import the application; tests/facts/test_fact_terms.py checks that both agree).
"""

import re
import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0021_fact_terms"
down_revision = "0020_desk_comments"
branch_labels = None
depends_on = None

_WORD = re.compile(r"\w+")
BATCH = 500


def words(text: str) -> frozenset[str]:
    """`facts.model.words` as of this migration."""
    decomposed = unicodedata.normalize("NFKD", text)
    folded = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    return frozenset(_WORD.findall(folded))


def upgrade() -> None:
    terms = op.create_table(
        "fact_terms",
        sa.Column("fact_id", sa.String(160), sa.ForeignKey("facts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("term", sa.Text, primary_key=True),
        sa.Column("project", sa.String(128), nullable=False),
        sa.Column("type", sa.String(16), nullable=False),
    )
    op.create_index("ix_fact_terms_lookup", "fact_terms", ["project", "type", "term"])
    op.create_index("ix_facts_ordinal", "facts", ["ordinal"])
    conn = op.get_bind()
    facts = sa.table("facts", sa.column("id"), sa.column("project"), sa.column("type"), sa.column("statement"))
    rows: list[dict[str, str]] = []
    found = conn.execute(sa.select(facts.c.id, facts.c.project, facts.c.type, facts.c.statement)).all()
    for fid, project, type_, statement in found:
        rows += [{"fact_id": fid, "term": t, "project": project, "type": type_} for t in sorted(words(statement or ""))]
        if len(rows) >= BATCH:
            conn.execute(sa.insert(terms), rows)
            rows = []
    if rows:
        conn.execute(sa.insert(terms), rows)


def downgrade() -> None:
    op.drop_index("ix_facts_ordinal", "facts")
    op.drop_index("ix_fact_terms_lookup", "fact_terms")
    op.drop_table("fact_terms")
