"""The context ledger: what was sent to the model, how full its window is, and what to do about it.

Each entry records a file's path, mode, original and sent tokens, relevance and when it was sent.
Pressure levels follow seed 002: none below 70% of the window, compress from 70%, evict from 95%
(the seed leaves 90-95% unnamed; we keep compressing there). Under pressure the re-injection plan
downgrades the least relevant files that are not targets of the task (full -> signatures), at the
evict level it also names the files to drop when downgrades are not enough, and
deficit detection names what the task needs but the context lacks (a bug fix with no test loaded
suggests the test; a config task suggests the project's config files).
"""

from __future__ import annotations

import posixpath
import time
from collections.abc import Generator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from lorekeeper.context.intent import StructuredIntent

if TYPE_CHECKING:  # pack imports the whole engine: loaded on first use only
    from lorekeeper.context.pack import PackResult

DEFAULT_WINDOW = 128_000  # tokens: a common context window size (GPT-4o, many Claude setups)
PRESSURE_COMPRESS = 0.70  # utilisation from which non-target files are downgraded
PRESSURE_EVICT = 0.95  # utilisation from which files should leave the context
PRESSURE_LEVELS = ("none", "compress", "evict")
CONFIG_FILES = (
    "pyproject.toml",
    "setup.cfg",
    "setup.py",
    "requirements.txt",
    "package.json",
    "tsconfig.json",
    "Cargo.toml",
    "go.mod",
    "pom.xml",
    "build.gradle",
    ".env.example",
    ".env",
    "Dockerfile",
    "docker-compose.yml",
    "Makefile",
)


@dataclass
class LedgerEntry:
    path: str
    mode: str
    original_tokens: int
    sent_tokens: int
    relevance: float = 0.0
    target: bool = False  # protected: the task is about this file
    alternatives: dict[str, int] = field(default_factory=dict)  # mode -> tokens it would cost
    sent_at: float = field(default_factory=time.time)

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass
class PlanStep:
    path: str
    from_mode: str
    to_mode: str
    saves: int


class ContextLedger:
    def __init__(self, window: int = DEFAULT_WINDOW) -> None:
        if window <= 0:
            raise ValueError("the context window must be a positive number of tokens")
        self.window = window
        self.entries: dict[str, LedgerEntry] = {}
        self.overhead = 0  # tokens in the window that belong to no file (a pack's header, shared imports)

    def record(self, entry: LedgerEntry) -> None:
        """Add or replace the entry of `entry.path` (a file re-sent replaces its earlier copy)."""
        self.entries[entry.path] = entry

    def remove(self, path: str) -> None:
        self.entries.pop(path, None)

    @property
    def used(self) -> int:
        return self.overhead + sum(e.sent_tokens for e in self.entries.values())

    @property
    def utilization(self) -> float:
        return self.used / self.window

    def pressure(self) -> str:
        u = self.utilization
        if u >= PRESSURE_EVICT:
            return "evict"
        if u >= PRESSURE_COMPRESS:
            return "compress"
        return "none"

    def reinjection_plan(self, target_utilization: float = PRESSURE_COMPRESS) -> list[PlanStep]:
        """Downgrades that bring the window under `target_utilization`, least relevant first.
        Target files are never touched. Empty when there is no pressure."""
        goal = int(self.window * target_utilization)
        excess = self.used - goal
        if excess <= 0:
            return []
        steps: list[PlanStep] = []
        for e in sorted(self.entries.values(), key=lambda x: (x.relevance, x.path)):
            if excess <= 0:
                break
            if e.target:
                continue
            for to in ("signatures", "reference"):
                cost = e.alternatives.get(to)
                if cost is not None and cost < e.sent_tokens and e.mode != to:
                    steps.append(PlanStep(e.path, e.mode, to, e.sent_tokens - cost))
                    excess -= e.sent_tokens - cost
                    break
        if excess > 0 and self.pressure() == "evict":
            # downgrades are not enough: the least relevant non-target files leave the context
            planned = {s.path for s in steps}
            for e in sorted(self.entries.values(), key=lambda x: (x.relevance, x.path)):
                if excess <= 0:
                    break
                if e.target or e.path in planned:
                    continue
                steps.append(PlanStep(e.path, e.mode, "evict", e.sent_tokens))
                excess -= e.sent_tokens
        return steps

    def protected(self) -> list[str]:
        return sorted(p for p, e in self.entries.items() if e.target)

    def deficits(self, intent: StructuredIntent, available: list[str]) -> list[str]:
        """What the task needs that the context lacks, as paths to add (or advice)."""
        loaded = set(self.entries)
        out: list[str] = []
        if intent.task_type in ("fix_bug", "test", "refactor"):
            targets = [p for p, e in self.entries.items() if e.target and not _is_test(p)]
            if targets and not any(_is_test(p) for p in loaded):
                for t in targets:
                    found = [a for a in available if _is_test(a) and _test_matches(a, t)]
                    if found:
                        out.extend(f for f in found if f not in out)
                    else:
                        out.append(f"no test loaded or found for {t}: write one next to it")
        if intent.task_type in ("config", "deploy"):
            for a in available:
                if posixpath.basename(a) in CONFIG_FILES and a not in loaded:
                    out.append(a)
        return out

    def snapshot(self) -> dict[str, object]:
        return {
            "window": self.window,
            "used": self.used,
            "utilization": round(self.utilization, 4),
            "pressure": self.pressure(),
            "entries": [e.to_dict() for e in sorted(self.entries.values(), key=lambda x: x.path)],
            "plan": [asdict(s) for s in self.reinjection_plan()],
        }


