"""Learnings in the store: add, edit, archive/restore, list, import/export learnings.md, the prompt block.

Each learning belongs to a project ("" = no project). The prompt of a project carries the active
learnings of that project plus the active learnings promoted to the `global` scope, from any
project: the seed keeps corrections per project ("Odoo corrections do not affect the React bot"),
and seed 004's promotion to `global` is what lets a rule cross that line.
"""

from __future__ import annotations

import builtins  # `list` is also a method name here
import json
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol, TypeVar

from sqlalchemy import ColumnElement, Select, func, or_, select
from sqlalchemy.orm import Session

from lorekeeper.errors import InvalidInputError, InvalidSpecError, NotFoundError
from lorekeeper.fsutil import atomic_write_text, read_regular_bytes, shown_path
from lorekeeper.learnings import mdformat
from lorekeeper.learnings.block import BUDGET, HEADER, LearningsBlock, learnings_block
from lorekeeper.store.engine import Store
from lorekeeper.store.models import GLOBAL, Learning, LearningFile, utcnow
from lorekeeper.store.ordering import order_clauses
from lorekeeper.store.scopes import validate_project

# Any SELECT (one entity, some columns or a count): the filters below keep its row type.
_Stmt = TypeVar("_Stmt", bound="Select[*tuple[Any, ...]]")

#: the columns `list(order_by=...)` sorts on (the Learnings table's headers)
LIST_SORT: dict[str, Any] = {
    "created_at": Learning.created_at,
    "project": Learning.project,
    "source": Learning.source,
    "scope": Learning.scope,
    "status": Learning.status,
    "rule": Learning.rule,
    "tags": Learning.tags,
}

SOURCES = ("fixit", "negative", "manual", "import")
SCOPES = mdformat.SCOPES
STATUSES = mdformat.STATUSES
# A rule must fit in the LEARNINGS block on its own (the header line, a newline and "- " included):
# a longer one would empty the whole block (issue 17), so it is refused, naming the limit.
MAX_RULE_CHARS = BUDGET - len(HEADER) - len("\n- ")


class RowVerifierLike(Protocol):
    def filter(self, rows: Iterable[Any], *, purpose: str = "") -> builtins.list[Any]: ...


# Called inside each change's transaction with (event name, plain data): the audit chain hooks in here.
# It returns a warning when it could not record the change (kept for `take_audit_warnings`), else None.
EventHook = Callable[[str, dict[str, object]], str | None]
EXPORT_FILE = "learnings.md"


def _aware(dt: datetime) -> datetime:
    """SQLite hands back naive datetimes; everything is stored in UTC."""
    return dt.replace(tzinfo=UTC) if dt.tzinfo is None else dt.astimezone(UTC)


@dataclass(frozen=True)
class LearningInfo:
    id: int
    project: str
    rule: str
    source: str
    stamp: str
    created_at: datetime
    updated_at: datetime
    story: str
    domain: str
    tags: tuple[str, ...]
    scope: str
    status: str
    extra: dict[str, object] = field(default_factory=dict)
    lead: str = ""  # the text just above it in the learnings.md it came from
    existed: bool = False  # `add` found this active learning already saying the same rule: nothing written

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "project": self.project or None,
            "rule": self.rule,
            "source": self.source,
            "created_at": self.stamp,
            "story": self.story or None,
            "domain": self.domain or None,
            "tags": list(self.tags),
            "scope": self.scope,
            "status": self.status,
        }

    def entry(self) -> mdformat.Entry:
        return mdformat.Entry(
            stamp=self.stamp,
            source=self.source,
            rule=self.rule,
            story=self.story,
            domain=self.domain,
            tags=self.tags,
            scope=self.scope,
            status=self.status,
            extra=dict(self.extra),
            lead=self.lead,
        )


