"""The dependency graph of a source tree and the relevance it gives each file and definition.

- Import graph (networkx DiGraph, importer -> imported), resolved from tree-sitter imports by
  module-path suffix for Python, Java and Rust, by relative path for JS/TS, by package folder for Go.
- Heat diffusion: the files that match the task get heat, which spreads along import edges (both
  directions) and decays exponentially with the distance.
- PageRank on the import graph: files imported by many others are structural hubs.
- Louvain communities (seeded, so deterministic): files coupled with a target get a bonus.
- Call graph between definitions (resolved by name: same file first, then imported files) with a
  personalised PageRank from the definitions that match the task, so the callees a developer
  would read next rank high even when they share no word with the task.
File relevance = 0.7 x heat + 0.3 x PageRank (+ community bonus), as in seed 002.
"""

from __future__ import annotations

import math
import posixpath
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from lorekeeper.context.intent import StructuredIntent
from lorekeeper.context.parse import ParsedFile, identifier_stems, stem, words_of

HEAT_WEIGHT = 0.7  # share of the task heat in a file's relevance (seed 002)
PAGERANK_WEIGHT = 0.3  # share of structural centrality
HEAT_DECAY = 1.0  # heat(d) = exp(-HEAT_DECAY * d) at import distance d
HEAT_MAX_DISTANCE = 3  # heat does not travel further than this many import hops
MAX_HEAT_SEEDS = 256  # heat spreads from this many of the best-matching files (the others keep their own)
COMMUNITY_BONUS = 0.1  # added to files in the community of the hottest file
PAGERANK_ALPHA = 0.85  # damping of both PageRanks
CALL_WEIGHT = 0.6  # weight of the call-graph PageRank in a definition's relevance
MAX_AMBIGUOUS_CALLEES = 4  # a call name matching more definitions than this is not linked
CALLEE_SEEDS = 8  # the best-matching definitions whose direct callees are lifted...
CALLEE_SHARE = 0.6  # ...to at least this share of their caller's relevance

# Term match weights for a definition (multiplied by the term's inverse document frequency).
W_NAME_EXACT = 8.0  # the task names this identifier (`hide_input`, `Session.commit`)
W_NAME_PART = 3.0  # a word of the task is a word of the definition's name
W_PATH = 2.0  # a word of the task is a word of the file path
W_DOC = 1.0  # ... of its docstring's first line
W_BODY = 1.0  # ... of the identifiers used in its body (saturating at 3 uses)
W_QUALIFIED = 4.0  # multiplier of W_NAME_EXACT when the task names Class.method exactly
W_NAME_WHOLE = 2.0  # a word of the task is the definition's whole name
W_BODY_EXACT = 3.0  # an identifier the task names exactly (`pool_size`) is used in the body

_DOTTED_SUFFIX_STRIP = ("__init__", "mod", "index", "lib")
_JS_EXTS = (".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", "/index.ts", "/index.tsx", "/index.js")


@dataclass
class Relevance:
    files: list[float]  # per file, 0..1
    heat: list[float]
    pagerank: list[float]
    community: list[int]
    definitions: dict[tuple[int, int], float] = field(default_factory=dict)  # (file, def) -> 0..1
    matches: dict[tuple[int, int], float] = field(default_factory=dict)  # the task's own match, before the graph
    graph: Any = None  # the import DiGraph (nodes are file indices)
    call_graph: Any = None


def module_keys(rel: str) -> list[str]:
    """Dotted module names a file may be imported as: every suffix of its dotted path."""
    stem, _ext = posixpath.splitext(rel)
    parts = [p for p in stem.split("/") if p]
    if parts and parts[-1] in _DOTTED_SUFFIX_STRIP and len(parts) > 1:
        parts = parts[:-1]
    return [".".join(parts[i:]) for i in range(len(parts))]


def build_import_graph(files: list[ParsedFile]) -> Any:
    import networkx as nx

    g: nx.DiGraph[int] = nx.DiGraph()
    g.add_nodes_from(range(len(files)))
    by_key: dict[str, list[int]] = defaultdict(list)
    by_path: dict[str, int] = {}
    by_dir: dict[str, list[int]] = defaultdict(list)
    for i, pf in enumerate(files):
        if not pf.is_code:
            continue
        by_path[pf.rel] = i
        by_dir[posixpath.dirname(pf.rel)].append(i)
        for key in module_keys(pf.rel):
            by_key[key].append(i)
    # every path suffix of a folder -> the files of the folders ending so, in folder order (a Go
    # import resolves by package folder suffix: one look-up instead of a scan of every folder)
    by_dir_suffix: dict[str, list[int]] = defaultdict(list)
    for d, ids in by_dir.items():
        parts = d.split("/")
        for n in range(len(parts)):
            by_dir_suffix["/".join(parts[n:])].extend(ids)
    for i, pf in enumerate(files):
        for imp in pf.imports:
            for target in imp.targets:
                for j in _resolve(pf, target, by_key, by_path, by_dir_suffix):
                    if j != i:
                        g.add_edge(i, j)
    return g


