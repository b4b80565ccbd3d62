"""The definitions a task pack needs, in the order they get their bodies: the best matches of the
task's words, what the best one calls (and, in its file, what those call), the other matches and
their callees, the callers of the two best, tests calling them (FixBug), what surrounds the target,
then the other good matches. One job: choosing and ordering; `pack_plan` spends the budget on them.
Centrality plays no part in this order."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from lorekeeper.context.allocate import strategy
from lorekeeper.context.intent import StructuredIntent
from lorekeeper.context.parse import ParsedFile

MAX_FILL_CANDIDATES = 400  # definitions considered when spending leftover budget on whole bodies
BODY_MIN_RELEVANCE = 0.2  # ...for definitions at least this relevant (1.0 = the best match)
SEED_MIN_MATCH = 0.5  # ...among the definitions matching the task at least this well (1.0 = the best)
CLASS_SHARE = 0.5  # share of a matching class's score added to its methods that match the task
TASK_SEEDS = 4  # the best-matching definitions whose callees (and callers) are pinned right after them
MAX_SECOND_CALLEES = 4  # callees of the best match's callees, in its own file
MAX_CALLERS = 3  # callers pinned per seed (the two best seeds), most relevant first
MAX_TEST_CALLERS = 3  # FixBug: test functions calling a seed, pinned after the callers
MAX_TARGET_FILE_MATCHES = 6  # then the target file's own definitions matching the task, before the other seeds
NAMED_CLASS_SHARE = (
    0.15  # a class the task names by itself is sent whole when it takes at most this share of the budget
)
MAX_NAMED_CLASSES = 2  # ...for the best-matching two
MAX_NAMED_FILES = 2  # a name the task gives brings the files defining it when at most this many do


class TaskOrder:
    """Reads the task, the relevance of each definition, the call graph and the definitions'
    extra cost when sent whole (`delta`, for the named classes that fit their share of `cap`)."""

    def __init__(
        self,
        files: list[ParsedFile],
        def_rel: dict[tuple[int, int], float],
        matches: dict[tuple[int, int], float],
        call_graph: Any,
        intent: StructuredIntent,
        cap: int,
        delta: Callable[[int, int], int],
        intent_tests: list[tuple[int, int]] | None = None,
    ) -> None:
        self.files = files
        self.def_rel = def_rel
        self.matches = matches
        self.call_graph = call_graph
        self.intent = intent
        self.cap = cap
        self.delta = delta
        self.intent_tests = intent_tests or []  # FixBug / Test: the target's tests, sent whole
        self._impls: dict[int, dict[str, int]] = {}  # file -> qualname -> its largest definition

    def needed(self) -> list[tuple[int, int]]:
        """The definitions the task needs, in the order they get their bodies: the best matches,
        each followed by what it calls; then the callers of the two best, the tests calling them
        (FixBug), and the other good matches. Centrality plays no part in this order."""
        ranked = sorted(self.def_rel.items(), key=lambda kv: (-kv[1], kv[0]))[:MAX_FILL_CANDIDATES]
        seeds = [k for k, v in ranked if v >= BODY_MIN_RELEVANCE and not container(self.files, *k)]
        # the best matches of the task's own words come first, before what the graph lifted
        # a class the task names lends its match to its methods that match the task too
        matches = dict(self.matches)
        for (fi, di), v in self.matches.items():
            if container(self.files, fi, di):
                defs = self.files[fi].definitions
                for m in range(di + 1, len(defs)):
                    if defs[m].start >= defs[di].end:
                        break
                    if defs[m].parent == di and (fi, m) in self.matches:
                        matches[(fi, m)] = self.matches[(fi, m)] + CLASS_SHARE * v
        by_match = [
            kv for kv in sorted(matches.items(), key=lambda kv: (-kv[1], kv[0])) if not container(self.files, *kv[0])
        ]

        best = by_match[0][1] if by_match else 0.0
        top = [k for k, v in by_match if v >= SEED_MIN_MATCH * best][:TASK_SEEDS] or seeds[:TASK_SEEDS]
        out: list[tuple[int, int]] = []
        seen: set[tuple[int, int]] = set()

        def add(k: tuple[int, int]) -> None:
            # an overload stub matches the task as its implementation does: the implementation first
            for key in dict.fromkeys((self.implementation(k), k)):
                if key not in seen and not container(self.files, *key):
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
        if top and self.names(top[0]):
            for k in [k for k, _v in by_match if k[0] == top[0][0]][:MAX_TARGET_FILE_MATCHES]:
                add(k)
        pinned_callers: list[tuple[int, int]] = []
        if cg is not None:
            tests: list[tuple[int, int]] = []
            for k in top[:2]:
                if k not in cg:
                    continue
                callers = by_rel(c for c in cg.predecessors(k) if cg.edges[c, k].get("weight", 1.0) >= 0.5)
                tests.extend(c for c in callers if is_test(self.files[c[0]].rel))
                for c in [c for c in callers if not is_test(self.files[c[0]].rel)][:MAX_CALLERS]:
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
            if not container(self.files, fi, di):
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
        if top and self.names(top[0]):  # the task names its target: the fix happens in that file
            out += [k for k, _v in by_match if k[0] == top[0][0]][:MAX_TARGET_FILE_MATCHES]
        return out

    def names(self, k: tuple[int, int]) -> bool:
        """True when the task's text names definition k (`erase_type`, `Errors.is_ignored_error`)."""
        name = self.files[k[0]].definitions[k[1]].qualname.rsplit(".", 1)[-1]
        return bool(re.search(r"(?<![\w$])" + re.escape(name) + r"(?![\w$])", self.intent.task or ""))

    def implementation(self, k: tuple[int, int]) -> tuple[int, int]:
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

    def named_files(self) -> set[int]:
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


def container(files: list[ParsedFile], i: int, di: int) -> bool:
    """A class (or impl, trait...) holding methods: its methods are the units sent whole."""
    defs = files[i].definitions
    d = defs[di]
    return d.kind != "function" and di + 1 < len(defs) and defs[di + 1].parent == di


def is_test(rel: str) -> bool:
    name = rel.rsplit("/", 1)[-1]
    return name.startswith("test_") or name.endswith(("_test.py", "_test.go")) or "/tests/" in f"/{rel}"
