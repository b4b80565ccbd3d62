"""Recall and false-positive rate of the PII gate per class, on the labelled set
`tests/privacy/data/pii_cases.json` (used by tests/privacy/test_pii_cases.py and the bench)."""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lorekeeper.privacy.pii import Finding, find_pii

CASES = Path(__file__).resolve().parents[1] / "privacy" / "data" / "pii_cases.json"


def load_cases() -> list[dict[str, Any]]:
    return list(json.loads(CASES.read_text(encoding="utf-8"))["cases"])


def span(case: dict[str, Any]) -> tuple[int, int]:
    start = case["text"].index(case["value"])
    return start, start + len(case["value"])


def hit(case: dict[str, Any], findings: list[Finding]) -> bool:
    """A finding of the case's class that covers the whole labelled value, in the text's own
    positions (zero-width and full-width characters included: the mapping back is checked too)."""
    start, end = span(case)
    return any(f.kind == case["kind"] and f.start <= start and end <= f.end for f in findings)


def value_tokens(value: str) -> set[str]:
    """The folded words (3 letters or more) of a labelled value: what the abstract must not keep."""
    text = "".join(c for c in unicodedata.normalize("NFKC", value) if unicodedata.category(c) != "Cf")
    out = set()
    for w in re.findall(r"[^\W\d_]+", text):
        folded = "".join(c for c in unicodedata.normalize("NFKD", w.casefold()) if not unicodedata.combining(c))
        if len(folded) >= 3:
            out.add(folded)
    return out


@dataclass
class Scores:
    positives: dict[str, int] = field(default_factory=dict)
    hits: dict[str, int] = field(default_factory=dict)
    missed: dict[str, list[str]] = field(default_factory=dict)
    clean: dict[str, int] = field(default_factory=dict)  # clean texts per language
    false_positives: dict[str, list[str]] = field(default_factory=dict)  # class -> ids of clean cases
    fp_by_lang: dict[str, list[str]] = field(default_factory=dict)

    def recall(self, kind: str) -> float:
        return self.hits.get(kind, 0) / self.positives[kind]

    def fp_rate(self, kind: str) -> float:
        return len(self.false_positives.get(kind, [])) / max(1, sum(self.clean.values()))

    def table(self) -> str:
        n_clean = sum(self.clean.values())
        lines = [f"{'class':<12} {'recall':>14} {'false positives':>18}"]
        for kind in sorted(self.positives):
            fp = len(self.false_positives.get(kind, []))
            lines.append(
                f"{kind:<12} {self.hits.get(kind, 0):>4}/{self.positives[kind]:<3} {self.recall(kind):6.1%}"
                f" {fp:>4}/{n_clean:<3} {self.fp_rate(kind):6.1%}"
            )
        for lang in sorted(self.clean):
            lines.append(f"clean texts flagged ({lang}): {len(self.fp_by_lang.get(lang, []))}/{self.clean[lang]}")
        return "\n".join(lines)


def score(cases: list[dict[str, Any]] | None = None) -> Scores:
    out = Scores()
    for case in cases if cases is not None else load_cases():
        found = find_pii(case["text"])
        kind = case["kind"]
        if kind is None:
            out.clean[case["lang"]] = out.clean.get(case["lang"], 0) + 1
            if found:
                out.fp_by_lang.setdefault(case["lang"], []).append(case["id"])
            for k in {f.kind for f in found}:
                out.false_positives.setdefault(k, []).append(case["id"])
            continue
        out.positives[kind] = out.positives.get(kind, 0) + 1
        if hit(case, found):
            out.hits[kind] = out.hits.get(kind, 0) + 1
        else:
            out.missed.setdefault(kind, []).append(case["id"])
    return out
