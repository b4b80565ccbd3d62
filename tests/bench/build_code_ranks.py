"""Build desktop/lorekeeper/context/code_ranks.bin: o200k token ids ordered by their frequency in
source code (the most frequent first), which `context.surprise` uses as the token ranks.

Run: `python tests/bench/build_code_ranks.py OUT DIR...` with source trees (the table shipped was
built from click, SQLAlchemy lib/, zod packages/zod/src, ripgrep and cobra: Python, TypeScript,
Rust and Go, 2.9M tokens of stripped lines). Only the RANKS_KEPT most frequent ids are stored (uint32, little-endian).
"""

from __future__ import annotations

import sys
from array import array
from collections import Counter
from pathlib import Path

from lorekeeper.context import tokens
from lorekeeper.context.scan import scan

RANKS_KEPT = 16384


def main(out: str, roots: list[str]) -> None:
    counts: Counter[int] = Counter()
    for root in roots:
        sources, _ = scan(Path(root))
        for src in sources:
            if src.rel.endswith((".py", ".ts", ".tsx", ".rs", ".go", ".js")):
                for line in src.text.splitlines():
                    if line.strip():
                        counts.update(tokens.encode(line.strip()))
    ranked = [tid for tid, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))][:RANKS_KEPT]
    arr = array("I", ranked)
    if sys.byteorder != "little":
        arr.byteswap()
    Path(out).write_bytes(arr.tobytes())
    print(f"{len(ranked)} ranks from {sum(counts.values()):,} tokens -> {out}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