def _resolve(
    pf: ParsedFile, target: str, by_key: dict[str, list[int]], by_path: dict[str, int], by_dir: dict[str, list[int]]
) -> list[int]:
    """The files `target` (an import of pf) names; `by_dir` maps each folder path suffix to its files."""
    lang = pf.language
    if lang in ("javascript", "typescript", "tsx"):
        if not target.startswith("."):
            return []
        base = posixpath.normpath(posixpath.join(posixpath.dirname(pf.rel), target))
        for cand in (base, *(base + e for e in _JS_EXTS)):
            if cand in by_path:
                return [by_path[cand]]
        return []
    if lang == "go":
        parts = target.split("/")
        for n in range(len(parts), 0, -1):
            hits = by_dir.get("/".join(parts[-n:]))
            if hits:
                return hits
        return []
    dotted = target
    if lang == "python" and target.startswith("."):
        level = len(target) - len(target.lstrip("."))
        pkg = posixpath.dirname(pf.rel).split("/") if posixpath.dirname(pf.rel) else []
        if level - 1 > len(pkg):
            return []
        pkg = pkg[: len(pkg) - (level - 1)]
        rest = target[level:]
        dotted = ".".join([*pkg, *([rest] if rest else [])])
    if lang == "rust":
        dotted = re.sub(r"^(crate|self|super)\.", "", dotted)
    parts = [p for p in dotted.split(".") if p]
    while parts:
        found = by_key.get(".".join(parts))
        if found:
            return found if len(found) <= MAX_AMBIGUOUS_CALLEES else []
        parts = parts[:-1]
        if len(parts) < 1:
            break
    return []


@dataclass
class Structure:
    """What relevance needs of a tree whatever the task: the import graph, its PageRank, its
    communities and the call graph (a pack caches it per tree content between runs)."""

    graph: Any
    pagerank: list[float]
    communities: list[int]
    call_graph: Any


def structure(files: list[ParsedFile]) -> Structure:
    g = build_import_graph(files)
    pr = _normalise(_pagerank(g, None)) if files else []
    return Structure(g, pr, _communities(g), _call_graph(files, g))


