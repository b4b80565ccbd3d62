"""Pack a source tree into one text for an agent, within a token budget: the pipeline of seed 002.

Input (scan) -> intent -> relevance (graph) -> allocation (Boltzmann) -> compression (render) ->
de-duplication (MMR) -> delivery (one text, exact o200k_base count checked last).

Guarantees (each has a test):
- the output is never larger than the input (the cap is min(budget, input tokens)), except a tree
  of at most TINY_TREE_TOKENS, which is packed whole, headers included, when the budget holds it;
- the budget is never exceeded: the final text is counted exactly and files are downgraded,
  least relevant first (the files holding the task's bodies last), until it fits; each step frees
  a known number of tokens (per-file counts are cached), so the pack is re-counted only when the
  estimate fits, not once per step;
- the output is deterministic: sorted walk, no clock or randomness in the text;
- a file that fails to parse falls back visibly (its header says so), it never vanishes;
- every file's header gives its mode and the tokens dropped from it.

Task packs plan from the task (`_Packer._task_defs`): the best matches of the task's words, what
the best one calls (and, in its file, what those call), the other matches and their callees, the
callers of the two best, tests calling them (FixBug). Their bodies are pinned first, up to
PIN_SHARE of the budget on a tree whose outline does not fit (in focus maps: the bodies and their
classes only), and centrality never pushes them out. The rest of the tree then starts as one name
in an index section and climbs to reference and signature lines by relevance (`_ladder`).
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Callable, Generator
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lorekeeper.context import tokens
from lorekeeper.context.allocate import boltzmann, intent_focus, strategy, temperature
from lorekeeper.context.intent import StructuredIntent, classify
from lorekeeper.context.mmr import shared_lines
from lorekeeper.context.parse import ParsedFile, parse_file
from lorekeeper.context.render import MODES, Rendered, render
from lorekeeper.context.scan import Skipped, display_name, scan, skipped_notes
from lorekeeper.errors import InvalidInputError

if TYPE_CHECKING:
    from lorekeeper.context.diskcache import DiskCache

PACK_MODES = ("auto", *MODES[:3])  # what `--mode` accepts
AUTO_DEFAULT_SHARE = 0.3  # auto mode without --budget packs to this share of the input tokens
MAX_FILL_CANDIDATES = 400  # definitions considered when spending leftover budget on whole bodies
MAP_TEXT_MAX_TOKENS = 300  # a non-code file this small is sent whole in map mode
PREAMBLE_RESERVE = 160  # tokens kept aside for the pack preamble before allocating files
BODY_SHARE = 0.6  # task packs: share of the budget first spent on the most relevant whole bodies
BODY_MIN_RELEVANCE = 0.2  # ...for definitions at least this relevant (1.0 = the best match)
COVERAGE_SHARE = 0.8  # when every file's signatures fit in this share of the rest, all get them
DOWNGRADE = {"full": "map", "map": "signatures", "signatures": "reference"}
PIN_SHARE = 0.85  # task packs on a large tree: share of the budget the task's own bodies may take first
SEED_MIN_MATCH = 0.5  # ...among the definitions matching the task at least this well (1.0 = the best)
CLASS_SHARE = 0.5  # share of a matching class's score added to its methods that match the task
TASK_SEEDS = 4  # the best-matching definitions whose callees (and callers) are pinned right after them
MAX_SECOND_CALLEES = 4  # callees of the best match's callees, in its own file
MAX_CALLERS = 3  # callers pinned per seed (the two best seeds), most relevant first
MAX_TEST_CALLERS = 3  # FixBug: test functions calling a seed, pinned after the callers
MAX_TARGET_FILE_MATCHES = 6  # then the target file's own definitions matching the task, before the other seeds
TINY_TREE_TOKENS = 400  # a tree this small (~50 lines) is packed whole (headers included) when the budget holds it
TARGET_OUTLINE_SHARE = 0.5  # a named file's whole outline may take this share of the budget
NAMED_CLASS_SHARE = (
    0.15  # a class the task names by itself is sent whole when it takes at most this share of the budget
)
MAX_NAMED_CLASSES = 2  # ...for the best-matching two
MAX_NAMED_FILES = 2  # a name the task gives brings the files defining it when at most this many do
PARALLEL_MIN_BYTES = 3 << 20  # a tree parses in worker processes from this many bytes of source (~750k tokens)
MAX_PARSE_WORKERS = 3
_CODE_EXTS = (".py", ".pyi", ".ts", ".tsx", ".js", ".jsx", ".rs", ".go", ".java", ".md")
INDEX_TITLE = "=== index: files listed by path only, to fit the budget"

ProgressCallback = Callable[[int, int, str], None]  # pack(progress=...): (done, total, text)


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
    indexed: list[str] = field(default_factory=list)  # omitted files still named in the pack's index
    # per-layer metrics in pipeline order: name, tokens_in, tokens_out, seconds, and what it did
    layers: list[dict[str, Any]] = field(default_factory=list)
    cached: bool = False  # answered from the cache between runs (an unchanged tree, the same arguments)

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
            "cached": self.cached,
        }
        if with_text:
            out["text"] = self.text
        return out


def pack(
    root: Path,
    *,
    task: str | None = None,
    budget: int | None = None,
    mode: str = "auto",
    progress: ProgressCallback | None = None,
    cache: DiskCache | None = None,
    include_secrets: bool = False,
) -> PackResult:
    """Pack `root` (a folder or one file). See `pack_steps` for the generator form."""
    gen = pack_steps(root, task=task, budget=budget, mode=mode, cache=cache, include_secrets=include_secrets)
    while True:
        try:
            step = next(gen)
        except StopIteration as stop:
            result: PackResult = stop.value
            return result
        if progress is not None:
            progress(*step)


def pack_steps(
    root: Path,
    *,
    task: str | None = None,
    budget: int | None = None,
    mode: str = "auto",
    cache: DiskCache | None = None,
    include_secrets: bool = False,
) -> Generator[tuple[int, int, str], None, PackResult]:
    """The packing pipeline as a generator yielding (done, total, text) progress; returns the result.
    Stopping the iteration between two steps cancels it (the GUI's Cancel button does that).
    With a `cache` (`diskcache`), an unchanged tree packed again with the same arguments is
    answered from it, and a file already parsed in an earlier run is not parsed again."""
    started = time.perf_counter()
    root = Path(root)
    if mode not in PACK_MODES:
        raise InvalidInputError(f"unknown mode {mode!r}: use one of {', '.join(PACK_MODES)}")
    if budget is not None and budget <= 0:
        raise InvalidInputError(f"the budget must be a positive number of tokens, not {budget}")
    if not root.exists():
        raise InvalidInputError(f"{root} does not exist: give a folder or a file to pack")
    if cache is None:  # the vocabulary loads while the tree is read (with a cache: only on a miss)
        tokens.preload()
    t0 = time.perf_counter()
    sources, skipped = scan(root, include_secrets=include_secrets)
    t1 = time.perf_counter()
    total_steps = len(sources) + 3
    detail = bool(task)  # calls and identifiers only matter for a task's relevance
    digest = _tree_digest(sources) if cache is not None else b""
    pack_key = _pack_key(root, digest, skipped, task, budget, mode) if cache is not None else b""
    if cache is not None:
        hit = cache.get(pack_key)
        if isinstance(hit, PackResult):
            hit.seconds = time.perf_counter() - started
            hit.cached = True
            hit.skipped = skipped
            hit.layers = [
                _layer("scan", hit.input_tokens, hit.input_tokens, t1 - t0, f"{len(sources)} files read"),
                _layer(
                    "cache",
                    hit.input_tokens,
                    hit.output_tokens,
                    time.perf_counter() - t1,
                    "unchanged tree: cached pack",
                ),
            ]
            yield (total_steps, total_steps, "done (cached)")
            return hit
        tokens.preload()  # a hit never counts a token: loading the vocabulary was most of its CPU
    files = yield from parse_sources([(s.rel, s.text) for s in sources], detail, total_steps, cache=cache)
    t2 = time.perf_counter()
    counts = tokens.count_many([f.text for f in files])
    total = sum(counts)
    layers = [
        _layer("scan", total, total, t1 - t0, f"{len(sources)} files read, {len(skipped)} skipped"),
        _layer("parse", total, total, t2 - t1, f"{sum(1 for f in files if not f.parsed)} parse errors"),
        _layer("count", total, total, time.perf_counter() - t2, "exact o200k counts"),
    ]
    structure_cache = None
    if cache is not None:
        from lorekeeper.context.diskcache import content_key

        structure_cache = (cache, content_key("graph", str(detail), digest))
    result = yield from pack_parsed(
        root,
        files,
        counts,
        skipped,
        task=task,
        budget=budget,
        mode=mode,
        started=started,
        structure_cache=structure_cache,
    )
    result.layers[:0] = layers
    if cache is not None:
        cache.put("pack", pack_key, result)
    return result


def _tree_digest(sources: list[Any]) -> bytes:
    """A hash of every (path, content) of the tree, in order."""
    import hashlib

    h = hashlib.blake2b(digest_size=20)
    for s in sources:
        h.update(s.rel.encode("utf-8", "surrogatepass") + b"\0")
        h.update(hashlib.blake2b(s.text.encode("utf-8", "surrogatepass"), digest_size=16).digest())
    return h.digest()


def _pack_key(
    root: Path, digest: bytes, skipped: list[Skipped], task: str | None, budget: int | None, mode: str
) -> bytes:
    """The cache key of a pack: the arguments, the tree's `_tree_digest` and the files skipped
    (the pack's header counts them)."""
    import hashlib

    from lorekeeper.context.diskcache import content_key

    h = hashlib.blake2b(digest, digest_size=20)
    for sk in skipped:
        h.update(repr(asdict(sk)).encode("utf-8", "surrogatepass"))
    return content_key("pack", str(root), task or "", str(budget), mode, h.digest())


def _whole_tree(
    root: Path,
    files: list[ParsedFile],
    counts: list[int],
    intent: StructuredIntent,
    mode: str,
    budget: int | None,
    skipped: list[Skipped],
) -> int | None:
    """Exact tokens of a tiny tree packed whole (auto: every file full; a forced mode: in that
    mode), or None when an explicit budget cannot hold it. Packing such a tree whole may exceed
    its input by the headers; compressing it to fit its own size would only cut its code."""
    whole_mode = "full" if mode == "auto" else mode
    zeros = [0.0] * len(files)
    trial = _Packer(files, counts, zeros, {}, intent, whole_mode, 1 << 40)
    trial.decide()
    n = tokens.count(trial.assemble(root, budget, skipped))
    return n if budget is None or n <= budget else None


def _layer(name: str, tokens_in: int, tokens_out: int, seconds: float, note: str = "") -> dict[str, Any]:
    return {"layer": name, "tokens_in": tokens_in, "tokens_out": tokens_out, "seconds": round(seconds, 4), "note": note}


def parse_workers(total_bytes: int) -> int:
    """Worker processes for parsing a tree of `total_bytes`: none below PARALLEL_MIN_BYTES (a
    process start costs more than it saves), else one fewer than the CPUs (this process parses
    too); LOREKEEPER_PARSE_WORKERS overrides."""
    import os

    env = os.environ.get("LOREKEEPER_PARSE_WORKERS", "")
    if env.isdigit():
        return int(env)
    if total_bytes < PARALLEL_MIN_BYTES:
        return 0
    return max(0, min(MAX_PARSE_WORKERS, (os.cpu_count() or 1) - 1))


def parse_sources(
    items: list[tuple[str, str]], detail: bool, total_steps: int | None = None, *, cache: DiskCache | None = None
) -> Generator[tuple[int, int, str], None, list[ParsedFile]]:
    """Parse (rel, text) pairs in order, yielding progress: files already in the content cache
    are not parsed again; on a large tree the others are shared by bytes between this process
    and `parse_workers` worker processes (`parseworker`: tree-sitter and the query sweep hold the
    GIL, so threads would not help). A worker that fails is not fatal: its files are parsed here."""
    from lorekeeper.context.parse import adopt, cached, disk_key, parse_batch

    total = len(items) + 3 if total_steps is None else total_steps
    todo = [k for k, (rel, text) in enumerate(items) if not cached(rel, text, detail)]
    done: dict[int, ParsedFile] = {}
    keys: dict[int, bytes] = {}
    if cache is not None and todo:  # parsed in an earlier run: the results are on disk
        keys = {k: disk_key(*items[k], detail) for k in todo}
        found = cache.get_many(list(keys.values()))
        for k in todo:
            pf = found.get(keys[k])
            if isinstance(pf, ParsedFile):
                done[k] = adopt(replace(pf, rel=items[k][0]), items[k][1], detail)
        todo = [k for k in todo if k not in done]
    from_disk = set(done)
    workers = parse_workers(sum(len(items[k][1]) for k in todo))
    jobs: list[tuple[list[int], Any]] = []
    if workers:
        # the biggest files first, each to the least loaded of the workers and this process
        loads = [0] * (workers + 1)
        shares: list[list[int]] = [[] for _ in range(workers + 1)]
        for k in sorted(todo, key=lambda k: (-len(items[k][1]), k)):
            w = min(range(workers + 1), key=lambda j: (loads[j], j))
            loads[w] += len(items[k][1])
            shares[w].append(k)
        jobs = [
            (sorted(share), _start_worker([items[j] for j in sorted(share)], detail)) for share in shares[1:] if share
        ]
        todo = sorted(shares[0])
    try:
        for n, k in enumerate(todo):
            if n % 16 == 0:
                yield (len(done), total, f"parsing {items[k][0]}")
            rel, text = items[k]
            done[k] = parse_file(rel, text, detail=detail)
        for share, job in jobs:
            yield (len(done), total, f"parsing {items[share[0]][0]} (worker)")
            results = _finish_worker(job)
            if results is None or len(results) != len(share):
                results = parse_batch([items[j] for j in share], detail)
            for k, pf in zip(share, results, strict=True):
                done[k] = adopt(pf, items[k][1], detail)
    finally:
        for _share, job in jobs:
            _stop_worker(job)
    if cache is not None:
        cache.put_many(
            "parse", ((keys[k], replace(done[k], text="")) for k in keys if k in done and k not in from_disk)
        )
    return [done[k] if k in done else parse_file(rel, text, detail=detail) for k, (rel, text) in enumerate(items)]


def _start_worker(items: list[tuple[str, str]], detail: bool) -> Any:
    """A `parseworker` process fed (and drained) by a thread, while this process parses too."""
    import pickle
    import subprocess
    import sys
    import threading

    proc = subprocess.Popen(
        [sys.executable, "-m", "lorekeeper.context.parseworker"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    box: dict[str, Any] = {"proc": proc}

    def run() -> None:
        try:
            box["out"], _ = proc.communicate(pickle.dumps((items, detail), protocol=pickle.HIGHEST_PROTOCOL))
        except OSError as exc:  # a broken pipe: the files are parsed here instead
            box["error"] = exc

    box["thread"] = threading.Thread(target=run, name="parse-worker-io", daemon=True)
    box["thread"].start()
    return box


def _finish_worker(box: Any) -> list[ParsedFile] | None:
    import pickle

    box["thread"].join()
    if "error" in box or box["proc"].returncode != 0 or not box.get("out"):
        return None
    try:
        results: list[ParsedFile] = pickle.loads(box["out"])
    except (pickle.UnpicklingError, EOFError, AttributeError, ImportError, ValueError, TypeError):
        return None
    return results


def _stop_worker(box: Any) -> None:
    proc = box["proc"]
    if proc.poll() is None:  # the pack was cancelled while it ran
        proc.kill()
        proc.wait()


def pack_parsed(
    root: Path,
    files: list[ParsedFile],
    counts: list[int],
    skipped: list[Skipped],
    *,
    task: str | None = None,
    budget: int | None = None,
    mode: str = "auto",
    started: float | None = None,
    intent_hook: bool = True,
    structure_cache: tuple[DiskCache, bytes] | None = None,
) -> Generator[tuple[int, int, str], None, PackResult]:
    """The pipeline after parsing (files and their exact token counts given), so that several
    packs of one tree (tasks, budgets) parse it once. `structure_cache` (a cache and the tree's
    content key) keeps the task-independent graphs between runs."""
    started = time.perf_counter() if started is None else started
    root = Path(root)
    total_steps = len(files) + 3
    sources = files
    input_tokens = sum(counts)
    t_intent = time.perf_counter()
    intent = classify(task)
    layers = [_layer("intent", input_tokens, input_tokens, time.perf_counter() - t_intent, intent.task_type)]
    yield (len(sources), total_steps, "ranking files")
    t_rank = time.perf_counter()
    need_graph = mode == "auto" or budget is not None or bool(task)
    if need_graph and files:
        from lorekeeper.context.graph import Structure, relevance, structure

        tree: Structure | None = None
        if structure_cache is not None:
            found = structure_cache[0].get(structure_cache[1])
            tree = found if isinstance(found, Structure) else None
            if tree is None:
                tree = structure(files)
                structure_cache[0].put("graph", structure_cache[1], tree)
        rel = relevance(files, intent, tree)
        file_rel, def_rel, communities, call_graph = rel.files, rel.definitions, rel.community, rel.call_graph
        matches = rel.matches
    else:
        file_rel, def_rel, communities, call_graph = [0.0] * len(files), {}, [-1] * len(files), None
        matches = {}
    tests: list[tuple[int, int]] = []
    body_share = 1.0
    if intent_hook and need_graph and files:  # the task type's strategy (allocate.intent_focus)
        focus = intent_focus(files, intent, def_rel, matches)
        def_rel, matches, tests, body_share = focus.def_rel, focus.matches, focus.tests, focus.body_share
        if focus.notes:
            layers[0]["note"] += "; " + "; ".join(focus.notes[:6])
    layers.append(
        _layer("relevance", input_tokens, input_tokens, time.perf_counter() - t_rank, "graph, PageRank, heat")
    )
    yield (len(sources) + 1, total_steps, "allocating tokens")
    t_plan = time.perf_counter()
    cap = input_tokens if budget is None else min(budget, input_tokens)
    if mode == "auto" and budget is None:
        cap = max(1, int(input_tokens * AUTO_DEFAULT_SHARE)) if input_tokens else 0
    whole = (
        _whole_tree(root, files, counts, intent, mode, budget, skipped) if input_tokens <= TINY_TREE_TOKENS else None
    )
    if whole is not None:  # a tiny tree goes whole (headers included) when the budget holds it
        cap = max(cap, whole)
    plan_mode = "full" if whole is not None and mode == "auto" else mode
    packer = _Packer(files, counts, file_rel, def_rel, intent, plan_mode, cap, call_graph, matches, tests, body_share)
    packer.decide()
    if plan_mode != mode:
        packer.reasons = dict.fromkeys(packer.plan, f"full: the whole tree ({whole:,} tokens) fits the limit")
    planned = sum(packer.sent(i) for i in packer.rendered)
    modes = Counter(r.mode for r in packer.rendered.values())
    layers.append(
        _layer(
            "allocate+compress",
            input_tokens,
            planned + packer.hoisted_tokens,
            time.perf_counter() - t_plan,
            ", ".join(f"{m} {modes[m]}" for m in sorted(modes)) + f"; index {len(packer.indexed)}",
        )
    )
    layers.append(
        _layer(
            "mmr",
            planned + packer.hoisted_tokens,
            planned,
            0.0,
            f"{packer.hoisted_lines} repeated import lines hoisted once; {packer.doc_lines_dropped} doc lines dropped",
        )
    )
    yield (len(sources) + 2, total_steps, "checking the budget")
    t_deliver = time.perf_counter()
    text = packer.assemble(root, budget, skipped)
    out_tokens = tokens.count(text)
    steps = 0
    while out_tokens > cap:
        steps += 1
        # incremental accounting: each step frees a known number of tokens (per-file counts are
        # cached), so the whole pack is only re-assembled and counted once the estimate fits
        need = out_tokens - cap
        while need > 0:
            freed = packer.downgrade_one(need)
            if freed is None:
                raise InvalidInputError(
                    f"a budget of {budget} tokens cannot hold even the pack header ({out_tokens} tokens): raise --budget"
                    if budget is not None
                    else f"the pack header alone ({out_tokens} tokens) is larger than the limit of {cap} tokens",
                )
            need -= max(1, freed)
        text = packer.assemble(root, budget, skipped)
        out_tokens = tokens.count(text)
    layers.append(
        _layer(
            "deliver", planned, out_tokens, time.perf_counter() - t_deliver, f"{steps} downgrade rounds, exact count"
        )
    )
    entries = []
    for i, pf in enumerate(files):
        r = packer.rendered.get(i)
        entries.append(
            FileEntry(
                rel=pf.rel,
                language=pf.language,
                original_tokens=counts[i],
                sent_tokens=packer.sent(i) if r is not None else 0,
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
        root=display_name(str(root)),  # a non-UTF-8 name as \xNN: the JSON and the terminal take it
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
        omitted=[files[i].rel for i in packer.omitted] + [files[i].rel for i in sorted(packer.indexed)],
        shared_imports=sorted({line for lines in packer.shared.values() for line in lines}),
        sections={files[i].rel: r.text for i, r in packer.rendered.items()},
        indexed=[files[i].rel for i in sorted(packer.indexed)],
        layers=layers,
    )


class _Packer:
    """Holds the per-file decisions while they are made, downgraded and assembled.

    Decisions use exact costs for whole modes (cached) and, for map mode with task bodies, an
    estimate (skeleton + each body's extra tokens); the assembled text is always counted exactly
    afterwards and downgraded until it fits, so estimates can only cost quality, never the budget.
    """

    def __init__(
        self,
        files: list[ParsedFile],
        counts: list[int],
        file_rel: list[float],
        def_rel: dict[tuple[int, int], float],
        intent: StructuredIntent,
        mode: str,
        cap: int,
        call_graph: Any = None,
        matches: dict[tuple[int, int], float] | None = None,
        intent_tests: list[tuple[int, int]] | None = None,
        body_share: float = 1.0,
    ) -> None:
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
        self.plan: dict[int, str] = {}  # file -> decided mode (before the exact rendering)
        self.bodies: dict[int, list[int]] = {}  # file -> definitions kept whole, most relevant first
        self.reasons: dict[int, str] = {}
        self.notes: dict[int, str] = {}
        self.omitted: list[int] = []
        self.shared: dict[str, set[str]] = {}  # "" (absolute) or a folder (relative) -> hoisted lines
        self.call_graph = call_graph
        self.focus = False  # a tree too large for the budget: lean maps keep only the task's bodies
        self.matches = matches or {}
        self.intent_tests = intent_tests or []  # FixBug / Test: the target's tests, sent whole
        self.body_share = body_share  # the intent's multiplier of the share spent on bodies first
        self.pinned: set[int] = set()  # files holding the task's own bodies: downgraded last
        self.targets: set[int] = set()  # files the task names or whose code matches it best
        self.outline: dict[int, str] = {}  # target file -> the mode keeping its whole outline (map, lean)
        self.indexed: set[int] = set()  # files sent as their path only, in the index section
        self._costs: dict[tuple[int, str], int] = {}
        self._deltas: dict[tuple[int, int], int] = {}
        self._shorts: dict[tuple[int, int], int] = {}
        self._stuck: set[int] = set()
        self._sent: dict[int, int] = {}  # exact tokens of each rendered file (incremental accounting)
        self._src: dict[int, bytes] = {}
        self._index_costs: dict[int, int] = {}
        self._impls: dict[int, dict[str, int]] = {}  # file -> qualname -> its largest definition
        self.hoisted_lines = 0  # import lines the MMR hoisting printed once instead of in each file
        self.hoisted_tokens = 0
        self._anchor_def = min(def_rel.items(), key=lambda kv: (-kv[1], kv[0]))[0] if intent.task and def_rel else None

    @property
    def doc_lines_dropped(self) -> int:
        """Docstring lines MMR dropped from the map-mode files sent."""
        return sum(r.mmr_dropped for r in self.rendered.values())

    # -- rendering and costs ------------------------------------------------------------------

    def _render(self, i: int, mode: str, bodies: list[int] | None = None, note: str = "") -> Rendered:
        pf = self.files[i]
        if not pf.is_code and mode == "map":
            mode = "full" if self.counts[i] <= MAP_TEXT_MAX_TOKENS else "reference"
        elif not pf.is_code and mode == "signatures" and pf.language != "markdown":
            mode = "reference"
        lean = mode == "lean"
        mode = "map" if lean else mode
        scores = self.def_scores.get(i, {}) if bodies else None
        skip = self.shared.get("", set()) | self.shared.get(_folder(pf.rel), set())
        return render(
            pf,
            mode,
            original_tokens=self.counts[i],
            bodies=set(bodies or ()),
            skip_imports=skip,
            scores=scores,
            note=note,
            lean=lean,
            focus=lean and self.focus and self.outline.get(i) != "lean",
        )

    def sent(self, i: int) -> int:
        """Exact tokens of file i as rendered now (counted once per rendering)."""
        if i not in self._sent:
            self._sent[i] = tokens.count(self.rendered[i].text)
        return self._sent[i]

    def _set_rendered(self, i: int, r: Rendered) -> None:
        self.rendered[i] = r
        self._sent.pop(i, None)

    def index_cost(self, i: int) -> int:
        """What file i costs as one name in the index section (its folder's prefix amortised)."""
        if i not in self._index_costs:
            self._index_costs[i] = tokens.count(" " + self.files[i].rel.rsplit("/", 1)[-1]) + 1
        return self._index_costs[i]

    def cost(self, i: int, mode: str) -> int:
        """Exact tokens of file i in `mode` (map: the skeleton without bodies), header included."""
        key = (i, mode)
        if key not in self._costs:
            self._costs[key] = tokens.count(self._render(i, mode).text)
        return self._costs[key]

    def delta(self, i: int, di: int) -> int:
        """Extra tokens of sending definition di of file i whole instead of its header line."""
        key = (i, di)
        if key not in self._deltas:
            pf = self.files[i]
            d = pf.definitions[di]
            src = self._src.get(i)
            if src is None:
                src = self._src[i] = pf.text.encode("utf-8")
            line_start = src.rfind(b"\n", 0, d.start) + 1
            whole = tokens.count(src[line_start : d.end].decode("utf-8", "replace"))
            short = tokens.count("\t" * d.depth + d.header + ("\n\t" + d.doc if d.doc else "")) + 1
            nested = sum(1 for k in range(di + 1, len(pf.definitions)) if pf.definitions[k].start < d.end)
            # nested headers printed in the skeleton disappear into the body
            self._deltas[key] = max(1, whole - short - 4 * nested)
            self._shorts[key] = short
        return self._deltas[key]

    def _floor(self, i: int, mode: str) -> int:
        """A cheap lower bound of cost(i, mode), to skip renderings that cannot fit (whitespace
        rewrites never halve a file; a map holds at least half its signatures)."""
        if (i, mode) in self._costs or mode in ("signatures", "reference"):
            return self.cost(i, mode)
        if mode == "full":
            return self.counts[i] // 2
        if mode == "map" and (i, "signatures") in self._costs:
            return self._costs[(i, "signatures")] // 2
        return 0

    def estimate(self, i: int, mode: str, bodies: list[int] | None = None) -> int:
        if mode not in ("map", "lean") or not bodies:
            return self.cost(i, mode)
        best = max(bodies, key=lambda k: self.def_scores.get(i, {}).get(k, 0.0))
        anchor = tokens.count(self.files[i].definitions[best].header) + 8
        extra = sum(self.delta(i, di) for di in bodies)
        if mode == "lean" and self.focus and self.outline.get(i) != "lean":  # no skeleton line for the bodies' headers
            extra += sum(self._shorts[(i, di)] for di in bodies)
        return self.cost(i, mode) + extra + anchor

    def _covered(self, i: int, chosen: list[int], di: int) -> bool:
        """True when definition di is inside (or around) one already chosen."""
        defs = self.files[i].definitions
        d = defs[di]
        return any(defs[c].start <= d.start and d.end <= defs[c].end for c in chosen) or any(
            d.start <= defs[c].start and defs[c].end <= d.end for c in chosen
        )

    def current(self, i: int) -> int:
        mode = self.plan[i]
        if mode == "index":
            return self.index_cost(i)
        if mode == "omitted":
            return 0
        return self.estimate(i, mode, self.bodies.get(i))

    # -- decisions ---------------------------------------------------------------------------

    def decide(self) -> None:
        n = len(self.files)
        if self.mode != "auto":
            for i in range(n):
                self.plan[i] = self.mode
                self.reasons[i] = f"--mode {self.mode}"
        else:
            avail = max(0, self.cap - PREAMBLE_RESERVE)
            spent = self._bodies_first(avail) if self.intent.task else 0
            free = [i for i in range(n) if i not in self.plan]
            rest = max(0, avail - spent)
            sig = {i: self.cost(i, "signatures") for i in free}
            if self.intent.task and sum(sig.values()) > rest:
                # a large tree for the budget: start every other file from its index line and
                # upgrade by relevance, instead of planning them all and downgrading hundreds of times
                self._ladder(free, rest)
            else:
                floor = sum(sig.values()) <= COVERAGE_SHARE * rest  # every file's outline is affordable
                extra = rest - sum(sig.values()) if floor else rest
                beta = temperature(self.intent.specificity)
                shares = boltzmann([self.file_rel[i] for i in free], extra, beta)
                ranked = self._ranked_defs()
                for k, i in enumerate(free):
                    budget = shares[k] + (sig[i] if floor else 0)
                    self._fit(i, budget, ranked.get(i, []))
            self._fill(avail)
        self._hoist_imports()
        for i in range(n):
            if self.plan[i] == "index":
                self.indexed.add(i)
            elif self.plan[i] == "omitted":
                self.omitted.append(i)
            else:
                self.rendered[i] = self._render(i, self.plan[i], self.bodies.get(i), self.notes.get(i, ""))

    def _task_defs(self) -> list[tuple[int, int]]:
        """The definitions the task needs, in the order they get their bodies: the best matches,
        each followed by what it calls; then the callers of the two best, the tests calling them
        (FixBug), and the other good matches. Centrality plays no part in this order."""
        ranked = sorted(self.def_rel.items(), key=lambda kv: (-kv[1], kv[0]))[:MAX_FILL_CANDIDATES]
        seeds = [k for k, v in ranked if v >= BODY_MIN_RELEVANCE and not self._container(*k)]
        # the best matches of the task's own words come first, before what the graph lifted
        # a class the task names lends its match to its methods that match the task too
        matches = dict(self.matches)
        for (fi, di), v in self.matches.items():
            if self._container(fi, di):
                defs = self.files[fi].definitions
                for m in range(di + 1, len(defs)):
                    if defs[m].start >= defs[di].end:
                        break
                    if defs[m].parent == di and (fi, m) in self.matches:
                        matches[(fi, m)] = self.matches[(fi, m)] + CLASS_SHARE * v
        by_match = [kv for kv in sorted(matches.items(), key=lambda kv: (-kv[1], kv[0])) if not self._container(*kv[0])]

        best = by_match[0][1] if by_match else 0.0
        top = [k for k, v in by_match if v >= SEED_MIN_MATCH * best][:TASK_SEEDS] or seeds[:TASK_SEEDS]
        out: list[tuple[int, int]] = []
        seen: set[tuple[int, int]] = set()

        def add(k: tuple[int, int]) -> None:
            # an overload stub matches the task as its implementation does: the implementation first
            for key in dict.fromkeys((self._implementation(k), k)):
                if key not in seen and not self._container(*key):
                    seen.add(key)
                    out.append(key)

        def by_rel(ks: Any) -> list[tuple[int, int]]:
            return sorted(ks, key=lambda k: (-self.def_rel.get(k, 0.0), k))

        cg = self.call_graph

        def callees(k: tuple[int, int]) -> list[tuple[int, int]]:
            if cg is None or k not in cg:
                return []
            # a call to an overloaded name is split over its stubs and implementation (weights of
            # 1/3 each for two @overload stubs): together they are one callee
            out_edges = [(c, cg.edges[k, c].get("weight", 1.0)) for c in cg.successors(k)]
            together: dict[tuple[int, str], float] = {}
            for c, w in out_edges:
                key = (c[0], self.files[c[0]].definitions[c[1]].qualname)
                together[key] = together.get(key, 0.0) + w
            return by_rel(
                c for c, _w in out_edges if together[(c[0], self.files[c[0]].definitions[c[1]].qualname)] >= 0.5
            )

        # the best match and what it calls (and, in its own file, what those call) come first
        if top:
            add(top[0])
            first = callees(top[0])
            for c in first:
                add(c)
            second = [c2 for c in first for c2 in callees(c) if c2[0] == top[0][0]]
            for c2 in by_rel(set(second))[:MAX_SECOND_CALLEES]:
                add(c2)
        for k in top[1:]:
            add(k)
        for k in top[1:]:
            for c in callees(k):
                add(c)
        # the task names its target: the fix happens in that file, whose other matches come before
        # the callers in other files (trio at 4k: DTLSChannel.do_handshake, a caller of
        # move_on_after, took a third of the budget before fail_at beside fail_after)
        if top and self._named(top[0]):
            for k in [k for k, _v in by_match if k[0] == top[0][0]][:MAX_TARGET_FILE_MATCHES]:
                add(k)
        pinned_callers: list[tuple[int, int]] = []
        if cg is not None:
            tests: list[tuple[int, int]] = []
            for k in top[:2]:
                if k not in cg:
                    continue
                callers = by_rel(c for c in cg.predecessors(k) if cg.edges[c, k].get("weight", 1.0) >= 0.5)
                tests.extend(c for c in callers if _is_test(self.files[c[0]].rel))
                for c in [c for c in callers if not _is_test(self.files[c[0]].rel)][:MAX_CALLERS]:
                    add(c)
                    pinned_callers.append(c)
            if strategy(self.intent.task_type).tests:
                for c in by_rel(set(tests))[:MAX_TEST_CALLERS]:
                    add(c)
        for k in self._around_target(top, pinned_callers, callees, by_match, seen):
            add(k)
        for k in self.intent_tests:
            add(k)
        for k in seeds:
            add(k)
        return self._with_named_classes(out)

    def _with_named_classes(self, order: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """`order` with each small class the task names by itself ("ObjectRefImpl's value getter",
        not only as the `Class.` of a method) sent whole: put before the first of its methods in
        the order (they are then inside it), else right after the best match. A class larger than
        NAMED_CLASS_SHARE of the budget keeps its methods as the units. Before, a named class
        reached the pack as its methods' bodies only (vue core: ObjectRefImpl's constructor and
        fields missing at 4k and 8k)."""
        task = self.intent.task or ""
        room = NAMED_CLASS_SHARE * self.cap
        named: list[tuple[int, int]] = []
        for fi, di in sorted(self.matches, key=lambda k: (-self.matches[k], k)):
            if not self._container(fi, di):
                continue
            name = self.files[fi].definitions[di].name
            if not name or not re.search(r"(?<![\w$.])" + re.escape(name) + r"(?![\w$])(?!\.\w)", task):
                continue
            if self.delta(fi, di) <= room:
                named.append((fi, di))
        if not named:
            return order
        out = list(order)
        for fi, di in named[:MAX_NAMED_CLASSES]:
            d = self.files[fi].definitions[di]
            inside = [
                k for k, (f, m) in enumerate(out) if f == fi and d.start <= self.files[fi].definitions[m].start < d.end
            ]
            out.insert(inside[0] if inside else min(1, len(out)), (fi, di))
        return out

    def _around_target(
        self,
        top: list[tuple[int, int]],
        callers: list[tuple[int, int]],
        callees: Callable[[tuple[int, int]], list[tuple[int, int]]],
        by_match: list[tuple[tuple[int, int], float]],
        seen: set[tuple[int, int]],
    ) -> list[tuple[int, int]]:
        """What a fix reads next to the target, before weaker matches elsewhere in the tree: the
        other steps of each pinned caller's path (what it calls in its own file), then, when the
        task names its target, that file's own definitions that match the task. Without this, on
        a large tree the long tail of tree-wide word matches (a `match` anywhere for "matches")
        took the bodies' share first (mypy, unseen: 71% of the needed bodies at 8k)."""
        out = [
            c2
            for c in callers
            for c2 in [c2 for c2 in callees(c) if c2[0] == c[0] and c2 not in seen][:MAX_SECOND_CALLEES]
        ]
        if top and self._named(top[0]):  # the task names its target: the fix happens in that file
            out += [k for k, _v in by_match if k[0] == top[0][0]][:MAX_TARGET_FILE_MATCHES]
        return out

    def _named(self, k: tuple[int, int]) -> bool:
        """True when the task's text names definition k (`erase_type`, `Errors.is_ignored_error`)."""
        name = self.files[k[0]].definitions[k[1]].qualname.rsplit(".", 1)[-1]
        return bool(re.search(r"(?<![\w$])" + re.escape(name) + r"(?![\w$])", self.intent.task or ""))

    def _implementation(self, k: tuple[int, int]) -> tuple[int, int]:
        """The largest definition of the same qualified name in the file: the implementation of
        Python `@overload` stubs or TypeScript overload signatures, which match the task alike."""
        fi, di = k
        by_name = self._impls.get(fi)
        if by_name is None:
            by_name = {}
            defs = self.files[fi].definitions
            for j, d in enumerate(defs):
                best = by_name.get(d.qualname)
                if best is None or d.end - d.start > defs[best].end - defs[best].start:
                    by_name[d.qualname] = j
            self._impls[fi] = by_name
        return (fi, by_name.get(self.files[fi].definitions[di].qualname, di))

    def _bodies_first(self, avail: int) -> int:
        """Reserve part of the budget for the bodies the task needs (`_task_defs`): what a developer
        reads to make the change comes before the outline of everything else. On a tree whose
        outline does not fit, that part grows to PIN_SHARE; the files holding them are pinned."""
        large = sum(self.cost(i, "signatures") for i in range(len(self.files))) > avail
        self.focus = large
        cap = int(avail * (PIN_SHARE if large else BODY_SHARE) * self.body_share)
        named = [t.lower().lstrip("./") for t in self.intent.targets if "/" in t or t.endswith(_CODE_EXTS)]
        by_path = {i for i, pf in enumerate(self.files) if any(pf.rel.lower().endswith(t) for t in named)}
        self.targets |= by_path | self._named_files()
        spent = 0
        order = self._task_defs()
        # the leading definitions the task names keep room for their bodies (aiohttp at 8k: the
        # outline of client.py, named by its path, left no room for ClientSession._request, 2.9k tokens)
        reserve = 0
        for k in order[:MAX_NAMED_CLASSES]:
            if not self._named(k):
                break
            need = self.delta(*k) + tokens.count(self.files[k[0]].definitions[k[1]].header) + 8  # as `estimate`
            if reserve + need <= cap:
                reserve += need
        # a file the task names by its path shows its whole outline before the other bodies
        room = int(TARGET_OUTLINE_SHARE * avail)
        for fi in sorted(by_path, key=lambda k: (-self.file_rel[k], k)):
            extra = self._widen_outline(fi, min(room, cap - spent - reserve))
            spent += extra
            room -= extra
        if order:
            self.targets.add(order[0][0])
        for fi, di in order:
            chosen = self.bodies.get(fi, [])
            if self._covered(fi, chosen, di):
                continue
            outlined = fi in by_path and self.plan.get(fi) in ("map", "lean")
            mode = self.plan[fi] if outlined else "lean"
            before = self.estimate(fi, mode, chosen) if chosen or outlined else 0
            after = self.estimate(fi, mode, [*chosen, di])
            if after >= self._floor(fi, "full") and after >= self.cost(fi, "full"):
                full = self.cost(fi, "full")
                if not chosen and (fi not in self.plan or outlined) and spent - before + full <= cap:
                    self.plan[fi] = "full"
                    self.reasons[fi] = "full: holds the task's most relevant code"
                    self.pinned.add(fi)
                    spent += full - before
                elif chosen and self.plan.get(fi) == mode and spent - before + full <= cap:
                    # its map with one more needed body would cost more than the whole file
                    self.plan[fi] = "full"
                    self.bodies.pop(fi, None)
                    self.reasons[fi] = "full: cheaper than its map with the bodies the task needs"
                    spent += full - before
                continue
            if self.plan.get(fi) == "full":
                continue
            if spent + after - before <= cap:
                spent += after - before
                self.bodies[fi] = [*chosen, di]
                self.plan[fi] = mode
                self.pinned.add(fi)
                kind = "map" if mode == "map" else "map (lean)"
                self.reasons[fi] = f"{kind}: {len(self.bodies[fi])} whole bodies the task needs first"
        # then the files the task names (and the best match's) show their whole outline, not only
        # the task's bodies, from what the bodies left (the rest of the tree's index lines matter less)
        room = min(avail - spent, room)
        widened = {fi for fi in by_path if fi in self.outline or self.plan.get(fi) == "map"}
        for fi in sorted(self.targets - widened, key=lambda k: (-self.file_rel[k], k)):
            extra = self._widen_outline(fi, room)
            spent += extra
            room -= extra
        return spent

    def _widen_outline(self, fi: int, room: int) -> int:
        """Plan file fi (a target) with its whole outline and the bodies it already has: its full
        skeleton (map), else, on a large tree, its top-level names (a lean map instead of a focus
        map), within `room` more tokens. Returns the tokens it took."""
        if not self.files[fi].is_code or self.plan.get(fi) == "full" or room <= 0:
            return 0
        bodies = self.bodies.get(fi, [])
        now = self.plan.get(fi)
        before = self.estimate(fi, now, bodies) if now in ("lean", "map") else 0
        for mode in ("map", "lean"):
            if mode == "lean":
                if not self.focus or now == "map":
                    return 0  # without focus a lean map already lists every top-level name
                self.outline[fi] = "lean"
                self._costs.pop((fi, "lean"), None)  # the focus map's cost was cached
            after = self.estimate(fi, mode, bodies)
            if after - before <= room and (after < self._floor(fi, "full") or after < self.cost(fi, "full")):
                self.plan[fi] = mode
                if bodies:
                    self.bodies[fi] = bodies
                self.pinned.add(fi)
                self.reasons[fi] = (
                    f"{'map' if mode == 'map' else 'map (lean)'}: a file the task names, its outline whole"
                    + (f", {len(bodies)} whole bodies the task needs first" if bodies else "")
                )
                return after - before
            if mode == "lean":
                del self.outline[fi]
                self._costs.pop((fi, "lean"), None)
        return 0

    def _named_files(self) -> set[int]:
        """The files defining a class or function the task names exactly (`FileBasedCache`,
        `FileBasedCache.get`, `_is_expired`), when at most two files define that name."""
        wanted: set[str] = set()
        for ident in self.intent.identifiers:
            parts = ident.split(".")
            wanted.add(parts[0].lower())
            if len(parts) > 1:
                wanted.add(parts[-2].lower())
        if not wanted:
            return set()
        where: dict[str, set[int]] = {}
        for fi, pf in enumerate(self.files):
            for d in pf.definitions:
                if d.name.lower() in wanted:
                    where.setdefault(d.name.lower(), set()).add(fi)
        return {fi for files in where.values() if len(files) <= MAX_NAMED_FILES for fi in files}

    def _ladder(self, free: list[int], rest: int) -> None:
        """Plan the files that hold no task body when their outlines do not all fit: every file
        starts as one name in the index, then the most relevant climb to reference and signatures
        lines while the budget lasts (a file that failed to parse climbs first: it stays visible)."""
        order = sorted(free, key=lambda i: (i not in self.targets, self.files[i].parsed, -self.file_rel[i], i))
        left = rest
        for i in order:
            c = self.index_cost(i)
            if c <= left:
                self.plan[i] = "index"
                self.reasons[i] = "index: listed by path only, to fit the budget"
                left -= c
            else:
                self.plan[i] = "omitted"
                self.reasons[i] = "omitted: even its index line does not fit the budget"
        for level in ("reference", "signatures"):
            for i in order:
                if self.plan[i] in ("index", "omitted") or (level == "signatures" and self.plan[i] == "reference"):
                    delta = self.cost(i, level) - self.current(i)
                    if delta <= left:
                        left -= delta
                        self.plan[i] = level
                        self.notes[i] = "outline only: budget"
                        self.reasons[i] = f"{level}: the most relevant outlines first, within the budget"

    def _ranked_defs(self) -> dict[int, list[int]]:
        out: dict[int, list[int]] = {}
        for (fi, di), score in sorted(self.def_rel.items(), key=lambda kv: (-kv[1], kv[0])):
            if score > 0 and not self._container(fi, di):
                out.setdefault(fi, []).append(di)
        return out

    def _container(self, i: int, di: int) -> bool:
        """A class (or impl, trait...) holding methods: its methods are the units sent whole."""
        defs = self.files[i].definitions
        d = defs[di]
        return d.kind != "function" and di + 1 < len(defs) and defs[di + 1].parent == di

    def _fit(self, i: int, budget: int, ranked: list[int]) -> None:
        """The richest plan for file i within `budget` tokens."""
        full = self.cost(i, "full")
        if full <= budget:
            self.plan[i] = "full"
            self.reasons[i] = f"full: fits its budget of {budget:,} tokens"
            return
        skeleton = self.cost(i, "map")
        if skeleton <= budget and skeleton < full:
            chosen: list[int] = []
            for di in ranked:
                if self._covered(i, chosen, di):
                    continue
                if self.estimate(i, "map", [*chosen, di]) <= budget:
                    chosen.append(di)
            self.plan[i] = "map"
            self.bodies[i] = chosen
            self.reasons[i] = f"map: full needs {full:,} > budget {budget:,}; {len(chosen)} whole bodies for the task"
            return
        if ranked and self.cost(i, "lean") <= budget:
            chosen = []
            for di in ranked:
                if not self._covered(i, chosen, di) and self.estimate(i, "lean", [*chosen, di]) <= budget:
                    chosen.append(di)
            if chosen:
                self.plan[i] = "lean"
                self.bodies[i] = chosen
                self.reasons[i] = (
                    f"map (lean): the map needs {skeleton:,} > budget {budget:,}; {len(chosen)} whole bodies"
                )
                return
        sig = self.cost(i, "signatures")
        if sig <= budget:
            self.plan[i] = "signatures"
            self.reasons[i] = f"signatures: budget {budget:,} below the map ({skeleton:,})"
            return
        self.plan[i] = "reference"
        self.reasons[i] = f"reference: budget {budget:,} below the signatures ({sig:,})"

    def _fill(self, avail: int) -> None:
        """Spend what the allocation left on the most relevant whole bodies, then whole files."""
        left = avail - sum(self.current(i) for i in self.plan)
        if left <= 0:
            return
        candidates = sorted(self.def_rel.items(), key=lambda kv: (-kv[1], kv[0]))[:MAX_FILL_CANDIDATES]
        for (fi, di), _score in candidates:
            if left <= 0:
                break
            if self.plan[fi] == "full" or self._container(fi, di) or self.plan[fi] == "omitted":
                continue
            chosen = self.bodies.get(fi, []) if self.plan[fi] in ("map", "lean") else []
            if di in chosen or self._covered(fi, chosen, di):
                continue
            mode = "map" if self.plan[fi] == "map" else "lean"
            new = self.estimate(fi, mode, [*chosen, di])
            delta = new - self.current(fi)
            if delta <= left and (new < self._floor(fi, "full") or new < self.cost(fi, "full")):
                left -= delta
                self.plan[fi] = mode
                self.bodies[fi] = [*chosen, di]
                self.reasons[fi] = f"map: {len(self.bodies[fi])} whole bodies for the task (leftover budget)"
                self.notes.pop(fi, None)
        for fi in sorted(range(len(self.files)), key=lambda k: (-self.file_rel[k], k)):
            cur_mode = self.plan[fi]
            if cur_mode == "omitted":
                continue
            rank = len(MODES) if cur_mode == "index" else MODES.index("map" if cur_mode == "lean" else cur_mode)
            for better in ("full", "map", "signatures", "reference"):
                if MODES.index(better) >= rank and not (cur_mode == "lean" and better == "map"):
                    break
                if self._floor(fi, better) - self.current(fi) > left:
                    continue  # cannot fit: no need to render the file in that mode to know it
                bodies = self.bodies.get(fi) if better == "map" else None
                delta = self.estimate(fi, better, bodies) - self.current(fi)
                if delta <= left:
                    left -= delta
                    self.plan[fi] = better
                    if better != "map":
                        self.bodies.pop(fi, None)
                    self.reasons[fi] = f"{better}: upgraded with leftover budget"
                    self.notes.pop(fi, None)
                    break

    def _hoist_imports(self) -> None:
        """MMR de-duplication across files: an import line in 2+ compressed files is printed once.
        A relative import means something else in another folder, so those are shared per folder."""
        groups: dict[str, list[list[str]]] = {}
        for i, m in self.plan.items():
            if m not in ("map", "lean", "signatures"):
                continue
            pf = self.files[i]
            by_group: dict[str, list[str]] = {}
            for imp in pf.imports:
                key = _folder(pf.rel) if _relative(imp.text, pf.language) else ""
                by_group.setdefault(key, []).append(imp.text)
            for key, lines in by_group.items():
                groups.setdefault(key, []).append(lines)
        self.shared = {k: v for k, v in ((k, shared_lines(g)) for k, g in sorted(groups.items())) if v}
        # what the hoisting saves: each shared line is printed once instead of once per file
        for key, hoisted in self.shared.items():
            for line in hoisted:
                repeats = sum(1 for per_file in groups[key] if line in per_file) - 1
                self.hoisted_lines += repeats
                self.hoisted_tokens += repeats * (tokens.count(line) + 1)

    def alternatives(self, i: int) -> dict[str, int]:
        """What file i would cost in signatures and reference mode (for re-injection plans)."""
        return {m: self.cost(i, m) for m in ("signatures", "reference")}

    def downgrade_one(self, over: int = 1) -> int | None:
        """Make one file one step leaner and return the tokens it frees (from cached counts): the
        least relevant first, the files holding the task's bodies last; among equals, the step that
        frees at least `over` tokens while losing the least. Reference lines go to the index, index
        entries go last. None when nothing is left to drop."""
        options = []
        for i, r in self.rendered.items():
            now = self.sent(i)
            if r.mode == "map" and self.bodies.get(i):
                step: tuple[str, list[int] | None] = (self.plan[i], self.bodies[i][:-1])
                saving = self.delta(i, self.bodies[i][-1])
            else:
                # compared without the header's note, so an empty file rendered alike in every mode
                # goes to the index instead of being "downgraded" to itself forever
                base = now if r.mode == "map" else min(now, self.cost(i, r.mode))
                leaner = (
                    [] if i in self._stuck else [m for m in MODES[MODES.index(r.mode) + 1 :] if self.cost(i, m) < base]
                )
                if leaner:
                    step = (leaner[0], None)
                    saving = now - self.cost(i, leaner[0])
                else:
                    step = ("index", None)
                    saving = now - self.index_cost(i)
            enough = saving >= over
            last = (
                1
                if i in self.pinned or i in self.targets
                else (1 if step[0] == "index" and not self.files[i].parsed else 0)
            )
            key = (last, round(self.file_rel[i], 2), 0 if enough else 1, saving if enough else -saving, -i)
            options.append((key, i, step, saving))
        if options:
            _key, i, (mode, bodies), saving = min(options, key=lambda o: o[0])
            old = self.rendered[i].mode
            if mode == "index":
                del self.rendered[i]
                self._sent.pop(i, None)
                self.bodies.pop(i, None)
                self.plan[i] = "index"
                self.indexed.add(i)
                self.reasons[i] = f"index: downgraded from {old} to its index line to fit the budget"
                return saving
            if mode in ("map", "lean") and old == "map":
                self.bodies[i] = bodies or []
                self.reasons[i] = f"map: bodies dropped to fit the budget ({len(self.bodies[i])} left)"
                note = "fewer bodies: over budget"
            else:
                self.bodies.pop(i, None)
                self.reasons[i] = f"{mode}: downgraded from {old} to fit the budget"
                note = f"{old}->{mode}: over budget"
            self.plan[i] = mode
            self.notes[i] = note
            before = self.sent(i)
            self._set_rendered(i, self._render(i, mode, self.bodies.get(i), note))
            if self.sent(i) >= before:
                self._stuck.add(i)  # that step freed nothing: its next step is the index
            return before - self.sent(i)
        # index entries go last, a file that failed to parse the very last: it must stay named
        if self.indexed:
            i = min(self.indexed, key=lambda k: (not self.files[k].parsed, self.file_rel[k], -k))
            self.indexed.discard(i)
            self.omitted.append(i)
            self.plan[i] = "omitted"
            self.reasons[i] = "omitted: even its index line does not fit the budget"
            return self.index_cost(i)
        return None

    # -- delivery -----------------------------------------------------------------------------

    def assemble(self, root: Path, budget: int | None, skipped: list[Skipped]) -> str:
        modes = Counter(r.mode for r in self.rendered.values())
        intent = self.intent
        lines = [
            f"# Lorekeeper context pack of {display_name(root.name or str(root))}: {len(self.files)} files"
            + (f", budget {budget}" if budget is not None else ""),
        ]
        if intent.task:
            lines.append(f"# task: {intent.task} ({intent.task_type})")
        lines.append(
            "# modes: "
            + ", ".join(f"{m} {modes[m]}" for m in MODES if modes.get(m))
            + ". Each file starts with '=== path [mode -N]', N = o200k tokens dropped from it."
        )
        if self.indexed:
            lines.append(f"# listed by path only (index at the end): {len(self.indexed)} files")
        if self.omitted:
            lines.append(f"# omitted to fit the budget: {len(self.omitted)} files")
        lines.extend(skipped_notes(skipped))
        parts = ["\n".join(lines) + "\n"]
        for key, hoisted in sorted(self.shared.items()):
            where = f" in {key}/" if key else ""
            parts.append(
                f"=== imports shared by several files{where} (listed once)\n" + "\n".join(sorted(hoisted)) + "\n"
            )
        if intent.task:  # files holding the task's bodies first (high-attention position), then by relevance

            def best(k: int) -> float:
                scores = self.def_scores.get(k, {})
                if k in self.pinned and self.plan.get(k) == "full":  # sent whole for the task's bodies
                    return max(scores.values(), default=0.0)
                return max((scores.get(d, 0.0) for d in self.bodies.get(k, [])), default=0.0)

            order = sorted(self.rendered, key=lambda k: (-round(best(k), 6), -self.file_rel[k], self.files[k].rel))
        else:
            order = sorted(self.rendered, key=lambda k: self.files[k].rel)
        parts.extend(self.rendered[i].text for i in order)
        if self.indexed:
            parts.append(self._index_text())
        anchor = self._anchor()
        if anchor:
            parts.append(anchor)
        return "\n".join(parts)

    def _index_text(self) -> str:
        """One line per folder naming the files sent by path only."""
        by_folder: dict[str, list[str]] = {}
        for i in sorted(self.indexed, key=lambda k: self.files[k].rel):
            rel = self.files[i].rel
            by_folder.setdefault(_folder(rel), []).append(rel.rsplit("/", 1)[-1])
        return INDEX_TITLE + "\n" + "".join(f"{d}/: {' '.join(names)}\n" for d, names in sorted(by_folder.items()))

    def _anchor(self) -> str:
        """Tail anchor: the most relevant definition's header again at the very end (recency)."""
        if self._anchor_def is None:
            return ""
        fi, di = self._anchor_def
        if fi not in self.rendered:
            return ""
        d = self.files[fi].definitions[di]
        return f"=== anchor: {self.files[fi].rel}: {d.header}\n"


def _join(a: str, b: str) -> str:
    return f"{a}; {b}" if a else b


def _is_test(rel: str) -> bool:
    name = rel.rsplit("/", 1)[-1]
    return name.startswith("test_") or name.endswith(("_test.py", "_test.go")) or "/tests/" in f"/{rel}"


def _folder(rel: str) -> str:
    return rel.rsplit("/", 1)[0] if "/" in rel else "."


def _relative(text: str, language: str) -> bool:
    """True for an import whose meaning depends on the importing file's folder."""
    if language == "python":
        return text.startswith("from .")
    if language in ("javascript", "typescript", "tsx"):
        return any(q + p in text for q in "'\"`" for p in ("./", "../"))
    if language == "rust":
        return "self::" in text or "super::" in text
    return False
