"""The `Purgeable`s of the store, the session log, the memory indexes, the clarification summaries and the review comments.

Each one says what it holds for a story (`count_for_story`, `artefact_counts`), erases it
(`erase_story`, idempotent: a second call erases nothing and returns 0) and checks that nothing is
left (`verify_erased`). Each derives from `StoryData`, which gives every member of the
`lorekeeper.protocols.Purgeable` protocol a default, so the purge run reads typed members and never
probes for optional ones:

- `purge_artefacts`: the keys of the purge report it counts in (store, faiss, embeddings, cache,
  sessions, markdown), one journaled step each; default ("store",).
- `purge_on_retention`: whether the daily retention erases it too (default True). The retention
  erases what the clarification summary produced (its rows, vectors, traces, markdown); the
  right to be forgotten (`purge --story --force`) erases everything linked to the story.
- `purge_tables`, `purge_folders`: what it covers (tests/privacy/test_coverage.py fails when a
  table or a workspace folder holding story ids is covered by no purgeable).
- `probes(story)`: distinctive text of the story (kept in memory during the run, never written),
  searched byte for byte in every workspace file after the erasure; `others_text(stories)`: the
  live text of other stories (not residue); `retention_dates()`: (story, retention_until) it knows;
  `erase_text(probes)`: copies of a story's text elsewhere (the session log's events).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import Table, delete, func, select, text

from lorekeeper.audit.log import SessionLog
from lorekeeper.locks import RWLock
from lorekeeper.store.engine import Store
from lorekeeper.store.models import Base, Clarification

#: session-log event types that are the purge's own proof, never erased by it
PROOF_EVENTS = ("clarification_purged",)
PROBE_MIN = 20  # characters: shorter lines are too common to prove anything


def story_pattern(story: str) -> re.Pattern[str]:
    """`PD-4` as a whole id: not inside `PD-42` nor `XPD-4`."""
    return re.compile(r"(?<![\w-])" + re.escape(story) + r"(?![\w-])")


def mentions(value: Any, story: str) -> bool:
    """Whether a JSON-like value names the story anywhere (keys, strings)."""
    blob = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return bool(story_pattern(story).search(blob))


def fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class StoryData:
    """The defaults of the `Purgeable` members: one artefact, erased on retention, no probes."""

    purge_name: str
    purge_artefacts: tuple[str, ...] = ("store",)
    purge_on_retention: bool = True
    purge_tables: tuple[str, ...] = ()
    purge_folders: tuple[str, ...] = ()

    def count_for_story(self, story_id: str) -> int:
        return sum(self.artefact_counts(story_id).values())

    def artefact_counts(self, story_id: str) -> dict[str, int]:
        # a purgeable defines this or `count_for_story` (each default is written with the other)
        raise TypeError(f"{type(self).__name__} defines neither artefact_counts nor count_for_story")

    def erase_story(self, story_id: str) -> int:
        return sum(self.erase_artefacts(story_id).values())

    def erase_artefacts(self, story_id: str) -> dict[str, int]:
        # a purgeable defines this or `erase_story` (each default is written with the other)
        raise TypeError(f"{type(self).__name__} defines neither erase_artefacts nor erase_story")

    def verify_erased(self, story_id: str) -> bool:
        return self.count_for_story(story_id) == 0

    def probes(self, story_id: str) -> list[str]:
        return []

    def others_text(self, stories: Sequence[str]) -> Iterable[tuple[str, str]]:
        return ()

    def retention_dates(self) -> list[tuple[str, str]]:
        return []

    def erase_text(self, probes: Sequence[str]) -> int:
        return 0


class OneArtefact(StoryData):
    """A purgeable counted in one artefact: it implements `count_for_story` and `erase_story`."""

    def artefact_counts(self, story_id: str) -> dict[str, int]:
        return {self.purge_artefacts[0]: self.count_for_story(story_id)}

    def erase_artefacts(self, story_id: str) -> dict[str, int]:
        return {self.purge_artefacts[0]: self.erase_story(story_id)}


class StoreRows(OneArtefact):
    """Rows of store tables whose story column equals the story (one transaction, secure delete).

    On SQLite `PRAGMA secure_delete` is switched on for the connection before the DELETE, so the
    freed cells are zeroed; the purge run then checkpoints the WAL and VACUUMs (see purge.py)."""

    def __init__(
        self,
        store: Store,
        name: str,
        columns: Sequence[tuple[str, str] | tuple[str, str, dict[str, str]]],
        *,
        on_retention: bool = True,
    ) -> None:
        self.store = store
        self.purge_name = name
        # (table, column[, {other column: value}]), children before parents
        self.columns: list[tuple[str, str, dict[str, str]]] = [
            (c[0], c[1], dict(c[2]) if len(c) > 2 else {}) for c in columns
        ]
        self.purge_tables = tuple(dict.fromkeys(c[0] for c in self.columns))
        self.purge_on_retention = on_retention

    def _table(self, name: str) -> Table:
        return Base.metadata.tables[name]

    def _where(self, t: Table, column: str, extra: dict[str, str], story_id: str) -> Any:
        cond = t.c[column] == story_id
        for col, value in extra.items():
            cond = cond & (t.c[col] == value)
        return cond

    def count_for_story(self, story_id: str) -> int:
        total = 0
        with self.store.session() as s:
            for table, column, extra in self.columns:
                t = self._table(table)
                where = self._where(t, column, extra, story_id)
                total += int(s.execute(select(func.count()).select_from(t).where(where)).scalar() or 0)
        return total

    def erase_story(self, story_id: str) -> int:
        total = 0
        with self.store.write() as s:
            if self.store.is_sqlite:
                s.execute(text("PRAGMA secure_delete = ON"))
            for table, column, extra in self.columns:
                t = self._table(table)
                result = s.execute(delete(t).where(self._where(t, column, extra, story_id)))
                total += int(getattr(result, "rowcount", 0) or 0)
        return total

    def verify_erased(self, story_id: str) -> bool:
        return self.count_for_story(story_id) == 0


class SessionEvents(OneArtefact):
    """Session-log events of the story, and events of other stories whose content names it (an
    injection trace that served its clarification): replaced by signed tombstones, so the chain
    still verifies. The purge's own `clarification_purged` proof is kept. Events of the story still
    waiting in the audit outbox (committed with their change, not yet in the day file) are written
    to the log first, then tombstoned with the others: an event is never dropped."""

    purge_name = "sessions"
    purge_artefacts: tuple[str, ...] = ("sessions",)
    purge_tables: tuple[str, ...] = ("audit_outbox",)
    purge_folders: tuple[str, ...] = ("sessions",)

    def __init__(self, audit_log: Callable[[], SessionLog]) -> None:
        self.audit_log = audit_log
        self.reason = "GDPR purge"
        # issue 28: the day files indexed by story, each read once while it is unchanged (its
        # inode, size and mtime), so a plan costs the story's events, not the whole chain
        self._indexes: dict[str, tuple[tuple[int, ...], _DayIndex]] = {}

    def _match(self, story: str) -> Callable[[dict[str, Any]], bool]:
        pattern = story_pattern(story)

        def match(ev: dict[str, Any]) -> bool:
            if ev.get("type") in PROOF_EVENTS:
                return False
            if ev.get("story") == story:
                return True
            content = ev.get("content")
            data = content.get("data") if isinstance(content, dict) else None
            return bool(pattern.search(json.dumps(data, ensure_ascii=False)))

        return match

    def count_for_story(self, story_id: str) -> int:
        log = self.audit_log()
        n = self._pending(log, story_id)
        files = log.files()
        known = {str(p) for p in files}
        for gone in [k for k in self._indexes if k not in known]:
            del self._indexes[gone]
        for path in files:
            n += self._index(log, path).count(story_id)
        return n

    def _index(self, log: SessionLog, path: Path) -> _DayIndex:
        try:
            st = path.stat()
        except OSError:
            return _DayIndex([])
        stamp = (id(log), st.st_ino, st.st_size, st.st_mtime_ns)
        hit = self._indexes.get(str(path))
        if hit is not None and hit[0] == stamp:
            return hit[1]
        index = _DayIndex(log.events(files=[path]))
        self._indexes[str(path)] = (stamp, index)
        return index

    @staticmethod
    def _pending(log: SessionLog, story_id: str) -> int:
        """The story's events still in the outbox (they reach the day file at the next flush)."""
        from lorekeeper.store.models import AuditOutbox

        with log.store.session() as s:
            return int(
                s.scalar(
                    select(func.count(AuditOutbox.id)).where(
                        AuditOutbox.workspace == log.workspace_id, AuditOutbox.story == story_id
                    )
                )
                or 0
            )

    def erase_story(self, story_id: str) -> int:
        log = self.audit_log()
        log.flush_outbox()  # pending events first reach the file, then they are tombstoned too
        return log.tombstone_where(self._match(story_id), reason=self.reason)

    def erase_text(self, probes: Sequence[str]) -> int:
        """Tombstone events whose content holds one of the story's distinctive lines (residue)."""

        def match(ev: dict[str, Any]) -> bool:
            if ev.get("type") in PROOF_EVENTS:
                return False
            blob = json.dumps(ev.get("content"), ensure_ascii=False)
            return any(p in blob for p in probes)

        return self.audit_log().tombstone_where(match, reason=self.reason)

    def verify_erased(self, story_id: str) -> bool:
        return self.count_for_story(story_id) == 0


