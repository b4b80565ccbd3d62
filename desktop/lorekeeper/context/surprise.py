"""Predictive surprise: how informative a line is for the model's own tokenizer.

Each line is tokenized with o200k_base. Each token's rank is its measured frequency rank in source
code (`code_ranks.bin`: the 16k most frequent o200k tokens of Python, TypeScript, Rust and Go
trees, built by tests/bench/build_code_ranks.py); a token outside the table ranks after all of
them. A Zipfian prior p(r) = 1 / (r^S x H) then gives each token an expected probability, and the
line's surprise is its mean cross-entropy (bits per token) above that of the most frequent token,
scaled to 0..1 by the largest possible excess (the rarest token). Boilerplate made of common
tokens (`return Ok(());`, `use std::collections::HashMap;`) scores low; dense logic with rare
tokens (`scores[j] += heat[i] * decay / degree;`) scores high (the seed's own examples, tested).
The token id alone (the BPE merge order) was the first proxy and ranked `return Ok(());` above
that logic line: merge order follows web text, not code.
"""

from __future__ import annotations

import math
import sys
from array import array
from functools import lru_cache
from pathlib import Path

from lorekeeper.context import tokens

ZIPF_EXPONENT = 1.0  # s in p(r) ~ 1/r^s: natural-language and code token ranks follow s ~ 1
SURPRISE_THRESHOLD = 0.55  # lines below this are candidates for removal in aggressive compression


@lru_cache(maxsize=1)
def _norm() -> tuple[float, float]:
    v = tokens.vocab_size()
    top = v + len(_ranks())  # the largest rank `token_rank` can give
    harmonic = sum(1.0 / (r**ZIPF_EXPONENT) for r in range(1, top + 1))
    max_bits = math.log2(harmonic) + ZIPF_EXPONENT * math.log2(top)
    return harmonic, max_bits


@lru_cache(maxsize=1)
def _ranks() -> dict[int, int]:
    """token id -> 1-based frequency rank in code (empty when the table is missing)."""
    path = Path(__file__).with_name("code_ranks.bin")
    try:
        arr = array("I", path.read_bytes())
    except OSError:
        return {}
    if sys.byteorder != "little":
        arr.byteswap()
    return {tid: r for r, tid in enumerate(arr, start=1)}


def token_rank(token_id: int) -> int:
    """Frequency rank of a token in code; one outside the table ranks after it (by id)."""
    ranks = _ranks()
    r = ranks.get(token_id)
    return r if r is not None else len(ranks) + token_id + 1


def token_bits(token_id: int) -> float:
    """-log2 p(rank) for a token (its measured rank in code)."""
    harmonic, _ = _norm()
    return math.log2(harmonic) + ZIPF_EXPONENT * math.log2(token_rank(token_id))


def line_surprise(line: str) -> float:
    """Mean Zipfian cross-entropy of the line's tokens, scaled to 0..1 (0 for a blank line)."""
    stripped = line.strip()
    if not stripped:
        return 0.0
    ids = tokens.encode(stripped)
    harmonic, max_bits = _norm()
    floor = math.log2(harmonic)  # bits of the most frequent token (rank 1)
    return (sum(token_bits(i) for i in ids) / len(ids) - floor) / (max_bits - floor)


def surprises(text: str) -> list[float]:
    return [line_surprise(line) for line in text.splitlines()]


def boilerplate_lines(text: str, threshold: float = SURPRISE_THRESHOLD) -> list[int]:
    """0-based indices of the non-blank lines whose surprise is below `threshold`."""
    return [i for i, line in enumerate(text.splitlines()) if line.strip() and line_surprise(line) < threshold]
