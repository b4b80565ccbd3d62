"""`skills suggest NAME`: router words (triggers and keywords) proposed from a skill's description.

The proposal is an ordinary proposal (source `suggest`): the current SKILL.md with
`metadata.triggers` and `metadata.keywords` added, approved or rejected in the queue like any
other (`proposals approve ID` applies it as a new version). Nothing else in SKILL.md changes: the
two lines are inserted into the front matter's `metadata` block (or a `metadata:` block is
appended to the front matter), so the rest of the file stays byte for byte.

With a configured model, the model reads the name and description and answers two lines,
`TRIGGERS: ...` and `KEYWORDS: ...`. Without one, a deterministic extraction (`extract_terms`):
the name as a phrase, its distinctive words and the short phrases the description quotes ("Word
doc") are the triggers; the description's words ranked by tf-idf against the library's other
descriptions (stop words and generic words such as "comprehensive" aside) are the keywords.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass

from lorekeeper import safeyaml
from lorekeeper.errors import InvalidInputError, InvalidSpecError
from lorekeeper.improve.judge import ModelAnswerError
from lorekeeper.improve.proposals import NewProposal, ProposalInfo, ProposalService
from lorekeeper.llm.base import LLMUnavailableError, Provider
from lorekeeper.llm.service import LLMService
from lorekeeper.skills.library import SkillLibrary
from lorekeeper.skills.spec import SKILL_FILE, parse_skill_md
from lorekeeper.skills.textindex import folded_words, routing_stop_words
from lorekeeper.text import fold, stems

SOURCE = "suggest"
MAX_TRIGGERS = 6
MAX_KEYWORDS = 8

PROMPT = """You choose the router words of an Agent Skill. A router hints the skill when a user's
message contains one of its TRIGGERS (short phrases a user would type to ask for exactly this
skill, 1 to 4 words) or its KEYWORDS (single words or names that point to its domain).

Skill name: {name}
Description: {description}

Answer with exactly two lines and nothing else:
TRIGGERS: phrase, phrase, ... (3 to {max_triggers})
KEYWORDS: word, word, ... (3 to {max_keywords})
"""

_QUOTED = re.compile(r"[\"“'‘]([^\"”'’\n]{3,40})[\"”'’]")
_WORD = re.compile(r"[^\W_][\w+#.-]*[^\W_]|[^\W_]", re.UNICODE)


@dataclass(frozen=True)
class Suggestion:
    skill: str
    scope: str
    triggers: tuple[str, ...]
    keywords: tuple[str, ...]
    model: str  # "" for the deterministic extraction
    proposed_content: str
    proposal: ProposalInfo | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "skill": self.skill,
            "project": self.scope or None,
            "triggers": list(self.triggers),
            "keywords": list(self.keywords),
            "model": self.model or None,
            "proposal": self.proposal.id if self.proposal else None,
        }


def _clean(terms: list[str], limit: int, exclude: set[str] | None = None) -> tuple[str, ...]:
    seen: set[str] = set(exclude or ())
    out: list[str] = []
    for t in terms:
        t = " ".join(t.replace(",", " ").replace('"', " ").split()).strip(" .;:!?")
        key = fold(t)
        if not t or key in seen or len(t) > 40:
            continue
        seen.add(key)
        out.append(t)
        if len(out) == limit:
            break
    return tuple(out)


# Words descriptions use for any skill: never proposed as router words by the extraction.
GENERIC = frozenset(
    [
        "able",
        "about",
        "across",
        "after",
        "best",
        "build",
        "building",
        "builds",
        "code",
        "comprehensive",
        "create",
        "creating",
        "creates",
        "design",
        "designing",
        "effective",
        "efficient",
        "ensure",
        "every",
        "file",
        "files",
        "following",
        "guide",
        "guidance",
        "high",
        "include",
        "includes",
        "including",
        "implement",
        "implementing",
        "implementation",
        "master",
        "modern",
        "new",
        "optimize",
        "pattern",
        "patterns",
        "practice",
        "practices",
        "production",
        "proper",
        "provide",
        "provides",
        "quality",
        "ready",
        "robust",
        "scalable",
        "set",
        "setting",
        "setup",
        "strategies",
        "strategy",
        "support",
        "supports",
        "task",
        "tasks",
        "techniques",
        "tool",
        "tools",
        "toolkit",
        "way",
        "work",
        "working",
        "workflow",
        "write",
        "writing",
        "written",
    ]
)


def _distinct(word: str) -> bool:
    key = fold(word)
    return len(key) > 2 and key not in routing_stop_words() and key not in GENERIC and not key.isdigit()


def extract_terms(
    name: str, description: str, library: list[str] | None = None
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The deterministic proposal: (triggers, keywords) from the name and the description.

    Triggers: the name as a phrase, its distinctive words, the short phrases the description
    quotes. Keywords: the description's words ranked by tf-idf against `library` (the other
    skills' descriptions), generic words and the triggers' own words aside, one per stem."""
    name_words = [w for w in name.split("-") if w]
    quoted = [q for q in (m.group(1).strip() for m in _QUOTED.finditer(description)) if len(q.split()) <= 4]
    phrases = [" ".join(name_words)] if len(name_words) > 1 else []
    triggers = _clean([*phrases, *(w for w in name_words if _distinct(w)), *quoted], MAX_TRIGGERS)
    words = [w for w in _WORD.findall(description) if _distinct(w)]
    counts = Counter(fold(w) for w in words)
    docs = [set(_WORD.findall(fold(d))) for d in (library or [])]
    first: dict[str, str] = {}
    for w in words:
        first.setdefault(fold(w), w if any(c.isupper() for c in w[1:]) or w.isupper() else w.lower())
    order = list(first)

    def weight(key: str) -> float:
        df = sum(1 for d in docs if key in d)
        return counts[key] * math.log((1 + len(docs)) / (1 + df) + 1)

    ranked = sorted(order, key=lambda k: (-weight(k), order.index(k)))
    taken = {stem for t in triggers for stem in stems(folded_words(t))}
    picked: list[str] = []
    for key in ranked:
        stem = stems([key])[0]
        if stem in taken:
            continue
        taken.add(stem)
        picked.append(first[key])
    keywords = _clean(picked, MAX_KEYWORDS, exclude={fold(t) for t in triggers})
    return triggers, keywords


