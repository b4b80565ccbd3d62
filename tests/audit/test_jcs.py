"""RFC 8785 known answers (the official test data, byte for byte) and the strict input rules."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest
import rfc8785

from lorekeeper.audit.errors import CanonicalJSONError
from lorekeeper.audit.jcs import canonicalize, loads

DATA = Path(__file__).parent / "data" / "jcs"
NAMES = sorted(p.stem for p in (DATA / "input").glob("*.json"))


def test_the_official_vectors_are_all_there():
    assert NAMES == ["arrays", "french", "simpleString", "structures", "unicode", "values", "weird"]


@pytest.mark.parametrize("name", NAMES)
def test_official_vector_is_byte_identical(name: str):
    raw = (DATA / "input" / f"{name}.json").read_bytes()
    expected = (DATA / "output" / f"{name}.json").read_bytes()
    assert canonicalize(loads(raw)) == expected


# RFC 8785 Appendix B: IEEE-754 bit patterns and their canonical text.
APPENDIX_B = [
    ("0000000000000000", "0"),
    ("8000000000000000", "0"),
    ("0000000000000001", "5e-324"),
    ("8000000000000001", "-5e-324"),
    ("7fefffffffffffff", "1.7976931348623157e+308"),
    ("ffefffffffffffff", "-1.7976931348623157e+308"),
    ("4340000000000000", "9007199254740992"),
    ("c340000000000000", "-9007199254740992"),
    ("4430000000000000", "295147905179352830000"),
    ("44b52d02c7e14af5", "9.999999999999997e+22"),
    ("44b52d02c7e14af6", "1e+23"),
    ("44b52d02c7e14af7", "1.0000000000000001e+23"),
    ("444b1ae4d6e2ef4e", "999999999999999700000"),
    ("444b1ae4d6e2ef4f", "999999999999999900000"),
    ("444b1ae4d6e2ef50", "1e+21"),
    ("3eb0c6f7a0b5ed8c", "9.999999999999997e-7"),
    ("3eb0c6f7a0b5ed8d", "0.000001"),
    ("41b3de4355555553", "333333333.3333332"),
    ("41b3de4355555554", "333333333.33333325"),
    ("41b3de4355555555", "333333333.3333333"),
    ("41b3de4355555556", "333333333.3333334"),
    ("41b3de4355555557", "333333333.33333343"),
    ("becbf647612f3696", "-0.0000033333333333333333"),
    ("43143ff3c1cb0959", "1424953923781206.2"),
]


@pytest.mark.parametrize(("bits", "text"), APPENDIX_B)
def test_appendix_b_numbers(bits: str, text: str):
    (value,) = struct.unpack(">d", bytes.fromhex(bits))
    assert canonicalize(value) == text.encode()


def test_rfc_property_sorting_example():
    # RFC 8785 §3.2.3: keys ordered by UTF-16 code units, not by code points or locale
    value = {
        "\u20ac": "Euro Sign",
        "\r": "Carriage Return",
        "\ufb33": "Hebrew Letter Dalet With Dagesh",
        "1": "One",
        "\U0001f600": "Emoji: Grinning Face",
        "\u0080": "Control",
        "\u00f6": "Latin Small Letter O With Diaeresis",
    }
    order = list(json.loads(canonicalize(value)))
    assert order == ["\r", "1", "\u0080", "\u00f6", "\u20ac", "\U0001f600", "\ufb33"]


def test_output_matches_the_reference_library_on_a_mixed_document():
    doc = {"z": [1, 2.5, -0.0, 1e-7, 'é\n"q"'], "a": {"nested": {"b": None, "a": True}}, "": 0}
    assert canonicalize(doc) == rfc8785.dumps(doc)


def test_duplicate_keys_are_rejected_with_the_key_named():
    with pytest.raises(CanonicalJSONError, match="duplicate key 'a'"):
        loads('{"a": 1, "b": {"c": 2}, "a": 3}')
    with pytest.raises(CanonicalJSONError, match="duplicate key 'c'"):
        loads('{"b": {"c": 2, "c": 2}}')


@pytest.mark.parametrize("text", ['{"x": NaN}', '{"x": Infinity}', "[-Infinity]"])
def test_nan_and_infinity_literals_are_rejected(text: str):
    with pytest.raises(CanonicalJSONError, match="NaN or Infinity"):
        loads(text)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf")])
def test_nan_and_infinity_values_are_rejected_with_their_path(value: float):
    with pytest.raises(CanonicalJSONError, match=r"\$\.a\[1\]"):
        canonicalize({"a": [0, value]})


def test_integers_beyond_2_pow_53_are_rejected():
    assert canonicalize(2**53 - 1) == b"9007199254740991"
    with pytest.raises(CanonicalJSONError, match="beyond 2\\^53"):
        loads('{"n": 9007199254740993}')
    with pytest.raises(CanonicalJSONError, match=r"\$\.n"):
        canonicalize({"n": -(2**60)})


def test_values_json_cannot_carry_are_rejected():
    from datetime import datetime

    with pytest.raises(CanonicalJSONError, match="ISO 8601"):
        canonicalize({"ts": datetime(2026, 1, 1)})
    with pytest.raises(CanonicalJSONError, match="not a string"):
        canonicalize({1: "x"})


def test_invalid_json_names_line_and_column():
    with pytest.raises(CanonicalJSONError, match="line 2 column"):
        loads('{"a": 1,\n "b": }')


# --------------------------------------------------------------------------- fast path == reference

_ALPHABET = (
    [chr(c) for c in range(0x20)]
    + list("abcXYZ019 \"\\/'<>&")
    + [
        "\u007f",
        "\u0080",
        "\u00e9",
        "\u20ac",
        "\u2028",
        "\ud7ff",
        "\ue000",
        "\ufb33",
        "\uffff",
        "\U0001f600",
        "\U0001f602",
        "\U00010000",
        "\U0010ffff",
    ]
)


def _random_string(rnd, max_len: int = 8) -> str:
    return "".join(rnd.choice(_ALPHABET) for _ in range(rnd.randint(0, max_len)))


def _random_value(rnd, depth: int = 0, floats: bool = True):
    kinds = ["null", "bool", "int", "str"] + (["float"] if floats else []) + (["list", "dict"] if depth < 4 else [])
    kind = rnd.choice(kinds)
    if kind == "null":
        return None
    if kind == "bool":
        return rnd.random() < 0.5
    if kind == "int":
        return rnd.choice(
            [0, 1, -1, 2**53 - 1, -(2**53 - 1), rnd.randint(-(2**53 - 1), 2**53 - 1), rnd.randint(-1000, 1000)]
        )
    if kind == "float":
        return rnd.choice(
            [
                0.5,
                -0.0,
                1e21,
                1e-7,
                333333333.33333329,
                rnd.uniform(-1e6, 1e6),
                rnd.random() * 10 ** rnd.randint(-30, 30),
            ]
        )
    if kind == "str":
        return _random_string(rnd)
    if kind == "list":
        return [_random_value(rnd, depth + 1, floats) for _ in range(rnd.randint(0, 4))]
    return {_random_string(rnd, 4): _random_value(rnd, depth + 1, floats) for _ in range(rnd.randint(0, 5))}


@pytest.mark.parametrize("floats", [False, True])
def test_fast_path_is_byte_identical_to_the_reference_on_random_documents(floats: bool):
    import random

    from lorekeeper.audit.jcs import reference_canonicalize

    rnd = random.Random(8785 + floats)
    for _ in range(3000):
        value = _random_value(rnd, floats=floats)
        assert canonicalize(value) == reference_canonicalize(value), value


def test_fast_path_handles_astral_keys_by_utf16_order():
    # code point order would put U+FB33 first; UTF-16 code units put the surrogate pair first
    value = {"\ufb33": 1, "\U0001f600": 2}
    assert canonicalize(value) == rfc8785.dumps(value)
    assert list(json.loads(canonicalize(value))) == ["\U0001f600", "\ufb33"]


def test_lone_surrogates_are_rejected():
    with pytest.raises(CanonicalJSONError, match=r"surrogate|UTF-8"):
        canonicalize({"a": "\ud800"})
    with pytest.raises(CanonicalJSONError):
        canonicalize({"a": "\ud800", "f": 1.5})


def _float_cases(rnd) -> list[float]:
    """Floats of every shape: the confidences rows carry, integral ones, exponents both ways,
    the shortest-repr edge cases, negatives, subnormals."""
    out = [0.0, -0.0, 1.0, -1.0, 0.9, 0.0001, 0.00001, 1e-7, 1e16, 1e21, 9007199254740993.0, 5e-324]
    out += [0.1 + 0.2, 333333333.33333329, 1234567890123456.7, 2.5e-5, 123456789012345680.0]
    for _ in range(4000):
        out.append(
            rnd.choice(
                [
                    round(rnd.random(), rnd.randint(1, 6)),
                    rnd.uniform(-1e6, 1e6),
                    rnd.random() * 10 ** rnd.randint(-30, 30),
                    -rnd.random() * 10 ** rnd.randint(-8, 22),
                    float(rnd.randint(-(2**53), 2**53)),
                    rnd.getrandbits(64) / 2 ** rnd.randint(0, 80),
                ]
            )
        )
    return out


def test_floats_on_the_fast_path_are_byte_identical_to_the_reference():
    """Issue 26: a float whose repr has no exponent and is not integral takes the C encoder;
    every float (alone, in a row-like payload, nested, next to unicode and control characters)
    gives the reference's bytes, and the shapes the fast path does not prove go to the reference."""
    import random

    from lorekeeper.audit import jcs
    from lorekeeper.audit.jcs import reference_canonicalize

    rnd = random.Random(26)
    fast = 0
    for f in _float_cases(rnd):
        assert canonicalize(f) == rfc8785.dumps(f), f
        row = {
            "table": "facts",
            "statement": _random_string(rnd, 12),
            "confidence": f,
            "ordinal": rnd.randint(0, 10**6),
            "tags": [_random_string(rnd, 3), f],
            "nested": {"x": [f, {"é\u2028": f}], "k": None},
            "key_version": 1,
        }
        assert canonicalize(row) == reference_canonicalize(row), row
        fast += jcs._check(row, "$")
        flat = {k: v for k, v in row.items() if not isinstance(v, (list, dict))}  # a signed row's shape
        flat[_random_string(rnd, 3)] = rnd.choice([None, True, 2**53 - 1, -(2**53 - 1), "\x00\u2028é\U0001f600"])
        assert canonicalize(flat) == reference_canonicalize(flat), flat
        assert jcs._flat(flat) == jcs._check(flat, "$"), flat
    assert 1000 < fast < 4017  # both paths really ran
