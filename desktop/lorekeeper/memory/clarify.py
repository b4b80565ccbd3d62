"""Clarification summaries (seed 004 B2): capture, sanitize, gate, validate, write, index, erase.

The flow, in this order, with the verbatim of the four answers kept in memory only:
1. `sanitize(story, answers)`: the answers go to the sanitizer child process on its stdin (see
   `lorekeeper.privacy.runner`) only once the log has durably accepted a signed
   `verbatim_subprocess_invoked` intent (story, subprocess name; duration and success still null):
   if the log refuses it, nothing is sent. A `verbatim_subprocess_completed` event then records the
   duration and success, never the content; the verbatim buffer is overwritten. The result is a
   `Draft`: the summary only.
2. The PII gate checks the summary (ERR_PII_DETECTED: nothing written, the draft is dropped).
3. The operator validates (binary). `save(draft)` writes the store row and
   `clarifications/<STORY>-clarifications.md` (the seed's front matter, `retention_until` = date +
   18 months); a rejection simply drops the draft: nothing of it remains anywhere.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any

import frontmatter
from sqlalchemy import select

from lorekeeper.audit.log import SessionLog
from lorekeeper.config import Config
from lorekeeper.errors import InvalidInputError, LorekeeperError, NotFoundError
from lorekeeper.fsutil import atomic_write_text, read_regular_text
from lorekeeper.memory.corpora import CLARIFICATION_HEADINGS
from lorekeeper.memory.layout import MemoryLayout, check_story_id
from lorekeeper.privacy.retention import retention_until
from lorekeeper.privacy.runner import SANITIZER_NAME, SECTIONS, encode_request, run_sanitizer
from lorekeeper.store.engine import Store
from lorekeeper.store.models import Clarification

EVENT_SUBPROCESS = "verbatim_subprocess_invoked"  # the intent, written before the verbatim is sent
EVENT_SUBPROCESS_DONE = "verbatim_subprocess_completed"  # its outcome: duration and success
EVENT_SAVED = "clarification_saved"
QUESTIONS = {
    "problem": "Problem / user need",
    "criteria": "Success criteria",
    "constraints": "Known constraints",
    "priorities": "Priorities (must-have / nice-to-have)",
}
MAX_SECTION = 2000


@dataclass(frozen=True)
class Draft:
    """A summary waiting for the operator's validation (never the verbatim)."""

    story: str
    domain: str
    project: str
    summary: dict[str, str]
    sanitizer: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "story": self.story,
            "domain": self.domain,
            "project": self.project,
            "summary": dict(self.summary),
            "sanitizer": self.sanitizer,
        }


@dataclass(frozen=True)
class ClarificationInfo:
    story: str
    domain: str
    project: str
    date: str
    retention_until: str
    summary: dict[str, str]
    path: str

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__.items())


def render_markdown(c: Clarification) -> str:
    meta = {
        "story": c.story,
        "step": 0,
        "date": c.date,
        "domain": c.domain,
        "project": c.project,
        "retention_until": c.retention_until,
    }
    head = "\n".join(f"{k}: {v}" for k, v in meta.items())
    body = [f"# Clarifications PO — {c.story} (résumé structuré)", ""]
    for key, heading in CLARIFICATION_HEADINGS.items():
        body += [f"## {heading}", getattr(c, key) or "-", ""]
    return f"---\n{head}\n---\n\n" + "\n".join(body)


def parse_markdown(text: str) -> dict[str, str]:
    post = frontmatter.loads(text)
    out = {k: str(post.metadata.get(k) or "") for k in ("story", "date", "domain", "project", "retention_until")}
    inv = {v: k for k, v in CLARIFICATION_HEADINGS.items()}
    current = ""
    buf: dict[str, list[str]] = {k: [] for k in CLARIFICATION_HEADINGS}
    for line in post.content.splitlines():
        m = re.match(r"^##\s+(.+?)\s*$", line)
        if m:
            current = inv.get(m.group(1), "")
            continue
        if current and not line.startswith("# "):
            buf[current].append(line)
    for k, lines in buf.items():
        out[k] = " ".join(" ".join(lines).split())
    return out


def _info(c: Clarification, layout: MemoryLayout) -> ClarificationInfo:
    return ClarificationInfo(
        c.story,
        c.domain,
        c.project,
        c.date,
        c.retention_until,
        {k: getattr(c, k) for k in SECTIONS},
        str(layout.clarification_file(c.story)),
    )


