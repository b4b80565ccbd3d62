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

Task packs plan from the task (`pack_task.TaskOrder.needed`): the best matches of the task's words, what
the best one calls (and, in its file, what those call), the other matches and their callees, the
callers of the two best, tests calling them (FixBug). Their bodies are pinned first, up to
PIN_SHARE of the budget on a tree whose outline does not fit (in focus maps: the bodies and their
classes only), and centrality never pushes them out. The rest of the tree then starts as one name
in an index section and climbs to reference and signature lines by relevance (`pack_plan.Planner._ladder`).

The pieces, one job each: `pack_costs` (renderings and their prices), `pack_task` (the task's
bodies in order), `pack_plan` (spending the budget), `pack_hoist` (imports printed once),
`pack_fit` (the exact count and the downgrades) and `pack_text` (the text); `_Packer` wires them.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Generator
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lorekeeper.context import tokens
from lorekeeper.context.allocate import intent_focus
from lorekeeper.context.intent import StructuredIntent, classify
from lorekeeper.context.pack_costs import Costs
from lorekeeper.context.pack_fit import Fitter
from lorekeeper.context.pack_hoist import Hoisted, hoist_imports
from lorekeeper.context.pack_plan import Plan, Planner
from lorekeeper.context.pack_task import TaskOrder
from lorekeeper.context.pack_text import PackText
from lorekeeper.context.parse import ParsedFile, parse_file
from lorekeeper.context.render import MODES
from lorekeeper.context.scan import Skipped, display_name, scan
from lorekeeper.errors import InvalidInputError

if TYPE_CHECKING:
    from lorekeeper.context.diskcache import DiskCache

PACK_MODES = ("auto", *MODES[:3])  # what `--mode` accepts
AUTO_DEFAULT_SHARE = 0.3  # auto mode without --budget packs to this share of the input tokens
PARALLEL_MIN_BYTES = 3 << 20  # a tree parses in worker processes from this many bytes of source (~750k tokens)
MAX_PARSE_WORKERS = 3
TINY_TREE_TOKENS = 400  # a tree this small (~50 lines) is packed whole (headers included) when the budget holds it

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
        packer.plan.reasons = dict.fromkeys(
            packer.plan.modes, f"full: the whole tree ({whole:,} tokens) fits the limit"
        )
    fitter = packer.fitter
    planned = sum(fitter.sent(i) for i in fitter.rendered)
    modes = Counter(r.mode for r in fitter.rendered.values())
    layers.append(
        _layer(
            "allocate+compress",
            input_tokens,
            planned + packer.hoisted.tokens,
            time.perf_counter() - t_plan,
            ", ".join(f"{m} {modes[m]}" for m in sorted(modes)) + f"; index {len(packer.plan.indexed)}",
        )
    )
    layers.append(
        _layer(
            "mmr",
            planned + packer.hoisted.tokens,
            planned,
            0.0,
            f"{packer.hoisted.lines} repeated import lines hoisted once; {fitter.doc_lines_dropped} doc lines dropped",
        )
    )
    yield (len(sources) + 2, total_steps, "checking the budget")
    t_deliver = time.perf_counter()
    text, out_tokens, steps = packer.fitter.fit(lambda: packer.assemble(root, budget, skipped), cap, budget)
    layers.append(
        _layer(
            "deliver", planned, out_tokens, time.perf_counter() - t_deliver, f"{steps} downgrade rounds, exact count"
        )
    )
    entries = []
    for i, pf in enumerate(files):
        r = fitter.rendered.get(i)
        entries.append(
            FileEntry(
                rel=pf.rel,
                language=pf.language,
                original_tokens=counts[i],
                sent_tokens=fitter.sent(i) if r is not None else 0,
                mode=r.mode if r is not None else "omitted",
                relevance=round(file_rel[i], 4),
                reason=packer.plan.reasons.get(i, ""),
                note=r.note if r is not None else "",
                bodies=r.bodies if r is not None else [],
                parse_error_line=pf.error_line,
                community=communities[i],
                alternatives=packer.costs.alternatives(i),
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
        omitted=[files[i].rel for i in packer.plan.omitted] + [files[i].rel for i in sorted(packer.plan.indexed)],
        shared_imports=sorted({line for lines in packer.hoisted.shared.values() for line in lines}),
        sections={files[i].rel: r.text for i, r in fitter.rendered.items()},
        indexed=[files[i].rel for i in sorted(packer.plan.indexed)],
        layers=layers,
    )


class _Packer:
    """One pack's pieces, wired: its prices (`Costs`), the task's bodies in order (`TaskOrder`),
    the plan (`Planner` filling a `Plan`), the imports hoisted once (`hoist_imports`), the exact
    fitting (`Fitter`) and the text (`PackText`). It holds no decision of its own."""

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
        self.costs = Costs(files, counts, def_rel)
        self.plan = Plan()
        order = TaskOrder(files, def_rel, matches or {}, call_graph, intent, cap, self.costs.delta, intent_tests)
        self.planner = Planner(files, file_rel, def_rel, intent, mode, cap, self.costs, self.plan, order, body_share)
        self.fitter = Fitter(files, file_rel, self.costs, self.plan)
        self.text = PackText(files, file_rel, def_rel, intent, self.costs, self.plan, self.fitter.rendered)
        self.hoisted = Hoisted()

    def decide(self) -> None:
        """Plan every file, hoist the imports shared by the compressed ones, render the plan."""
        self.planner.decide()
        self.hoisted = hoist_imports(self.files, self.plan.modes)
        self.costs.shared = self.hoisted.shared
        self.fitter.render_plan()

    def assemble(self, root: Path, budget: int | None, skipped: list[Skipped]) -> str:
        return self.text.assemble(root, budget, skipped)
