"""Where the memory's files live in a workspace (names are stable: the purge run and tests use them).

- `sources/**.md`: research notes (front matter verdict/impact/date/tags + H1 + summary);
- `clarifications/<STORY>-clarifications.md`: validated non-PII summaries, one per story;
- `indexes/<corpus>-index.faiss`, `indexes/<corpus>-embeddings.npy`, `indexes/<corpus>-cache.json`:
  the derived index of each corpus (FAISS IndexIDMap2 with stable 64-bit ids, the vectors in id
  order, and the cache: embedder, model, dimension, fingerprint, id -> entry);
- `locks/memory.lock`: the memory files' reader/writer flock (B3/B4/B5).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from lorekeeper.errors import InvalidInputError

CORPORA = ("notes", "clarifications", "learnings")
LOCK_FILE = "memory.lock"
STORY_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]{0,63}$")


def check_story_id(story: str) -> str:
    s = (story or "").strip()
    if not STORY_RE.match(s) or ".." in s:
        raise InvalidInputError(
            f"invalid story id {story!r}: use letters, digits, '-', '_' or '.', starting with a letter (e.g. PD-42)"
        )
    return s


def check_corpus(corpus: str) -> str:
    if corpus not in CORPORA:
        raise InvalidInputError(f"unknown corpus {corpus!r}: use one of {', '.join(CORPORA)}")
    return corpus


def item_id64(corpus: str, key: str) -> int:
    """The stable 64-bit FAISS id of an item: the first 8 bytes of blake2b("<corpus>:<key>"), as a
    non-negative int64 (FAISS ids are signed; -1 means "no result")."""
    digest = hashlib.blake2b(f"{corpus}:{key}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") & 0x7FFF_FFFF_FFFF_FFFF


@dataclass(frozen=True)
class IndexPaths:
    faiss: Path
    embeddings: Path
    cache: Path

    def all(self) -> tuple[Path, Path, Path]:
        return (self.faiss, self.embeddings, self.cache)


@dataclass(frozen=True)
class MemoryLayout:
    root: Path

    @property
    def sources(self) -> Path:
        return self.root / "sources"

    @property
    def clarifications(self) -> Path:
        return self.root / "clarifications"

    @property
    def indexes(self) -> Path:
        return self.root / "indexes"

    @property
    def lock(self) -> Path:
        return self.root / "locks" / LOCK_FILE

    def index(self, corpus: str) -> IndexPaths:
        check_corpus(corpus)
        d = self.indexes
        return IndexPaths(d / f"{corpus}-index.faiss", d / f"{corpus}-embeddings.npy", d / f"{corpus}-cache.json")

    def clarification_file(self, story: str) -> Path:
        return self.clarifications / f"{check_story_id(story)}-clarifications.md"