class ClarificationService:
    purge_name = "clarifications"  # lorekeeper.protocols.Purgeable: the row and the markdown file

    def __init__(
        self,
        store: Store,
        layout: MemoryLayout,
        audit_log: Callable[[], SessionLog],
        config: Config,
    ) -> None:
        self.store = store
        self.layout = layout
        self.audit_log = audit_log
        self.config = config  # read at each call: `ws.llm.configure` reloads it in place

    def llm_table(self) -> dict[str, Any] | None:
        """The `[llm]` table the sanitizer summarises with; None for the deterministic summary
        (`[privacy] sanitizer = "deterministic"` never calls a model, nor does provider "none")."""
        if str(self.config.get("privacy.sanitizer", "auto")) == "deterministic":
            return None
        table = self.config.get("llm") or {}
        return dict(table) if str(table.get("provider") or "none") != "none" else None

    # ------------------------------------------------------------------ the flow
    def sanitize(self, story: str, domain: str, project: str, answers: dict[str, str]) -> Draft:
        """Summarise the answers in the sanitizer process; the PII gate checks the summary.

        `answers` is emptied here (the caller's dict): the verbatim is not kept past this call."""
        sid = check_story_id(story)
        if not domain.strip() or not project.strip():
            raise InvalidInputError("a clarification needs --domain and --project")
        missing = [s for s in SECTIONS if not str(answers.get(s) or "").strip()]
        if missing:
            answers.clear()
            raise InvalidInputError(f"the answers are incomplete: {', '.join(missing)} missing (4 answers are needed)")
        buf = encode_request({s: str(answers[s]) for s in SECTIONS}, self.llm_table())
        answers.clear()
        call = {"story_id": sid, "subprocess_name": SANITIZER_NAME}
        try:
            # the intent first, in its own durable log write: a key that is missing, a chain that
            # is broken or a disk that refuses stops here, before any byte of the verbatim moves
            # (issue 24: it used to be sent first and the event written after)
            log = self.audit_log()
            intent = log.append(EVENT_SUBPROCESS, {**call, "duration_ms": None, "success": None}, story=sid)
        except BaseException:
            buf[:] = b"\0" * len(buf)
            raise
        ok = False
        duration = 0
        try:
            result = run_sanitizer(buf, self.llm_table())
            duration = result.duration_ms
            ok = True
        finally:
            buf[:] = b"\0" * len(buf)
            outcome = {**call, "duration_ms": duration, "success": ok, "intent_sig": intent["sig"]}
            if ok:
                log.append(EVENT_SUBPROCESS_DONE, outcome, story=sid)
            else:  # the sanitizer's own error is the one reported; the outcome event is best effort
                with contextlib.suppress(LorekeeperError):
                    log.append(EVENT_SUBPROCESS_DONE, outcome, story=sid)
        summary = {s: " ".join(result.summary.get(s, "").split())[:MAX_SECTION] for s in SECTIONS}
        from lorekeeper.privacy.pii import check_text  # the PII gate's patterns load when a summary is checked

        check_text("\n".join(summary.values()))  # ERR_PII_DETECTED: the draft is dropped
        return Draft(sid, domain.strip(), project.strip(), summary, result.sanitizer)

    def save(self, draft: Draft, *, today: date | None = None) -> ClarificationInfo:
        """The validated summary: the PII gate once more, the row, the markdown file, a signed event."""
        return self.save_many([(draft, today or date.today())])[0]

    def save_many(self, drafts: list[tuple[Draft, date]]) -> list[ClarificationInfo]:
        """`save` of several validated summaries (each with its date): the PII gate on all of them
        first, then their rows and signed events in one transaction (issue 26: an import of many
        files paid a transaction each), then the markdown files once it has committed."""
        for draft, _day in drafts:
            from lorekeeper.privacy.pii import check_text

            check_text("\n".join(draft.summary.values()))
        out: list[ClarificationInfo] = []
        files: list[tuple[str, str]] = []
        if not drafts:
            return out
        with self.store.write() as s:
            for draft, day in drafts:
                row = s.get(Clarification, draft.story)
                if row is None:
                    row = Clarification(story=draft.story)
                    s.add(row)
                row.domain, row.project = draft.domain, draft.project
                row.date = day.isoformat()
                row.retention_until = retention_until(day).isoformat()
                for k in SECTIONS:
                    setattr(row, k, draft.summary[k])
                s.flush()
                files.append((draft.story, render_markdown(row)))
                info = _info(row, self.layout)
                out.append(info)
                self.audit_log().record(  # in the row's transaction (issue 24); the file after the commit
                    EVENT_SAVED,
                    {
                        "story": draft.story,
                        "domain": draft.domain,
                        "project": draft.project,
                        "retention_until": info.retention_until,
                    },
                    story=draft.story,
                )
        self.layout.clarifications.mkdir(parents=True, exist_ok=True)
        for story, text in files:
            atomic_write_text(self.layout.clarification_file(story), text)
        return out

    def add_validated(
        self, story: str, domain: str, project: str, summary: dict[str, str], *, day: date | None = None
    ) -> ClarificationInfo:
        """A summary already validated elsewhere (the demo, an import): the PII gate, then `save`."""
        return self.save(self._validated(story, domain, project, summary), today=day)

    @staticmethod
    def _validated(story: str, domain: str, project: str, summary: dict[str, str]) -> Draft:
        return Draft(check_story_id(story), domain, project, {k: summary.get(k, "") for k in SECTIONS}, "import")

    def import_files(self, progress: Callable[[int, int], None] | None = None) -> tuple[int, list[tuple[str, str]]]:
        """`clarifications/*.md` not in the store yet (validated files placed by hand), through the
        PII gate: every file is read and checked first (one bad file is reported, the others
        imported), then the good ones are saved together (`save_many`). `progress(done, total)`
        per file read."""
        bad: list[tuple[str, str]] = []
        folder = self.layout.clarifications
        if not folder.is_dir():
            return 0, bad
        with self.store.session() as s:
            known = set(s.scalars(select(Clarification.story)))
        todo: list[tuple[Draft, date]] = []
        paths = sorted(folder.glob("*-clarifications.md"))
        for i, p in enumerate(paths, 1):
            if progress is not None:
                progress(i, len(paths))
            try:
                data = parse_markdown(read_regular_text(p, what="clarification file"))  # a FIFO: reported
                story = check_story_id(data["story"] or p.name.removesuffix("-clarifications.md"))
                if story in known:
                    continue
                from lorekeeper.privacy.pii import find_pii

                if find_pii("\n".join(data[k] for k in SECTIONS)):
                    bad.append((p.name, "ERR_PII_DETECTED: the summary holds personal data; not imported"))
                    continue
                day = date.fromisoformat(data["date"]) if data["date"] else date.today()
                todo.append((self._validated(story, data["domain"], data["project"], data), day))
            except Exception as exc:  # noqa: BLE001 - one bad file is reported, the others imported
                bad.append((p.name, str(exc)))
        self.save_many(todo)
        return len(todo), bad

    # ------------------------------------------------------------------ reads
    def get(self, story: str) -> ClarificationInfo:
        with self.store.session() as s:
            row = s.get(Clarification, check_story_id(story))
            if row is None:
                raise NotFoundError(f"no clarification for {story}. `lorekeeper clarify {story} ...` captures one.")
            return _info(row, self.layout)

    def list(self, *, domain: str | None = None, project: str | None = None) -> list[ClarificationInfo]:
        stmt = select(Clarification).order_by(Clarification.date.desc(), Clarification.story)
        if domain:
            stmt = stmt.where(Clarification.domain == domain)
        if project:
            stmt = stmt.where(Clarification.project == project)
        with self.store.session() as s:
            return [_info(r, self.layout) for r in s.scalars(stmt)]

    # ------------------------------------------------------------------ Purgeable
    def count_for_story(self, story: str) -> int:
        with self.store.session() as s:
            n = int(s.get(Clarification, story) is not None)
        return n + int(self.layout.clarification_file(story).exists())

    def erase_story(self, story: str) -> int:
        n = 0
        with self.store.write() as s:
            row = s.get(Clarification, story)
            if row is not None:
                s.delete(row)
                n += 1
        f = self.layout.clarification_file(story)
        if f.exists():
            f.unlink()
            n += 1
        return n

    def verify_erased(self, story: str) -> bool:
        return self.count_for_story(story) == 0
