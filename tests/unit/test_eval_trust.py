"""Evals users can trust (issue 17): strict JSON and schemas, empty values, every `not_` form,
promptfoo spellings, regex time limits and nested-quantifier warnings, deep nesting."""

from __future__ import annotations

import glob
import json
import re
from pathlib import Path

import pytest

from lorekeeper.errors import InvalidSpecError
from lorekeeper.evals import evaluate, load_rules_file, parse_rules
from lorekeeper.evals.aliases import ALIASES, REFUSED
from lorekeeper.evals.regexcheck import nested_quantifier_warning
from lorekeeper.evals.rules import EXTRA_BASE_TYPES, RULE_TYPES

ROOT = Path(__file__).resolve().parents[2]


def result(rule: dict, response: str, **kw: float):
    rule = {"id": "r1", "severity": "warning", **rule}
    return evaluate(parse_rules({"rules": [rule]}), response, **kw).results[0]


def spec_error(rule: dict) -> InvalidSpecError:
    with pytest.raises(InvalidSpecError) as ei:
        parse_rules({"rules": [{"id": "r-9", "severity": "warning", **rule}]})
    assert ei.value.code == "ERR_INVALID_SPEC" and ei.value.rule_id == "r-9"
    assert "rule r-9" in str(ei.value)
    return ei.value


# ---- is_json -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        ('{"a": 1}', True),
        ('  \n[1, 2, "x"]\n ', True),  # whitespace around is JSON whitespace
        ("42", True),
        ('{"a": NaN}', False),
        ('{"a": Infinity}', False),
        ("[-Infinity]", False),
        ("NaN", False),
        ('```json\n{"a": 1}\n```', True),
        ('```JSON\n{"a": 1}\n```\n', True),
        ('```\n{"a": 1}\n```', True),  # a bare fence
        ('Here it is:\n```json\n{"a": 1}\n```', False),  # prose around the fence
        ('```python\n{"a": 1}\n```', False),
        ('```json\n{"a": 1}\n```\n```json\n{"b": 2}\n```', False),  # two fences
        ('```json\n{"a": NaN}\n```', False),
        ("```json\n```", False),
        ("{'a': 1}", False),
        ('{"a": 1} trailing', False),
    ],
)
def test_is_json_is_strict(response: str, expected: bool) -> None:
    assert result({"type": "is_json"}, response).passed is expected


def test_is_json_refuses_nan_with_a_reason() -> None:
    r = result({"type": "is_json"}, '{"x": NaN}')
    assert not r.passed and "NaN" in r.reason


SCHEMA = {
    "type": "object",
    "required": ["verdict"],
    "properties": {"verdict": {"enum": ["ok", "fail"]}, "score": {"type": "number"}},
}


def test_is_json_validates_a_schema_value() -> None:
    assert result({"type": "is_json", "value": SCHEMA}, '{"verdict": "ok", "score": 1}').passed
    bad = result({"type": "is_json", "value": SCHEMA}, '{"verdict": "maybe"}')
    assert not bad.passed and "verdict" in bad.reason and "schema" in bad.reason
    missing = result({"type": "is_json", "value": SCHEMA}, '{"score": 2}')
    assert not missing.passed and "'verdict' is a required property" in missing.reason
    # fenced JSON is validated too, and not_is_json inverts the whole verdict
    assert result({"type": "is_json", "value": SCHEMA}, '```json\n{"verdict": "fail"}\n```').passed
    assert result({"type": "not_is_json", "value": SCHEMA}, '{"verdict": "maybe"}').passed


def test_schema_dialect_defaults_to_2020_12_and_honours_dollar_schema() -> None:
    # prefixItems exists in 2020-12 only; under draft-07 it is an unknown keyword (ignored)
    schema = {"type": "array", "prefixItems": [{"type": "string"}]}
    assert not result({"type": "is_json", "value": schema}, "[1]").passed
    draft7 = {"$schema": "http://json-schema.org/draft-07/schema#", **schema}
    assert result({"type": "is_json", "value": draft7}, "[1]").passed


@pytest.mark.parametrize(
    "value",
    [{"type": "no-such-type"}, {"required": "verdict"}, {"minLength": -1}, "schema.json", [1], 3],
)
def test_invalid_schema_is_refused_at_load_time(value: object) -> None:
    err = spec_error({"type": "is_json", "value": value})
    assert err.field == "value"
    assert "schema" in str(err).lower()


@pytest.mark.parametrize("depth", [1000, 100_000])
@pytest.mark.parametrize("rtype", ["is_json", "not_is_json"])
def test_deep_nesting_fails_with_a_reason_and_never_raises(depth: int, rtype: str) -> None:
    for text in ("[" * depth, "[" * depth + "]" * depth):
        r = result({"type": rtype}, text)
        assert r.passed is False
        assert "nested too deeply" in r.reason


