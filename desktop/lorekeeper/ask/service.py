"""`ws.ask`: retrieval (BM25, bm25s) over the knowledge corpora and cited answers.

Corpora are callables `project -> passages`; the service has the skills (what the project sees),
the learnings (what its prompts carry) and the documents under the workspace's `sources/` and
`clarifications/` folders, and `register(name, corpus)` adds more (facts, memory). The index is
rebuilt when the store revision or a document file changed, so a long-lived process (the app, the
MCP server) answers over the current knowledge.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lorekeeper.ask.passages import Passage, numbered, split_skill, split_text, tokens
from lorekeeper.errors import InvalidInputError
from lorekeeper.learnings.service import LearningService
from lorekeeper.llm.base import Provider
from lorekeeper.llm.service import LLMService
from lorekeeper.skills.library import SkillLibrary
from lorekeeper.skills.sources import FORKS_DIR
from lorekeeper.store.scopes import validate_project

Corpus = Callable[[str], Iterable[Passage]]

DEFAULT_TOP = 6
MAX_TOP = 30
MIN_SCORE = 0.5  # BM25 score below which a passage is not relevant ([ask] min_score)
NO_ANSWER = "no answer in the knowledge"
NO_ANSWER_TOKEN = "NO_ANSWER"
DOC_SUFFIXES = (".md", ".markdown", ".txt", ".rst")
MAX_DOC_BYTES = 2_000_000
_CITE = re.compile(r"\[(\d{1,3})\]")

ASK_PROMPT = """You answer questions about a software team's knowledge base using ONLY the numbered passages below.
Cite every claim with the number of the passage it comes from, in square brackets, like [2] or [1][3].
If the passages do not contain the answer, reply with exactly NO_ANSWER and nothing else.

Passages:

{passages}

