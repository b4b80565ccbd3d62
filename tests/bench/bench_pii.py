"""The PII gate's recall and false-positive rate per class on the labelled set
(tests/privacy/data/pii_cases.json, English and French), and how many no-model abstracts (what
`clarify` stores without a model, kept 18 months) still hold a word of a personal item.

Run: `python -m pytest -s tests/bench/bench_pii.py`. No timed assertion."""

from __future__ import annotations

from helpers.pii_scores import load_cases, score, value_tokens
from lorekeeper.privacy.sanitizer import deterministic_summary


def test_pii_gate_per_class() -> None:
    cases = load_cases()
    s = score(cases)
    print("\n" + s.table())
    leaks = 0
    items = [c for c in cases if c["kind"]]
    for c in items:
        summary = deterministic_summary({"problem": c["text"], "criteria": "", "constraints": "", "priorities": ""})
        kept = set(summary["problem"].removeprefix("Key terms: ").rstrip(".").split(", "))
        leaks += bool(kept & value_tokens(c["value"]))
    print(f"no-model abstracts keeping a word of the item: {leaks}/{len(items)}")
    assert s.positives
