"""Every rule type and its edges, the footnote, the success definition, and spec validation."""

from __future__ import annotations

import json

import pytest

from lorekeeper.errors import InvalidSpecError
from lorekeeper.evals import evaluate, load_rules_file, parse_rules
from lorekeeper.evals.footnote import with_footnote
from lorekeeper.evals.rules import compile_pattern


def run(rule: dict, response: str) -> bool:
    rule = {"id": "r1", "severity": "warning", **rule}
    report = evaluate(parse_rules({"rules": [rule]}), response)
    return report.results[0].passed


@pytest.mark.parametrize(
    ("rule", "response", "expected"),
    [
        ({"type": "string_contains", "value": '"verdict"'}, '{"verdict": "ok"}', True),
        ({"type": "string_contains", "value": "Verdict"}, "verdict", False),  # case-sensitive
        ({"type": "string_contains", "value": "x"}, "", False),
        ({"type": "string_not_contains", "value": "--force"}, "git push --force", False),
        ({"type": "string_not_contains", "value": "--force"}, "git push", True),
        ({"type": "string_not_contains", "value": "--force"}, "", True),
        ({"type": "regex_match", "pattern": r"disk|RAM|CPU"}, "the CPU is fine", True),
        ({"type": "regex_match", "pattern": r"^ok$"}, "not\nok", False),  # no multiline by default
        ({"type": "regex_match", "pattern": r"^ok$", "flags": "m"}, "not\nok", True),
        ({"type": "regex_match", "pattern": r"HELLO", "flags": "i"}, "hello", True),
        ({"type": "regex_match", "pattern": r"a.b", "flags": "s"}, "a\nb", True),
        ({"type": "regex_match", "pattern": r"a.b"}, "a\nb", False),
        ({"type": "regex_match", "value": r"\d+"}, "v12", True),  # regex reads value when no pattern
        ({"type": "regex_not_match", "pattern": r"console\.log\("}, "console.log(x)", False),
        ({"type": "regex_not_match", "pattern": r"console\.log\("}, "print(x)", True),
        ({"type": "regex_match", "pattern": r"x*"}, "", True),
        ({"type": "max_length", "value": 5}, "12345", True),  # inclusive
        ({"type": "max_length", "value": 5}, "123456", False),
        ({"type": "max_length", "value": 0}, "", True),
        ({"type": "min_length", "value": 5}, "12345", True),  # inclusive
        ({"type": "min_length", "value": 5}, "1234", False),
        ({"type": "min_length", "value": 1}, "", False),
        # Code points, not bytes nor UTF-16 units: é (1), 😀 (1)
        ({"type": "max_length", "value": 3}, "é😀a", True),
        ({"type": "min_length", "value": 4}, "é😀a", False),
        ({"type": "string_contains", "value": "café"}, "un café noir", True),
        ({"type": "icontains", "value": "ERROR"}, "an error occurred", True),
        ({"type": "not_icontains", "value": "sudo"}, "Run SUDO apt", False),
        ({"type": "contains_any", "value": ["pytest", "unittest"]}, "use unittest", True),
        ({"type": "contains_any", "value": ["pytest", "unittest"]}, "use nose", False),
        ({"type": "contains_all", "value": ["Given", "Then"]}, "Given x When y Then z", True),
        ({"type": "contains_all", "value": ["Given", "Then"]}, "Given x", False),
        ({"type": "icontains_all", "value": ["given", "then"]}, "GIVEN THEN", True),
        ({"type": "not_contains_any", "value": ["TODO", "FIXME"]}, "done", True),
        ({"type": "is_json"}, '{"a": [1, 2]}', True),
        ({"type": "is_json"}, "{a: 1}", False),
        ({"type": "is_json"}, "", False),
        ({"type": "not_is_json"}, "plain text", True),
        ({"type": "min_words", "value": 3}, "one two three", True),
        ({"type": "min_words", "value": 3}, "one  two", False),
        ({"type": "max_words", "value": 2}, "one two three", False),
        ({"type": "starts_with", "value": "##"}, "## Summary", True),
        ({"type": "ends_with", "value": "."}, "Done!", False),
        ({"type": "equals", "value": "OK"}, "OK", True),
        ({"type": "not_equals", "value": "OK"}, "OK", False),
        ({"type": "string_contains", "value": "x", "negate": True}, "xyz", False),
        ({"type": "max_length", "value": 2, "negate": True}, "abc", True),
        ({"type": "string_contains", "value": "x", "comment": "extra fields are ignored"}, "x", True),
    ],
)
def test_rule_types(rule: dict, response: str, expected: bool) -> None:
    assert run(rule, response) is expected


def test_footnote_lists_failed_rules_in_file_order_with_icons() -> None:
    rules = parse_rules(
        {
            "rules": [
                {
                    "id": "gm-002",
                    "name": "Response under 10 chars",
                    "type": "max_length",
                    "value": 10,
                    "severity": "info",
                },
                {
                    "id": "gm-001",
                    "name": "No force push",
                    "type": "string_not_contains",
                    "value": "--force",
                    "severity": "warning",
                },
                {
                    "id": "gm-003",
                    "name": "Mentions branch",
                    "type": "string_contains",
                    "value": "branch",
                    "severity": "warning",
                },
            ]
        }
    )
    report = evaluate(rules, "git push --force origin branch")
    assert report.footnote == "Eval: ℹ️ Response under 10 chars | ⚠️ No force push"
    assert report.passed is False
    assert [r.passed for r in report.results] == [False, False, True]