Question: {question}
Answer:"""


@dataclass(frozen=True)
class Hit:
    n: int
    passage: Passage
    score: float

    def to_dict(self) -> dict[str, object]:
        return {"n": self.n, **self.passage.to_dict(), "score": round(self.score, 4)}


@dataclass
class AskResult:
    question: str
    project: str
    answered: bool
    answer: str
    passages: list[Hit]
    citations: list[Hit] = field(default_factory=list)
    model: str = ""
    note: str = ""

    def to_dict(self) -> dict[str, object]:
        return {
            "question": self.question,
            "project": self.project or None,
            "answered": self.answered,
            "answer": self.answer,
            "citations": [h.to_dict() for h in self.citations],
            "passages": [h.to_dict() for h in self.passages],
            "model": self.model or None,
            "note": self.note or None,
        }


class _Index:
    def __init__(self, passages: list[Passage]) -> None:
        import bm25s

        self.passages = passages
        self.bm25 = bm25s.BM25()
        docs = [tokens(f"{p.title} {p.text}") or ["\u2400"] for p in passages]
        if docs:
            self.bm25.index(docs, show_progress=False)

    def search(self, query: list[str], k: int) -> list[tuple[Passage, float]]:
        if not self.passages or not query:
            return []
        k = min(k, len(self.passages))
        docs, scores = self.bm25.retrieve([query], k=k, show_progress=False)
        return [(self.passages[int(i)], float(s)) for i, s in zip(docs[0], scores[0], strict=True)]


class AskService:
    def __init__(
        self,
        *,
        skills: SkillLibrary,
        learnings: LearningService,
        llm: LLMService,
        revision: Callable[[], int],
        root: Path,
        folders: tuple[str, ...] = ("sources", "clarifications"),
        min_score: float = MIN_SCORE,
    ) -> None:
        self.skills = skills
        self.learnings = learnings
        self.llm = llm
        self.revision = revision
        self.root = root
        self.folders = folders
        self.min_score = min_score
        self._corpora: dict[str, Corpus] = {
            "skills": self._skills,
            "learnings": self._learnings,
            "documents": self._documents,
        }
        self._cache: dict[str, tuple[tuple[Any, ...], _Index]] = {}
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ corpora
    def register(self, name: str, corpus: Corpus) -> None:
        """Add (or replace) a corpus: facts, memory notes... `corpus(project)` yields passages."""
        self._corpora[name] = corpus
        self._cache.clear()

    @property
    def corpora(self) -> tuple[str, ...]:
        return tuple(self._corpora)

    def _skills(self, project: str) -> Iterable[Passage]:
        # issue 24: only skills that verify (with the key session loaded) are cited
        for info in self.skills.list(project or None, include_forks=bool(project), verified=True):
            if project and info.project not in ("", project):
                continue
            version = self.skills.get(info.name, info.project or None)
            folder = f"skills/{FORKS_DIR}/{info.project}/{info.name}" if info.project else f"skills/{info.name}"
            yield from split_skill(f"{folder}/SKILL.md", info.name, version.content)

    def _learnings(self, project: str) -> Iterable[Passage]:
        for item in self.learnings.for_prompt(project or None):
            n = item.rule.count("\n") + 1
            yield Passage("learnings", f"learnings#{item.id}", f"learning {item.id} ({item.source})", 1, n, item.rule)

    def _document_files(self) -> list[Path]:
        out: list[Path] = []
        for folder in self.folders:
            base = self.root / folder
            if not base.is_dir():
                continue
            for path in sorted(base.rglob("*")):
                if path.is_file() and path.suffix.lower() in DOC_SUFFIXES and not path.name.startswith("."):
                    out.append(path)
        return out

    def _documents(self, project: str) -> Iterable[Passage]:
        for path in self._document_files():
            try:
                if path.stat().st_size > MAX_DOC_BYTES:
                    continue
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            rel = path.relative_to(self.root).as_posix()
            yield from split_text("documents", rel, text, title=path.stem)

    def _signature(self, project: str) -> tuple[Any, ...]:
        files = []
        for path in self._document_files():
            try:
                st = os.stat(path)
            except OSError:
                continue
            files.append((str(path), st.st_mtime_ns, st.st_size))
        return (self.revision(), tuple(self._corpora), tuple(files))

    def index(self, project: str | None = None) -> _Index:
        proj = validate_project(project)
        sig = self._signature(proj)
        with self._lock:
            cached = self._cache.get(proj)
            if cached and cached[0] == sig:
                return cached[1]
        passages: list[Passage] = []
        for corpus in self._corpora.values():
            passages.extend(corpus(proj))
        built = _Index(passages)
        with self._lock:
            self._cache[proj] = (sig, built)
        return built

    # ------------------------------------------------------------------ asking
    def retrieve(self, question: str, project: str | None = None, *, top: int = DEFAULT_TOP) -> list[Hit]:
        """The passages relevant to `question`, best first (BM25 score at least `min_score`)."""
        if not question.strip():
            raise InvalidInputError("the question is empty")
        if not 1 <= top <= MAX_TOP:
            raise InvalidInputError(f"top must be between 1 and {MAX_TOP}")
        found = self.index(project).search(tokens(question), top)
        hits = [(p, s) for p, s in found if s >= self.min_score]
        return [Hit(n, p, s) for n, (p, s) in enumerate(hits, start=1)]

    def prompt_for(self, question: str, hits: list[Hit]) -> str:
        return ASK_PROMPT.format(passages=numbered(h.passage for h in hits), question=question.strip())

    def ask(
        self,
        question: str,
        project: str | None = None,
        *,
        top: int = DEFAULT_TOP,
        use_model: bool = True,
        provider: Provider | None = None,
    ) -> AskResult:
        proj = validate_project(project)
        hits = self.retrieve(question, proj, top=top)
        if not hits:
            return AskResult(
                question, proj, False, NO_ANSWER, [], note="no passage of the knowledge matches the question"
            )
        if not use_model:
            return AskResult(question, proj, False, "", hits, note="ranked passages only: the model was not asked")
        provider = provider or self.llm.provider()
        status = provider.status()
        if not status.ready:
            return AskResult(
                question, proj, False, "", hits, note=f"ranked passages only: no model is ready ({status.reason})"
            )
        model = f"{provider.name}:{provider.model}" if provider.model else provider.name
        raw = str(provider.complete(self.prompt_for(question, hits))).strip()
        if not raw or raw.startswith(NO_ANSWER_TOKEN) or raw == NO_ANSWER:
            return AskResult(
                question, proj, False, NO_ANSWER, hits, model=model, note="the model found no answer in the passages"
            )
        cited: list[Hit] = []
        for m in _CITE.finditer(raw):
            n = int(m.group(1))
            if 1 <= n <= len(hits) and hits[n - 1] not in cited:
                cited.append(hits[n - 1])
        return AskResult(question, proj, True, raw, hits, sorted(cited, key=lambda h: h.n), model=model)
