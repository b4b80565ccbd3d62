"""The context router (seeds 000/001, pillar 2).

score = 2 x (triggers matched) + 1 x (keywords matched). Each trigger or keyword counts once, however
often it occurs. Matching is case- and accent-insensitive, on whole words; a multi-word trigger
matches as a phrase (any run of whitespace between its words). Skills scoring 0 are never hinted.
Ranking: score descending, then name. Top 5 by default. Advisory only: the router never hides a
skill, it only writes the SKILLS_HINT block that primes the model.

Skills that declare neither triggers nor keywords (most public skills) are ranked by their name
and description instead: BM25 over folded words (`lorekeeper.skills.textindex`). They carry
`via: "description"` in `route --json`, their `score` is `BM25 / (1 + BM25)` rounded to 4 decimals
(in (0, 1), growing with the relevance) and `terms` lists the message's words found in the skill's
name or description. A skill sharing no word with the message is never hinted. Skills with router
words are never scored by their description.

Fair ranking (issue 27): when a message has both kinds of match, both go on one scale (`fuse`): a
seed score s counts s / (s + 0.4), a description match its BM25 / (1 + BM25); ranked by that, then
name, and each entry's `parts` in `route --json` says how. So one generic keyword no longer beats a
strong description match. A library whose skills all carry router words ranks exactly by the seed
rule (no description matches exist to fuse), as does a message that hits no router word.

Speed: terms are normalised once when the router is built and indexed by their first word, so a
message only looks at the terms whose words it contains; the exact whole-word/phrase check then
runs on those few candidates. Routing cost grows with the message, not with the library.
"""

from __future__ import annotations

import heapq
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from lorekeeper.skills.textindex import TextIndex
from lorekeeper.text import fold  # the matching form

TRIGGER_WEIGHT = 2
KEYWORD_WEIGHT = 1
DEFAULT_TOP = 5
HINT_HEADER = "SKILLS_HINT (focus on these):"
HINT_DESCRIPTION_CHARS = 160  # a description longer than this is cut at a word and ends with "..."

VIA_DESCRIPTION = "description"  # `via` of a skill ranked by its name and description (no router words)

_WORD = re.compile(r"\w+")


def _seed_order(item: tuple[int, int]) -> tuple[int, int]:
    return -item[1], item[0]


def _top_seed(scores: Counter[int], top: int) -> list[tuple[int, int]]:
    """The `top` best (index, score) in seed order, score level by score level: a common word
    scores thousands of skills at 10,000, and a comparison per item costs more than a scan."""
    out: list[tuple[int, int]] = []
    for level in sorted(set(scores.values()), reverse=True):
        if len(out) >= top:
            break
        out += [(i, level) for i in heapq.nsmallest(top - len(out), [i for i, sc in scores.items() if sc == level])]
    return out


@dataclass(frozen=True)
class RoutableSkill:
    name: str
    description: str
    triggers: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True)
class RouteMatch:
    name: str
    score: float  # the seed's integer score; for a description match BM25/(1+BM25), in (0, 1)
    triggers: tuple[str, ...]
    keywords: tuple[str, ...]
    description: str = ""
    via: str = ""  # "" the seed rule (triggers and keywords); "description" for a skill without router words
    terms: tuple[str, ...] = ()  # description matches: the message's folded words found in name/description
    fused: float | None = None  # mixed library only: the calibrated score both kinds are ranked on

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "name": self.name,
            "score": self.score,
            "triggers": list(self.triggers),
            "keywords": list(self.keywords),
        }
        if self.via:
            out["via"] = self.via
            out["terms"] = list(self.terms)
        if self.fused is not None:
            parts: dict[str, object] = {"fused": self.fused}
            if self.via == VIA_DESCRIPTION:
                parts["description"] = self.score
            else:
                parts["triggers"] = TRIGGER_WEIGHT * len(self.triggers)
                parts["keywords"] = KEYWORD_WEIGHT * len(self.keywords)
            out["parts"] = parts
        return out


@dataclass(frozen=True)
class RouteResult:
    skills: tuple[RouteMatch, ...]
    hint: str

    def to_dict(self) -> dict[str, object]:
        return {"skills": [m.to_dict() for m in self.skills], "hint": self.hint}


