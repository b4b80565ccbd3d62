"""Issue 28 d5: the Vault head witness goes through the provider's public KV methods (`read_kv`,
`write_kv` with check-and-set), against a real OpenBao dev server."""

from __future__ import annotations

import json
import uuid

from audit_helpers import BaoServer

from lorekeeper.audit.providers import KVSecret, VaultProvider
from lorekeeper.audit.witness import VaultWitness


def _provider(bao: BaoServer) -> VaultProvider:
    return VaultProvider(bao.addr, "kv", f"lk-kv/{uuid.uuid4().hex}", token=bao.token)


def test_write_kv_with_a_stale_version_is_refused_and_overwrites_nothing(bao: BaoServer):
    vault = _provider(bao)
    where = f"{vault.path}/probe"
    assert vault.read_kv(where) is None
    assert vault.write_kv(where, {"a": "1"}, cas=0) == 1
    assert vault.write_kv(where, {"b": "2"}, cas=0) is None  # another writer got there first
    assert vault.read_kv(where) == KVSecret({"a": "1"}, 1)
    assert vault.write_kv(where, {"a": "1", "b": "2"}, cas=1) == 2
    assert vault.read_kv(where) == KVSecret({"a": "1", "b": "2"}, 2)


def test_two_workspaces_writing_their_heads_at_once_both_keep_them(bao: BaoServer):
    vault = _provider(bao)
    first, second = VaultWitness(vault, "w1"), VaultWitness(vault, "w2")
    first.write({"epoch": 1})
    real_read = vault.read_kv
    raced: list[int] = []

    def read_then_lose_the_race(path: str) -> KVSecret | None:
        secret = real_read(path)
        if not raced:  # between this read and its write, the other workspace writes its head
            raced.append(1)
            first.write({"epoch": 2})
        return secret

    vault.read_kv = read_then_lose_the_race  # type: ignore[method-assign]
    second.write({"epoch": 7})
    vault.read_kv = real_read  # type: ignore[method-assign]

    assert raced == [1]
    assert first.read() == {"epoch": 2} and second.read() == {"epoch": 7}  # merged, nothing lost
    stored = bao.client().secrets.kv.v2.read_secret_version(
        path=first.path, mount_point="kv", raise_on_deleted_version=True
    )
    assert {k: json.loads(v) for k, v in stored["data"]["data"].items()} == {"w1": {"epoch": 2}, "w2": {"epoch": 7}}
    assert stored["data"]["metadata"]["version"] == 3  # w1, w1 again, then w2's retry on top