def test_an_undecided_check_carries_a_stable_code() -> None:
    deep = evaluate(parse_rules({"rules": [{"id": "j", "type": "is_json", "severity": "warning"}]}), "[" * 1000)
    assert deep.to_dict()["results"][0]["code"] == "ERR_JSON_TOO_DEEP"  # type: ignore[index]
    rs = parse_rules({"rules": [{"id": "n", "type": "regex_match", "pattern": r"(\w+\s?)*$", "severity": "warning"}]})
    slow = evaluate(rs, "word " * 3000 + "!", regex_timeout=0.1).to_dict()
    assert slow["results"][0]["code"] == "ERR_REGEX_TIMEOUT"  # type: ignore[index]
    fine = evaluate(rs, "word").to_dict()
    assert "code" not in fine["results"][0]  # type: ignore[operator]


def test_deep_nesting_with_a_schema() -> None:
    r = result({"type": "is_json", "value": {"type": "array"}}, "[" * 5000 + "]" * 5000)
    assert r.passed is False and "nested too deeply" in r.reason


# ---- empty values ------------------------------------------------------------------------------

_STRING_TYPES = [t for t in RULE_TYPES if t.replace("not_", "") in ("icontains", "starts_with", "ends_with", "equals")]
_STRING_TYPES += ["string_contains", "string_not_contains"]
_LIST_TYPES = [t for t in RULE_TYPES if t.endswith(("_any", "_all"))]


@pytest.mark.parametrize("rtype", _STRING_TYPES)
def test_empty_string_value_is_refused(rtype: str) -> None:
    err = spec_error({"type": rtype, "value": ""})
    assert err.field == "value" and "empty" in str(err)


@pytest.mark.parametrize("rtype", _LIST_TYPES)
@pytest.mark.parametrize("value", [[], [""], ["ok", ""], "", " , "])
def test_empty_list_values_are_refused(rtype: str, value: object) -> None:
    err = spec_error({"type": rtype, "value": value})
    assert "empty" in str(err)


@pytest.mark.parametrize("rtype", ["regex_match", "regex_not_match"])
def test_empty_pattern_is_refused(rtype: str) -> None:
    assert spec_error({"type": rtype, "pattern": ""}).field == "pattern"
    assert spec_error({"type": rtype, "value": ""}).field == "value"


def test_a_single_space_is_a_real_value() -> None:
    assert result({"type": "string_contains", "value": " "}, "a b").passed
    assert not result({"type": "string_contains", "value": " "}, "ab").passed


# ---- every documented not_ form ----------------------------------------------------------------


def _readme_not_forms() -> set[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Skills and evals") : text.index("## Keys and secrets")]
    return set(re.findall(r"`(not_[a-z_]+)`", section))


def test_readme_lists_a_not_form_for_every_extra_type() -> None:
    documented = _readme_not_forms()
    assert {"not_" + t for t in EXTRA_BASE_TYPES} <= documented
    assert {"not_min_words", "not_max_words"} <= documented


@pytest.mark.parametrize("base", EXTRA_BASE_TYPES)
def test_every_not_form_parses_and_negates(base: str) -> None:
    value = {"min_words": 2, "max_words": 2}.get(base, ["ok", "fine"] if base.endswith(("_any", "_all")) else "ok")
    rule = {"type": base} if base == "is_json" else {"type": base, "value": value}
    for response in ("ok", "ok fine", "ok fine extra words", '{"ok": 1}', ""):
        pos = result(rule, response).passed
        neg = result({**rule, "type": "not_" + base}, response).passed
        assert neg is (not pos), (base, response)


def test_readme_not_forms_are_all_accepted() -> None:
    for t in sorted(_readme_not_forms()):
        rule = {"id": "n", "type": t, "severity": "info"}
        if "regex" in t:
            rule["pattern"] = "x"
        elif "words" in t:
            rule["value"] = 2
        elif t.endswith(("_any", "_all")):
            rule["value"] = ["x"]
        elif "json" not in t:
            rule["value"] = "x"
        assert parse_rules({"rules": [rule]}).rules[0].type in RULE_TYPES, t


def test_not_min_words_and_not_max_words() -> None:
    assert result({"type": "not_min_words", "value": 3}, "one two").passed
    assert not result({"type": "not_min_words", "value": 3}, "one two three").passed
    assert result({"type": "not_max_words", "value": 2}, "one two three").passed
    assert not result({"type": "not_max_words", "value": 2}, "one two").passed


# ---- promptfoo spellings -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spelling", "canonical", "extra", "response", "expected"),
    [
        ("contains", "string_contains", {"value": "Verdict"}, "verdict", False),  # case-sensitive as ours
        ("not-contains", "string_not_contains", {"value": "--force"}, "git push", True),
        ("icontains", "icontains", {"value": "ERROR"}, "an error", True),
        ("not-icontains", "not_icontains", {"value": "sudo"}, "SUDO x", False),
        ("contains-any", "contains_any", {"value": ["a", "b"]}, "xb", True),
        ("contains-all", "contains_all", {"value": "a, b"}, "ab", True),  # comma string, as promptfoo
        ("icontains-any", "icontains_any", {"value": ["A"]}, "a", True),
        ("icontains-all", "icontains_all", {"value": ["A", "B"]}, "a", False),
        ("not-contains-any", "not_contains_any", {"value": ["TODO"]}, "done", True),
        ("starts-with", "starts_with", {"value": "##"}, "## x", True),
        ("equals", "equals", {"value": "OK"}, "OK", True),
        ("not-equals", "not_equals", {"value": "OK"}, "OK", False),
        ("is-json", "is_json", {}, "[1]", True),
        ("is-json", "is_json", {"value": {"type": "object"}}, "[1]", False),
        ("not-is-json", "not_is_json", {}, "text", True),
        ("regex", "regex_match", {"value": r"\d+"}, "v12", True),
        ("not-regex", "regex_not_match", {"value": r"\d+"}, "v12", False),
    ],
)
def test_promptfoo_spellings_are_aliases(
    spelling: str, canonical: str, extra: dict, response: str, expected: bool
) -> None:
    rs = parse_rules({"rules": [{"id": "p", "type": spelling, "severity": "warning", **extra}]})
    assert rs.rules[0].type == canonical
    assert evaluate(rs, response).results[0].passed is expected


