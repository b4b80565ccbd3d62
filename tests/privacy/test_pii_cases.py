"""The PII gate on its labelled set (issue 24 item 7): 175 disguised items in English and French
(spelled-out @ and dots, full-width forms, zero-width spaces, upper case, titles with names, UK NI
numbers, dates of birth, IP addresses...) and 101 clean texts chosen to tempt it (version numbers,
loopback addresses, dates that are not birth dates, "Dr." in a product name, MS Teams...).

Floors: every class's recall is at least RECALL_FLOOR, each class fires on at most FP_FLOOR of the
clean texts, and at most one clean text per language is flagged. The table is printed (`-s`)."""

from __future__ import annotations

from helpers.pii_scores import load_cases, score, value_tokens
from lorekeeper.privacy.pii import find_pii
from lorekeeper.privacy.sanitizer import deterministic_summary

RECALL_FLOOR = 0.95
FP_FLOOR = 0.02  # of the 101 clean texts: at most 1 per class


def test_the_labelled_set_is_large_and_bilingual() -> None:
    cases = load_cases()
    assert len(cases) >= 150
    assert {c["lang"] for c in cases if c["kind"]} == {"en", "fr"}
    assert sum(c["kind"] is None and c["lang"] == "fr" for c in cases) >= 30
    assert sum(c["kind"] is None and c["lang"] == "en" for c in cases) >= 30
    for c in cases:
        assert c["kind"] is None or c["value"] in c["text"], c["id"]


def test_recall_and_false_positives_per_class() -> None:
    s = score()
    print("\n" + s.table())
    low = {k: (round(s.recall(k), 3), s.missed.get(k)) for k in s.positives if s.recall(k) < RECALL_FLOOR}
    assert not low, f"recall under {RECALL_FLOOR:.0%}: {low}\n{s.table()}"
    noisy = {k: ids for k, ids in s.false_positives.items() if s.fp_rate(k) > FP_FLOOR}
    assert not noisy, f"false positives over {FP_FLOOR:.0%}: {noisy}\n{s.table()}"
    assert all(len(ids) <= 1 for ids in s.fp_by_lang.values()), s.fp_by_lang


def test_the_no_model_abstract_keeps_no_token_of_a_detected_item() -> None:
    """What `clarify` stores without a model (kept 18 months) holds no word of any personal item,
    even when the item's words come back elsewhere in the answer, and passes the gate."""
    leaks = []
    for case in load_cases():
        if case["kind"] is None:
            continue
        text = f"{case['text']}. Later {case['value'].split()[-1].lower()} asked again for the CSV export."
        summary = deterministic_summary({"problem": text, "criteria": "", "constraints": "", "priorities": ""})
        kept = set(summary["problem"].removeprefix("Key terms: ").rstrip(".").split(", "))
        if kept & value_tokens(case["value"]) or find_pii(summary["problem"]):
            leaks.append((case["id"], sorted(kept & value_tokens(case["value"]))))
        assert summary["problem"].startswith("Key terms: "), (case["id"], summary)
    assert not leaks, f"{len(leaks)} abstracts keep a personal token: {leaks}"


def test_the_abstract_drops_untitled_names_at_a_sentence_start_and_in_capitals() -> None:
    """A capitalised first word or a sentence in capitals may be a name the gate cannot see:
    the abstract keeps such a word only when the answer also uses it in lower case."""
    answers = {
        "problem": "Marie wants the nightly export of invoices. JEAN DUPONT WANTS IT TOO. Export runs nightly.",
        "criteria": "",
        "constraints": "",
        "priorities": "",
    }
    kept = deterministic_summary(answers)["problem"]
    assert "marie" not in kept and "jean" not in kept and "dupont" not in kept
    assert "export" in kept and "nightly" in kept and "invoices" in kept


def test_clarify_without_a_model_stores_no_token_of_the_items(workspace) -> None:
    """End to end: `clarify` with the deterministic sanitizer; neither the stored row nor the
    markdown file (kept 18 months) holds a word of any disguised item of the answers."""
    import json
    import re
    from pathlib import Path

    from helpers.cli import run_lorekeeper

    items = [c for c in load_cases() if c["kind"]][::6]  # 26 items of every class, both languages
    sections = [items[i::4] for i in range(4)]
    answers = "\n---\n".join(". ".join(c["value"] for c in sec) + "." for sec in sections) + "\n"
    out = run_lorekeeper(
        "clarify",
        "PD-90",
        "--domain",
        "billing",
        "--project",
        "backend",
        "--yes",
        "--json",
        "--workspace",
        str(workspace.root),
        input=answers,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    stored = Path(json.loads(out.stdout)["written"]).read_text(encoding="utf-8").casefold()
    row = json.dumps(workspace.clarifications.get("PD-90").summary).casefold()
    for case in items:
        for token in value_tokens(case["value"]):
            for blob in (stored, row):
                assert not re.search(rf"\b{re.escape(token)}\b", blob), (case["id"], token)


def test_a_word_of_an_item_is_dropped_from_every_section() -> None:
    answers = {
        "problem": "Mme Martin wants the ledger export.",
        "criteria": "the export matches what martin checks by hand",
        "constraints": "reach jean.dupont at example dot fr; dupont approves the export",
        "priorities": "ledger export for dupont and martin first",
    }
    out = deterministic_summary(answers)
    assert not any(w in text for text in out.values() for w in ("martin", "dupont", "jean", "example"))
    assert all("export" in text for text in out.values())
