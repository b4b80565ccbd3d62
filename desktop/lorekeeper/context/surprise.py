"""Predictive surprise: how informative a line is for the model's own tokenizer.

Each line is tokenized with o200k_base. A BPE vocabulary is built by merging frequent pairs first,
so a token's id is a good proxy for its frequency rank; a Zipfian prior p(r) = 1 / (r^S x H) then
gives each token an expected probability, and the line's surprise is its mean cross-entropy
(bits per token) above that of the most frequent token, scaled to 0..1 by the largest possible
excess (the rarest token). The id-as-rank proxy is coarse, so the scale is relative: compare
lines with each other, not with an absolute truth. Boilerplate made of common tokens
(`return Ok(());`, `import os`) scores low; dense logic with rare tokens scores high.
"""

from __future__ import annotations

import math
from functools import lru_cache

from lorekeeper.context import tokens

ZIPF_EXPONENT = 1.0  # s in p(r) ~ 1/r^s: natural-language and code token ranks follow s ~ 1
SURPRISE_THRESHOLD = 0.55  # lines below this are candidates for removal in aggressive compression


@lru_cache(maxsize=1)
def _norm() -> tuple[float, float]:
    v = tokens.vocab_size()
    harmonic = sum(1.0 / (r**ZIPF_EXPONENT) for r in range(1, v + 1))
    max_bits = math.log2(harmonic) + ZIPF_EXPONENT * math.log2(v)
    return harmonic, max_bits


def token_bits(token_id: int) -> float:
    """-log2 p(rank) for a token, rank = id + 1."""
    harmonic, _ = _norm()
    return math.log2(harmonic) + ZIPF_EXPONENT * math.log2(token_id + 1)


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