def test_footnote_empty_when_all_pass_and_info_failures_do_not_fail_the_response() -> None:
    rules = parse_rules(
        {"rules": [{"id": "i1", "name": "Short", "type": "max_length", "value": 3, "severity": "info"}]}
    )
    ok = evaluate(rules, "abc")
    assert ok.footnote == "" and ok.passed
    info_only = evaluate(rules, "abcdef")
    assert info_only.passed is True  # success = no *warning* rule failed
    assert info_only.footnote == "Eval: ℹ️ Short"


def test_footnote_uses_id_when_rule_has_no_name() -> None:
    rules = parse_rules({"rules": [{"id": "x-1", "type": "string_contains", "value": "a", "severity": "warning"}]})
    assert evaluate(rules, "b").footnote == "Eval: ⚠️ x-1"


def test_with_footnote_appends_below_a_rule() -> None:
    assert with_footnote("answer", "") == "answer"
    assert with_footnote("answer\n", "Eval: ⚠️ X") == "answer\n---\nEval: ⚠️ X"


def test_empty_rule_set_passes() -> None:
    report = evaluate(parse_rules({"rules": []}), "anything")
    assert report.passed and report.footnote == "" and report.results == ()


def test_report_json_contract() -> None:
    rules = parse_rules({"rules": [{"id": "a", "name": "A", "type": "min_length", "value": 2, "severity": "warning"}]})
    d = evaluate(rules, "x").to_dict()
    assert d == {
        "passed": False,
        "results": [{"id": "a", "name": "A", "type": "min_length", "severity": "warning", "passed": False}],
        "footnote": "Eval: ⚠️ A",
    }


@pytest.mark.parametrize(
    ("rule", "fragment"),
    [
        ({"id": "bad-1", "type": "string_startswith", "value": "x", "severity": "warning"}, "unknown rule type"),
        ({"id": "bad-2", "type": "string_contains", "severity": "warning"}, "missing 'value'"),
        ({"id": "bad-3", "type": "regex_match", "pattern": "(unclosed", "severity": "warning"}, "invalid regex"),
        ({"id": "bad-4", "type": "regex_match", "severity": "info"}, "missing 'pattern'"),
        ({"id": "bad-5", "type": "max_length", "value": -1, "severity": "info"}, "non-negative integer"),
        ({"id": "bad-6", "type": "max_length", "value": "many", "severity": "info"}, "non-negative integer"),
        ({"id": "bad-7", "type": "max_length", "value": True, "severity": "info"}, "boolean"),
        ({"id": "bad-8", "type": "string_contains", "value": "x", "severity": "error"}, "severity"),
        ({"id": "bad-9", "type": "string_contains", "value": "x"}, "severity"),
        ({"id": "bad-10", "type": "regex_match", "pattern": "x", "flags": "g", "severity": "info"}, "flags"),
        ({"id": "bad-11", "type": "contains_any", "value": [], "severity": "info"}, "non-empty list"),
        ({"id": "bad-12", "type": "string_contains", "value": 3, "severity": "info"}, "must be a string"),
        ({"id": "bad-13", "type": "string_contains", "value": "x", "negate": "yes", "severity": "info"}, "negate"),
    ],
)
def test_invalid_rules_name_file_and_rule(tmp_path, rule: dict, fragment: str) -> None:
    f = tmp_path / "x.evals.json"
    f.write_text(json.dumps({"version": 1, "rules": [rule]}), encoding="utf-8")
    with pytest.raises(InvalidSpecError) as ei:
        load_rules_file(f)
    err = ei.value
    assert err.code == "ERR_INVALID_SPEC"
    assert err.rule_id == rule["id"]
    assert str(f) in str(err) and rule["id"] in str(err)
    assert fragment in str(err)


def test_rule_without_id_and_duplicates_and_bad_json(tmp_path) -> None:
    with pytest.raises(InvalidSpecError, match="no id"):
        parse_rules({"rules": [{"type": "is_json", "severity": "info"}]})
    with pytest.raises(InvalidSpecError, match="duplicate rule id"):
        parse_rules({"rules": [{"id": "a", "type": "is_json", "severity": "info"}] * 2})
    f = tmp_path / "broken.evals.json"
    f.write_text('{"rules": [', encoding="utf-8")
    with pytest.raises(InvalidSpecError, match="not valid JSON"):
        load_rules_file(f)
    f.write_text('{"rules": [], "rules": []}', encoding="utf-8")
    with pytest.raises(InvalidSpecError, match="duplicate key"):
        load_rules_file(f)
    with pytest.raises(InvalidSpecError, match="cannot read"):
        load_rules_file(tmp_path / "missing.json")


def test_regexes_are_compiled_once_and_cached() -> None:
    compile_pattern.cache_clear()
    spec = {"rules": [{"id": "r", "type": "regex_match", "pattern": r"\bfoo\b", "severity": "info"}]}
    a = parse_rules(spec)
    b = parse_rules(spec)
    assert a.rules[0].compiled is b.rules[0].compiled
    assert compile_pattern.cache_info().misses == 1
    for _ in range(3):
        evaluate(a, "foo bar")
    assert compile_pattern.cache_info().misses == 1


def test_rule_flags_are_the_regex_modules_own_bits() -> None:
    """`i`, `m` and `s` are spelled with `re`'s bits so that loading rules imports no `regex`
    until a pattern is compiled (issue 26 d3): they must stay the `regex` module's bits."""
    import regex

    from lorekeeper.evals.regexcheck import FLAG_BITS, compile_pattern

    assert {"i": int(regex.IGNORECASE), "m": int(regex.MULTILINE), "s": int(regex.DOTALL)} == FLAG_BITS
    assert compile_pattern("^b.C$", FLAG_BITS["i"] | FLAG_BITS["m"] | FLAG_BITS["s"]).search("a\nB\nc")
