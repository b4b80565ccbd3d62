"""Structured intent: what kind of task this is, on what, how wide, in which language.

A deterministic classifier (keywords, no model): the task type drives the compression strategy
(a bug fix wants the failing code and its tests, documentation wants signatures), the targets
seed the relevance search, and the specificity sets the Boltzmann temperature.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field

from lorekeeper.context.parse import words_of
from lorekeeper.text import fold

TASK_TYPES = ("explore", "generate", "fix_bug", "refactor", "test", "review", "config", "deploy", "document")
SCOPES = ("single_file", "multi_file", "cross_module", "project_wide")

# Weighted evidence, not first match: every cue found in the task adds its weight to one task
# type and the highest total wins (ties: the order of TASK_TYPES). Cues are English and French
# words (accents folded), error signatures and the sentence's form. Weights: STRONG for a word
# that names the task ("refactor", "traceback"), WEAK for one that only leans ("config", "new").
STRONG = 3.0
WEAK = 1.0
FIRST_WORD_BONUS = 2.0  # an imperative verb opening the request ("Add ...", "Corrige ...")
ERROR_SIGNATURE = 4.0  # a traceback, an exception name, an `Error:` line, a Go panic
PURPOSE_BONUS = 4.0  # "... to fix X" / "pour corriger": the goal outweighs the means
OBJECT_BONUS = 4.0  # "add a test", "write docstrings": the object names the task, not the verb
BUG_REPORT_FORM = 2.0  # a statement of behaviour ("X prints nothing when Y"): how bug titles read
QUESTION_FORM = 2.0  # "how / where / what ..." or a trailing "?"

# task type -> (words naming the task: STRONG, words leaning to it: WEAK); accents folded
_CUE_WORDS: dict[str, tuple[str, str]] = {
    "fix_bug": (
        """fix fixes fixing bug bugs buggy broken crash crashes crashing crashed fails failing failed
        regression incorrect incorrectly wrong wrongly traceback stacktrace segfault panic panics hang hangs
        hanging freeze freezes leak leaks leaking deadlock corrupt corrupts corrupted misbehaves
        corrige corriger corrigez repare reparer plante plantage crashe bogue beug casse cassee echoue
        erreur erronee incorrecte""",
        """error errors exception issue problem ignores ignored nan none null unexpected unexpectedly
        instead expected actual anymore nothing empty twice doesn didn isn won probleme marche fonctionne""",
    ),
    "explore": (
        "explore understand overview walkthrough comprendre apercu",
        "how where what which explain happens fit together flow trace",
    ),
    "generate": (
        """add implement create generate introduce support allow feature ajoute ajouter implemente
        implementer cree creer permettre""",
        "new build write option nouvelle nouveau nouvel ecris ecrire",
    ),
    "refactor": (
        """refactor refactoring rename extract simplify restructure reorganize reorganise split migrate
        deduplicate decouple inline refactorise refactoriser renomme renommer simplifie simplifier extrais
        extraire decoupe decouper""",
        "clean cleanup move modules nesting duplication imbrication",
    ),
    "test": (
        "test tests coverage unittest unittests pytest spec specs fixture fixtures exercised",
        "testing covered covering assert unitaires",
    ),
    "review": (
        "review reviews audit critique relis relire revue relecture inspect",
        "diff pr changes merge risky risks signale look check",
    ),
    "config": (
        """config configure configuration configurer settings setting pin toml yaml yml env
        environment variable dependency dependencies ini cfg parametre parametres""",
        "ruff mypy lint level strict mode pyproject mod",
    ),
    "deploy": (
        """deploy deployment deploiement deployer release publish ship docker kubernetes helm pypi
        production livrer livraison wheels""",
        "push image tag changelog ci pipeline workflow runners actions version",
    ),
    "document": (
        "document documentation docs doc docstring docstrings readme tutorial guide documente documenter",
        "comment comments clarify describe section",
    ),
}


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


_CUES: dict[str, tuple[tuple[str, float], ...]] = {
    kind: tuple((w, STRONG) for w in _words(strong)) + tuple((w, WEAK) for w in _words(weak))
    for kind, (strong, weak) in _CUE_WORDS.items()
}
_CUE_OF = {w: (kind, weight) for kind, cues in _CUES.items() for w, weight in cues}  # word -> its cue
# "add a test", "write docstrings", "ajoute une section à la doc": the object decides
_OBJECTS = {
    "test": ("test", "tests", "unit", "unittest", "unittests", "coverage", "regression"),
    "document": ("doc", "docs", "docstring", "docstrings", "documentation", "readme", "section", "comments"),
    "config": ("config", "configuration", "setting", "settings"),
}
_MAKE_VERBS = frozenset(
    _words("add write create generate improve update increase ajoute ajouter ecris ecrire cree creer mets ameliore")
)
_QUESTION_WORDS = frozenset(_words("how where what which who why when comment ou quel quelle quels pourquoi quand"))
_WHY = frozenset(("why", "pourquoi"))
_PURPOSE = re.compile(r"\b(?:to|in order to|pour|afin de)\s+(?:fix|correct|repair|corriger|reparer)\b")
_ERROR_SIGNS = re.compile(
    r"Traceback \(most recent call last\)|^\s*File \"[^\"]+\", line \d+|^\s*(?:error|panic|fatal)(?:\[\w+\])?:"
    r"|\bpanic: |\bthread '[^']*' panicked|\bsegmentation fault\b",
    re.M | re.I,
)
_EXCEPTION_NAME = re.compile(
    r"\b[A-Z]\w*(?:Error|Exception|Warning)\b"
    r"|\b(?:Bad|Missing|NoSuch|Invalid|Illegal|Unknown|Unexpected|Unsupported)[A-Z][a-z]\w*\b"
)
# a CamelCase name next to "raise"/"throw" is an exception whatever its suffix (click's BadParameter)
_RAISED_NAME = re.compile(
    r"\b(?:raises?|raised|raising|throws?|thrown|throwing|l[eè]ve)\s+(?:an?\s+|une?\s+)?([A-Z][a-z]+[A-Z]\w*)\b"
    r"|\b([A-Z][a-z]+[A-Z]\w*)\s+(?:is\s+|was\s+|gets\s+)?(?:raised|thrown)\b"
)
# verbs in the third person that describe what code does: a bug title states the behaviour
_BEHAVIOUR = frozenset(
    _words(
        """accepts rejects returns prints raises throws ignores shows hangs loses drops skips breaks leaks
        swallows overrides duplicates produces emits raised thrown renvoie retourne affiche ignore perd"""
    )
)
_URGENT = ("urgent", "asap", "critical", "production", "prod", "outage", "blocker", "hotfix", "now")
_BROAD = ("codebase", "project", "everything", "all", "whole", "entire", "architecture", "overall", "global")
_LANG_EXT = {
    "python": (".py",),
    "typescript": (".ts", ".tsx"),
    "javascript": (".js", ".jsx", ".mjs"),
    "rust": (".rs",),
    "go": (".go",),
    "java": (".java",),
}
STOPWORDS = frozenset(
    """a an the and or but if then else of to in on at by for with from into onto as is are was were be been
    it its this that these those there here when while which who whom whose what where why how do does did
    done not no yes can could should would will shall may might must i we you they he she me my our your
    their them us so such than too very just also only all any some each every more most other same own
    fix bug issue error make use using used get set add implement support please need needs want wants
    code file files function functions method methods class classes when after before without within
    instead doesn don t s traceback recent last line""".split()  # noqa: SIM905 - a word list reads better as text
)
# Specificity: how concentrated the token allocation should be (0 broad .. 1 one named spot).
SPECIFICITY_PER_TARGET = 0.25  # each explicit file or identifier named in the task
SPECIFICITY_PER_TERM = 0.15  # each content word
SPECIFICITY_BROAD_PENALTY = 0.35  # "the whole codebase", "architecture"...


@dataclass
class StructuredIntent:
    task: str
    task_type: str
    confidence: float
    targets: list[str]  # file names and code identifiers named in the task
    terms: list[str]  # lower-case content words (identifier parts included) for relevance
    scope: str
    language: str | None
    urgency: float
    action_verb: str
    specificity: float
    identifiers: list[str] = field(default_factory=list)  # whole identifiers as written (snake/camel)
    exceptions: list[str] = field(default_factory=list)  # exception names quoted ("KeyError")
    frames: list[tuple[str, int, str]] = field(default_factory=list)  # traceback (path, line, function)

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


# a stack frame in a pasted traceback: Python `File "p.py", line 3, in f`, JS `at f (p.js:3:7)`,
# Go `\tp.go:3 +0x1d`, or any `path.ext:line`
_FRAME_PY = re.compile(r'File "([^"]+)", line (\d+)(?:, in ([\w<>.]+))?')
_FRAME_AT = re.compile(r"\bat (?:([\w$.<>]+) )?\(?([\w./@-]+\.(?:js|jsx|ts|tsx|mjs)):(\d+)(?::\d+)?\)?")
_FRAME_ANY = re.compile(r"(?<![\w/.-])([\w./-]+\.(?:py|go|rs|java|c|cc|cpp)):(\d+)\b")


def stack_frames(text: str) -> list[tuple[str, int, str]]:
    """(path, line, function or "") of every stack frame in `text`, in order, without repeats."""
    out: list[tuple[str, int, str]] = []
    for m in _FRAME_PY.finditer(text):
        out.append((m.group(1), int(m.group(2)), m.group(3) or ""))
    for m in _FRAME_AT.finditer(text):
        out.append((m.group(2), int(m.group(3)), (m.group(1) or "").rsplit(".", 1)[-1]))
    if not out:
        out.extend((m.group(1), int(m.group(2)), "") for m in _FRAME_ANY.finditer(text))
    return list(dict.fromkeys(out))


_TARGET_FILE = re.compile(r"[\w./-]+\.(?:py|pyi|ts|tsx|js|jsx|mjs|rs|go|java|md|toml|yaml|yml|json|cfg|ini)\b")
_IDENT = re.compile(
    r"`([^`]+)`|\b([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+|_*[a-z]+_[\w]+|_+[a-z][a-z0-9]*|[a-z]+[A-Z]\w*|[A-Z][a-z]+[A-Z]\w*)\b"
)


def evidence(task: str) -> dict[str, tuple[float, str]]:
    """Each task type's total weight of evidence in `task` and the cue that weighed most."""
    folded = fold(task)  # without case or accents ("Écris" -> "ecris"): French cues match however typed
    words = re.findall(r"[a-z0-9_]+", folded)
    cue_of = _CUE_OF
    scores: dict[str, float] = dict.fromkeys(TASK_TYPES, 0.0)
    best: dict[str, tuple[float, str]] = {}

    def add(kind: str, weight: float, why: str) -> None:
        scores[kind] += weight
        if weight > best.get(kind, (0.0, ""))[0]:
            best[kind] = (weight, why)

    seen: set[str] = set()
    for w in words:
        hit = cue_of.get(w)
        if hit is not None and w not in seen:  # a word counts once: "test ... tests" is one cue
            seen.add(w)
            add(hit[0], hit[1], w)
    first = words[0] if words else ""
    opening = cue_of.get(first)
    if opening is not None and opening[1] == STRONG:
        add(opening[0], FIRST_WORD_BONUS, first)
    # "add a test", "écris des tests", "write docstrings": the object names the task
    for k, w in enumerate(words):
        if w in _MAKE_VERBS:
            for obj in words[k + 1 : k + 5]:
                kind = next((t for t, objs in _OBJECTS.items() if obj in objs), None)
                if kind is not None:
                    add(kind, OBJECT_BONUS, f"{w} {obj}")
                    break
    if _PURPOSE.search(folded):
        add("fix_bug", PURPOSE_BONUS, "to fix")
    if _ERROR_SIGNS.search(task) or _EXCEPTION_NAME.search(task) or _RAISED_NAME.search(task):
        sign = _EXCEPTION_NAME.search(task) or _RAISED_NAME.search(task)
        add("fix_bug", ERROR_SIGNATURE, (sign.group(sign.lastindex or 0) if sign else "") or "traceback")
    question = first in _QUESTION_WORDS or folded.rstrip().endswith("?")
    imperative = opening is not None and opening[1] == STRONG
    behaviour = next((w for w in words if w in _BEHAVIOUR), None)
    if first in _WHY and (scores["fix_bug"] > 0 or behaviour):
        # "why does X crash", "pourquoi X renvoie 0": a question about a symptom reports a bug
        add("fix_bug", QUESTION_FORM, first)
    elif question:
        add("explore", QUESTION_FORM, first if first in _QUESTION_WORDS else "?")
    elif not imperative and behaviour:
        add("fix_bug", BUG_REPORT_FORM, behaviour)
    return {k: (v, best.get(k, (0.0, ""))[1]) for k, v in scores.items()}