def parse_model_terms(raw: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    found: dict[str, list[str]] = {}
    for line in raw.splitlines():
        head, sep, rest = line.strip().strip("*").partition(":")
        label = head.strip(" *").upper()
        if sep and label in ("TRIGGERS", "KEYWORDS"):
            found[label] = [t.strip().strip("\"'`") for t in rest.split(",")]
    triggers = _clean(found.get("TRIGGERS", []), MAX_TRIGGERS)
    keywords = _clean(found.get("KEYWORDS", []), MAX_KEYWORDS, exclude={fold(t) for t in triggers})
    if not triggers and not keywords:
        raise ModelAnswerError("the model's answer has no TRIGGERS: or KEYWORDS: line; nothing was proposed")
    return triggers, keywords


def _yaml_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def with_router_words(content: str, triggers: tuple[str, ...], keywords: tuple[str, ...]) -> str:
    """SKILL.md with metadata.triggers/keywords inserted; every other byte kept."""
    newline = "\r\n" if "\r\n" in content else "\n"
    lines = content.splitlines(keepends=True)
    start = 1 if lines and lines[0].lstrip("\ufeff").rstrip("\r\n") == "---" else None
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip("\r\n") == "---"), None) if start else None
    if start is None or end is None:
        raise InvalidSpecError("SKILL.md has no front matter between '---' lines", file=SKILL_FILE)
    front = safeyaml.safe_load("".join(lines[start:end]), what=SKILL_FILE) or {}
    meta = front.get("metadata") if isinstance(front, dict) else None
    entries = []
    if triggers:
        entries.append(("triggers", ", ".join(triggers)))
    if keywords:
        entries.append(("keywords", ", ".join(keywords)))
    meta_line = next((i for i in range(start, end) if re.match(r"metadata\s*:\s*$", lines[i].rstrip("\r\n"))), None)
    if isinstance(meta, dict) and meta_line is not None:
        indent = "  "
        for j in range(meta_line + 1, end):
            text = lines[j].rstrip("\r\n")
            if text.strip() and not text.strip().startswith("#"):
                indent = text[: len(text) - len(text.lstrip())] or "  "
                break
        new = [f"{indent}{k}: {_yaml_string(v)}{newline}" for k, v in entries]
        out = lines[: meta_line + 1] + new + lines[meta_line + 1 :]
    elif meta is None and "metadata" not in (front or {}):
        block = [f"metadata:{newline}"] + [f"  {k}: {_yaml_string(v)}{newline}" for k, v in entries]
        out = lines[:end] + block + lines[end:]
    else:
        raise InvalidSpecError(
            "metadata is not a block mapping (`metadata:` then indented lines); add the router words by hand",
            file=SKILL_FILE,
            field="metadata",
        )
    return "".join(out)


