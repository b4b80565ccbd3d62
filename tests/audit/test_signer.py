"""Signing round trips, key versions, invalid keys, and the published test vectors (doc + CLI)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from audit_helpers import run_cli

from lorekeeper.audit.errors import AuditKeyInvalidError
from lorekeeper.audit.signer import Signer, parse_key_hex, sign_with

KEY1 = bytes(range(32))
KEY2 = bytes(range(32, 64))
DOC = Path(__file__).resolve().parents[2] / "desktop" / "lorekeeper" / "audit" / "TEST_VECTORS.md"


def test_sign_then_verify_round_trip_and_key_version():
    s = Signer(KEY1, 1)
    signed = s.sign({"type": "x", "n": 1, "sig": "ignored"})
    assert signed["key_version"] == 1 and re.fullmatch(r"[0-9a-f]{64}", signed["sig"])
    assert s.verify(signed)
    # the order of keys in the object does not matter: the canonical form sorts them
    assert s.verify(dict(reversed(list(signed.items()))))


@pytest.mark.parametrize(
    "change",
    [
        lambda o: o.__setitem__("n", 2),
        lambda o: o.__setitem__("extra", True),
        lambda o: o.pop("type"),
        lambda o: o.__setitem__("key_version", 2),
    ],
)
def test_any_change_breaks_the_signature(change):
    s = Signer(KEY1, 1, key_lookup=lambda v: KEY2)
    signed = s.sign({"type": "x", "n": 1})
    change(signed)
    assert not s.verify(signed)


def test_unsigned_and_unknown_versions_are_reported_as_such():
    s = Signer(KEY1, 1)
    assert s.verify({"a": 1}).reason == "unsigned"
    other = Signer(KEY2, 7).sign({"a": 1})
    assert s.verify(other).reason == "unknown_key_version"


def test_old_versions_verify_with_their_own_key():
    old = Signer(KEY1, 1).sign({"a": 1})
    current = Signer(KEY2, 2, key_lookup={1: KEY1}.__getitem__)
    assert current.verify(old)
    assert current.verify(current.sign({"a": 1}))


@pytest.mark.parametrize("bad", ["", "abc", "z" * 64, "00" * 31, "00" * 33, None])
def test_keys_other_than_64_hex_are_invalid(bad):
    with pytest.raises(AuditKeyInvalidError) as exc:
        parse_key_hex(bad)
    assert exc.value.code == "ERR_AUDIT_KEY_INVALID"


def _doc_vectors() -> list[dict[str, str]]:
    text = DOC.read_text(encoding="utf-8")
    key = re.search(r"Test key: `([0-9a-f]{64})`", text).group(1)
    out = []
    for section in re.split(r"\n## ", text)[1:]:
        event = re.search(r"Event line.*?```json\n(.*?)```", section, re.DOTALL).group(1)
        content = re.search(r"Content \(canonical.*?```text\n(.*?)\n```", section, re.DOTALL).group(1)
        header = re.search(r"Signed header \(canonical\):\s+```text\n(.*?)\n```", section, re.DOTALL).group(1)
        signature = re.search(r"Signature: `([0-9a-f]{64})`", section).group(1)
        out.append(
            {
                "name": section.split()[0],
                "key": key,
                "event": event,
                "content": content,
                "header": header,
                "signature": signature,
            }
        )
    return out


def test_the_docs_publish_the_four_seed_vectors_as_one_chain():
    from lorekeeper.audit.jcs import loads

    vectors = _doc_vectors()
    assert [v["name"] for v in vectors] == ["V1", "V4", "V6", "V8"]
    events = [loads(v["event"]) for v in vectors]
    assert [e["seq"] for e in events] == [1, 2, 3, 4]
    assert [e["prev"] for e in events] == ["", *(e["sig"] for e in events[:-1])]
    for e in events:
        if e["type"] == "memory_injected":  # the seed's count triple, as story start writes it
            assert {"count_configured", "count_effective", "under_corpus"} <= set(e["content"]["data"])


@pytest.mark.parametrize("vector", _doc_vectors(), ids=lambda v: v["name"])
def test_published_vector_matches(vector):
    from lorekeeper.audit.jcs import canonical_text, loads
    from lorekeeper.audit.log import content_hash, event_header

    event = loads(vector["event"])
    assert canonical_text(event["content"]) == vector["content"]
    assert content_hash(event["content"]) == event["content_sha256"]
    header = {k: v for k, v in event_header(event).items() if k != "sig"}
    assert canonical_text(header) == vector["header"]
    assert sign_with(bytes.fromhex(vector["key"]), header) == vector["signature"] == event["sig"]


def test_the_vectors_have_the_layout_the_live_log_writes(workspace):
    """Issue 31 item 9: the same fields as a line the log writes today (no "schema v3" layout)."""
    from lorekeeper.audit.jcs import loads

    ws = workspace
    ws.audit.log.append("vector_layout_probe", {"n": 1})
    live = loads(sorted((ws.root / "sessions").glob("*.jsonl"))[-1].read_text(encoding="utf-8").splitlines()[-1])
    for vector in _doc_vectors():
        event = loads(vector["event"])
        assert set(event) == set(live) and set(event["content"]) == set(live["content"]), vector["name"]
        assert event["v"] == live["v"]


@pytest.mark.parametrize("vector", _doc_vectors()[:2], ids=lambda v: v["name"])
def test_cli_sign_reproduces_published_vector(vector, tmp_path: Path):
    f = tmp_path / "event.json"
    f.write_text(vector["event"], encoding="utf-8")
    r = run_cli("audit", "sign", "--test-key", vector["key"], str(f), "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"canonical": vector["header"], "signature": vector["signature"]}


def test_cli_sign_refuses_an_event_whose_content_was_edited(tmp_path: Path):
    vector = _doc_vectors()[0]
    f = tmp_path / "event.json"
    f.write_text(vector["event"].replace('"backend"', '"frontend"'), encoding="utf-8")
    r = run_cli("audit", "sign", "--test-key", vector["key"], str(f), "--json")
    assert r.returncode == 2 and "content_sha256" in r.stdout


def test_cli_sign_rejects_duplicate_keys_and_bad_keys(tmp_path: Path):
    f = tmp_path / "dup.json"
    f.write_text('{"a": 1, "a": 2}', encoding="utf-8")
    r = run_cli("audit", "sign", "--test-key", "00" * 32, str(f), "--json")
    assert r.returncode == 2 and "duplicate key" in r.stdout
    r = run_cli("audit", "sign", "--test-key", "00" * 16, str(f))
    assert r.returncode == 4 and "ERR_AUDIT_KEY_INVALID" in r.stderr
