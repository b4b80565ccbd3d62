"""Tokenising for BM25 and the hashing embedder: case- and accent-folded `\\w+` words."""

from __future__ import annotations

import re
import unicodedata

import regex

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


_MARKS = regex.compile(r"\p{Mn}+")


def fold(text: str) -> str:
    if text.isascii():
        return text.casefold()
    return _MARKS.sub("", unicodedata.normalize("NFKD", text.casefold()))


def tokens(text: str, *, stop: bool = True) -> list[str]:
    out = _WORD.findall(fold(text))
    return [t for t in out if not (stop and t in STOPWORDS)]
