"""Passages: the retrievable pieces of a document, each with its exact line range."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

MAX_LINES = 12  # a paragraph longer than this is cut into passages of this many lines
_WORD = re.compile(r"\w+")
_HEADING = re.compile(r"^#{1,6}\s")

#: English function words and question words: they match everything and rank nothing
STOPWORDS = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "me",
        "more",
        "most",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "now",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "tell",
        "give",
        "show",
        "explain",
        "describe",
        "please",
        "know",
    ]
)


def fold(text: str) -> str:
    """Case- and accent-insensitive form (as the router's)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def tokens(text: str) -> list[str]:
    return [w for w in _WORD.findall(fold(text)) if w not in STOPWORDS and (len(w) > 1 or w.isdigit())]


@dataclass(frozen=True)
class Passage:
    corpus: str  # skills | learnings | documents | facts | memory ...
    document: str  # a workspace-relative path or a stable id
    title: str
    start: int  # first line, 1-based
    end: int  # last line, inclusive
    text: str

    def to_dict(self) -> dict[str, object]:
        return {
            "corpus": self.corpus,
            "document": self.document,
            "title": self.title,
            "lines": [self.start, self.end],
            "text": self.text,
        }


def split_text(
    corpus: str, document: str, text: str, *, title: str = "", max_lines: int = MAX_LINES
) -> Iterator[Passage]:
    """Paragraph passages (blank lines and headings separate them), at most `max_lines` lines each.
    A heading starts a new passage and stays with the text under it; line numbers are the file's."""
    lines = text.split("\n")
    start: int | None = None
    buf: list[str] = []

    def flush() -> Iterator[Passage]:
        nonlocal start, buf
        if start is not None and any(b.strip() for b in buf):
            while buf and not buf[-1].strip():
                buf.pop()
            yield Passage(corpus, document, title or document, start, start + len(buf) - 1, "\n".join(buf))
        start, buf = None, []

    for number, line in enumerate(lines, start=1):
        if not line.strip():
            last = next((b for b in reversed(buf) if b.strip()), "")
            if buf and not _HEADING.match(last):
                yield from flush()
            elif buf:
                buf.append(line)  # a heading keeps the text under it: the blank line stays in the passage
            continue
        if _HEADING.match(line) and buf:
            yield from flush()
        if start is None:
            start = number
        buf.append(line)
        if len(buf) >= max_lines:
            yield from flush()
    yield from flush()


def front_matter_end(text: str) -> int:
    """The number of lines a YAML front matter block takes (0 without one)."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return 0
    for i, line in enumerate(lines[1:], start=2):
        if line.strip() == "---":
            return i
    return 0


def split_skill(document: str, name: str, content: str) -> Iterator[Passage]:
    """A SKILL.md: the description line of the front matter as one passage, then the body's."""
    head = front_matter_end(content)
    lines = content.split("\n")
    for i, line in enumerate(lines[:head], start=1):
        if line.startswith("description:"):
            yield Passage("skills", document, name, i, i, line)
    body = "\n".join("" if i < head else line for i, line in enumerate(lines))
    yield from split_text("skills", document, body, title=name)


def numbered(passages: Iterable[Passage]) -> str:
    return "\n\n".join(f"[{n}] {p.document} lines {p.start}-{p.end}\n{p.text}" for n, p in enumerate(passages, start=1))