_TOKEN = re.compile(r"[\w-]+")


class _DayIndex:
    r"""One day file's countable events (not tombstoned, not the purge's proof): by the story they
    belong to, and by the `[\w-]+` words of their data, so `story_pattern(story)` (a whole id)
    is a dictionary look-up for an id that is one such word; any other id is searched in the texts."""

    def __init__(self, records: Sequence[Any]) -> None:
        self.by_story: dict[str, set[int]] = {}
        self.by_word: dict[str, set[int]] = {}
        self.texts: list[str] = []
        for rec in records:
            if rec.status == "tombstone" or rec.type in PROOF_EVENTS:
                continue
            i = len(self.texts)
            blob = json.dumps(rec.data, ensure_ascii=False)
            self.texts.append(blob)
            if rec.story is not None:
                self.by_story.setdefault(rec.story, set()).add(i)
            for word in set(_TOKEN.findall(blob)):
                self.by_word.setdefault(word, set()).add(i)

    def count(self, story: str) -> int:
        mine = self.by_story.get(story, set())
        if _TOKEN.fullmatch(story):
            return len(mine | self.by_word.get(story, set()))
        pattern = story_pattern(story)
        return len(mine | {i for i, blob in enumerate(self.texts) if pattern.search(blob)})


_FRONT = re.compile(r"\A---\n(.*?)\n---\n?", re.DOTALL)


