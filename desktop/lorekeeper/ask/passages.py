"""Passages: the retrievable pieces of a document, each with its exact line range."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from lorekeeper.skills.textindex import ROUTING_WORDS
from lorekeeper.text import fold, stop_words

MAX_LINES = 12  # a paragraph longer than this is cut into passages of this many lines
_WORD = re.compile(r"\w+")
_HEADING = re.compile(r"^#{1,6}\s")

#: words of a question that match everything and rank nothing, beyond the router's stop words
#: (English and French function words and the router's `ROUTING_WORDS`)
QUESTION_WORDS = frozenset(
    ["what", "which", "who", "whom", "whose", "when", "where", "why", "how", "tell", "give", "show", "explain",
     "describe", "please", "know"]
)  # fmt: skip


@lru_cache(maxsize=1)
def stopwords() -> frozenset[str]:
    return stop_words(ROUTING_WORDS, QUESTION_WORDS)


def tokens(text: str) -> list[str]:
    return [w for w in _WORD.findall(fold(text)) if w not in stopwords() and (len(w) > 1 or w.isdigit())]


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
