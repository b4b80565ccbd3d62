"""The exact rules of seed 003 (DESIGN.md "Core rules"): Jaccard threshold, `**` removal, globs,
pack score and bonus."""

from __future__ import annotations

import pytest

from lorekeeper.errors import InvalidSpecError
from lorekeeper.facts.model import (
    WEIGHTS,
    glob_matches,
    jaccard,
    normalise_scope,
    pack_score,
    quote_in,
    similar,
    specificity,
    words,
)


def statements(shared: int, only_a: int, only_b: int) -> tuple[str, str]:
    common = [f"w{i}" for i in range(shared)]
    a = common + [f"a{i}" for i in range(only_a)]
    b = common + [f"b{i}" for i in range(only_b)]
    return " ".join(a), " ".join(b)


def test_threshold_is_062_inclusive() -> None:
    a, b = statements(31, 10, 9)  # 31 / 50 = 0.62 exactly
    assert jaccard(a, b) == pytest.approx(0.62)
    assert similar(a, b)
    a, b = statements(61, 20, 19)  # 61 / 100 = 0.61
    assert jaccard(a, b) == pytest.approx(0.61)
    assert not similar(a, b)
    a, b = statements(62, 19, 19)  # 62 / 100
    assert similar(a, b)


def test_words_are_case_and_accent_folded_w_words() -> None:
    assert words("Ne JAMAIS modifier; déjà-mergé!") == frozenset({"ne", "jamais", "modifier", "deja", "merge"})
    assert similar("Élève la Version", "eleve la version")


def test_explicit_double_star_is_removed() -> None:
    assert normalise_scope(["**"]) == []
    assert normalise_scope(["**/*", "/**", " ** ", ""]) == []
    assert normalise_scope(["src/**", "**", "src/**", "**/*_test.go"]) == ["src/**", "**/*_test.go"]
    assert normalise_scope(["*"]) == ["*"]  # not an explicit `**`


def test_bad_glob_is_invalid_spec() -> None:
    with pytest.raises(InvalidSpecError):
        normalise_scope(["a\nb"])


@pytest.mark.parametrize(
    ("glob", "path", "expected"),
    [
        ("db/migration/**", "db/migration/V1__init.sql", True),
        ("db/migration/**", "db/migration/sub/V2.sql", True),
        ("db/migration/**", "db/migrations/V1.sql", False),
        ("db/migration/**", "src/db/migration/V1.sql", False),  # a glob with a slash is anchored
        ("**/*_test.go", "internal/api/user_test.go", True),
        ("**/*_test.go", "user_test.go", True),  # `**/` also matches no directory at all
        ("**/*_test.go", "internal/api/user.go", False),
        ("*.sql", "a/b/c.sql", True),  # no slash: any depth (gitignore)
        ("internal/api/**", "internal/apix/x.go", False),
        ("/src/*.py", "src/a.py", True),
        ("/src/*.py", "src/pkg/a.py", False),  # `*` stays inside one directory
        ("docs/", "docs/guide.md", True),  # a directory pattern covers its files
        ("src/**/*.tsx", "src/a/b/C.tsx", True),
        ("src/**/*.tsx", "src/C.tsx", True),
        ("src/**/*.tsx", "src/C.ts", False),
    ],
)
def test_globs_are_gitignore_style(glob: str, path: str, expected: bool) -> None:
    assert glob_matches(glob, path) is expected
    assert glob_matches(glob, "./" + path) is expected  # `./` and leading slashes are the same path


def test_specificity_orders_exact_then_folder_then_extension() -> None:
    order = ["db/migration/V1.sql", "db/migration/**", "db/**", "**/*.sql", "*"]
    assert sorted(order, key=specificity, reverse=True) == order


def test_pack_score_weight_confidence_and_capped_bonus() -> None:
    assert pack_score("constraint", 0.5, 1) == pytest.approx(0.5)
    assert pack_score("glossary", 1.0, 1) == pytest.approx(0.35)
    assert pack_score("convention", 0.8, 2) == pytest.approx(0.95 * 0.8 + 0.1)
    assert pack_score("pitfall", 0.9, 3) == pytest.approx(0.9 * 0.9 + 0.2)
    assert pack_score("pitfall", 0.9, 7) == pytest.approx(0.9 * 0.9 + 0.2)  # the bonus is at most 0.2
    assert list(WEIGHTS.values()) == sorted(WEIGHTS.values(), reverse=True)


def test_quote_must_occur_verbatim_line_breaks_aside() -> None:
    text = "Never modify a migration script\nalready merged on main."
    assert quote_in("Never modify a migration script already merged on main", text)
    assert not quote_in("never modify a migration script", text)  # case matters
    assert not quote_in("Never modify migration scripts", text)
    assert not quote_in("   ", text)