def _info(row: Learning) -> LearningInfo:
    created = _aware(row.created_at)
    try:
        extra = json.loads(row.extra) if row.extra else {}
    except ValueError:
        extra = {}
    return LearningInfo(
        id=row.id,
        project=row.project,
        rule=row.rule,
        source=row.source,
        stamp=row.stamp or mdformat.format_stamp(created),
        created_at=created,
        updated_at=_aware(row.updated_at),
        story=row.story,
        domain=row.domain,
        tags=tuple(t for t in row.tags.split(",") if t),
        scope=row.scope,
        status=row.status,
        extra=extra if isinstance(extra, dict) else {},
        lead=row.lead or "",
    )


def clean_rule(rule: str) -> str:
    """A rule is one line (one `- rule` line in the file and the block): whitespace runs become one space."""
    text = " ".join((rule or "").split())
    if not text:
        raise InvalidInputError("a learning needs a rule: write the correction as one sentence")
    if len(text) > MAX_RULE_CHARS:
        raise InvalidInputError(
            f"the rule is {len(text)} characters; the limit is {MAX_RULE_CHARS} (the LEARNINGS block holds "
            f"{BUDGET} characters with its header): shorten it or split it into several learnings"
        )
    return text


def clean_tags(tags: Iterable[str] | str | None) -> tuple[str, ...]:
    if tags is None:
        return ()
    items = tags.split(",") if isinstance(tags, str) else list(tags)
    out: list[str] = []
    for t in items:
        t = " ".join(str(t).split())
        if t and t not in out:
            if "," in t:
                raise InvalidInputError(f"a tag cannot contain a comma: {t!r}")
            out.append(t)
    return tuple(out)


def _check_choice(value: str, allowed: Sequence[str], what: str) -> str:
    if value not in allowed:
        raise InvalidInputError(f"invalid {what} {value!r}: use one of {', '.join(allowed)}")
    return value


@dataclass
class ImportReport:
    added: int = 0
    unchanged: int = 0
    skipped_lines: list[tuple[int, str]] = field(default_factory=list)
    ids: list[int] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {
            "added": self.added,
            "unchanged": self.unchanged,
            "skipped_lines": [{"line": n, "text": t} for n, t in self.skipped_lines],
        }


