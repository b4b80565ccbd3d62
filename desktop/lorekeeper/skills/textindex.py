"""Ranking skills by their name and description: BM25 over folded words.

Used by the router for the skills that declare no router words (no `metadata.triggers` and no
`metadata.keywords`, which is every public skill today), and by the marketplace search.

Words (`lorekeeper.text`): the text is case- and accent-folded (`fold`), split into words (a
hyphen or an underscore separates words: `pdf-tools` is "pdf" and "tools"), English and French
stop words and `ROUTING_WORDS` are dropped, and each word is reduced to its English Snowball stem
(PyStemmer), so "reviewing", "reviews" and "review" are one word. A skill's name counts twice (it
is its shortest summary).

Scoring: BM25 (bm25s, Lucene variant, k1 = 1.5, b = 0.75). A skill sharing no word with the query
scores 0 and is never returned.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lorekeeper.text import WORD, fold, stems, stop_words

# bm25s and numpy are imported on first use: routing a library whose skills all have router words
# (and the Claude Code prompt hook, which routes on every prompt) never loads them.
if TYPE_CHECKING:
    import bm25s

# Words that skill descriptions and requests use everywhere and that say nothing about the task.
ROUTING_WORDS = frozenset({
    # English
    "use", "uses", "used", "using", "skill", "skills", "user", "users", "please", "want", "wants", "need",
    "needs", "help", "helps", "also", "etc", "eg", "ie", "like", "would", "could", "let", "lets", "may",
    "might", "must", "shall", "us", "whenever", "something", "anything", "thing", "things", "via", "ask",
    "asks", "asked", "mention", "mentions", "request", "requests", "trigger", "triggers", "claude",
    # French
    "veux", "voudrais", "voulons", "peux", "pouvez", "peut", "stp", "svp", "merci", "aide", "aider",
    "besoin", "cette", "cet", "tout", "tous", "toute", "toutes", "comme", "plus", "moins", "tres",
    "aussi", "faire", "fais", "fait", "quand", "chose", "avoir", "etre", "quoi", "comment", "donc",
    "alors", "ici", "la", "sans", "sous", "entre", "vers", "chez", "mais", "ou", "si", "non", "oui",
    "mon", "ma", "mes", "ton", "ta", "tes", "notre", "votre", "leurs", "lequel", "laquelle", "dont",
})  # fmt: skip


def routing_stop_words() -> frozenset[str]:
    """The router's stop words: the function words and `ROUTING_WORDS`."""
    return stop_words(ROUTING_WORDS)


def __getattr__(name: str) -> frozenset[str]:
    """`STOP_WORDS`, computed on first use (PEP 562)."""
    if name == "STOP_WORDS":
        return routing_stop_words()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


NAME_WEIGHT = 2  # the name's words are counted this many times


def folded_words(text: str) -> list[str]:
    """The folded words of a text without stop words (one-letter words dropped), before stemming."""
    stop = routing_stop_words()
    return [w for w in WORD.findall(fold(text)) if len(w) > 1 and w not in stop]


def document_words(name: str, description: str) -> list[str]:
    """The stems a skill is indexed by: its name (counted NAME_WEIGHT times) and its description."""
    return stems(folded_words(name.replace("-", " ")) * NAME_WEIGHT + folded_words(description))


@dataclass(frozen=True)
class TextHit:
    index: int  # position in the documents given to TextIndex
    bm25: float
    terms: tuple[str, ...]  # the query's folded words found in the document, in query order


class TextIndex:
    """BM25 over (name, description) documents. Build once; `search` is cheap and thread-safe."""

    def __init__(self, docs: Sequence[tuple[str, str]]) -> None:
        self._doc_stems: list[frozenset[str]] = []
        corpus: list[list[str]] = []
        for name, description in docs:
            words = document_words(name, description)
            corpus.append(words)
            self._doc_stems.append(frozenset(words))
        self._bm25: bm25s.BM25 | None = None
        if any(corpus):
            import bm25s

            self._bm25 = bm25s.BM25(k1=1.5, b=0.75, method="lucene")
            self._bm25.index(corpus, show_progress=False)

    def __len__(self) -> int:
        return len(self._doc_stems)

    def search(self, query: str, top: int | None = None) -> list[TextHit]:
        """Documents sharing at least one word with the query, by BM25 descending then position."""
        if self._bm25 is None:
            return []
        words = list(dict.fromkeys(folded_words(query)))
        if not words:
            return []
        query_stems = stems(words)
        vocab = self._bm25.vocab_dict
        known = list(dict.fromkeys(s for s in query_stems if s in vocab))
        if not known:
            return []
        import numpy as np

        scores = np.asarray(self._bm25.get_scores(known), dtype=np.float64)
        hits = np.flatnonzero(scores > 0)
        if hits.size == 0:
            return []
        order = hits[np.lexsort((hits, -scores[hits]))]
        if top is not None:
            order = order[: max(top, 0)]
        out = []
        for i in order.tolist():
            doc = self._doc_stems[i]
            terms = tuple(w for w, s in zip(words, query_stems, strict=True) if s in doc)
            out.append(TextHit(i, float(scores[i]), terms))
        return out