@dataclass(frozen=True)
class _Term:
    skill: int  # index into Router._skills
    kind: int  # 0 trigger, 1 keyword
    original: str
    words: tuple[str, ...]
    norm: str | None  # None: a single plain word, the token set decides; else checked by regex
    weight: int = 0  # what the term adds to its skill's seed score (its weight x how often it is declared)


@lru_cache(maxsize=65536)
def _term_pattern(norm: str) -> re.Pattern[str]:
    """Whole-word / phrase pattern, compiled on first use only (building a big router stays fast)."""
    parts = [re.escape(p) for p in norm.split()]
    return re.compile(r"(?<!\w)" + r"\s+".join(parts) + r"(?!\w)")


def _matches(term: _Term, norm: str, tokens: set[str]) -> bool:
    if term.norm is None:
        return term.words[0] in tokens  # a single plain word: present as a whole token
    if any(w not in tokens for w in term.words):
        return False
    return _term_pattern(term.norm).search(norm) is not None


@dataclass
class Router:
    """Build once per library state; `route()` is then cheap and thread-safe.

    Speed (issue 26): a single plain word (most triggers and keywords) needs no check once the
    message holds it, so each word maps straight to the skills it scores, each repeated by the
    weight it adds, and the scores are counted in C (`Counter.update`); a phrase is indexed by
    its rarest word (a phrase matches only when all its words are in the message) and checked by
    regex. Only the top skills are then built into matches (their terms listed in declared order)."""

    skills: Iterable[RoutableSkill]
    _skills: list[RoutableSkill] = field(init=False, repr=False)
    _plain: dict[str, list[int]] = field(init=False, repr=False)
    _phrases: dict[str, list[_Term]] = field(init=False, repr=False)
    _wordless: list[_Term] = field(init=False, repr=False)
    _terms_of: list[list[_Term]] = field(init=False, repr=False)
    _described: list[int] = field(init=False, repr=False)
    _text: TextIndex = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._skills = sorted(self.skills, key=lambda s: s.name)
        self._plain = defaultdict(list)
        self._phrases = defaultdict(list)
        self._wordless = []
        self._terms_of = [[] for _ in self._skills]
        # skills without router words: ranked by name + description (after every seed match)
        self._described = [i for i, s in enumerate(self._skills) if not s.triggers and not s.keywords]
        self._text = TextIndex([(self._skills[i].name, self._skills[i].description) for i in self._described])
        phrases: list[_Term] = []
        frequency: dict[str, int] = defaultdict(int)
        for i, s in enumerate(self._skills):
            for kind, terms in ((0, s.triggers), (1, s.keywords)):
                seen: set[str] = set()
                weight = TRIGGER_WEIGHT if kind == 0 else KEYWORD_WEIGHT
                for original in terms:
                    norm = " ".join(fold(original).split())
                    if not norm or norm in seen:
                        continue
                    seen.add(norm)
                    words = tuple(_WORD.findall(norm))
                    plain = len(words) == 1 and words[0] == norm
                    # a term declared twice verbatim is listed (and counted) twice, as it always was
                    term = _Term(i, kind, original, words, None if plain else norm, weight * terms.count(original))
                    self._terms_of[i].append(term)
                    if plain:
                        self._plain[norm].extend([i] * term.weight)
                    elif words:
                        phrases.append(term)
                    else:
                        self._wordless.append(term)
                    for w in words:
                        frequency[w] += 1
        for term in phrases:
            self._phrases[min(term.words, key=lambda w: frequency[w])].append(term)

    def __len__(self) -> int:
        return len(self._skills)

    def score_all(self, message: str, top: int | None = None) -> list[RouteMatch]:
        """Every skill with a score above zero, ranked: the seed matches (score descending, then
        name), then the description matches of skills without router words (the same order).
        `top`: at most that many (the description ranking stops early)."""
        norm = fold(message)
        tokens = set(_WORD.findall(norm))
        scores: Counter[int] = Counter()
        for tok in tokens:
            plain = self._plain.get(tok)
            if plain:
                scores.update(plain)
            for term in self._phrases.get(tok, ()):
                if _matches(term, norm, tokens):
                    scores[term.skill] += term.weight
        for term in self._wordless:
            if _matches(term, norm, tokens):
                scores[term.skill] += term.weight
        # skills are sorted by name: (-score, index) is the seed order (score descending, then name)
        if top is None:
            ranked = sorted(scores.items(), key=_seed_order)
        else:
            ranked = _top_seed(scores, top)
            if self._described and ranked and len(ranked) == top:
                # fused ties are broken by name: keep every seed match whose calibrated score
                # equals the last one's (distinct seed scores can round alike, past ~90)
                last = calibrated_seed(ranked[-1][1])
                kept = {idx for idx, _ in ranked}
                ranked += sorted(
                    ((i, sc) for i, sc in scores.items() if i not in kept and calibrated_seed(sc) == last),
                    key=_seed_order,
                )
        matches = [self._match(idx, norm, tokens) for idx, score in ranked if score > 0]
        if not matches or not self._described:
            room = None if top is None else max(top - len(matches), 0)
            if room != 0:
                matches.extend(self.describe(message, room))
            return matches
        # the seed calibration is monotonic: only the top seed matches can reach the fused top
        return fuse(matches, self.describe(message, None), top)

    def _match(self, idx: int, norm: str, tokens: set[str]) -> RouteMatch:
        s = self._skills[idx]
        trig = {t.original for t in self._terms_of[idx] if t.kind == 0 and _matches(t, norm, tokens)}
        kw = {t.original for t in self._terms_of[idx] if t.kind == 1 and _matches(t, norm, tokens)}
        # Keep the order in which the skill declares its terms, so output is stable.
        trig_sorted = tuple(t for t in s.triggers if t in trig)
        kw_sorted = tuple(k for k in s.keywords if k in kw)
        score = TRIGGER_WEIGHT * len(trig_sorted) + KEYWORD_WEIGHT * len(kw_sorted)
        return RouteMatch(s.name, score, trig_sorted, kw_sorted, s.description)

    def describe(self, message: str, top: int | None = None) -> list[RouteMatch]:
        """The skills without router words that share a word with the message, by relevance."""
        out = []
        for hit in self._text.search(message, top):  # BM25 descending, then name
            s = self._skills[self._described[hit.index]]
            score = min(max(round(hit.bm25 / (1.0 + hit.bm25), 4), 0.0001), 0.9999)
            out.append(RouteMatch(s.name, score, (), (), s.description, VIA_DESCRIPTION, hit.terms))
        return out

    def route(self, message: str, top: int = DEFAULT_TOP) -> RouteResult:
        ranked = self.score_all(message, max(top, 0))[: max(top, 0)]
        return RouteResult(skills=tuple(ranked), hint=hint_block(ranked))


