"""Issue 31 item 2: the README's exit-code table names every error code the code raises, in the
row of the exit code a script gets for it; the eval result codes (a rule's result, exit 0) are
named beside it. A code added to the source without its line in the table fails here."""

from __future__ import annotations

import re
from pathlib import Path

from lorekeeper.errors import LorekeeperError

ROOT = Path(__file__).resolve().parents[2]
#: codes of a rule's result in `eval --json`, never a command's error
EVAL_RESULT_CODES = {"ERR_REGEX_TIMEOUT", "ERR_JSON_TOO_DEEP", "ERR_SCHEMA_UNAPPLIED"}


def _source_codes() -> set[str]:
    codes: set[str] = set()
    for path in (ROOT / "desktop" / "lorekeeper").rglob("*.py"):
        codes |= set(re.findall(r"[\"'](ERR_[A-Z0-9_]+)[\"']", path.read_text(encoding="utf-8")))
    return codes


def _table() -> tuple[dict[int, str], str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("Exit codes scripts can rely on:", 1)[1].split("\n## ", 1)[0]
    rows = {int(m.group(1)): m.group(2) for m in re.finditer(r"^\| (\d+) \|(.*)$", section, re.M)}
    return rows, section


def test_every_error_code_is_in_the_row_of_its_exit_code() -> None:
    rows, section = _table()
    codes = _source_codes()
    assert {"ERR_UNSIGNED_ENTRY", "ERR_AUDIT_CHAIN_BROKEN", "ERR_PII_DETECTED"} <= codes
    missing = []
    for code in sorted(codes - EVAL_RESULT_CODES):
        rc = LorekeeperError("x", code=code).exit_code
        if not re.search(rf"\b{code}\b", rows.get(rc, "")):
            missing.append(f"{code} (exit {rc})")
    assert not missing, "not in the README's exit-code table: " + ", ".join(missing)
    for code in EVAL_RESULT_CODES:
        assert code in codes and code in section, code