def front_matter(text_: str) -> dict[str, str]:
    """The `key: value` lines of a markdown file's front matter (flat, as the seed's schema is)."""
    m = _FRONT.match(text_.replace("\r\n", "\n"))
    out: dict[str, str] = {}
    if not m:
        return out
    for line in m.group(1).split("\n"):
        if ":" in line and not line.startswith((" ", "\t", "#")):
            key, _, value = line.partition(":")
            out[key.strip()] = value.strip().strip("\"'")
    return out


def body_probes(text_: str) -> list[str]:
    """The summary's own lines (not its front matter nor its template headings), long enough to be distinctive."""
    body = _FRONT.sub("", text_.replace("\r\n", "\n"), count=1)
    out: list[str] = []
    for line in body.split("\n"):
        line = line.strip()
        if len(line) >= PROBE_MIN and not line.startswith("#"):
            out.append(line)
    return list(dict.fromkeys(out))


class ClarificationFiles(OneArtefact):
    """`clarifications/STORY-clarifications.md` (and any `STORY-*.md` below it, seed 004 §3.12.7)."""

    purge_name = "markdown"
    purge_artefacts: tuple[str, ...] = ("markdown",)
    purge_folders: tuple[str, ...] = ("clarifications",)

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)

    def files(self, story_id: str) -> list[Path]:
        if not self.folder.is_dir() or not story_id or "/" in story_id or story_id.startswith("."):
            return []
        found: set[Path] = set()
        for path in self.folder.rglob("*.md"):
            if not path.is_file():
                continue
            try:
                owner = front_matter(path.read_text(encoding="utf-8", errors="replace")).get("story")
            except OSError:
                continue
            if owner:  # the front matter says whose it is (PD-1-2's file is never PD-1's)
                if owner == story_id:
                    found.add(path)
            elif path.name.endswith("-clarifications.md"):
                if path.name.removesuffix("-clarifications.md") == story_id:
                    found.add(path)
            elif path.name.startswith(f"{story_id}-"):  # another STORY-*.md of the story (seed 004 §3.12.7)
                found.add(path)
        return sorted(found)

    def count_for_story(self, story_id: str) -> int:
        return len(self.files(story_id))

    def others_text(self, stories: Sequence[str]) -> Iterator[tuple[str, str]]:
        """(story, text) of every summary file that belongs to none of `stories` (live artefacts
        whose lines must not count as the purged stories' residue)."""
        if not self.folder.is_dir():
            return
        mine = {p for story in stories for p in self.files(story)}
        for path in sorted(self.folder.rglob("*.md")):
            if path in mine or not path.is_file():
                continue
            try:
                body = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            yield str(front_matter(body).get("story") or path.name.removesuffix("-clarifications.md")), body

    def probes(self, story_id: str) -> list[str]:
        out: list[str] = []
        for path in self.files(story_id):
            out.extend(body_probes(path.read_text(encoding="utf-8", errors="replace")))
        return out

    def erase_story(self, story_id: str) -> int:
        n = 0
        for path in self.files(story_id):
            path.unlink(missing_ok=True)
            fsync_dir(path.parent)
            n += 1
        return n

    def verify_erased(self, story_id: str) -> bool:
        return not self.files(story_id)

    def retention_dates(self) -> list[tuple[str, str]]:
        """(story, retention_until) of every summary file that has both."""
        out: list[tuple[str, str]] = []
        if not self.folder.is_dir():
            return out
        for path in sorted(self.folder.rglob("*.md")):
            try:
                fm = front_matter(path.read_text(encoding="utf-8", errors="replace"))
            except OSError:
                continue
            story = fm.get("story") or path.name.removesuffix("-clarifications.md")
            until = fm.get("retention_until", "")
            if story and until:
                out.append((story, until))
        return out


