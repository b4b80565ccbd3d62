"""The context router: scoring, ties, accents, phrases, whole words, zero scores, the hint block."""

from __future__ import annotations

from lorekeeper.skills.router import HINT_HEADER, RoutableSkill, Router
from lorekeeper.text import fold as normalise


def lib() -> Router:
    return Router(
        [
            RoutableSkill(
                "code-review", "Security audit and code quality review", ("review", "audit"), ("XSS", "OWASP")
            ),
            RoutableSkill("code-review-protocol", "Structured code review with OWASP", ("code review",), ()),
            RoutableSkill("deployment-flow", "Deploy safely", ("deploy", "roll back"), ("Docker", "CI/CD")),
            RoutableSkill("git-manager", "Git operations", ("commit", "rebase"), ("branch",)),
        ]
    )


def test_seed_example() -> None:
    r = lib().route("Review this code for XSS vulnerabilities")
    assert [(m.name, m.score) for m in r.skills] == [("code-review", 3)]
    r = lib().route("Please do a code review for XSS")
    # code review matches code-review-protocol (2) and the word "review" matches code-review (2+1).
    assert [(m.name, m.score) for m in r.skills] == [("code-review", 3), ("code-review-protocol", 2)]
    assert r.skills[0].triggers == ("review",) and r.skills[0].keywords == ("XSS",)


def test_each_term_counts_once() -> None:
    r = lib().route("review review REVIEW xss XSS")
    assert r.skills[0].score == 3


def test_ties_sorted_by_name() -> None:
    router = Router([RoutableSkill(n, "d", ("go",), ()) for n in ("zeta", "alpha", "mid")])
    assert [m.name for m in router.route("go now").skills] == ["alpha", "mid", "zeta"]


def test_case_and_accent_insensitive() -> None:
    router = Router([RoutableSkill("fr", "d", ("déployer",), ("sécurité",))])
    assert router.route("DEPLOYER avec securite").skills[0].score == 3
    assert router.route("Déployer").skills[0].score == 2
    assert normalise("Ÿ É ñ") == "y e n"


def test_whole_words_only() -> None:
    r = lib()
    assert r.route("reviewed the deployment").skills == ()  # neither 'review' nor 'deploy' as words
    assert r.route("preview").skills == ()
    assert [m.name for m in r.route("deploy_it").skills] == []  # underscore joins a word
    assert [m.name for m in r.route("deploy, then review.").skills] == ["code-review", "deployment-flow"]


def test_multi_word_trigger_is_a_phrase() -> None:
    r = lib()
    assert [m.name for m in r.route("we need to roll back now").skills] == ["deployment-flow"]
    assert r.route("roll the dice and back off").skills == ()
    assert [m.name for m in r.route("roll\n  back").skills] == ["deployment-flow"]
    # A hyphen is not whitespace: "code-review" is not the phrase "code review", but holds the word "review".
    assert [m.name for m in r.route("code-review please").skills] == ["code-review"]


def test_terms_with_punctuation() -> None:
    r = lib()
    m = r.route("set up CI/CD with docker").skills
    assert m[0].name == "deployment-flow" and m[0].keywords == ("Docker", "CI/CD")
    assert r.route("ci cd").skills == ()


def test_zero_scores_never_hinted_and_empty_hint() -> None:
    r = lib().route("hello there")
    assert r.skills == () and r.hint == ""
    assert lib().route("").skills == ()


def test_top_n() -> None:
    router = Router([RoutableSkill(f"s{i:02d}", "d", ("x",), ()) for i in range(10)])
    assert len(router.route("x").skills) == 5
    assert len(router.route("x", top=3).skills) == 3
    assert router.route("x", top=0).skills == ()
    assert len(router.route("x", top=50).skills) == 10


def test_hint_block_format() -> None:
    r = lib().route("review and deploy")
    lines = r.hint.splitlines()
    assert lines[0] == HINT_HEADER == "SKILLS_HINT (focus on these):"
    assert lines[1] == "- code-review: Security audit and code quality review"
    assert lines[2] == "- deployment-flow: Deploy safely"


def test_long_description_is_shortened_in_hint() -> None:
    router = Router([RoutableSkill("a", "word " * 100, ("go",), ())])
    line = router.route("go").hint.splitlines()[1]
    assert line.endswith("...") and len(line) < 200


def test_duplicate_terms_after_normalisation_count_once() -> None:
    router = Router([RoutableSkill("a", "d", ("Review", "review", "RÉVIEW"), ())])
    assert router.route("review").skills[0].score == 2


def _reference(skills: list[RoutableSkill], message: str) -> list[tuple[str, int, tuple[str, ...], tuple[str, ...]]]:
    """The seed rule read literally: each skill, each declared term, a whole-word/phrase regex."""
    import re

    norm = normalise(message)
    out = []
    for s in sorted(skills, key=lambda s: s.name):
        found: list[tuple[str, ...]] = []
        for terms in (s.triggers, s.keywords):
            seen: set[str] = set()
            firsts: set[str] = set()
            for t in terms:
                n = " ".join(normalise(t).split())
                if n and n not in seen:
                    seen.add(n)
                    pat = r"(?<!\w)" + r"\s+".join(re.escape(p) for p in n.split()) + r"(?!\w)"
                    if re.search(pat, norm):
                        firsts.add(t)
            found.append(tuple(t for t in terms if t in firsts))
        score = 2 * len(found[0]) + len(found[1])
        if score:
            out.append((s.name, score, found[0], found[1]))
    return sorted(out, key=lambda m: (-m[1], m[0]))


def test_the_indexed_router_ranks_as_the_literal_rule_on_a_random_library() -> None:
    """Issue 26: the counted index (plain words), phrases under their rarest word, only the top built:
    the same skills, scores, terms and order as the rule applied skill by skill, at every `top`."""
    import random

    rnd = random.Random(26)
    vocab = ["review", "deploy", "docker", "xss", "c++", "ci/cd", "roll back", "Déploie", "api", "sql", "q&a", "42"]
    skills = []
    for i in range(400):
        words = rnd.sample(vocab, 5)
        dup = [words[0]] if i % 17 == 0 else []  # a term declared twice verbatim
        skills.append(
            RoutableSkill(
                f"s{i:03d}",
                "d",
                (words[0], f"{words[1]} {words[2]}", *dup, "DEPLOY" if i % 5 == 0 else words[3]),
                (words[4], f"kw{i % 7}"),
            )
        )
    router = Router(skills)
    messages = [
        "Please review the docker deploy, then roll   back; xss in the API? kw3 42",
        "déploie c++ and ci/cd now, q&a about sql",
        "nothing here",
        "review review kw1 kw2 docker xss",
    ]
    for message in messages:
        want = _reference(skills, message)
        for top in (0, 1, 5, 50, None):
            got = [(m.name, m.score, m.triggers, m.keywords) for m in router.score_all(message, top)]
            assert got == (want if top is None else want[:top]), (message, top)