class LearningService:
    export_name = "learnings"  # lorekeeper.protocols.Exportable: export_to writes learnings.md

    def __init__(
        self, store: Store, on_event: EventHook | None = None, verifier: Callable[[], RowVerifierLike] | None = None
    ) -> None:
        self.store = store
        self.on_event = on_event
        # issue 18: the rows a prompt carries are checked (`RowVerifier.filter`); a row that does not
        # verify (edited in the database) is skipped and reported, and without the key none is injected
        self.verifier = verifier
        self.revision = 0  # bumped on each change: panels and caches compare it
        self.audit_warnings: list[str] = []  # changes the audit chain could not sign (see audit_hook)

    def _emit(self, name: str, data: dict[str, object]) -> None:
        self.revision += 1
        if self.on_event is not None:
            warning = self.on_event(name, data)
            if warning:
                self.audit_warnings.append(warning)

    def take_audit_warnings(self) -> list[str]:
        out, self.audit_warnings = self.audit_warnings, []
        return out

    # ------------------------------------------------------------------ writes
    def add(
        self,
        rule: str,
        *,
        project: str | None = None,
        source: str = "manual",
        story: str = "",
        domain: str = "",
        tags: Iterable[str] | str | None = None,
        scope: str = mdformat.DEFAULT_SCOPE,
        created_at: datetime | None = None,
    ) -> LearningInfo:
        text = clean_rule(rule)
        proj = validate_project(project)
        _check_choice(source, SOURCES, "source")
        _check_choice(scope, SCOPES, "scope")
        tag_list = clean_tags(tags)
        # whole seconds, as the file's timestamp says: created_at and the exported stamp agree
        when = (_aware(created_at) if created_at else utcnow()).replace(microsecond=0)
        # the same rule already active in the project (and trusted): said once, injected once (issue 31)
        with self.store.session() as s:
            same = list(
                s.scalars(
                    select(Learning)
                    .where(Learning.project == proj, Learning.rule == text, Learning.status == "active")
                    .order_by(Learning.id)
                )
            )
        kept = self._verified(same, "add") if same else []
        if kept:
            return replace(_info(kept[0]), existed=True)
        with self.store.write() as s:
            row = Learning(
                project=proj,
                rule=text,
                source=source,
                stamp=mdformat.format_stamp(when),
                created_at=when,
                updated_at=when,
                story=" ".join(story.split()),
                domain=" ".join(domain.split()),
                tags=",".join(tag_list),
                scope=scope,
                status="active",
            )
            s.add(row)
            s.flush()
            info = _info(row)
            self._emit("learning_added", info.to_dict())  # the signed event commits with the learning
        return info

    def edit(
        self,
        learning_id: int,
        *,
        rule: str | None = None,
        story: str | None = None,
        domain: str | None = None,
        tags: Iterable[str] | str | None = None,
        scope: str | None = None,
    ) -> LearningInfo:
        new_rule = clean_rule(rule) if rule is not None else None
        if scope is not None:
            _check_choice(scope, SCOPES, "scope")
        tag_list = clean_tags(tags) if tags is not None else None
        with self.store.write() as s:
            row = self._row(s, learning_id)
            if new_rule is not None:
                row.rule = new_rule
            if story is not None:
                row.story = " ".join(story.split())
            if domain is not None:
                row.domain = " ".join(domain.split())
            if tag_list is not None:
                row.tags = ",".join(tag_list)
            if scope is not None:
                row.scope = scope
            row.updated_at = utcnow()
            s.flush()
            info = _info(row)
            self._emit("learning_edited", info.to_dict())
        return info

    def set_status(self, ids: Iterable[int], status: str) -> list[LearningInfo]:
        """Archive or restore several learnings in one transaction (all or nothing)."""
        _check_choice(status, STATUSES, "status")
        wanted = list(dict.fromkeys(int(i) for i in ids))
        if not wanted:
            raise InvalidInputError("no learning selected")
        with self.store.write() as s:
            rows = {r.id: r for r in s.scalars(select(Learning).where(Learning.id.in_(wanted)))}
            missing = [i for i in wanted if i not in rows]
            if missing:
                raise NotFoundError(
                    f"no learning with id {', '.join(map(str, missing))}. `lorekeeper learn list` shows them."
                )
            now = utcnow()
            for r in rows.values():
                if r.status != status:
                    r.status = status
                    r.updated_at = now
            s.flush()
            infos = [_info(rows[i]) for i in wanted]
            self._emit("learning_" + ("archived" if status == "archived" else "restored"), {"ids": wanted})
        return infos

    def archive(self, ids: Iterable[int]) -> list[LearningInfo]:
        return self.set_status(ids, "archived")

    def restore(self, ids: Iterable[int]) -> list[LearningInfo]:
        return self.set_status(ids, "active")

    # ------------------------------------------------------------------ reads
    @staticmethod
    def _row(s: Session, learning_id: int) -> Learning:
        row = s.get(Learning, int(learning_id))
        if row is None:
            raise NotFoundError(f"no learning with id {learning_id}. `lorekeeper learn list` shows them.")
        return row

    def get(self, learning_id: int) -> LearningInfo:
        with self.store.session() as s:
            return _info(self._row(s, learning_id))

    def _filtered(self, stmt: _Stmt, project: str | None, source: str, scope: str, status: str, search: str) -> _Stmt:
        if project is not None:
            stmt = stmt.where(Learning.project == validate_project(project))
        if source:
            stmt = stmt.where(Learning.source == source)
        if scope:
            stmt = stmt.where(Learning.scope == scope)
        if status and status != "all":
            stmt = stmt.where(Learning.status == status)
        if search:
            like = f"%{search}%"
            stmt = stmt.where(
                or_(
                    Learning.rule.ilike(like),
                    Learning.story.ilike(like),
                    Learning.domain.ilike(like),
                    Learning.tags.ilike(like),
                )
            )
        return stmt

    def list(
        self,
        *,
        project: str | None = None,
        source: str = "",
        scope: str = "",
        status: str = "active",
        search: str = "",
        limit: int | None = None,
        offset: int = 0,
        newest_first: bool = True,
        order_by: str | None = None,
        descending: bool = True,
    ) -> list[LearningInfo]:
        """Filtered learnings; `project=None` means every project, `""` the learnings without one.
        `order_by` (a key of `LIST_SORT`, ties broken by id in the same direction) overrides
        `newest_first`."""
        stmt = self._filtered(select(Learning), project, source, scope, status, search)
        if order_by is not None:
            stmt = stmt.order_by(*order_clauses(LIST_SORT, order_by, descending, Learning.id))
        elif newest_first:
            stmt = stmt.order_by(Learning.created_at.desc(), Learning.id.desc())
        else:
            stmt = stmt.order_by(Learning.id)
        if limit is not None:
            stmt = stmt.limit(limit)
        if offset:
            stmt = stmt.offset(offset)
        with self.store.session() as s:
            return [_info(r) for r in s.scalars(stmt)]

    def count(
        self, *, project: str | None = None, source: str = "", scope: str = "", status: str = "active", search: str = ""
    ) -> int:
        stmt = self._filtered(select(func.count(Learning.id)), project, source, scope, status, search)
        with self.store.session() as s:
            return int(s.scalar(stmt) or 0)

    def projects(self) -> builtins.list[str]:
        with self.store.session() as s:
            return sorted(set(s.scalars(select(Learning.project).where(Learning.project != GLOBAL))))

    @staticmethod
    def _prompt_filter(proj: str) -> tuple[ColumnElement[bool], ColumnElement[bool]]:
        return (Learning.status == "active", or_(Learning.project == proj, Learning.scope == "global"))

    def for_prompt(self, project: str | None, limit: int | None = None) -> builtins.list[LearningInfo]:
        """The active rules a prompt of `project` carries, newest first."""
        proj = validate_project(project)
        stmt = (
            select(Learning).where(*self._prompt_filter(proj)).order_by(Learning.created_at.desc(), Learning.id.desc())
        )
        if limit is not None:
            stmt = stmt.limit(limit)
        with self.store.session() as s:
            rows = list(s.scalars(stmt))
        seen: set[str] = set()
        out: builtins.list[LearningInfo] = []
        for r in self._verified(rows, "prompt"):
            if r.rule not in seen:  # a rule saved twice (before `add` refused duplicates) is injected once
                seen.add(r.rule)
                out.append(_info(r))
        return out

    def _verified(self, rows: builtins.list[Learning], purpose: str) -> builtins.list[Learning]:
        """The rows whose signature verifies; none when the key cannot be loaded (fail closed)."""
        if self.verifier is None:
            return rows
        from lorekeeper.errors import LorekeeperError

        try:
            verifier = self.verifier()
        except LorekeeperError:
            return []
        kept: builtins.list[Learning] = verifier.filter(rows, purpose=f"learnings {purpose}")
        return kept

    def block(self, project: str | None, budget: int = BUDGET) -> LearningsBlock:
        """The LEARNINGS block. Each line costs at least 4 characters ("\n- " and one), so no more
        than budget // 4 rules can fit: only that many newest rows are read, however many exist."""
        proj = validate_project(project)
        rows = self.for_prompt(proj, limit=budget // 4 + 1)
        block = learnings_block(((i.id, i.rule) for i in rows), budget)
        with self.store.session() as s:
            total = int(s.scalar(select(func.count(Learning.id)).where(*self._prompt_filter(proj))) or 0)
        return LearningsBlock(block.text, block.used, total - len(block.used))

    # ------------------------------------------------------------------ learnings.md
    def export_text(self, project: str | None = None, *, include_archived: bool = True) -> str:
        """The project's learnings.md: oldest first (the seed appends), with its imported preamble if any."""
        proj = validate_project(project)
        infos = self.list(project=proj, status="all" if include_archived else "active", newest_first=False)
        with self.store.session() as s:
            lf = s.scalar(select(LearningFile).where(LearningFile.project == proj))
            pre, trailer = (lf.preamble, lf.trailer or "") if lf is not None else (None, "")
        return mdformat.render([i.entry() for i in infos], pre, trailer)

    def export_file(self, path: str | Path, project: str | None = None, *, include_archived: bool = True) -> int:
        text = self.export_text(project, include_archived=include_archived)
        atomic_write_text(Path(path), text)
        return sum(1 for line in text.splitlines() if line.startswith("- ["))

    def import_text(self, text: str, project: str | None = None, *, file: str = "learnings.md") -> ImportReport:
        """Add the file's rules to `project`; a rule already there (same time, source, text) is left alone.

        The whole file is validated before anything is written, and written in one transaction.
        """
        proj = validate_project(project)
        doc = mdformat.parse(text, file=file)
        for e in doc.entries:
            if len(e.rule) > MAX_RULE_CHARS:
                raise InvalidSpecError(
                    f"line {e.line}: the rule is {len(e.rule)} characters; the limit is {MAX_RULE_CHARS} "
                    f"(the LEARNINGS block holds {BUDGET} characters with its header)",
                    file=file,
                    field="rule",
                )
        report = ImportReport(skipped_lines=list(doc.skipped))
        with self.store.write() as s:
            # Multiset semantics: a line repeated n times in the file is kept n times, and
            # importing the same file again adds nothing.
            existing = Counter(
                (r.stamp, r.source, r.rule) for r in s.scalars(select(Learning).where(Learning.project == proj))
            )
            now = utcnow()
            for e in doc.entries:
                key = (e.stamp, e.source, e.rule)
                if existing[key] > 0:
                    existing[key] -= 1
                    report.unchanged += 1
                    continue
                row = Learning(
                    project=proj,
                    rule=e.rule,
                    source=e.source,
                    stamp=e.stamp,
                    created_at=e.created_at,
                    updated_at=now,
                    story=e.story,
                    domain=e.domain,
                    tags=",".join(e.tags),
                    scope=e.scope,
                    status=e.status,
                    extra=json.dumps(e.extra, ensure_ascii=False) if e.extra else "",
                    lead=e.lead,
                )
                s.add(row)
                s.flush()
                report.ids.append(row.id)
                report.added += 1
            if doc.entries or doc.preamble.strip():  # the file's own preamble ("" too) is what export writes
                lf = s.scalar(select(LearningFile).where(LearningFile.project == proj))
                if lf is None:
                    s.add(LearningFile(project=proj, preamble=doc.preamble, trailer=doc.trailer, updated_at=now))
                else:
                    lf.preamble = doc.preamble
                    lf.trailer = doc.trailer
                    lf.updated_at = now
            self._emit("learnings_imported", {"project": proj or None, "added": report.added, "ids": report.ids})
        return report

    def export_to(self, dest: Path) -> Path:
        """The global learnings.md (every learning, archived ones included) written to `dest`, or to
        `dest/learnings.md` when `dest` is a folder; returns the file written."""
        target = Path(dest)
        if target.is_dir():
            target = target / EXPORT_FILE
        self.export_file(target)
        return target

    def import_file(self, path: str | Path, project: str | None = None) -> ImportReport:
        p = Path(path)
        shown = shown_path(p)
        try:  # bytes, not read_text(): keep CRLF line ends as written; a FIFO or device is refused
            text = read_regular_bytes(p, what="learnings file").decode("utf-8")
        except InvalidInputError as exc:
            raise InvalidSpecError(exc.message, file=shown) from None
        except UnicodeDecodeError:
            raise InvalidSpecError("not UTF-8 text", file=shown) from None
        return self.import_text(text, project, file=shown)