def test_every_alias_points_at_a_real_type() -> None:
    assert set(ALIASES.values()) <= set(RULE_TYPES)
    assert not set(ALIASES) & set(REFUSED)


@pytest.mark.parametrize(
    ("spelling", "fragment"),
    [
        ("llm-rubric", "not deterministic"),
        ("similar", "not deterministic"),
        ("factuality", "not deterministic"),
        ("javascript", "runs user code"),
        ("python", "runs user code"),
        ("contains-json", "use is_json"),
        ("regex_search", "use regex_match"),
        ("json", "use is_json"),
        ("latency", "metadata"),
        ("levenshtein", "no equivalent"),
        ("not-llm-rubric", "not deterministic"),
    ],
)
def test_refused_spellings_say_why(spelling: str, fragment: str) -> None:
    err = spec_error({"type": spelling, "value": "x"})
    assert fragment in str(err)


def test_unknown_type_suggests_the_closest_name() -> None:
    assert "did you mean 'icontains_any'" in str(spec_error({"type": "icontains_anyy", "value": "x"}))


@pytest.mark.parametrize(
    ("spelling", "fragment"),
    [
        ("contains_json", "use is_json"),  # underscores for promptfoo's dashes: the same refusal
        ("LLM-Rubric", "not deterministic"),
        ("is_sql", "no equivalent"),
        ("IS-JSON", "did you mean 'is_json'"),  # upper case: the right spelling, not a random neighbour
        ("Contains", "did you mean 'string_contains'"),
    ],
)
def test_near_spellings_of_promptfoo_names_say_the_right_thing(spelling: str, fragment: str) -> None:
    assert fragment in str(spec_error({"type": spelling, "value": "x"}))


# ---- regexes: time limit, re semantics, warnings -----------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "text"),
    [(r"(\w+\s?)*$", "word " * 3000 + "!"), (r"(a|aa)+$", "a" * 200 + "!")],
)
@pytest.mark.parametrize("rtype", ["regex_match", "regex_not_match"])
def test_catastrophic_regex_fails_with_a_timeout_reason(pattern: str, text: str, rtype: str) -> None:
    r = result({"type": rtype, "pattern": pattern}, text, regex_timeout=0.2)
    assert r.passed is False  # whichever the negation: an undecided rule fails
    assert r.reason == "regex timed out after 0.2 s"


def test_a_pattern_the_regex_module_defuses_answers_correctly_or_times_out() -> None:
    # `regex` answers ^(a+)+$ in quadratic time; with a long input it may also hit the limit
    for n in (30, 5000):
        text = "a" * n + "!"
        assert result({"type": "regex_match", "pattern": r"^(a+)+$"}, text, regex_timeout=0.2).passed is False
        neg = result({"type": "regex_not_match", "pattern": r"^(a+)+$"}, text, regex_timeout=0.2)
        assert neg.passed or neg.reason == "regex timed out after 0.2 s"


def test_rule_timeout_field_and_validation() -> None:
    rs = parse_rules(
        {"rules": [{"id": "t", "type": "regex_match", "pattern": r"(\w+\s?)*$", "timeout": 0.1, "severity": "info"}]}
    )
    assert rs.rules[0].timeout == 0.1 and rs.rules[0].to_dict()["timeout"] == 0.1
    assert evaluate(rs, "x" * 4000 + "!").results[0].reason == "regex timed out after 0.1 s"
    for bad in (0, -1, 11, "1", True):
        assert spec_error({"type": "regex_match", "pattern": "x", "timeout": bad}).field == "timeout"