def relevance(files: list[ParsedFile], intent: StructuredIntent, tree: Structure | None = None) -> Relevance:
    """Relevance of every file and definition for `intent` (PageRank alone without a task);
    `tree` is `structure(files)` when the caller has it already."""
    import networkx as nx

    tree = structure(files) if tree is None else tree
    g, pr, communities = tree.graph, tree.pagerank, tree.communities
    n = len(files)
    terms = {stem(t) for t in intent.terms}
    hits = _TermHits(terms)
    idf = _idf(files, terms, hits)
    exact = {i.lower() for i in intent.identifiers}
    exact_tail = {i.lower().split(".")[-1] for i in intent.identifiers if "." in i} - exact
    target_files = [t.lower() for t in intent.targets if ("." in t and "/" in t) or t.endswith(_TARGET_EXTS)]

    def_base: dict[tuple[int, int], float] = {}
    file_base = [0.0] * n
    for fi, pf in enumerate(files):
        path_words = {stem(w) for w in words_of(pf.rel.replace("/", " ").replace(".", " "))}
        s = sum(W_PATH * idf.get(t, 0.0) for t in sorted(terms) if t in path_words)
        if any(pf.rel.lower().endswith(tf.lstrip("./")) for tf in target_files):
            s += W_NAME_EXACT
        file_base[fi] = s
        for di, d in enumerate(pf.definitions):
            score = _definition_score(d, terms, idf, exact, exact_tail, hits)
            if score > 0:
                def_base[(fi, di)] = score + 0.25 * s

    # call graph and its personalised PageRank
    cg = tree.call_graph
    def_scores: dict[tuple[int, int], float] = {}
    base_norm: dict[tuple[int, int], float] = {}
    if def_base:
        top = max(def_base.values())
        base_norm = {k: v / top for k, v in def_base.items()}
        ppr = _pagerank(cg, base_norm) if cg.number_of_edges() else {}
        ppr_norm = _normalise_dict(ppr)
        for k in sorted(set(base_norm) | {k for k, v in ppr_norm.items() if v > 0}):
            def_scores[k] = base_norm.get(k, 0.0) + CALL_WEIGHT * ppr_norm.get(k, 0.0)
        top2 = max(def_scores.values())
        def_scores = {k: v / top2 for k, v in def_scores.items() if v > 0}
        # one hop down the call graph from the best matches: what a developer reads next
        best = sorted(def_scores.items(), key=lambda kv: (-kv[1], kv[0]))[:CALLEE_SEEDS]
        for caller, score in best:
            for callee in sorted(cg.successors(caller)):
                if cg.edges[caller, callee].get("weight", 1.0) >= 0.5:  # a resolved call, not class membership
                    def_scores[callee] = max(def_scores.get(callee, 0.0), CALLEE_SHARE * score)

    # heat diffusion over the undirected import graph
    seeds = [0.0] * n
    for fi in range(n):
        seeds[fi] = file_base[fi]
    for (fi, _di), v in def_scores.items():
        seeds[fi] = max(seeds[fi], 0.0) + v
    heat = [0.0] * n
    if any(seeds):
        ug = g.to_undirected()
        # every seed keeps its own heat; the heat spreads from the strongest MAX_HEAT_SEEDS only:
        # one walk per matching file made this step quadratic (on a large tree nearly every file
        # matches some word of the task; 4.3x the input took 64x the time)
        hot = sorted((s for s in range(n) if seeds[s] > 0), key=lambda s: (-seeds[s], s))
        for s in hot[MAX_HEAT_SEEDS:]:
            heat[s] += seeds[s]
        for s in sorted(hot[:MAX_HEAT_SEEDS]):
            h0 = seeds[s]
            for node, dist in nx.single_source_shortest_path_length(ug, s, cutoff=HEAT_MAX_DISTANCE).items():
                heat[node] += h0 * math.exp(-HEAT_DECAY * dist)
        heat = _normalise(heat)
        hottest = max(range(n), key=lambda i: (heat[i], -i))
        scores = [HEAT_WEIGHT * heat[i] + PAGERANK_WEIGHT * pr[i] for i in range(n)]
        for i in range(n):
            if communities[i] == communities[hottest] and communities[i] >= 0:
                scores[i] += COMMUNITY_BONUS
    else:
        scores = list(pr)
    return Relevance(_normalise(scores), heat, pr, communities, def_scores, base_norm, g, cg)


_TARGET_EXTS = (".py", ".pyi", ".ts", ".tsx", ".js", ".jsx", ".rs", ".go", ".java", ".md")


class _TermHits(dict[str, frozenset[str]]):
    """identifier -> its stems when one of them is a task term, else an empty set (computed once
    per distinct identifier of the tree, not once per use)."""

    def __init__(self, terms: set[str]) -> None:
        super().__init__()
        self.terms = terms

    def __missing__(self, ident: str) -> frozenset[str]:
        stems = identifier_stems(ident)
        hit = stems if stems & self.terms else frozenset()
        self[ident] = hit
        return hit


def _definition_score(
    d: Any,
    terms: set[str],
    idf: dict[str, float],
    exact: set[str],
    exact_tail: frozenset[str] | set[str] = frozenset(),
    hits: _TermHits | None = None,
) -> float:
    if not terms:
        return 0.0
    name_l = d.name.lower()
    name_parts = {stem(w) for w in words_of(d.name)} | {stem(name_l)}
    qual_l = d.qualname.lower()
    score = 0.0
    if any("." in q and (qual_l == q or qual_l.endswith("." + q)) for q in exact):
        score += W_NAME_EXACT * W_QUALIFIED  # `Session.get` names this method, not every `get`
    elif name_l in exact or qual_l in exact:
        score += W_NAME_EXACT
    elif name_l in exact_tail:  # `get` of `Session.get` on another class: a weak hint
        score += W_NAME_PART
    doc_words = {stem(w) for w in words_of(d.doc)} if d.doc else set()
    if exact:
        score += W_BODY_EXACT * sum(1 for ident in d.identifiers if ident.lower() in exact and ident.lower() != name_l)
    hits = _TermHits(terms) if hits is None else hits
    body_counts: dict[str, int] = defaultdict(int)
    for ident, c in d.identifiers.items():
        stems = hits[ident]
        if stems:
            for s in stems:
                body_counts[s] += c
    for t in sorted(terms):  # a fixed order: float sums, hence rankings, are the same in every process
        w = idf.get(t, 0.0)
        if t in name_parts or t == name_l:
            score += W_NAME_PART * w
        if t == stem(name_l.strip("_")):  # the task names the whole definition (`validates`)
            score += W_NAME_WHOLE * w
        if t in doc_words:
            score += W_DOC * w
        c = body_counts.get(t, 0)
        if c:
            score += W_BODY * w * min(c, 3) / 3
    return score


