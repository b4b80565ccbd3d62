"""What an index holds per item, and the fingerprint that says whether an index is up to date
(light: no numpy or FAISS import, so opening a workspace stays cheap)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol


class EmbedderIdentity(Protocol):
    name: str
    model: str
    dimension: int


@dataclass(frozen=True)
class Item:
    id64: int
    key: str  # the item's id in its corpus (note path, story, learning id)
    text: str  # what is embedded
    story: str = ""  # the story it is linked to (clarifications, story learnings): the purge uses it

    @property
    def sha(self) -> str:
        return hashlib.sha256(self.text.encode()).hexdigest()[:32]


def fingerprint(items: Iterable[Item], embedder: EmbedderIdentity) -> str:
    return fingerprint_of(((it.id64, it.sha) for it in items), (embedder.name, embedder.model, embedder.dimension))


def fingerprint_of(pairs: Iterable[tuple[int, str]], identity: tuple[str, str, int]) -> str:
    """The fingerprint of (id, content hash) pairs for an embedder identity (name, model, dimension)."""
    h = hashlib.sha256("|".join(map(str, identity)).encode())
    for id64, sha in sorted(pairs):
        h.update(f"\n{id64}:{sha}".encode())
    return h.hexdigest()
