"""Issue 28 d5: one text module (`lorekeeper.text`) folds, filters and stems for every ranking; the
callers that used to write their own keep their results (the router's stop words exactly, the
memory's short list as a subset, French accents folded everywhere)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import bm25s.stopwords

from lorekeeper import text
from lorekeeper.ask.passages import stopwords as ask_stopwords
from lorekeeper.ask.passages import tokens as ask_tokens
from lorekeeper.context.intent import evidence
from lorekeeper.facts.model import similar
from lorekeeper.improve.evidence import _words as evidence_words
from lorekeeper.memory.text import STOPWORDS as MEMORY_STOPWORDS
from lorekeeper.memory.text import tokens as memory_tokens
from lorekeeper.privacy.sanitizer import key_terms
from lorekeeper.skills.textindex import ROUTING_WORDS, folded_words, routing_stop_words

ROOT = Path(__file__).resolve().parents[2]


def test_fold_drops_case_and_accents_the_same_way_for_every_caller() -> None:
    assert text.fold("Écris une RÈGLE à l'été") == "ecris une regle a l'ete"
    assert text.fold("Straße") == "strasse"  # casefold, not lower
    assert text.fold("ﬁle Ｆｕｌｌ") == "file full"  # compatibility forms
    assert text.fold("𝐀𝐁𝐂") == "abc"  # decomposed to capitals, then folded
    assert text.fold("plain ASCII") == "plain ascii"
    assert text.words("pdf-tools, snake_case l'été") == ["pdf", "tools", "snake", "case", "l", "ete"]
    # the callers that wrote their own folding now agree with it
    assert memory_tokens("Réunion À Paris", stop=False) == ["reunion", "a", "paris"]
    assert ask_tokens("Où est la réunion ?") == ["reunion"]
    assert similar("Les déploiements du vendredi", "les DEPLOIEMENTS du Vendredi")


def test_the_function_words_are_bm25s_lists_folded() -> None:
    raw = set(bm25s.stopwords.STOPWORDS_EN_PLUS) | set(bm25s.stopwords.STOPWORDS_FRENCH)
    expected = {w for r in raw for w in text.words(r)}
    assert text.function_words() == expected
    assert {"the", "and", "ete", "soit", "don"} <= text.function_words()  # "été", "don't"


def test_each_caller_adds_its_own_words() -> None:
    routing = routing_stop_words()
    assert routing == text.function_words() | {w for r in ROUTING_WORDS for w in text.words(r)}
    assert {"skill", "claude", "tres"} <= routing  # "très"
    assert ask_stopwords() > routing and {"explain", "describe", "tell"} <= ask_stopwords() - routing
    # the memory's short list (its stored vectors were built with it) is function words only
    assert MEMORY_STOPWORDS.issubset(text.function_words())
    assert len(MEMORY_STOPWORDS) < 40


def test_stems_are_english_snowball() -> None:
    assert text.stems(["reviewing", "reviews", "review"]) == ["review"] * 3
    assert text.stem("migrations") == text.stem("migration")
    assert folded_words("Reviewing the PDFs, please") == ["reviewing", "pdfs"]


def test_evidence_words_fold_plurals_only_and_drop_instruction_words() -> None:
    """Its own 152-word list is the shared one plus its generic words: plurals still meet, the
    generic words of instructions (issue 17) still weigh nothing, French function words now too,
    and whole words stay whole (Snowball would relate "name" to a "naming" keyword)."""
    assert evidence_words("Run the migrations before the tests") == evidence_words("run migration test")
    assert evidence_words("always make sure to use the new way") == set()
    assert evidence_words("Ne jamais déployer les requêtes le vendredi") == {"jamai", "deployer", "requete", "vendredi"}
    assert evidence_words("naming") != evidence_words("name")
    assert [text.singular(w) for w in ("queries", "tests", "class", "bugs")] == ["query", "test", "class", "bug"]


def test_sanitizer_key_terms_fold_and_drop_function_words() -> None:
    terms = key_terms("Le client doit pouvoir exporter les factures. Nous voulons que l'export soit rapide.")
    assert "factures" in terms and "exporter" in terms and "rapide" in terms
    assert not {"doit", "nous", "que", "soit", "les"} & set(terms)  # "doit": an instruction word


def test_context_cues_match_french_however_typed() -> None:
    assert evidence("Écris un test pour le parseur") == evidence("ecris un test pour le parseur")


def test_importing_the_module_loads_neither_bm25s_nor_the_stemmer() -> None:
    """The sanitizer process and the prompt hook pay for no library they do not use: the word lists
    are read from bm25s's file without importing bm25s (numpy, scipy)."""
    code = (
        "import sys; from lorekeeper import text; text.fold('é'); sw = text.stop_words(text.INSTRUCTION_WORDS);"
        "print(len(sw), 'bm25s' in sys.modules, 'Stemmer' in sys.modules, 'numpy' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    count, *loaded = out.stdout.split()
    assert int(count) > 300 and loaded == ["False", "False", "False"]
