"""Eval edge cases as a user meets them through the CLI: catastrophic regexes answer (the issue's
bound is 5 s; the subprocess timeout is generous so a loaded machine does not flake), deep nesting
and invalid UTF-8 give coded errors or failed rules, never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from helpers import forkcli


def lk(*args: str, stdin: bytes | None = None, timeout: float = 120) -> subprocess.CompletedProcess[bytes]:
    """`lorekeeper ARGS` in its own process (forked warm: tests/helpers/forkcli.py), output as bytes."""
    env = {k: v for k, v in os.environ.items() if k != "LOREKEEPER_REGEX_TIMEOUT"}
    return forkcli.run(*args, input=stdin, env=env, text=False, timeout=timeout)


def rules_file(tmp_path: Path, *rules: dict) -> Path:
    f = tmp_path / "r.evals.json"
    f.write_text(json.dumps({"version": 1, "rules": list(rules)}), encoding="utf-8")
    return f


@pytest.mark.parametrize(
    ("pattern", "text", "times_out"),
    [
        (r"^(a+)+$", "a" * 10_000 + "!", False),  # `regex` defuses this one: a correct answer, or the limit
        (r"(\w+\s?)*$", "lorem ipsum dolor sit amet " * 2_000 + "!", True),
    ],
)
def test_catastrophic_regex_answers_with_a_failed_rule(
    tmp_path: Path, pattern: str, text: str, times_out: bool
) -> None:
    f = rules_file(tmp_path, {"id": "cat-1", "type": "regex_match", "pattern": pattern, "severity": "warning"})
    start = time.monotonic()
    r = lk("eval", "--rules", str(f), "--response", "-", "--json", stdin=text.encode(), timeout=30)
    elapsed = time.monotonic() - start
    print(f"catastrophic {pattern!r}: answered in {elapsed:.2f} s")
    assert r.returncode == 0, r.stderr  # evals never block
    out = json.loads(r.stdout)
    assert out["passed"] is False
    reason = out["results"][0].get("reason", "")
    assert reason == "regex timed out after 0.5 s" if times_out else reason in ("", "regex timed out after 0.5 s")
    assert "nests quantifiers" in out["warnings"][0]
    assert b"Traceback" not in r.stderr
    strict = lk("eval", "--rules", str(f), "--response", "-", "--strict", stdin=text.encode(), timeout=30)
    assert strict.returncode == 1  # --strict: a failed warning rule exits 1


def test_deeply_nested_json_fails_the_rule_without_a_traceback(tmp_path: Path) -> None:
    f = rules_file(tmp_path, {"id": "js", "type": "is_json", "severity": "warning"})
    r = lk("eval", "--rules", str(f), "--response", "-", "--json", stdin=b"[" * 1000)
    assert r.returncode == 0 and b"Traceback" not in r.stderr
    out = json.loads(r.stdout)
    assert out["passed"] is False and "nested too deeply" in out["results"][0]["reason"]


def test_invalid_utf8_response_names_the_file_and_offset(tmp_path: Path) -> None:
    f = rules_file(tmp_path, {"id": "c", "type": "string_contains", "value": "x", "severity": "info"})
    resp = tmp_path / "answer.txt"
    resp.write_bytes(b"caf\xc3\xa9 ok \xff\xfe tail")
    r = lk("eval", "--rules", str(f), "--response", str(resp))
    assert r.returncode == 2 and b"Traceback" not in r.stderr
    err = r.stderr.decode()
    assert "ERR_INVALID_INPUT" in err and str(resp) in err and "byte offset 9" in err
    rj = lk("eval", "--rules", str(f), "--response", "-", "--json", stdin=b"ok\x80")
    both = rj.stdout.decode() + rj.stderr.decode()
    assert rj.returncode == 2 and "stdin" in both and "byte offset 2" in both


def test_learn_import_from_non_utf8_stdin(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    assert lk("init", str(ws)).returncode == 0
    data = b"# Learnings\n\n- [2026-01-01T00:00:00Z] [fixit] Caf\xe9 rule\n"  # Latin-1, not UTF-8
    r = lk("learn", "import", "-", "--workspace", str(ws), stdin=data)
    assert r.returncode == 2 and b"Traceback" not in r.stderr
    err = r.stderr.decode()
    offset = data.index(b"\xe9")
    assert "ERR_INVALID_INPUT" in err and "stdin" in err and f"byte offset {offset}" in err


def test_skills_validate_warns_about_nested_quantifiers(tmp_path: Path) -> None:
    d = tmp_path / "slow-skill"
    d.mkdir()
    (d / "SKILL.md").write_text("---\nname: slow-skill\ndescription: Slow. Use when testing.\n---\nBody\n", "utf-8")
    (d / "slow-skill.evals.json").write_text(
        json.dumps({"version": 1, "rules": [{"id": "s1", "type": "regex", "value": r"^(a+)+$", "severity": "info"}]}),
        "utf-8",
    )
    r = lk("skills", "validate", str(d), "--json")
    assert r.returncode == 0, r.stderr  # a warning, not an error
    out = json.loads(r.stdout)
    assert out["valid"] is True and "rule s1" in out["warnings"][0]
    text = lk("skills", "validate", str(d))
    assert b"warning" in text.stdout and b"nests quantifiers" in text.stdout


@pytest.mark.parametrize("depth", [1000, 100_000])
def test_a_deeply_nested_rules_file_is_an_invalid_spec_naming_the_file(tmp_path: Path, depth: int) -> None:
    from helpers.cli import run_lorekeeper

    f = tmp_path / "deep.evals.json"
    f.write_text("[" * depth, encoding="utf-8")
    schema = tmp_path / "schema.evals.json"
    deep_schema = '{"items":' * 400 + "{}" + "}" * 400  # readable JSON; too deep for the schema check
    rule = '{"id": "deep-schema", "type": "is_json", "severity": "warning", "value": ' + deep_schema + "}"
    schema.write_text('{"rules": [' + rule + "]}", encoding="utf-8")
    response = tmp_path / "r.txt"
    response.write_text("{}", encoding="utf-8")
    for path in (f, schema):
        r = run_lorekeeper("eval", "--rules", str(path), "--response", str(response), "--json")
        assert r.returncode == 2, (r.returncode, r.stderr)
        err = json.loads(r.stdout)["error"]
        assert err["code"] == "ERR_INVALID_SPEC" and err["file"] == str(path) and "nested too deeply" in err["message"]
        assert "Traceback" not in r.stderr
        if path == schema:
            assert err["rule_id"] == "deep-schema" and err["field"] == "value"
