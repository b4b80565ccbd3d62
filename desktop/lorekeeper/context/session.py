"""A context session: what one agent has been sent during one conversation, and what it still holds.

The session remembers every file delivered (its mode, tokens, a digest of the text sent and of the
source, the turn it was sent, the last turn it was asked for, how often) and keeps the ledger of the
model's window (`ContextLedger`: each file once, its latest copy). Within a session:

- `pack` and `read` send only what the agent lacks: a file whose text is the one already sent, or
  whose source is unchanged since it was sent in full, becomes one line
  (`=== path [unchanged since turn N: full]`) instead of its text;
- when the ledger reaches the evict level (95% of the window) the files least worth keeping leave,
  by Reciprocal Rank Fusion of recency, frequency and relevance to the current task
  (`context/cache.py`); the files of the current turn never do. The output names what was dropped,
  and a dropped file asked again is sent in full;
- `handoff` summarises the session for another agent or role (`context/handoff.py`).

Persistence: one JSON file per session in `<workspace>/ctx-sessions/`, written atomically
(`lorekeeper.fsutil`) under a per-session file lock, so a session survives across CLI processes.
The context engine uses no store (import-linter's stand-alone contract), hence a file, not a table.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lorekeeper.context import cache, tokens
from lorekeeper.context.handoff import HandoffPackage, depth_for, handoff, render_handoff
from lorekeeper.context.intent import classify
from lorekeeper.context.ledger import (
    DEFAULT_WINDOW,
    ContextLedger,
    LedgerEntry,
    _is_test,
)
from lorekeeper.errors import InvalidInputError, NotFoundError

if TYPE_CHECKING:
    from lorekeeper.context.pack import PackResult

SESSION_DIR = "ctx-sessions"  # under the workspace
SCHEMA = 1
EVICT_TARGET = 0.80  # eviction frees the window down to this utilisation (between compress and evict)
DEFAULT_HANDOFF_BUDGET = 800  # o200k tokens
POLICIES = ("rrf", "lru")
UNKNOWN_RELEVANCE = 0.5  # a file read by name that no pack of the session has scored
NOTE_KINDS = ("decision", "open", "discovery")
NOTICE_RESERVE = 96  # o200k tokens a session pack keeps for its notice lines, so the budget holds


def pack_budget(budget: int | None, *, holding: bool = True) -> tuple[int | None, int | None]:
    """The budget for the pack inside a session delivery, and the room left for the notice.
    A session that holds nothing yet has no notice to add (nothing unchanged, nothing to evict):
    its first pack is exactly `ctx pack`'s."""
    if budget is None or budget <= 4 * NOTICE_RESERVE or not holding:
        return budget, None
    return budget - NOTICE_RESERVE, NOTICE_RESERVE


_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def _sha(data: str | bytes) -> str:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    return hashlib.sha256(raw).hexdigest()[:16]


@dataclass
class Item:
    """One file in the agent's context."""

    key: str  # path relative to the session's root (absolute outside it)
    mode: str
    tokens: int  # what its copy in the window costs
    digest: str  # of the text sent
    source: str  # of the file's bytes when sent
    sent_turn: int
    last_turn: int  # last turn it was sent or asked for (recency)
    uses: int = 1  # turns that asked for it (frequency)
    relevance: float = 0.0  # to the current task
    target: bool = False
    bodies: list[str] = field(default_factory=list)
    # every copy of this source the agent holds: digest of the text -> [mode, tokens, turn sent]
    # (a read's map and a pack's reference of one file are both in the window)
    copies: dict[str, list[Any]] = field(default_factory=dict)


@dataclass
class Turn:
    turn: int
    kind: str  # pack | read
    what: str  # the folder or file
    task: str | None
    sent_tokens: int  # what the session sent
    plain_tokens: int  # what the same call sends without a session
    unchanged: list[str] = field(default_factory=list)
    evicted: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Delivery:
    """The answer of one session call: the text to give the agent and what happened."""

    session: str
    turn: int
    text: str
    sent_tokens: int
    plain_tokens: int
    unchanged: list[str]
    resent: list[str]  # files sent again (changed, richer mode, or evicted before)
    evicted: list[dict[str, Any]]
    pressure: str
    used: int
    window: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _mode_covers(had: str, wants: str) -> bool:
    """True when a copy in mode `had` of the same source holds everything a copy in `wants` would.
    Two maps (or signatures) may keep different bodies or lines: only their texts' digests tell."""
    return had == "full" or (wants == "reference" and had in ("map", "signatures", "reference"))


