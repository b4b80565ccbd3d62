"""Structured intent: what kind of task this is, on what, how wide, in which language.

A deterministic classifier (keywords, no model): the task type drives the compression strategy
(a bug fix wants the failing code and its tests, documentation wants signatures), the targets
seed the relevance search, and the specificity sets the Boltzmann temperature.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field

from lorekeeper.context.parse import words_of

TASK_TYPES = ("explore", "generate", "fix_bug", "refactor", "test", "review", "config", "deploy", "document")
SCOPES = ("single_file", "multi_file", "cross_module", "project_wide")

# First matching verb family wins; order matters ("fix the test" is a bug fix, not a test task).
_TYPE_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "fix_bug",
        (
            "fix",
            "bug",
            "broken",
            "crash",
            "error",
            "fails",
            "failing",
            "failure",
            "wrong",
            "regression",
            "incorrect",
            "exception",
            "traceback",
            "issue",
            "ignores",
            "doesn",
            "not",
            "nan",
        ),
    ),
    ("refactor", ("refactor", "rename", "extract", "simplify", "clean", "cleanup", "restructure", "split", "move")),
    ("test", ("test", "tests", "testing", "coverage", "unittest", "pytest", "spec")),
    ("review", ("review", "audit", "check", "inspect", "critique")),
    ("config", ("config", "configure", "configuration", "setting", "settings", "env", "toml", "yaml", "dependency")),
    ("deploy", ("deploy", "release", "ship", "publish", "docker", "kubernetes", "ci", "pipeline")),
    ("document", ("document", "docs", "docstring", "readme", "explain", "comment", "describe")),
    ("generate", ("add", "implement", "create", "generate", "write", "build", "support", "new", "introduce")),
    ("explore", ("explore", "understand", "how", "where", "what", "find", "overview", "show", "why")),
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
    instead doesn don t s""".split()  # noqa: SIM905 - a word list reads better as text
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

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


_TARGET_FILE = re.compile(r"[\w./-]+\.(?:py|pyi|ts|tsx|js|jsx|mjs|rs|go|java|md|toml|yaml|yml|json|cfg|ini)\b")
_IDENT = re.compile(r"`([^`]+)`|\b([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+|[a-z]+_[\w]+|[a-z]+[A-Z]\w*|[A-Z][a-z]+[A-Z]\w*)\b")


def classify(task: str | None) -> StructuredIntent:
    """Classify `task` (None or empty: an exploration of the whole tree)."""
    text = (task or "").strip()
    if not text:
        return StructuredIntent("", "explore", 1.0, [], [], "project_wide", None, 0.0, "", 0.0)
    lowered = text.lower()
    raw_words = re.findall(r"[a-z0-9_]+", lowered)
    task_type, verb, confidence = "explore", "", 0.4
    for kind, words in _TYPE_WORDS:
        hit = next((w for w in raw_words if w in words), None)
        if hit is not None:
            task_type, verb = kind, hit
            confidence = 0.95 if raw_words and raw_words[0] == hit else 0.75
            break
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
    )
