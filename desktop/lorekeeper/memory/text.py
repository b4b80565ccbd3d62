"""Tokenising for BM25 and the hashing embedder: folded `\\w+` words (`lorekeeper.text.fold`).

The stop words are a short list of English and French function words (all in
`lorekeeper.text.function_words()`): the stored vectors of the hashing embedder were built with
it, so a longer list would change every vector (a rebuild of every index)."""

from __future__ import annotations

import re

from lorekeeper.text import fold

_WORD = re.compile(r"\w+", re.UNICODE)
# a few function words of English and French, the languages of the seed and the demo
STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "de",
        "des",
        "du",
        "en",
        "et",
        "for",
        "from",
        "in",
        "is",
        "it",
        "la",
        "le",
        "les",
        "of",
        "on",
        "or",
        "ou",
        "par",
        "pour",
        "que",
        "qui",
        "sur",
        "the",
        "this",
        "to",
        "un",
        "une",
        "with",
    ]
)


def tokens(text: str, *, stop: bool = True) -> list[str]:
    out = _WORD.findall(fold(text))
    return [t for t in out if not (stop and t in STOPWORDS)]