class ContextSession:
    def __init__(
        self,
        sid: str,
        root: Path,
        *,
        window: int = DEFAULT_WINDOW,
        task: str | None = None,
        role: str = "coder",
        agent: str = "agent",
        policy: str = "rrf",
    ) -> None:
        if window <= 0:
            raise InvalidInputError("the context window must be a positive number of tokens")
        depth_for(role)
        if policy not in POLICIES:
            raise InvalidInputError(f"unknown eviction policy {policy!r}: use {', '.join(POLICIES)}")
        self.id = sid
        self.root = Path(root).resolve()
        self.window = window
        self.task = task
        self.role = role.lower()
        self.agent = agent
        self.policy = policy
        self.created_at = time.time()
        self.turn = 0
        self.items: dict[str, Item] = {}
        self.turns: list[Turn] = []
        self.evicted: dict[str, int] = {}  # key -> turn it was dropped
        self.notes: list[dict[str, Any]] = []
        self.relevance: dict[str, float] = {}  # every file of the latest pack -> relevance to its task

    # -- state --------------------------------------------------------------------------------

    def ledger(self) -> ContextLedger:
        led = ContextLedger(self.window)
        for it in self.items.values():
            led.record(LedgerEntry(it.key, it.mode, it.tokens, it.tokens, it.relevance, it.target))
        return led

    def _key(self, path: Path) -> str:
        p = Path(path).resolve()
        try:
            return p.relative_to(self.root).as_posix() if self.root.is_dir() else p.as_posix()
        except ValueError:
            return p.as_posix()

    def _path(self, key: str) -> Path:
        p = Path(key)
        return p if p.is_absolute() else (self.root / key if self.root.is_dir() else self.root)

    def _source(self, key: str) -> str:
        try:
            return _sha(self._path(key).read_bytes())
        except OSError:
            return ""

    def _already(self, key: str, digest: str, mode: str, source: str) -> tuple[Item, str, int] | None:
        """(item, mode, turn) of the agent's copy of `key` that makes sending this text useless."""
        it = self.items.get(key)
        if it is None:
            return None
        if digest in it.copies:
            m, _, t = it.copies[digest]
            return it, str(m), int(t)
        if source and it.source == source:
            for m, _, t in sorted(it.copies.values(), key=lambda c: c[2]):
                if _mode_covers(str(m), mode):
                    return it, str(m), int(t)
        return None

    def _record(
        self,
        key: str,
        mode: str,
        sent: int,
        digest: str,
        source: str,
        *,
        relevance: float,
        used: bool,
        target: bool,
        bodies: list[str],
    ) -> None:
        """The agent now holds this text of `key`: a copy added (same source) or the only one."""
        old = self.items.get(key)
        copies = dict(old.copies) if old is not None and old.source == source else {}
        copies[digest] = [mode, sent, self.turn]
        self.items[key] = Item(
            key,
            mode,
            sum(int(c[1]) for c in copies.values()),
            digest,
            source,
            self.turn,
            self.turn,
            (old.uses if old else 0) + (1 if used or old is None else 0),
            relevance,
            target or bool(old and old.target),
            bodies,
            copies,
        )
        self.evicted.pop(key, None)

    def _touch(self, it: Item, relevance: float | None, used: bool) -> None:
        it.last_turn = self.turn
        if used:
            it.uses += 1
        if relevance is not None:
            it.relevance = relevance

    # -- calls --------------------------------------------------------------------------------

    def pack(self, *, task: str | None = None, budget: int | None = None, mode: str = "auto") -> Delivery:
        """Pack the session's root; what the agent already holds comes back as one line each."""
        from lorekeeper.context.pack import pack

        task = task or self.task
        # The session's notice (files held, files evicted) goes on top of the pack: room is kept
        # for it so that the whole delivery stays within the budget the agent asked for.
        inner, notice = pack_budget(budget, holding=bool(self.items))
        result = pack(self.root, task=task, budget=inner, mode=mode)
        return self.apply_pack(result, task, notice_budget=notice)

    def apply_pack(self, result: PackResult, task: str | None, notice_budget: int | None = None) -> Delivery:
        self.turn += 1
        self.task = task
        rel_of = {e.rel: e for e in result.entries}
        unchanged: list[str] = []
        resent: list[str] = []
        here: set[str] = set()
        text = result.text
        pos = 0
        for rel, section in sorted(result.sections.items(), key=lambda kv: text.find(kv[1])):
            e = rel_of[rel]
            used = e.mode == "full" or bool(e.bodies)
            digest, source = _sha(section), self._source(rel)
            here.add(rel)
            have = self._already(rel, digest, e.mode, source)
            if have is not None:
                line = f"=== {rel} [unchanged since turn {have[2]}: {have[1]}]\n"
                at = text.find(section, pos)
                if at >= 0 and tokens.count(line) <= tokens.count(section):  # never longer than the section
                    text = text[:at] + line + text[at + len(section) :]
                    pos = at + len(line)
                unchanged.append(rel)
                self._touch(have[0], e.relevance, used)
                continue
            at = text.find(section, pos)
            if at >= 0:
                pos = at + len(section)
            if rel in self.items or rel in self.evicted:
                resent.append(rel)
            self._record(
                rel,
                e.mode,
                e.sent_tokens,
                digest,
                source,
                relevance=e.relevance,
                used=used,
                target=e.relevance >= 0.9,
                bodies=list(e.bodies),
            )
        self.relevance = {rel: round(e.relevance, 4) for rel, e in rel_of.items()}
        for rel, rv in self.relevance.items():  # relevance to the current task, for every file held
            if rel in self.items:
                self.items[rel].relevance = rv
        return self._deliver(
            "pack", str(self.root), task, text, tokens.count(result.text), unchanged, resent, here, notice_budget
        )

    def read(self, path: Path, *, mode: str = "auto", task: str | None = None, budget: int | None = None) -> Delivery:
        """Read one file; one line if the agent holds this text (or the whole unchanged file)."""
        from lorekeeper.context.read import read_file

        res = read_file(Path(path), mode=mode, task=task or self.task, budget=budget)
        self.turn += 1
        if task:
            self.task = task
        key = self._key(Path(path))
        body = res.text
        digest, source = _sha(body), self._source(key)
        have = self._already(key, digest, res.rendered.mode, source)
        plain = tokens.count(body)
        # relevance to the task: the latest pack scored every file; a file it did not see counts as
        # middling (asked for by name, but not known to match the task)
        relevance = self.relevance.get(key, UNKNOWN_RELEVANCE)
        if have is not None:
            self._touch(have[0], relevance, True)
            line = f"=== {key} [unchanged since turn {have[2]}: {have[1]}]\n"
            return self._deliver("read", key, task, line, plain, [key], [], {key})
        resent = [key] if key in self.items or key in self.evicted else []
        self._record(
            key,
            res.rendered.mode,
            plain,
            digest,
            source,
            relevance=relevance,
            used=True,
            target=False,
            bodies=list(res.rendered.bodies),
        )
        return self._deliver("read", key, task, body, plain, [], resent, {key})

    def _deliver(
        self,
        kind: str,
        what: str,
        task: str | None,
        text: str,
        plain: int,
        unchanged: list[str],
        resent: list[str],
        protect: set[str],
        notice_budget: int | None = None,
    ) -> Delivery:
        dropped = self.evict_if_needed(protect)
        lines: list[str] = []
        if unchanged:
            lines.append(
                f"# session {self.id} turn {self.turn}: {len(unchanged)} files you already hold are one line "
                "each ('unchanged since turn N')"
            )
        if dropped:
            head = (
                f"# evicted from your context (the {self.window:,}-token window was full; now under "
                f"{EVICT_TARGET:.0%}; asked again, they are sent in full): "
            )
            names = [f"{d['path']} ({d['tokens']:,} tokens, last used turn {d['last_turn']})" for d in dropped]
            line = head + ", ".join(names)
            if notice_budget is not None:  # keep the notice in the room the pack left for it
                room = notice_budget - sum(tokens.count(x) + 1 for x in lines)
                shown = len(names)
                while shown and tokens.count(line) > room:
                    shown -= 1
                    line = head + ", ".join(names[:shown]) + f", and {len(names) - shown} more (`ctx session status`)"
            lines.append(line)
        if lines:
            text = "\n".join(lines) + "\n" + text
        sent = tokens.count(text)
        self.turns.append(Turn(self.turn, kind, what, task, sent, plain, list(unchanged), dropped))
        led = self.ledger()
        return Delivery(
            self.id,
            self.turn,
            text,
            sent,
            plain,
            unchanged,
            resent,
            dropped,
            led.pressure(),
            led.used,
            self.window,
        )

    def evict_if_needed(self, protect: set[str]) -> list[dict[str, Any]]:
        """At the evict level, drop files (never those of `protect`) until the window is back under
        EVICT_TARGET; in the session's policy order (RRF, or LRU for comparison)."""
        led = self.ledger()
        if led.pressure() != "evict":
            return []
        entries = [
            cache.CacheEntry(it.key, float(it.last_turn), it.uses, it.tokens, it.relevance)
            for it in self.items.values()
            if it.key not in protect
        ]
        order = cache.eviction_order(entries) if self.policy == "rrf" else cache.lru_order(entries)
        keys = cache.evict(entries, led.used - int(self.window * EVICT_TARGET), order)
        out = []
        for key in keys:
            it = self.items.pop(key)
            self.evicted[key] = self.turn
            out.append({"path": key, "tokens": it.tokens, "mode": it.mode, "last_turn": it.last_turn, "uses": it.uses})
        return out

    def note(self, text: str, kind: str = "decision") -> dict[str, Any]:
        if kind not in NOTE_KINDS:
            raise InvalidInputError(f"unknown note kind {kind!r}: use {', '.join(NOTE_KINDS)}")
        if not text.strip():
            raise InvalidInputError("a note needs some text")
        n = {"kind": kind, "text": text.strip(), "turn": self.turn}
        self.notes.append(n)
        return n

    # -- reports ------------------------------------------------------------------------------

    def keep_order(self) -> list[Item]:
        """The items, most worth keeping first (the reverse of the eviction order)."""
        entries = [
            cache.CacheEntry(it.key, float(it.last_turn), it.uses, it.tokens, it.relevance)
            for it in self.items.values()
        ]
        order = cache.eviction_order(entries) if self.policy == "rrf" else cache.lru_order(entries)
        return [self.items[k] for k in reversed(order)]

    def totals(self) -> dict[str, Any]:
        sent = sum(t.sent_tokens for t in self.turns)
        plain = sum(t.plain_tokens for t in self.turns)
        return {
            "turns": len(self.turns),
            "sent_tokens": sent,
            "plain_tokens": plain,
            "saved_tokens": plain - sent,
            "ratio": round(sent / plain, 4) if plain else 1.0,
            "unchanged_lines": sum(len(t.unchanged) for t in self.turns),
            "evicted": sum(len(t.evicted) for t in self.turns),
        }

    def status(self) -> dict[str, Any]:
        led = self.ledger()
        return {
            "session": self.id,
            "root": str(self.root),
            "role": self.role,
            "agent": self.agent,
            "policy": self.policy,
            "task": self.task,
            "turn": self.turn,
            "window": self.window,
            "used": led.used,
            "utilization": round(led.utilization, 4),
            "pressure": led.pressure(),
            "totals": self.totals(),
            "files": [
                {
                    "path": it.key,
                    "mode": it.mode,
                    "tokens": it.tokens,
                    "sent_turn": it.sent_turn,
                    "last_turn": it.last_turn,
                    "uses": it.uses,
                    "relevance": round(it.relevance, 4),
                }
                for it in self.keep_order()
            ],
            "evicted": [{"path": k, "turn": t} for k, t in sorted(self.evicted.items())],
            "notes": list(self.notes),
            "turns": [asdict(t) for t in self.turns],
        }

    def open_items(self) -> list[str]:
        """What the receiving agent should know is missing or stale."""
        out = [n["text"] for n in self.notes if n["kind"] == "open"]
        for it in sorted(self.items.values(), key=lambda x: x.key):
            if it.source and self._source(it.key) not in (it.source, ""):
                out.append(f"{it.key} changed on disk since it was sent at turn {it.sent_turn}: re-read it")
        for key, turn in sorted(self.evicted.items()):
            out.append(f"{key} was evicted at turn {turn}: re-read it if the task needs it")
        intent = classify(self.task)
        if intent.task_type in ("fix_bug", "test", "refactor"):
            held = [it for it in self.items.values() if it.mode == "full" or it.bodies]
            if held and not any(_is_test(it.key) and (it.mode == "full" or it.bodies) for it in held):
                out.append("no test file was read in this session: find or write the test of the change")
        return out

    def handoff(
        self, to_role: str = "reviewer", *, to_agent: str | None = None, budget: int = DEFAULT_HANDOFF_BUDGET
    ) -> HandoffPackage:
        if budget <= 0:
            raise InvalidInputError("the hand-off budget must be a positive number of tokens")
        depth = depth_for(to_role)
        found = [n["text"] for n in self.notes if n["kind"] == "discovery"]
        knowledge = {f"discovery:{i}": text for i, text in enumerate(found, start=1)}
        pkg = handoff(self.agent, to_agent or to_role, to_role, classify(self.task), self.ledger(), knowledge)
        snap = pkg.ledger
        pkg.ledger = {k: snap[k] for k in ("window", "used", "utilization", "pressure")}  # files are below
        pkg.decisions = [n["text"] for n in self.notes if n["kind"] == "decision"]
        pkg.open_items = self.open_items()
        ordered = self.keep_order()
        full = {it.key for it in sorted(ordered, key=lambda x: (-x.relevance, -x.uses, x.key))[: depth.max_files_full]}
        pkg.files = [
            {
                "path": it.key,
                "mode": it.mode,
                "tokens": it.tokens,
                "sent_turn": it.sent_turn,
                "uses": it.uses,
                "relevance": round(it.relevance, 4),
                "advice": "full" if it.key in full else depth.preferred_mode,
            }
            for it in ordered
        ]
        return render_handoff(pkg, budget, f"of session {self.id}")

    # -- persistence --------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "id": self.id,
            "root": str(self.root),
            "window": self.window,
            "task": self.task,
            "role": self.role,
            "agent": self.agent,
            "policy": self.policy,
            "created_at": self.created_at,
            "turn": self.turn,
            "items": [asdict(it) for it in self.items.values()],
            "turns": [asdict(t) for t in self.turns],
            "evicted": self.evicted,
            "notes": self.notes,
            "relevance": self.relevance,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ContextSession:
        if data.get("schema") != SCHEMA:
            raise InvalidInputError(f"context session {data.get('id')!r} has an unknown schema: end it and start anew")
        s = cls(
            data["id"],
            Path(data["root"]),
            window=int(data["window"]),
            task=data.get("task"),
            role=data.get("role", "coder"),
            agent=data.get("agent", "agent"),
            policy=data.get("policy", "rrf"),
        )
        s.created_at = float(data.get("created_at", 0.0))
        s.turn = int(data["turn"])
        s.items = {d["key"]: Item(**d) for d in data["items"]}
        s.turns = [Turn(**t) for t in data["turns"]]
        s.evicted = {str(k): int(v) for k, v in data["evicted"].items()}
        s.notes = list(data["notes"])
        s.relevance = {str(k): float(v) for k, v in data.get("relevance", {}).items()}
        return s


