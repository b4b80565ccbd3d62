"""Exact o200k_base token counts for small ASCII texts without loading the full tokenizer.

Loading quicktok's vocabulary costs about a second of CPU, which dominated `ctx read` of a small
file. This module answers the same counts from a compact cached copy of the vocabulary: an
open-addressing hash table (token bytes -> rank) written once under the user cache directory and
read through `mmap`, so opening it costs nothing and only the probed slots are touched. The
pre-tokenizer is o200k's own pattern with its Unicode classes restricted to ASCII, which is exact
for ASCII-only text; any other text goes to quicktok. tests/context/test_fastcount.py checks the
counts against quicktok on real files and edge cases.
"""

from __future__ import annotations

import mmap
import os
import re
import struct
import zlib
from functools import lru_cache
from pathlib import Path
from typing import Any

MAGIC = b"LKO200K1"
_WS = " \\t\\n\\x0b\\x0c\\r"  # the ASCII part of Unicode White_Space (not Python's \\s: no \\x1c-\\x1f)
_CONTRACTIONS = "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?"
# o200k_base's pattern with \p{L} -> [A-Za-z], \p{N} -> [0-9], upper-ish -> [A-Z], lower-ish -> [a-z]
_PIECE = re.compile(
    "|".join(
        [
            f"[^\\r\\nA-Za-z0-9]?[A-Z]*[a-z]+{_CONTRACTIONS}",
            f"[^\\r\\nA-Za-z0-9]?[A-Z]+[a-z]*{_CONTRACTIONS}",
            "[0-9]{1,3}",
            f" ?[^{_WS}A-Za-z0-9]+[\\r\\n/]*",
            f"[{_WS}]*[\\r\\n]+",
            f"[{_WS}]+(?![^{_WS}])",
            f"[{_WS}]+",
        ]
    )
)
_EMPTY = 0xFFFFFFFF


def cache_path() -> Path:
    base = os.environ.get("LOREKEEPER_CACHE_DIR")
    if base:
        return Path(base) / "o200k_base.table"
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("lorekeeper")) / "o200k_base.table"


def write_table(encoding: Any, path: Path) -> None:
    """Write the rank table of a loaded quicktok `encoding` to `path` (atomically)."""
    entries: list[tuple[bytes, int]] = []
    for rank in range(int(encoding.n_vocab)):
        try:
            b = bytes(encoding.decode_single_token_bytes(rank))
        except KeyError:  # unused and special-token ids have no ordinary bytes
            continue
        if b and len(b) < 256:
            entries.append((b, rank))
    size = 1 << (len(entries) * 2).bit_length()
    mask = size - 1
    offs = [0] * size
    ranks = [_EMPTY] * size
    blob = bytearray()
    for b, rank in entries:
        i = zlib.crc32(b) & mask
        while ranks[i] != _EMPTY:
            i = (i + 1) & mask
        offs[i] = len(blob)
        ranks[i] = rank
        blob.append(len(b))
        blob += b
    head = MAGIC + struct.pack("<II", size, len(blob))
    data = head + struct.pack(f"<{size}I", *offs) + struct.pack(f"<{size}I", *ranks) + bytes(blob)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


class Table:
    """The mmapped rank table: `rank(b)` is the token id of the bytes `b`, or None."""

    def __init__(self, path: Path) -> None:
        with open(path, "rb") as fh:
            self._mm = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        mm = self._mm
        if mm[:8] != MAGIC:
            raise ValueError("not a token table")
        size, _ = struct.unpack_from("<II", mm, 8)
        view = memoryview(mm)
        self._offs = view[16 : 16 + 4 * size].cast("I")
        self._ranks = view[16 + 4 * size : 16 + 8 * size].cast("I")
        self._blob = view[16 + 8 * size :]
        self._mask = size - 1

    def rank(self, b: bytes) -> int | None:
        mask, offs, ranks, blob = self._mask, self._offs, self._ranks, self._blob
        n = len(b)
        i = zlib.crc32(b) & mask
        while True:
            r = ranks[i]
            if r == _EMPTY:
                return None
            o = offs[i]
            if blob[o] == n and blob[o + 1 : o + 1 + n] == b:
                return int(r)
            i = (i + 1) & mask

    def piece_count(self, piece: bytes) -> int:
        """Tokens of one pre-tokenized piece: byte-pair merges by lowest rank, leftmost first."""
        if len(piece) == 1 or self.rank(piece) is not None:
            return 1
        rank = self.rank
        bounds = list(range(len(piece) + 1))
        pair = [rank(piece[i : i + 2]) for i in range(len(piece) - 1)]
        big = 1 << 40
        ranks = [big if r is None else r for r in pair]
        while len(ranks) > 0:
            best = min(ranks)
            if best == big:
                break
            i = ranks.index(best)
            del bounds[i + 1]
            del ranks[i]
            if i < len(ranks):
                nxt = bounds[i + 2] if i + 2 < len(bounds) else None
                r = rank(piece[bounds[i] : nxt]) if nxt is not None else None
                ranks[i] = big if r is None else r
            if i > 0:
                r = rank(piece[bounds[i - 1] : bounds[i + 1]])
                ranks[i - 1] = big if r is None else r
        return len(bounds) - 1

    def count(self, text: str) -> int:
        """Exact token count of an ASCII `text`."""
        total = 0
        memo = _memo
        for m in _PIECE.finditer(text):
            p = m.group()
            n = memo.get(p)
            if n is None:
                n = self.piece_count(p.encode("ascii"))
                if len(memo) < 100_000:
                    memo[p] = n
            total += n
        return total


_memo: dict[str, int] = {}


@lru_cache(maxsize=1)
def table() -> Table | None:
    """The cached table, or None when it has not been written yet (or is unreadable)."""
    try:
        return Table(cache_path())
    except (OSError, ValueError):
        return None
