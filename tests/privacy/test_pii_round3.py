"""The PII gate on a second, held-out labelled set (issue 24 item 7, judged from outside):
`data/pii_cases_round3.json` was written before the gate was run on it — 68 disguised items that
are not in `pii_cases.json` (spelled-out "arobase"/"(at)"/"[dot]" forms, e-mails inside URLs,
mailto: and %40, phone numbers with dots, dashes and spaces, IBANs with and without spaces,
French NIR, UK NI, SSN, titles M./Mme/Mlle/Dr/Mr/Mrs/Ms/Prof before names, addresses with a
postcode and a town) and 20 clean texts. The table is printed (`-s`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from helpers.pii_scores import score

ROUND3 = Path(__file__).parent / "data" / "pii_cases_round3.json"
RECALL_FLOOR = 0.95


def _cases() -> list[dict[str, Any]]:
    return list(json.loads(ROUND3.read_text(encoding="utf-8"))["cases"])


def test_the_round3_set_is_new_and_bilingual() -> None:
    from helpers.pii_scores import load_cases

    old = {c["value"] for c in load_cases() if c["kind"]} | {c["text"] for c in load_cases()}
    cases = _cases()
    assert sum(c["kind"] is not None for c in cases) >= 60
    assert {c["lang"] for c in cases if c["kind"]} == {"en", "fr"}
    assert [c["id"] for c in cases if c["value"] in old or c["text"] in old] == []
    for c in cases:
        assert c["kind"] is None or c["value"] in c["text"], c["id"]


def test_recall_per_class_and_false_positives_on_the_round3_set() -> None:
    s = score(_cases())
    print("\n" + s.table())
    low = {k: (round(s.recall(k), 3), s.missed.get(k)) for k in s.positives if s.recall(k) < RECALL_FLOOR}
    assert not low, f"recall under {RECALL_FLOOR:.0%}: {low}\n{s.table()}"
    flagged = sorted({i for ids in s.false_positives.values() for i in ids})
    assert len(flagged) <= 1, (s.false_positives, s.table())  # "Dr. Frankenstein" (a tool) may read as a name


def test_the_no_model_abstract_keeps_no_token_of_a_round3_item() -> None:
    """What `clarify` stores without a model holds no word of any item of the held-out set."""
    from helpers.pii_scores import value_tokens
    from lorekeeper.privacy.pii import find_pii
    from lorekeeper.privacy.sanitizer import deterministic_summary

    leaks = []
    for case in _cases():
        if case["kind"] is None:
            continue
        answers = {"problem": case["text"], "criteria": "", "constraints": "", "priorities": ""}
        summary = deterministic_summary(answers)["problem"]
        kept = set(summary.removeprefix("Key terms: ").rstrip(".").split(", "))
        if kept & value_tokens(case["value"]) or find_pii(summary):
            leaks.append((case["id"], sorted(kept & value_tokens(case["value"]))))
    assert not leaks, leaks
