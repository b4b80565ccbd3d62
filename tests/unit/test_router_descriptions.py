"""Skills without router words are routed by name + description, fused with the seed matches on one scale."""

from __future__ import annotations

from lorekeeper.skills.router import HINT_HEADER, VIA_DESCRIPTION, RoutableSkill, Router
from lorekeeper.skills.textindex import folded_words


def real_like() -> Router:
    return Router(
        [
            RoutableSkill(
                "pdf", "Use this skill whenever the user wants to read, extract tables from, fill or merge PDF files."
            ),
            RoutableSkill("xlsx", "Create, open and edit spreadsheets: formulas, charts, pivot tables."),
            RoutableSkill("postmortem-writing", "Write blameless postmortems with root cause analysis and timelines."),
            RoutableSkill("code-review", "Security review", ("review",), ("XSS",)),
            RoutableSkill("deploy", "Ship it", ("deploy",), ()),
        ]
    )


def test_trigger_skills_always_come_first() -> None:
    r = real_like().route("Review the spreadsheet tables and merge the PDF, then deploy")
    names = [m.name for m in r.skills]
    assert names[:2] == ["code-review", "deploy"]  # the seed rule, untouched: 2 each
    assert [m.score for m in r.skills[:2]] == [2, 2]
    assert set(names[2:]) == {"pdf", "xlsx"}
    described = r.skills[2:]
    assert all(m.via == VIA_DESCRIPTION and 0 < m.score < 1 for m in described)
    assert described[0].score >= described[1].score
    # JSON: the seed entries keep their four keys; description entries say how they matched
    d = r.to_dict()["skills"]
    assert {k: v for k, v in d[0].items() if k != "parts"} == {
        "name": "code-review",
        "score": 2,
        "triggers": ["review"],
        "keywords": [],
    }
    assert d[0]["parts"] == {"fused": 0.8333, "triggers": 2, "keywords": 0}
    assert d[2]["via"] == "description" and d[2]["triggers"] == [] and d[2]["terms"]


def test_description_skill_needs_a_shared_word() -> None:
    router = real_like()
    r = router.route("What is the weather like today?")
    assert r.skills == () and r.hint == ""
    # stop words alone never match ("the", "with", "and" occur in the descriptions)
    assert router.route("with the and of").skills == ()
    r = router.route("write a postmortem for the outage")
    assert [m.name for m in r.skills] == ["postmortem-writing"]
    assert r.skills[0].terms == ("write", "postmortem")
    assert r.hint.splitlines() == [
        HINT_HEADER,
        "- postmortem-writing: Write blameless postmortems with root cause analysis and timelines.",
    ]


def test_skill_with_router_words_is_never_matched_by_its_description() -> None:
    router = Router([RoutableSkill("code-review", "Security review of spreadsheets", ("review",), ())])
    assert router.route("open the spreadsheets").skills == ()


def test_french_stop_words_and_accents() -> None:
    assert folded_words("Je veux que vous le fassiez avec les données de la base") == ["fassiez", "donnees", "base"]
    assert folded_words("Peux-tu créer un tableur pour moi ?") == ["creer", "tableur"]
    router = Router([RoutableSkill("rapports", "Générer des rapports trimestriels en français")])
    assert router.route("je veux le de la des pour").skills == ()
    r = router.route("Genere les RAPPORTS du trimestre")
    assert [m.name for m in r.skills] == ["rapports"] and r.skills[0].terms == ("rapports",)


def test_stems_and_name_words() -> None:
    router = real_like()
    assert [m.name for m in router.route("I am merging two PDFs").skills] == ["pdf"]
    # the name counts: "xlsx" is only in its name
    assert [m.name for m in router.route("an xlsx, please").skills] == ["xlsx"]


def test_top_counts_both_kinds() -> None:
    router = real_like()
    r = router.route("review the pdf and the spreadsheet", top=2)
    assert [m.name for m in r.skills] == ["code-review", "pdf"] or [m.name for m in r.skills] == [
        "code-review",
        "xlsx",
    ]
    assert router.route("review the pdf", top=1).skills[0].name == "code-review"
    assert router.route("review the pdf", top=0).skills == ()


def test_library_without_descriptions_or_without_described_skills() -> None:
    assert Router([]).route("anything").skills == ()
    only_seed = Router([RoutableSkill("a", "pdf tools", ("go",), ())])
    assert only_seed.route("pdf").skills == ()


def test_strong_description_beats_one_generic_keyword() -> None:
    """Issue 27: one generic word in a starter must not beat a strong description match."""
    router = Router(
        [
            RoutableSkill("dependency-upgrade", "Upgrade dependencies", (), ("upgrade",)),
            RoutableSkill(
                "helm-recovery",
                "Recover a failed Helm release: rollback, stuck pending-upgrade, history, chart values.",
            ),
            RoutableSkill("pdf", "Read and merge PDF files."),
            # a real library holds many skills; BM25's word weights need a few documents to mean much
            *(RoutableSkill(f"other-{i}", f"Topic number {i}: notes, drafts and reports.") for i in range(12)),
        ]
    )
    r = router.route("My Helm release is stuck in pending-upgrade, how do I rollback the chart?")
    assert [m.name for m in r.skills][:2] == ["helm-recovery", "dependency-upgrade"]
    parts = r.to_dict()["skills"][0]["parts"]
    assert parts["description"] == r.skills[0].score and parts["fused"] > 0.5
    # a bare keyword hit with no description competition still routes
    assert router.route("upgrade please").skills[0].name == "dependency-upgrade"


def test_all_triggered_library_keeps_the_exact_seed_rule() -> None:
    router = Router([RoutableSkill("a", "x", ("review",), ()), RoutableSkill("b", "y", (), ("review", "audit"))])
    d = router.route("review and audit").to_dict()["skills"]
    assert d == [
        {"name": "a", "score": 2, "triggers": ["review"], "keywords": []},
        {"name": "b", "score": 2, "triggers": [], "keywords": ["review", "audit"]},
    ]