class ClarificationRows(StoreRows):
    """The clarification summary rows and the injection rows that served them (erased on retention)."""

    def __init__(self, store: Store) -> None:
        super().__init__(
            store,
            "clarification-rows",
            [("memory_injections", "item", {"kind": "clarification"}), ("clarifications", "story")],
        )

    def retention_dates(self) -> list[tuple[str, str]]:
        """(story, retention_until) of the store's clarification rows."""
        with self.store.session() as s:
            return [(str(a), str(b)) for a, b in s.execute(select(Clarification.story, Clarification.retention_until))]

    def others_text(self, stories: Sequence[str]) -> Iterator[tuple[str, str]]:
        """(story, text) of the summary rows of every other story."""
        with self.store.session() as s:
            rows = s.scalars(select(Clarification).where(Clarification.story.not_in(list(stories))))
            for row in rows:
                yield row.story, "\n".join((row.problem, row.criteria, row.constraints, row.priorities))


class IndexEntries(StoryData):
    """One memory corpus's derived index: FAISS vectors (`remove_ids`), `.npy` rows and cache entries
    of the story, rewritten atomically under the memory files' exclusive lock.

    Counts per artefact (faiss, embeddings, cache) for one erasure; an index that cannot be loaded
    (out of step, damaged) but names the story is deleted: it is derived, rebuilt from the store."""

    purge_artefacts: tuple[str, ...] = ("faiss", "embeddings", "cache")
    purge_folders: tuple[str, ...] = ("indexes",)

    def __init__(
        self,
        corpus: str,
        index: Callable[[], Any],
        lock_path: Path,
        item_id: Callable[[str, str], int],
        *,
        on_retention: bool = True,
    ) -> None:
        """`index`: builds the corpus's `memory.index.CorpusIndex` on first use (the workspace
        hands it in: the memory package sits above this one, and faiss and numpy load only when
        a purge or a plan needs them, not at every workspace open); `item_id`:
        `memory.layout.item_id64`."""
        self._index_factory = index
        self._index: Any = None
        self.corpus = str(corpus)
        self.purge_name = f"index:{self.corpus}"
        self.purge_on_retention = on_retention
        self.lock_path = Path(lock_path)
        self.item_id = item_id

    @property
    def index(self) -> Any:
        if self._index is None:
            self._index = self._index_factory()
        return self._index

    def _keys(self, story_id: str) -> set[int]:
        return {int(self.item_id(self.corpus, story_id))} if self.corpus == "clarifications" else set()

    def _ids(self, story_id: str) -> tuple[set[int], bool]:
        """(ids of the story in the cache, whether the files name it but cannot be loaded)."""
        meta = self.index.meta()
        entries = (meta or {}).get("entries") or {}
        ids = {
            int(i)
            for i, e in entries.items()
            if isinstance(e, dict)
            and (e.get("story") == story_id or (self.corpus == "clarifications" and e.get("key") == story_id))
        }
        broken = False
        if self.index.load() is None and any(p.is_file() for p in self.index.paths.all()):
            broken = bool(ids) or (
                self.index.paths.cache.is_file()
                and story_pattern(story_id).search(self.index.paths.cache.read_text(encoding="utf-8", errors="replace"))
                is not None
            )
        return ids, broken

    def artefact_counts(self, story_id: str) -> dict[str, int]:
        ids, broken = self._ids(story_id)
        loaded = self.index.load()
        if loaded is None:
            n = len(ids) if ids else (1 if broken else 0)
            return {"faiss": n, "embeddings": n, "cache": n}
        in_faiss = self.index.faiss_ids() & (ids | self._keys(story_id))
        rows = len(ids & set(loaded.ids))
        return {"faiss": len(in_faiss), "embeddings": rows, "cache": len(ids)}

    def erase_artefacts(self, story_id: str) -> dict[str, int]:
        with RWLock(self.lock_path).exclusive():
            counts = self.artefact_counts(story_id)
            ids, broken = self._ids(story_id)
            if broken:
                self.index.delete_files()  # derived: `Derived.rebuild` writes it again from the store
            elif ids or counts["faiss"]:
                self.index.remove(ids | self._keys(story_id))
        return counts


