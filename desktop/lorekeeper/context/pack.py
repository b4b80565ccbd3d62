"""Pack a source tree into one text for an agent, within a token budget: the pipeline of seed 002.

Input (scan) -> intent -> relevance (graph) -> allocation (Boltzmann) -> compression (render) ->
de-duplication (MMR) -> delivery (one text, exact o200k_base count checked last).

Guarantees (each has a test):
- the output is never larger than the input (the cap is min(budget, input tokens));
- the budget is never exceeded: the final text is counted exactly and files are downgraded,
  least relevant first, until it fits;
- the output is deterministic: sorted walk, no clock or randomness in the text;
- a file that fails to parse falls back visibly (its header says so), it never vanishes;
- every file's header gives its mode and the tokens dropped from it.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Generator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from lorekeeper.context import tokens
from lorekeeper.context.allocate import boltzmann, temperature
from lorekeeper.context.intent import StructuredIntent, classify
from lorekeeper.context.mmr import shared_lines
from lorekeeper.context.parse import ParsedFile, parse_file
from lorekeeper.context.render import MODES, Rendered, render
from lorekeeper.context.scan import Skipped, scan
from lorekeeper.errors import InvalidInputError

PACK_MODES = ("auto", *MODES[:3])  # what `--mode` accepts
AUTO_DEFAULT_SHARE = 0.25  # auto mode without --budget packs to this share of the input tokens
MAX_FILL_CANDIDATES = 400  # definitions considered when spending leftover budget on whole bodies
MAP_TEXT_MAX_TOKENS = 300  # a non-code file this small is sent whole in map mode
PREAMBLE_RESERVE = 160  # tokens kept aside for the pack preamble before allocating files
DOWNGRADE = {"full": "map", "map": "signatures", "signatures": "reference"}

Progress = Callable[[int, int, str], None]


@dataclass
class FileEntry:
    rel: str
    language: str
    original_tokens: int
    sent_tokens: int  # header included: what this file costs in the pack
    mode: str
    relevance: float
    reason: str
    note: str = ""
    bodies: list[str] = field(default_factory=list)
    parse_error_line: int | None = None
    community: int = -1
    alternatives: dict[str, int] = field(default_factory=dict)  # leaner modes -> their cost

    @property
    def dropped(self) -> int:
        return max(0, self.original_tokens - self.sent_tokens)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class PackResult:
    root: str
    text: str
    entries: list[FileEntry]
    intent: StructuredIntent
    input_tokens: int
    output_tokens: int
    budget: int | None  # as asked (None: no explicit budget)
    cap: int  # the limit actually enforced: min(budget, input tokens)
    mode: str
    seconds: float
    skipped: list[Skipped]
    omitted: list[str]
    shared_imports: list[str]
    sections: dict[str, str] = field(default_factory=dict)  # rel -> its text in the pack

    def to_dict(self, with_text: bool = False) -> dict[str, Any]:
        out = {
            "root": self.root,
            "mode": self.mode,
            "task": self.intent.task,
            "intent": self.intent.to_dict(),
            "budget": self.budget,
            "cap": self.cap,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "reduction": round(1 - self.output_tokens / self.input_tokens, 4) if self.input_tokens else 0.0,
            "seconds": round(self.seconds, 3),
            "files": [e.to_dict() for e in self.entries],
            "omitted": self.omitted,
            "skipped": [asdict(s) for s in self.skipped],
            "shared_imports": len(self.shared_imports),
        }
        if with_text:
            out["text"] = self.text
        return out


def pack(root: Path, *, task: str | None = None, budget: int | None = None, mode: str = "auto",
         progress: Progress | None = None) -> PackResult:
    """Pack `root` (a folder or one file). See `pack_steps` for the generator form."""
    gen = pack_steps(root, task=task, budget=budget, mode=mode)
    while True:
        try:
            step = next(gen)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]
        if progress is not None:
            progress(*step)


def pack_steps(root: Path, *, task: str | None = None, budget: int | None = None,
               mode: str = "auto") -> Generator[tuple[int, int, str], None, PackResult]:
    """The packing pipeline as a generator yielding (done, total, text) progress; returns the result.
    Stopping the iteration between two steps cancels it (the GUI's Cancel button does that)."""
    started = time.perf_counter()
    root = Path(root)
    if mode not in PACK_MODES:
        raise InvalidInputError(f"unknown mode {mode!r}: use one of {', '.join(PACK_MODES)}")
    if budget is not None and budget <= 0:
        raise InvalidInputError(f"the budget must be a positive number of tokens, not {budget}")
    if not root.exists():
        raise InvalidInputError(f"{root} does not exist: give a folder or a file to pack")
    sources, skipped = scan(root)
    total_steps = len(sources) + 3
    files: list[ParsedFile] = []
    for i, src in enumerate(sources):
        if i % 16 == 0:
            yield (i, total_steps, f"parsing {src.rel}")
        files.append(parse_file(src.rel, src.text))
    counts = tokens.count_many([f.text for f in files])
    input_tokens = sum(counts)
    intent = classify(task)
    yield (len(sources), total_steps, "ranking files")
    need_graph = mode == "auto" or budget is not None or bool(task)
    if need_graph and files:
        from lorekeeper.context.graph import relevance

        rel = relevance(files, intent)
        file_rel, def_rel, communities = rel.files, rel.definitions, rel.community
    else:
        file_rel, def_rel, communities = [0.0] * len(files), {}, [-1] * len(files)
    yield (len(sources) + 1, total_steps, "allocating tokens")
    cap = input_tokens if budget is None else min(budget, input_tokens)
    if mode == "auto" and budget is None:
        cap = max(1, int(input_tokens * AUTO_DEFAULT_SHARE)) if input_tokens else 0
    packer = _Packer(files, counts, file_rel, def_rel, intent, mode, cap)
    packer.decide()
    yield (len(sources) + 2, total_steps, "checking the budget")
    text = packer.assemble(root, budget, skipped)
    out_tokens = tokens.count(text)
    while out_tokens > cap:
        if not packer.downgrade_one(out_tokens - cap):
            raise InvalidInputError(
                f"a budget of {budget} tokens cannot hold even the pack header ({out_tokens} tokens): raise --budget",
            )
        text = packer.assemble(root, budget, skipped)
        out_tokens = tokens.count(text)
    entries = []
    for i, pf in enumerate(files):
        r = packer.rendered.get(i)
        entries.append(
            FileEntry(
                rel=pf.rel,
                language=pf.language,
                original_tokens=counts[i],
                sent_tokens=tokens.count(r.text) if r is not None else 0,
                mode=r.mode if r is not None else "omitted",
                relevance=round(file_rel[i], 4),
                reason=packer.reasons.get(i, ""),
                note=r.note if r is not None else "",
                bodies=r.bodies if r is not None else [],
                parse_error_line=pf.error_line,
                community=communities[i],
                alternatives=packer.alternatives(i),
            )
        )
    yield (total_steps, total_steps, "done")
    return PackResult(
        root=str(root),
        text=text,
        entries=entries,
        intent=intent,
        input_tokens=input_tokens,
        output_tokens=out_tokens,
        budget=budget,
        cap=cap,
        mode=mode,
        seconds=time.perf_counter() - started,
        skipped=skipped,
        omitted=[files[i].rel for i in packer.omitted],
        shared_imports=sorted(packer.shared),
        sections={files[i].rel: r.text for i, r in packer.rendered.items()},
    )


class _Packer:
    """Holds the per-file decisions while they are made, downgraded and assembled."""

    def __init__(self, files: list[ParsedFile], counts: list[int], file_rel: list[float],
                 def_rel: dict[tuple[int, int], float], intent: StructuredIntent, mode: str, cap: int) -> None:
        self.files = files
        self.counts = counts
        self.file_rel = file_rel
        self.def_rel = def_rel
        self.def_scores: dict[int, dict[int, float]] = {}
        for (fi, di), v in def_rel.items():
            self.def_scores.setdefault(fi, {})[di] = v
        self.intent = intent
        self.mode = mode
        self.cap = cap
        self.rendered: dict[int, Rendered] = {}
        self.bodies: dict[int, list[int]] = {}  # file -> definitions kept whole, most relevant first
        self.reasons: dict[int, str] = {}
        self.omitted: list[int] = []
        self.shared: set[str] = set()
        self._cost_cache: dict[tuple[int, str, tuple[int, ...]], Rendered] = {}

    # -- rendering with a cache ---------------------------------------------------------------

    def _render(self, i: int, mode: str, bodies: list[int] | None = None, note: str = "") -> Rendered:
        key = (i, mode, tuple(sorted(bodies or ())))
        r = self._cost_cache.get(key)
        if r is None:
            pf = self.files[i]
            if not pf.is_code and mode == "map":
                mode = "full" if self.counts[i] <= MAP_TEXT_MAX_TOKENS else "reference"
            elif not pf.is_code and mode == "signatures" and pf.language != "markdown":
                mode = "reference"
            scores = self.def_scores.get(i, {}) if bodies else None
            r = render(pf, mode, original_tokens=self.counts[i], bodies=set(bodies or ()), skip_imports=self.shared,
                       scores=scores)
            self._cost_cache[key] = r
        if note and note not in r.note:
            r = Rendered(r.rel, r.mode, r.body, r.original_tokens, r.body_tokens, _join(r.note, note), r.bodies)
        return r

    def _cost(self, r: Rendered) -> int:
        return tokens.count(r.text)

    # -- decisions ---------------------------------------------------------------------------

    def decide(self) -> None:
        n = len(self.files)
        if self.mode != "auto":
            for i in range(n):
                self.rendered[i] = self._render(i, self.mode)
                self.reasons[i] = f"--mode {self.mode}"
            self._hoist_imports()
            return
        beta = temperature(self.intent.specificity)
        avail = max(0, self.cap - PREAMBLE_RESERVE)
        budgets = boltzmann(self.file_rel, avail, beta)
        ranked_defs = self._ranked_defs()
        for i in range(n):
            self.rendered[i] = self._fit(i, budgets[i], ranked_defs.get(i, []))
        self._fill(avail)
        self._hoist_imports()

    def _ranked_defs(self) -> dict[int, list[int]]:
        out: dict[int, list[int]] = {}
        for (fi, di), score in sorted(self.def_rel.items(), key=lambda kv: (-kv[1], kv[0])):
            if score > 0:
                out.setdefault(fi, []).append(di)
        return out

    def _fit(self, i: int, budget: int, ranked: list[int]) -> Rendered:
        """The richest rendering of file i within `budget` tokens."""
        full = self._render(i, "full")
        if self._cost(full) <= budget:
            self.reasons[i] = f"full: fits its budget of {budget:,} tokens"
            return full
        skeleton = self._render(i, "map")
        if skeleton.mode == "map" and self._cost(skeleton) <= budget:
            chosen: list[int] = []
            best = skeleton
            for di in ranked:
                trial = self._render(i, "map", [*chosen, di])
                if self._cost(trial) <= budget:
                    chosen.append(di)
                    best = trial
            self.bodies[i] = chosen
            self.reasons[i] = (
                f"map: full needs {self._cost(full):,} > budget {budget:,}; {len(chosen)} whole bodies for the task"
            )
            return best
        sig = self._render(i, "signatures")
        if self._cost(sig) <= budget:
            self.reasons[i] = f"signatures: budget {budget:,} below the map ({self._cost(skeleton):,})"
            return sig
        self.reasons[i] = f"reference: budget {budget:,} below the signatures ({self._cost(sig):,})"
        return self._render(i, "reference")

    def alternatives(self, i: int) -> dict[str, int]:
        """What file i would cost in signatures and reference mode (for re-injection plans)."""
        return {m: self._cost(self._render(i, m)) for m in ("signatures", "reference")}

    def _total(self) -> int:
        return sum(self._cost(r) for r in self.rendered.values())

    def _fill(self, avail: int) -> None:
        """Spend what the allocation left on the most relevant whole bodies, then whole files."""
        left = avail - self._total()
        if left <= 0:
            return
        candidates = sorted(self.def_rel.items(), key=lambda kv: (-kv[1], kv[0]))[:MAX_FILL_CANDIDATES]
        for (fi, di), _score in candidates:
            if left <= 0:
                break
            cur = self.rendered[fi]
            if cur.mode == "full":
                continue
            chosen = self.bodies.get(fi, [])
            if di in chosen:
                continue
            trial = self._render(fi, "map", [*chosen, di])
            delta = self._cost(trial) - self._cost(cur)
            if trial.mode == "map" and delta <= left:
                self.bodies[fi] = [*chosen, di]
                self.rendered[fi] = trial
                self.reasons[fi] = f"map: {len(self.bodies[fi])} whole bodies for the task (leftover budget)"
                left -= delta
        for fi in sorted(range(len(self.files)), key=lambda k: (-self.file_rel[k], k)):
            cur = self.rendered[fi]
            for better in ("full", "map", "signatures"):
                if better == cur.mode or MODES.index(better) > MODES.index(cur.mode):
                    break
                trial = self._render(fi, better, self.bodies.get(fi) if better == "map" else None)
                delta = self._cost(trial) - self._cost(cur)
                if delta <= left:
                    self.rendered[fi] = trial
                    self.reasons[fi] = f"{trial.mode}: upgraded with leftover budget"
                    left -= delta
                    break

    def _hoist_imports(self) -> None:
        """MMR de-duplication across files: an import line in 2+ compressed files is printed once."""
        per_file = {
            i: [imp.text for imp in self.files[i].imports]
            for i, r in self.rendered.items()
            if r.mode in ("map", "signatures")
        }
        shared = shared_lines(per_file.values())
        if not shared:
            return
        self.shared = shared
        self._cost_cache = {k: v for k, v in self._cost_cache.items() if k[1] in ("full", "reference")}
        for i in per_file:
            r = self.rendered[i]
            self.rendered[i] = self._render(i, r.mode, self.bodies.get(i) if r.mode == "map" else None, r.note)

    def downgrade_one(self, over: int = 1) -> bool:
        """Make one file one step leaner: the least relevant first; among equals, the step that
        frees at least `over` tokens while losing the least. False when nothing is left to drop."""
        options = []
        for i, r in self.rendered.items():
            if r.mode == "map" and self.bodies.get(i):
                trial = self._render(i, "map", self.bodies[i][:-1], "fewer bodies: over budget")
            elif r.mode in DOWNGRADE:
                trial = self._render(i, DOWNGRADE[r.mode], None, f"{r.mode}->{DOWNGRADE[r.mode]}: over budget")
            else:
                continue
            saving = self._cost(r) - self._cost(trial)
            enough = saving >= over
            options.append(((round(self.file_rel[i], 2), 0 if enough else 1, saving if enough else -saving, -i), i, trial))
        if options:
            _key, i, trial = min(options, key=lambda o: o[0])
            old = self.rendered[i].mode
            if old == "map" and trial.mode == "map":
                self.bodies[i] = self.bodies[i][:-1]
                self.reasons[i] = f"map: bodies dropped to fit the budget ({len(self.bodies[i])} left)"
            else:
                self.bodies.pop(i, None)
                self.reasons[i] = f"{trial.mode}: downgraded from {old} to fit the budget"
            self.rendered[i] = trial
            return True
        order = sorted(self.rendered, key=lambda k: (self.file_rel[k], -k))
        for i in order:
            del self.rendered[i]
            self.omitted.append(i)
            self.reasons[i] = "omitted: even its reference line does not fit the budget"
            return True
        return False

    # -- delivery -----------------------------------------------------------------------------

    def assemble(self, root: Path, budget: int | None, skipped: list[Skipped]) -> str:
        modes = Counter(r.mode for r in self.rendered.values())
        intent = self.intent
        lines = [
            f"# Lorekeeper context pack of {root.name or root}: {len(self.files)} files"
            + (f", budget {budget}" if budget is not None else ""),
        ]
        if intent.task:
            lines.append(f"# task: {intent.task} ({intent.task_type})")
        lines.append(
            "# modes: " + ", ".join(f"{m} {modes[m]}" for m in MODES if modes.get(m))
            + ". Each file starts with '=== path [mode -N]', N = o200k tokens dropped from it."
        )
        if self.omitted:
            lines.append(f"# omitted to fit the budget: {len(self.omitted)} files")
        if skipped:
            lines.append(f"# skipped: {len(skipped)} binary or oversized files")
        parts = ["\n".join(lines) + "\n"]
        if self.shared:
            parts.append("=== imports shared by several files (listed once)\n" + "\n".join(sorted(self.shared)) + "\n")
        if intent.task:
            order = sorted(self.rendered, key=lambda k: (-self.file_rel[k], self.files[k].rel))
        else:
            order = sorted(self.rendered, key=lambda k: self.files[k].rel)
        parts.extend(self.rendered[i].text for i in order)
        anchor = self._anchor()
        if anchor:
            parts.append(anchor)
        return "\n".join(parts)

    def _anchor(self) -> str:
        """Tail anchor: the most relevant definition's header again at the very end (recency)."""
        if not self.intent.task or not self.def_rel:
            return ""
        (fi, di), _ = max(self.def_rel.items(), key=lambda kv: (kv[1], [-x for x in kv[0]]))
        if fi not in self.rendered:
            return ""
        d = self.files[fi].definitions[di]
        return f"=== anchor: {self.files[fi].rel}: {d.header}\n"


def _join(a: str, b: str) -> str:
    return f"{a}; {b}" if a else b