class SuggestService:
    def __init__(self, skills: SkillLibrary, llm: LLMService, proposals: ProposalService) -> None:
        self.skills = skills
        self.llm = llm
        self.proposals = proposals

    def suggest(
        self,
        name: str,
        project: str | None = None,
        *,
        use_model: bool | None = None,
        create: bool = True,
        provider: Provider | None = None,
    ) -> Suggestion:
        """Propose router words for `name` (the scope that serves `project`). `use_model`: None
        uses the configured model when there is one, True requires it, False never asks it.
        `create=False` only computes the proposal (nothing is stored)."""
        scope = self.skills.resolve_scope(name, project)
        cur = self.skills.get(name, scope or None)
        doc = parse_skill_md(cur.content, file=f"{name}/{SKILL_FILE}")
        if doc.triggers or doc.keywords:
            raise InvalidInputError(
                f"{name} already declares router words (triggers: {', '.join(doc.triggers) or '-'}; "
                f"keywords: {', '.join(doc.keywords) or '-'}); edit them in the skill instead"
            )
        model = ""
        status = None
        if provider is None and use_model is not False:
            status = self.llm.status()  # a bad [llm] config is a status here, never a crash
            provider = self.llm.provider() if status.ready else None
        if provider is not None:
            status = provider.status()
        if use_model and (status is None or not status.ready):
            raise LLMUnavailableError(f"suggest --model needs a model: {status.reason if status else 'none'}")
        if provider is not None and status is not None and status.ready:
            raw = provider.complete(
                PROMPT.format(
                    name=doc.name,
                    description=doc.description,
                    max_triggers=MAX_TRIGGERS,
                    max_keywords=MAX_KEYWORDS,
                )
            )
            triggers, keywords = parse_model_terms(raw)
            model = f"{provider.name}:{provider.model}"
        else:
            others = [i.description for i in self.skills.list(include_forks=False) if i.name != name]
            triggers, keywords = extract_terms(doc.name, doc.description, others)
        if not triggers and not keywords:
            raise InvalidInputError(f"nothing to propose for {name}: its description holds no content word")
        proposed = with_router_words(cur.content, triggers, keywords)
        check = parse_skill_md(proposed, file=f"{name}/{SKILL_FILE} (proposed)")
        if check.triggers != triggers or check.keywords != keywords:
            raise InvalidSpecError("the proposed router words did not survive the front matter", file=SKILL_FILE)
        out = Suggestion(name, scope, triggers, keywords, model, proposed)
        if not create:
            return out
        how = f"the model {model}" if model else "a deterministic extraction"
        info = self.proposals.create(
            NewProposal(
                skill=name,
                scope=scope,
                project=scope,
                source=SOURCE,
                reason=f"router words proposed from the description by {how}",
                summary=f"adds metadata.triggers ({len(triggers)}) and metadata.keywords ({len(keywords)})",
                metrics={},
                failing_rules=[],
                learnings=[],
                base_version=cur.version,
                current_content=cur.content,
                proposed_content=proposed,
                model=model,
            )
        )
        if info is None:
            pending = [p.id for p in self.proposals.list("pending", skill=name) if p.scope == scope]
            raise InvalidInputError(
                f"proposal #{pending[0] if pending else '?'} for {name} is pending: decide it first "
                "(`lorekeeper proposals show`), a skill has one pending proposal at a time"
            )
        return Suggestion(name, scope, triggers, keywords, model, proposed, info)