class SessionStore:
    """The sessions of one workspace: `<workspace>/ctx-sessions/<id>.json`."""

    def __init__(self, workspace: Path) -> None:
        self.dir = Path(workspace) / SESSION_DIR

    def _file(self, sid: str) -> Path:
        if not _ID.match(sid):
            raise InvalidInputError(f"invalid session id {sid!r}: letters, digits, '-', '_' and '.', at most 64")
        return self.dir / f"{sid}.json"

    def start(
        self,
        root: Path,
        *,
        sid: str | None = None,
        window: int = DEFAULT_WINDOW,
        task: str | None = None,
        role: str = "coder",
        agent: str = "agent",
        policy: str = "rrf",
    ) -> ContextSession:
        root = Path(root)
        if not root.exists():
            raise InvalidInputError(f"{root} does not exist: give the folder (or file) the agent works on")
        sid = sid or "s-" + secrets.token_hex(4)
        path = self._file(sid)
        if path.exists():
            raise InvalidInputError(f"context session {sid!r} already exists: end it or choose another id")
        s = ContextSession(sid, root, window=window, task=task, role=role, agent=agent, policy=policy)
        self.save(s)
        return s

    def load(self, sid: str) -> ContextSession:
        path = self._file(sid)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise NotFoundError(
                f"unknown context session {sid!r}: `lorekeeper ctx session status` lists them", session=sid
            ) from None
        except (OSError, ValueError) as exc:
            raise InvalidInputError(f"context session {sid!r} is unreadable ({exc}): end it and start anew") from None
        return ContextSession.from_dict(data)

    def save(self, s: ContextSession) -> None:
        from lorekeeper.fsutil import atomic_write_text

        self.dir.mkdir(parents=True, exist_ok=True)
        atomic_write_text(self._file(s.id), json.dumps(s.to_dict(), ensure_ascii=False) + "\n")

    @contextmanager
    def editing(self, sid: str) -> Iterator[ContextSession]:
        """Load, let the caller change, save; under the session's exclusive lock (other CLI calls wait)."""
        from lorekeeper.locks import RWLock

        path = self._file(sid)
        self.dir.mkdir(parents=True, exist_ok=True)
        with RWLock(path.with_suffix(".lock")).exclusive():
            s = self.load(sid)
            yield s
            self.save(s)

    def end(self, sid: str) -> ContextSession:
        from lorekeeper.locks import RWLock

        path = self._file(sid)
        with RWLock(path.with_suffix(".lock")).exclusive():
            s = self.load(sid)
            path.unlink()
        return s

    def list(self) -> list[ContextSession]:
        if not self.dir.is_dir():
            return []
        out = []
        for f in sorted(self.dir.glob("*.json")):
            try:
                out.append(self.load(f.stem))
            except (InvalidInputError, NotFoundError):
                continue
        return out
