"""The context router (seeds 000/001, pillar 2).

score = 2 x (triggers matched) + 1 x (keywords matched). Each trigger or keyword counts once, however
often it occurs. Matching is case- and accent-insensitive, on whole words; a multi-word trigger
matches as a phrase (any run of whitespace between its words). Skills scoring 0 are never hinted.
Ranking: score descending, then name. Top 5 by default. Advisory only: the router never hides a
skill, it only writes the SKILLS_HINT block that primes the model.

Speed: terms are normalised once when the router is built and indexed by their first word, so a
message only looks at the terms whose words it contains; the exact whole-word/phrase check then
runs on those few candidates. Routing cost grows with the message, not with the library.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

TRIGGER_WEIGHT = 2
KEYWORD_WEIGHT = 1
DEFAULT_TOP = 5
HINT_HEADER = "SKILLS_HINT (focus on these):"
HINT_DESCRIPTION_CHARS = 160  # a description longer than this is cut at a word and ends with "..."

_WORD = re.compile(r"\w+")


def normalise(text: str) -> str:
    """Case- and accent-insensitive form: casefold, decompose, drop combining marks."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@dataclass(frozen=True)
class RoutableSkill:
    name: str
    description: str
    triggers: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True)
class RouteMatch:
    name: str
    score: int
    triggers: tuple[str, ...]
    keywords: tuple[str, ...]
    description: str = ""

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "score": self.score,
            "triggers": list(self.triggers),
            "keywords": list(self.keywords),
        }


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


@lru_cache(maxsize=65536)
def _term_pattern(norm: str) -> re.Pattern[str]:
    """Whole-word / phrase pattern, compiled on first use only (building a big router stays fast)."""
    parts = [re.escape(p) for p in norm.split()]
    return re.compile(r"(?<!\w)" + r"\s+".join(parts) + r"(?!\w)")


@dataclass
class Router:
    """Build once per library state; `route()` is then cheap and thread-safe."""

    skills: Iterable[RoutableSkill]
    _skills: list[RoutableSkill] = field(init=False, repr=False)
    _by_first_word: dict[str, list[_Term]] = field(init=False, repr=False)
    _wordless: list[_Term] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._skills = sorted(self.skills, key=lambda s: s.name)
        self._by_first_word = defaultdict(list)
        self._wordless = []
        for i, s in enumerate(self._skills):
            for kind, terms in ((0, s.triggers), (1, s.keywords)):
                seen: set[str] = set()
                for original in terms:
                    norm = " ".join(normalise(original).split())
                    if not norm or norm in seen:
                        continue
                    seen.add(norm)
                    words = tuple(_WORD.findall(norm))
                    plain = len(words) == 1 and words[0] == norm
                    term = _Term(i, kind, original, words, None if plain else norm)
                    if words:
                        self._by_first_word[words[0]].append(term)
                    else:
                        self._wordless.append(term)

    def __len__(self) -> int:
        return len(self._skills)

    def score_all(self, message: str) -> list[RouteMatch]:
        """Every skill with a score above zero, ranked (score descending, then name)."""
        norm = normalise(message)
        tokens = set(_WORD.findall(norm))
        hits: dict[int, tuple[list[str], list[str]]] = {}
        candidates: list[_Term] = list(self._wordless)
        for tok in tokens:
            bucket = self._by_first_word.get(tok)
            if bucket:
                candidates.extend(bucket)
        for term in candidates:
            if term.norm is None:
                matched = True  # single plain word, present as a whole token
            else:
                if any(w not in tokens for w in term.words):
                    continue
                matched = _term_pattern(term.norm).search(norm) is not None
            if matched:
                trig, kw = hits.setdefault(term.skill, ([], []))
                (trig if term.kind == 0 else kw).append(term.original)
        matches = []
        for idx, (trig, kw) in hits.items():
            s = self._skills[idx]
            # Keep the order in which the skill declares its terms, so output is stable.
            trig_sorted = tuple(t for t in s.triggers if t in trig)
            kw_sorted = tuple(k for k in s.keywords if k in kw)
            score = TRIGGER_WEIGHT * len(trig_sorted) + KEYWORD_WEIGHT * len(kw_sorted)
            if score > 0:
                matches.append(RouteMatch(s.name, score, trig_sorted, kw_sorted, s.description))
        matches.sort(key=lambda m: (-m.score, m.name))
        return matches

    def route(self, message: str, top: int = DEFAULT_TOP) -> RouteResult:
        ranked = self.score_all(message)[: max(top, 0)]
        return RouteResult(skills=tuple(ranked), hint=hint_block(ranked))


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
