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
        payload = re.search(r"Payload:\s+```json\n(.*?)```", section, re.DOTALL).group(1)
        canonical = re.search(r"Canonical:\s+```text\n(.*?)\n```", section, re.DOTALL).group(1)
        signature = re.search(r"Signature: `([0-9a-f]{64})`", section).group(1)
        out.append(
            {"name": section.split()[0], "key": key, "payload": payload, "canonical": canonical, "signature": signature}
        )
    return out


def test_the_docs_publish_at_least_three_vectors():
    assert len(_doc_vectors()) >= 3


@pytest.mark.parametrize("vector", _doc_vectors(), ids=lambda v: v["name"])
def test_published_vector_matches(vector):
    from lorekeeper.audit.jcs import canonical_text, loads

    payload = loads(vector["payload"])
    body = {k: v for k, v in payload.items() if k != "sig"}
    assert canonical_text(body) == vector["canonical"]
    assert sign_with(bytes.fromhex(vector["key"]), payload) == vector["signature"]


@pytest.mark.parametrize("vector", _doc_vectors()[:2], ids=lambda v: v["name"])
def test_cli_sign_reproduces_published_vector(vector, tmp_path: Path):
    f = tmp_path / "payload.json"
    f.write_text(vector["payload"], encoding="utf-8")
    r = run_cli("audit", "sign", "--test-key", vector["key"], str(f), "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"canonical": vector["canonical"], "signature": vector["signature"]}


def test_cli_sign_rejects_duplicate_keys_and_bad_keys(tmp_path: Path):
    f = tmp_path / "dup.json"
    f.write_text('{"a": 1, "a": 2}', encoding="utf-8")
    r = run_cli("audit", "sign", "--test-key", "00" * 32, str(f), "--json")
    assert r.returncode == 2 and "duplicate key" in r.stdout
    r = run_cli("audit", "sign", "--test-key", "00" * 16, str(f))
    assert r.returncode == 4 and "ERR_AUDIT_KEY_INVALID" in r.stderr
