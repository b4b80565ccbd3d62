"""Issue 24 (5), judged from outside: with the key unavailable or the chain broken, a writing
command leaves the database *file* and every workspace file byte for byte the same (the matrix in
`test_fail_closed_matrix.py` compares the rows SQLite dumps; this one hashes the bytes, the
database's -wal/-shm files included, after the in-process command has closed its connections)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from test_fail_closed_matrix import (  # noqa: F401
    ANSWERS,
    CLARIFY,
    KEYLESS_ONLY,
    WRITING,
    Broken,
    Prepared,
    _args,
    _lk,
    prepared,
)


def _bytes(root: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_file() and not rel.startswith("locks/") and not path.name.endswith(".kept"):
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


COMMANDS = [*WRITING, "clarify"]


@pytest.mark.parametrize("mode", ["failing backend", "broken chain"])
def test_every_writing_command_leaves_the_files_byte_identical(prepared: Prepared, mode: str) -> None:  # noqa: F811
    changed: dict[str, list[str]] = {}
    codes: dict[str, int] = {}
    commands = [*COMMANDS, *KEYLESS_ONLY] if mode == "failing backend" else COMMANDS
    for command in commands:
        args = _args(prepared, CLARIFY if command == "clarify" else {**WRITING, **KEYLESS_ONLY}[command])
        with Broken(mode, prepared.root) as broken:
            before = _bytes(prepared.root)
            r = _lk(prepared.root, *args, env=broken.env, input=ANSWERS if command == "clarify" else None)
            after = _bytes(prepared.root)
        code = "ERR_AUDIT_KEY_UNAVAILABLE" if mode == "failing backend" else "ERR_AUDIT_CHAIN_BROKEN"
        if r.returncode != 4 or "Traceback" in r.stderr or code not in r.stdout + r.stderr:
            codes[command] = r.returncode
        diff = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
        if diff:
            changed[command] = diff
    assert codes == {} and changed == {}, (codes, changed)
