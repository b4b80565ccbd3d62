"""The deterministic PII gate: what it must refuse and what it must let through."""

from __future__ import annotations

import json

import pytest

from helpers.cli import run_lorekeeper
from lorekeeper.privacy.pii import PiiDetectedError, check_text, find_pii
from lorekeeper.privacy.retention import expired, retention_until

PII = [
    ("email", "Ask jean.dupont@example.com for the export"),
    ("phone", "Call +33 6 12 34 56 78 before noon"),
    ("phone", "le numéro 06 12 34 56 78"),
    ("phone", "phone (415) 555-2671"),
    ("phone", "Ruf 030 12345678 an"),
    ("iban", "IBAN FR76 3000 6000 0112 3456 7890 189"),
    ("iban", "pay DE89370400440532013000"),
    ("card", "card 4111 1111 1111 1111"),
    ("card", "amex 378282246310005"),
    ("national_id", "NIR 185057800608491"),
    ("national_id", "SSN 123-45-6789"),
    ("national_id", "DNI 12345678Z"),
    ("national_id", "NINO AB123456C"),
    ("national_id", "PESEL 44051401359"),
    ("national_id", "codice RSSMRA85T10A562S"),
    ("address", "lives at 12 rue des Lilas"),
    ("address", "office at 221B Baker Street"),
    ("address", "Hauptstraße 5 in Berlin"),
    ("address", "ship to 75011 Paris"),
    ("address", "Springfield, IL 62704"),
    ("email", "mail jean [at] example [dot] com"),
    ("phone", "call 555-123-4567"),  # fictional 555 numbers: invalid in the numbering plan, still a phone
    ("phone", "+1 555 123 4567"),
    ("phone", "0044 20 7946 0958"),
    ("phone", "06.12.34.56.78"),
    ("address", "1 Infinite Loop, Cupertino"),
    ("address", "Calle Mayor 5, Madrid"),
    ("address", "Via Roma 12"),
]
CLEAN = [
    "Reduce latency to under 200 ms for 95% of requests",
    "The export must handle 50000 rows in 2026",
    "Version 2.4.1 ships on 2026-04-11 with 3 fixes",
    "Support 10000 Users concurrently; budget 12000 euros for Q3",
    "Sprint 42 closes ticket PD-1234; order id 123456789 must be idempotent",
    "Use SHA-256 over 32 bytes and keep summaries 18 months",
    "deadline 2026-12-01 at 14:05, throughput 1500000 events per day",
    "Must-have: SSO through the identity provider; place the login button first",
    "Commit 5c7ed62 fixed the 404 on /api/embed; P95 below 1200 ms with 64 workers",
    "sent via Slack 2 times; use port 8080 and 5432",
    "UUID 550e8400-e29b-41d4-a716-446655440000, ISBN 978-3-16-148410-0, timestamp 1733011200",
    "build 123-456-7890 id; ticket 1234-5678 closed; Q4 target: 20 000 orders per day",
]


@pytest.mark.parametrize(("kind", "text"), PII)
def test_personal_data_is_found(kind: str, text: str) -> None:
    assert kind in {f.kind for f in find_pii(text)}
    with pytest.raises(PiiDetectedError) as err:
        check_text(text)
    assert err.value.code == "ERR_PII_DETECTED"


@pytest.mark.parametrize("text", CLEAN)
def test_clean_summaries_pass(text: str) -> None:
    assert find_pii(text) == []


def test_privacy_check_command(tmp_path) -> None:
    ok = run_lorekeeper("privacy", "check", "--json", input="Export invoices nightly.")
    assert ok.returncode == 0 and json.loads(ok.stdout) == {"pii": False, "findings": []}
    bad = run_lorekeeper("privacy", "check", "--json", input="mail me at a@b.io")
    assert bad.returncode == 2 and json.loads(bad.stdout)["error"]["code"] == "ERR_PII_DETECTED"
    assert "a@b.io" not in bad.stderr


def test_retention_is_18_months_and_strict() -> None:
    from datetime import date

    assert retention_until(date(2026, 4, 11)) == date(2027, 10, 11)
    assert retention_until(date(2026, 8, 31)) == date(2028, 2, 29)
    assert not expired(date(2027, 10, 11), date(2027, 10, 11))
    assert expired(date(2027, 10, 11), date(2027, 10, 12))


def test_deterministic_sanitizer_keeps_no_phrase() -> None:
    from lorekeeper.privacy.sanitizer import deterministic_summary

    text = "Mme Martin wants the purple giraffe export at 12 rue des Lilas; call 06 12 34 56 78. CSV first."
    out = deterministic_summary({"problem": text, "criteria": "", "constraints": "", "priorities": ""})
    assert out["problem"].startswith("Key terms: ")
    assert "purple giraffe" not in out["problem"] and "Martin" not in out["problem"] and "Lilas" not in out["problem"]
    assert "csv" in out["problem"] and find_pii(out["problem"]) == []
    assert out["criteria"] == "Nothing stated."