def _idf(files: list[ParsedFile], terms: set[str], hits: _TermHits | None = None) -> dict[str, float]:
    """Inverse document frequency of each task term over the definitions of the tree."""
    if not terms:
        return {}
    hits = _TermHits(terms) if hits is None else hits
    df: dict[str, int] = defaultdict(int)
    total = 0
    for pf in files:
        for d in pf.definitions:
            total += 1
            words = set(identifier_stems(d.name))
            for ident in d.identifiers:
                h = hits[ident]
                if h:
                    words |= h & terms
            for t in terms & words:
                df[t] += 1
    return {t: math.log(1.0 + (total + 1) / (1 + df.get(t, 0))) for t in terms}


def _call_graph(files: list[ParsedFile], g: Any) -> Any:
    import networkx as nx

    cg: nx.DiGraph[tuple[int, int]] = nx.DiGraph()
    by_name: dict[str, list[tuple[int, int]]] = defaultdict(list)
    by_name_file: dict[str, dict[int, list[tuple[int, int]]]] = defaultdict(dict)
    cg.add_nodes_from((fi, di) for fi, pf in enumerate(files) for di in range(len(pf.definitions)))
    for fi, pf in enumerate(files):
        for di, d in enumerate(pf.definitions):
            by_name[d.name].append((fi, di))
            by_name_file[d.name].setdefault(fi, []).append((fi, di))
    aliases: dict[str, set[str]] = defaultdict(set)
    for pf in files:
        for name, targets in pf.aliases.items():
            if name not in by_name:
                aliases[name] |= targets
    edges: list[tuple[tuple[int, int], tuple[int, int], float]] = []
    for fi, pf in enumerate(files):
        neighbours = set(g.successors(fi)) if fi in g else set()
        for di, d in enumerate(pf.definitions):
            called = set(d.calls)
            for name in d.calls:  # a call through a module-level alias reaches what the alias names
                called |= aliases.get(name, set())
            for name in sorted(called):
                per_file = by_name_file.get(name)
                if not per_file:
                    continue
                # the same file, else the files it imports, else a rare name anywhere (in
                # definition order, as a scan of every candidate would give them)
                chosen = per_file.get(fi) or [c for f in sorted(per_file.keys() & neighbours) for c in per_file[f]]
                if not chosen and len(by_name[name]) <= MAX_AMBIGUOUS_CALLEES:
                    chosen = by_name[name]
                edges.extend(((fi, di), c, 1.0 / len(chosen)) for c in chosen if c != (fi, di))
            if d.parent is not None:  # a method is read with its class, and the class with it
                edges.append(((fi, di), (fi, d.parent), 0.2))
                edges.append(((fi, d.parent), (fi, di), 0.2))
    cg.add_weighted_edges_from(edges)  # a repeated edge keeps its last weight, as add_edge did
    return cg


def _pagerank(g: Any, personalization: dict[Any, float] | None) -> dict[Any, float]:
    import networkx as nx

    if g.number_of_nodes() == 0:
        return {}
    if g.number_of_edges() == 0:
        if personalization:
            return dict(personalization)
        return dict.fromkeys(g.nodes, 1.0)
    try:
        return dict(nx.pagerank(g, alpha=PAGERANK_ALPHA, personalization=personalization, weight="weight"))
    except nx.PowerIterationFailedConvergence:
        return dict.fromkeys(g.nodes, 1.0)


def _communities(g: Any) -> list[int]:
    import networkx as nx

    n = g.number_of_nodes()
    out = [-1] * n
    if n == 0 or g.number_of_edges() == 0:
        return out
    comms = nx.community.louvain_communities(g.to_undirected(), seed=0)
    for ci, members in enumerate(sorted(comms, key=lambda c: (-len(c), min(c)))):
        if len(members) < 2:
            continue
        for m in members:
            out[m] = ci
    return out


def _normalise(values: list[float] | dict[Any, float]) -> list[float]:
    vals = list(values.values()) if isinstance(values, dict) else list(values)
    if isinstance(values, dict):
        keys = sorted(values)
        vals = [values[k] for k in keys]
    top = max(vals) if vals else 0.0
    return [v / top for v in vals] if top > 0 else [0.0 for _ in vals]


def _normalise_dict(values: dict[Any, float]) -> dict[Any, float]:
    top = max(values.values()) if values else 0.0
    return {k: v / top for k, v in values.items()} if top > 0 else {}
