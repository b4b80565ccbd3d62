"""Words for matching and ranking: folding, stop words and stemming, one definition for the house.

- `fold(text)`: the case- and accent-insensitive form every ranking compares ("Écris" and
  "ecris" meet): compatibility decomposition (NFKD), nonspacing marks dropped, casefold.
- `stop_words(*extra)`: English and French function words (bm25s's `STOPWORDS_EN_PLUS` and
  `STOPWORDS_FRENCH`, folded) plus the caller's own words, e.g. `INSTRUCTION_WORDS`.
- `stems(words)` / `stem(word)`: the English Snowball stem (PyStemmer), so "reviewing", "reviews"
  and "review" are one word; `singular(word)`, plurals only, where whole words must match.

What each caller adds is its own (the router's words of skill descriptions, ask's question
words); the context engine keeps its code-task vocabulary and its identifier stemmer, and the
memory indexes their short function-word list (their stored vectors were built with it).
Light on import: PyStemmer loads with the first stem, bm25s's word lists without bm25s itself.
"""

from __future__ import annotations

import importlib.util
import re
import sys
import unicodedata
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import regex
    import Stemmer

#: letters and digits; a hyphen, an underscore or an apostrophe separates words
WORD = re.compile(r"[^\W_]+")

#: words instructions and requests use everywhere that say nothing about the task, beyond the
#: function words (modal verbs, "use", "make", "need"; French "faire", "doit", "faut")
INSTRUCTION_WORDS = frozenset(
    """also could would may might must shall like need needs want wants use used uses using get got
    make made let lets via aussi comme plus très cette être avoir faire fait doit doivent faut veut""".split()  # noqa: SIM905 - a word list reads better as text
)


def fold(text: str) -> str:
    """Case- and accent-insensitive form: NFKD, nonspacing marks (Mn) dropped, casefold. ASCII
    text is only lower-cased (the same result, without the decomposition)."""
    if text.isascii():
        return text.lower()
    return _marks().sub("", unicodedata.normalize("NFKD", text.casefold())).casefold()


@lru_cache(maxsize=1)
def _marks() -> regex.Pattern[str]:
    import regex  # Unicode categories: loaded for the first text that is not ASCII

    return regex.compile(r"\p{Mn}+")


def words(text: str) -> list[str]:
    """The folded words of a text (`WORD`), stop words kept."""
    return WORD.findall(fold(text))


def _library_lists() -> ModuleType:
    """bm25s's `stopwords` module (plain tuples), read from its file so the sanitizer process and
    the prompt hook do not import bm25s, numpy and scipy for a word list (about 440 ms)."""
    loaded = sys.modules.get("bm25s.stopwords")
    if loaded is not None:
        return loaded
    spec = importlib.util.find_spec("bm25s")
    origin = Path(spec.origin).parent / "stopwords.py" if spec is not None and spec.origin else None
    if origin is None or not origin.is_file():  # a frozen build: the ordinary import
        import bm25s.stopwords

        lists: ModuleType = bm25s.stopwords
        return lists
    file_spec = importlib.util.spec_from_file_location("lorekeeper._bm25s_stopwords", origin)
    assert file_spec is not None and file_spec.loader is not None
    module = importlib.util.module_from_spec(file_spec)
    file_spec.loader.exec_module(module)
    return module


@lru_cache(maxsize=1)
def function_words() -> frozenset[str]:
    """English and French function words (bm25s's lists), folded and split as `words` splits
    ("don't" -> "don", "t"; "été" -> "ete")."""
    lists = _library_lists()
    return _folded(set(lists.STOPWORDS_EN_PLUS) | set(lists.STOPWORDS_FRENCH))


def _folded(raw: Iterable[str]) -> frozenset[str]:
    out: set[str] = set()
    for w in raw:
        out.update(words(w))
    return frozenset(out)


@lru_cache(maxsize=16)
def stop_words(*extra: frozenset[str]) -> frozenset[str]:
    """`function_words()` and the caller's own word lists, folded like the text they filter."""
    return function_words().union(*(_folded(e) for e in extra))


@lru_cache(maxsize=1)
def _stemmer() -> Stemmer.Stemmer:
    import Stemmer

    st = Stemmer.Stemmer("english")
    st.maxCacheSize = 100_000
    return st


def stems(words: Sequence[str]) -> list[str]:
    """The English Snowball stems of folded words, in order."""
    return list(_stemmer().stemWords(list(words)))


def stem(word: str) -> str:
    return str(_stemmer().stemWord(word))


def singular(word: str) -> str:
    """The light form: plurals folded ("migrations" ~ "migration", "queries" ~ "query"), nothing
    more. For matching on whole words, where Snowball's wider net ("naming" ~ "name",
    "accessible" ~ "access") relates texts that are not about the same thing."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word