def test_timeout_env_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOREKEEPER_REGEX_TIMEOUT", "0.15")
    r = result({"type": "regex_match", "pattern": r"(a|aa)+$"}, "a" * 200 + "!")
    assert r.reason == "regex timed out after 0.15 s"


def test_report_json_carries_reason_and_warnings() -> None:
    rs = parse_rules({"rules": [{"id": "n", "type": "regex_match", "pattern": r"(\w+\s?)*$", "severity": "warning"}]})
    d = evaluate(rs, "word " * 3000 + "!", regex_timeout=0.1).to_dict()
    assert d["results"][0]["reason"] == "regex timed out after 0.1 s"  # type: ignore[index]
    assert d["warnings"] and "rule n" in d["warnings"][0] and "nests quantifiers" in d["warnings"][0]  # type: ignore[index]
    assert d["footnote"] == "Eval: ⚠️ n"


@pytest.mark.parametrize(
    "pattern", [r"^(a+)+$", r"(\w+\s?)*$", r"(a*)*b", r"((ab?)+)+", r"(?:x|y+)*z", r"(.*a){20}", r"(x+x+)+y", r"(.+,)*"]
)
def test_nested_quantifiers_warn(pattern: str) -> None:
    assert nested_quantifier_warning(pattern)


@pytest.mark.parametrize(
    "pattern",
    [
        r"(?:\s+\w+)*?",
        r"(ab)+",
        r"[(a+)]+",
        r"\(a+\)+",
        r"(?>a+)+",
        r"(a+)++",
        r"(a{3})+",
        r"a+b*",
        r"(\d+\.)+",
        r"(.a){3}",
    ],
)
def test_safe_patterns_do_not_warn(pattern: str) -> None:
    assert nested_quantifier_warning(pattern) is None


def test_starter_skills_load_without_warnings_and_keep_re_semantics() -> None:
    """Every starter regex gives the same verdict with Python `re` as with the engine's `regex`."""
    samples = [s["response"] for s in json.loads((ROOT / "data" / "eval_samples.json").read_text("utf-8"))]
    samples += ["", "git push --force origin main", "sudo rm -rf /", "## 1.2.3\n### Added\n- x"]
    flag_bits = {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL}
    checked = 0
    for f in sorted(glob.glob(str(ROOT / "skills" / "*" / "*.evals.json"))):
        rs = load_rules_file(f)
        assert rs.warnings == (), f
        for rule in rs.rules:
            if not rule.type.startswith("regex_"):
                continue
            bits = 0
            for c in rule.flags:
                bits |= flag_bits[c]
            plain = re.compile(rule.value, bits)
            for s in samples:
                expected = (plain.search(s) is not None) == (rule.type == "regex_match")
                one = parse_rules({"rules": [rule.to_dict()]})
                assert evaluate(one, s).results[0].passed is expected, (f, rule.id)
                checked += 1
    assert checked > 500


def test_flags_keep_re_semantics() -> None:
    assert result({"type": "regex_match", "pattern": "^b", "flags": "m"}, "a\nb").passed
    assert not result({"type": "regex_match", "pattern": "^b"}, "a\nb").passed
    assert result({"type": "regex_match", "pattern": "A.B", "flags": "is"}, "a\nb").passed
    assert result({"type": "regex_match", "pattern": r"\bcafé\b", "flags": "i"}, "CAFÉ noir").passed


@pytest.mark.parametrize(
    ("rule", "field"),
    [
        ({"type": "contains_any", "value": []}, "value"),
        ({"type": "icontains"}, "value"),
        ({"type": "min_words", "value": -1}, "value"),
        ({"type": "equals", "value": {"a": 1}}, "value"),
        ({"type": "regex_match"}, "pattern"),
        ({"type": "regex_match", "pattern": "("}, "pattern"),
        ({"type": "regex_match", "pattern": "a", "flags": "x"}, "flags"),
        ({"type": "icontains", "value": "a", "severity": "error"}, "severity"),
        ({"type": "no_such", "value": "a"}, "type"),
        ({"type": "llm-rubric", "value": "a"}, "type"),
    ],
)
def test_every_refusal_names_the_field(rule: dict, field: str) -> None:
    """README: refused when the file loads, ERR_INVALID_SPEC naming the rule id and the field."""
    err = spec_error(rule)
    assert err.field == field, str(err)


def test_equals_with_a_json_value_points_at_is_json() -> None:
    assert "is_json" in str(spec_error({"type": "equals", "value": {"a": 1}}))