def _task_type(task: str) -> tuple[str, str, float]:
    """(task type, the cue that decided it, confidence) by weighted evidence; no cue: explore."""
    ev = evidence(task)
    ranked = sorted(TASK_TYPES, key=lambda k: (-ev[k][0], TASK_TYPES.index(k)))
    top, second = ev[ranked[0]][0], ev[ranked[1]][0]
    if top <= 0:
        return "explore", "", 0.4
    # the winner's share of the evidence, sharpened by its lead over the runner-up
    confidence = 0.5 + 0.5 * (top - second) / top
    return ranked[0], ev[ranked[0]][1], round(min(0.99, confidence), 2)


def classify(task: str | None) -> StructuredIntent:
    """Classify `task` (None or empty: an exploration of the whole tree)."""
    text = (task or "").strip()
    if not text:
        return StructuredIntent("", "explore", 1.0, [], [], "project_wide", None, 0.0, "", 0.0)
    lowered = text.lower()
    raw_words = re.findall(r"[a-z0-9_]+", lowered)
    task_type, verb, confidence = _task_type(text)
    files = _TARGET_FILE.findall(text)
    idents: list[str] = []
    for m in _IDENT.finditer(text):
        word = (m.group(1) or m.group(2) or "").strip()
        if word and word not in files and not _TARGET_FILE.fullmatch(word):
            idents.append(word)
    targets = list(dict.fromkeys(files + idents))
    terms: list[str] = []
    for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text):
        parts = words_of(w)
        for p in [w.lower(), *parts]:
            if len(p) > 1 and p not in STOPWORDS and not p.isdigit():
                terms.append(p)
    terms = list(dict.fromkeys(terms))
    language = None
    for lang, exts in _LANG_EXT.items():
        if lang in raw_words or any(f.endswith(exts) for f in files):
            language = lang
            break
    broad = any(w in _BROAD for w in raw_words)
    if len(files) == 1 and not broad:
        scope = "single_file"
    elif broad:
        scope = "project_wide"
    elif len(files) > 1 or len(targets) > 2:
        scope = "cross_module"
    else:
        scope = "multi_file"
    specificity = SPECIFICITY_PER_TARGET * len(targets) + SPECIFICITY_PER_TERM * len(terms)
    if broad:
        specificity -= SPECIFICITY_BROAD_PENALTY
    specificity = round(min(1.0, max(0.05, specificity)), 3)
    urgency = 0.8 if any(w in _URGENT for w in raw_words) else (0.5 if task_type == "fix_bug" else 0.2)
    return StructuredIntent(
        task=text,
        task_type=task_type,
        confidence=confidence,
        targets=targets,
        terms=terms,
        scope=scope,
        language=language,
        urgency=urgency,
        action_verb=verb,
        specificity=specificity,
        identifiers=[i for i in idents if "." not in i or not _TARGET_FILE.fullmatch(i)],
        exceptions=list(
            dict.fromkeys([*_EXCEPTION_NAME.findall(text), *(a or b for a, b in _RAISED_NAME.findall(text))])
        ),
        frames=stack_frames(text),
    )