def _is_test(path: str) -> bool:
    base = posixpath.basename(path).lower()
    parts = path.lower().split("/")
    return (
        base.startswith("test_")
        or base.endswith(
            (
                "_test.py",
                "_test.go",
                "_test.rs",
                ".test.ts",
                ".test.js",
                ".spec.ts",
                ".spec.js",
                "test.java",
                "tests.py",
            )
        )
        or "tests" in parts[:-1]
        or "test" in parts[:-1]
        or "__tests__" in parts[:-1]
    )


def _test_matches(test_path: str, target: str) -> bool:
    stem = posixpath.splitext(posixpath.basename(target))[0].lower()
    base = posixpath.basename(test_path).lower()
    return stem in base.replace("test_", "").replace("_test", "").replace(".test", "").replace(".spec", "")


def ledger_from_pack(result: PackResult, window: int = DEFAULT_WINDOW) -> ContextLedger:
    """A ledger holding every file a pack sent (targets: the files with task bodies)."""
    ledger = ContextLedger(window)
    now = time.time()
    sent = sum(e.sent_tokens for e in result.entries if e.mode != "omitted")
    ledger.overhead = max(0, result.output_tokens - sent)
    for e in result.entries:
        if e.mode == "omitted":
            continue
        ledger.record(
            LedgerEntry(
                path=e.rel,
                mode=e.mode,
                original_tokens=e.original_tokens,
                sent_tokens=e.sent_tokens,
                relevance=e.relevance,
                target=e.relevance >= TARGET_RELEVANCE or _named(e.rel, result.intent.targets),
                alternatives=dict(e.alternatives),
                sent_at=now,
            )
        )
    return ledger


TARGET_RELEVANCE = 0.9  # a file this relevant to the task is protected from downgrades


def _named(rel: str, targets: list[str]) -> bool:
    """True when the task names this file (`entropy.rs`, `app/auth.py`)."""
    return any("." in t and (rel == t or rel.endswith("/" + t.lstrip("./"))) for t in targets)


@dataclass
class LedgerSnapshot:
    """A pack and its ledger, as plain data for the Compression ledger panel."""

    result: PackResult
    window: int
    used: int
    utilization: float
    pressure: str
    plan: list[PlanStep]
    protected: list[str]
    deficits: list[str]


def pack_with_ledger(
    root: Path,
    *,
    task: str | None = None,
    budget: int | None = None,
    mode: str = "auto",
    window: int = DEFAULT_WINDOW,
) -> Generator[tuple[int, int, str], None, LedgerSnapshot]:
    """Generator: pack `root` (yielding progress) and return its `LedgerSnapshot`."""
    from lorekeeper.context.pack import pack_steps

    result = yield from pack_steps(root, task=task, budget=budget, mode=mode)
    ledger = ledger_from_pack(result, window)
    available = [e.rel for e in result.entries]
    return LedgerSnapshot(
        result=result,
        window=window,
        used=ledger.used,
        utilization=ledger.utilization,
        pressure=ledger.pressure(),
        plan=ledger.reinjection_plan(),
        protected=ledger.protected(),
        deficits=ledger.deficits(result.intent, available),
    )