SEED_CALIBRATION = 0.4  # seed score s maps to s / (s + this): 1 keyword 0.714, 1 trigger 0.833, 2 triggers 0.909


def calibrated_seed(score: float) -> float:
    return round(score / (score + SEED_CALIBRATION), 4)


def fuse(seed: list[RouteMatch], described: list[RouteMatch], top: int | None) -> list[RouteMatch]:
    """A mixed library (some skills with router words, some without): both kinds on one scale.

    A seed score s becomes s / (s + 0.4) (monotonic, so seed matches keep their seed order among
    themselves); a description match keeps BM25 / (1 + BM25). A single generic keyword (0.714) thus
    loses to a description that matches the message well, while a trigger or two still beat a
    weak one-word description hit. Ties: name. A library whose skills all carry router words never
    comes here: the seed rule ranks it exactly. `route --json` shows the parts under "parts"."""
    from dataclasses import replace

    out = [replace(m, fused=calibrated_seed(m.score)) for m in seed]
    out += [replace(m, fused=m.score) for m in described]
    out.sort(key=lambda m: (-(m.fused or 0.0), m.name))
    return out if top is None else out[:top]


def short_description(text: str, limit: int = HINT_DESCRIPTION_CHARS) -> str:
    one_line = " ".join(text.split())
    if len(one_line) <= limit:
        return one_line
    cut = one_line[: limit - 3].rsplit(" ", 1)[0].rstrip(" ,.;:")
    return cut + "..."


def hint_block(matches: Iterable[RouteMatch]) -> str:
    """The SKILLS_HINT block of seed 000; empty when no skill scored."""
    lines = [f"- {m.name}: {short_description(m.description)}" for m in matches]
    if not lines:
        return ""
    return "\n".join([HINT_HEADER, *lines])