class HookSnapshots(OneArtefact):
    """The Claude Code hook's context snapshots (`indexes/hook-context-*.json`, lorekeeper.agents):
    caches of learnings, facts and a story's memory block, rebuilt on the next prompt. A purge
    drops every one of them (a story's learnings may sit in any project's snapshot, without the
    story's id), so no copy of erased text survives in a cache."""

    purge_name = "hook snapshots"
    purge_artefacts: tuple[str, ...] = ("cache",)
    PATTERN = "hook-context-*.json"

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)

    def files(self) -> list[Path]:
        return sorted(p for p in self.folder.glob(self.PATTERN) if p.is_file()) if self.folder.is_dir() else []

    def count_for_story(self, story_id: str) -> int:
        return len(self.files())

    def erase_story(self, story_id: str) -> int:
        n = 0
        for path in self.files():
            path.unlink(missing_ok=True)
            n += 1
        if n:
            fsync_dir(self.folder)
        return n

    def verify_erased(self, story_id: str) -> bool:
        pattern = story_pattern(story_id)
        for path in self.files():  # one rebuilt since by a prompt of another story is fine
            try:
                if pattern.search(path.read_text(encoding="utf-8", errors="replace")):
                    return False
            except OSError:
                continue
        return True


class ReviewComments(OneArtefact):
    """Comments on review items (issue 30 d3) that belong to a story; they are free text an
    operator wrote and may hold personal data about it. A comment belongs to a story when its text
    names the story (its whole id, as `story_pattern`), or when its item is linked to the story: a
    proposal built from one of the story's learnings (the proposal's `learnings` name them by id;
    so this purgeable runs before the story's learnings are erased). Facts and conflicts hold no
    story link: only their comments' text can name one.

    Erased through the ORM, so the row ledger drops their entries in the same signed write (the
    other rows still verify), with SQLite's secure delete; each comment's `review_comment` event
    (it carries the text's hash, never the text) is tombstoned first, signed like the story's own
    events, so the chain verifies and a run interrupted between the two finds the rows again.
    Only the right to be forgotten erases them (`purge --story`), not the daily retention."""

    purge_name = "review-comments"
    purge_on_retention = False
    purge_tables: tuple[str, ...] = ("review_comments",)

    def __init__(self, store: Store, audit_log: Callable[[], SessionLog]) -> None:
        self.store = store
        self.audit_log = audit_log
        self.reason = "GDPR purge"

    def _linked_proposals(self, s: Any, story_id: str) -> set[str]:
        from lorekeeper.store.models import Learning, Proposal

        learnings = {str(i) for i in s.scalars(select(Learning.id).where(Learning.story == story_id))}
        if not learnings:
            return set()
        linked: set[str] = set()
        for pid, cited in s.execute(select(Proposal.id, Proposal.learnings)):
            try:
                items = json.loads(cited or "[]")
            except ValueError:
                continue
            if any(isinstance(i, dict) and str(i.get("id")) in learnings for i in items or []):
                linked.add(str(pid))
        return linked

    def _rows(self, s: Any, story_id: str) -> list[Any]:
        from sqlalchemy import and_, or_

        from lorekeeper.store.models import ReviewComment

        pattern = story_pattern(story_id)
        linked = self._linked_proposals(s, story_id)
        cond = ReviewComment.text.contains(story_id, autoescape=True)  # then the whole-id test below
        if linked:
            cond = or_(cond, and_(ReviewComment.kind == "proposal", ReviewComment.item.in_(sorted(linked))))
        rows = s.scalars(select(ReviewComment).where(cond).order_by(ReviewComment.id)).all()
        return [r for r in rows if pattern.search(r.text or "") or (r.kind == "proposal" and r.item in linked)]

    def count_for_story(self, story_id: str) -> int:
        with self.store.session() as s:
            return len(self._rows(s, story_id))

    def erase_story(self, story_id: str) -> int:
        with self.store.session() as s:
            events = {r.event_sig for r in self._rows(s, story_id) if r.event_sig}
        if events:  # each row names its event by the content hash its signed header carries
            log = self.audit_log()
            log.flush_outbox()  # a comment's event still in the outbox reaches the file first
            log.tombstone_where(lambda ev: ev.get("content_sha256") in events, reason=self.reason)
        with self.store.write() as s:
            if self.store.is_sqlite:
                s.execute(text("PRAGMA secure_delete = ON"))
            rows = self._rows(s, story_id)
            for row in rows:
                s.delete(row)  # the ORM: the row ledger drops its entry in this signed write
        return len(rows)
