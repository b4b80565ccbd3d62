"""The plan of a pack: each file's mode and whole bodies, decided within the budget before the
exact rendering. One job: spending the budget; prices come from `pack_costs`, the task's bodies in
their order from `pack_task`.

Auto mode: the task's bodies first (up to BODY_SHARE of the budget, PIN_SHARE on a tree whose
outline does not fit; the files holding them are pinned), then the rest of the tree: every file's
signatures when they fit and a Boltzmann share of the rest by relevance (`_fit`), or, on a large
tree, every file from its index line climbing to reference and signature lines by relevance
(`_ladder`); what is left goes to whole bodies, then whole files (`_fill`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lorekeeper.context import tokens
from lorekeeper.context.allocate import boltzmann, temperature
from lorekeeper.context.intent import StructuredIntent
from lorekeeper.context.pack_costs import Costs
from lorekeeper.context.pack_task import MAX_FILL_CANDIDATES, MAX_NAMED_CLASSES, TaskOrder, container
from lorekeeper.context.parse import ParsedFile
from lorekeeper.context.render import MODES

PREAMBLE_RESERVE = 160  # tokens kept aside for the pack preamble before allocating files
BODY_SHARE = 0.6  # task packs: share of the budget first spent on the most relevant whole bodies
COVERAGE_SHARE = 0.8  # when every file's signatures fit in this share of the rest, all get them
PIN_SHARE = 0.85  # task packs on a large tree: share of the budget the task's own bodies may take first
TARGET_OUTLINE_SHARE = 0.5  # a named file's whole outline may take this share of the budget
_CODE_EXTS = (".py", ".pyi", ".ts", ".tsx", ".js", ".jsx", ".rs", ".go", ".java", ".md")


@dataclass
class Plan:
    """The per-file decisions, made here and then downgraded by `pack_fit` until the pack fits."""

    modes: dict[int, str] = field(default_factory=dict)  # file -> mode (before the exact rendering)
    bodies: dict[int, list[int]] = field(default_factory=dict)  # file -> definitions whole, most relevant first
    reasons: dict[int, str] = field(default_factory=dict)
    notes: dict[int, str] = field(default_factory=dict)  # file -> its header's note
    pinned: set[int] = field(default_factory=set)  # files holding the task's own bodies: downgraded last
    targets: set[int] = field(default_factory=set)  # files the task names or whose code matches it best
    indexed: set[int] = field(default_factory=set)  # files sent as their path only, in the index section
    omitted: list[int] = field(default_factory=list)


class Planner:
    """Fills a `Plan` for a cap in tokens: exact costs for whole modes, estimates for maps with
    bodies (the pack is counted exactly afterwards, so estimates can only cost quality)."""

    def __init__(
        self,
        files: list[ParsedFile],
        file_rel: list[float],
        def_rel: dict[tuple[int, int], float],
        intent: StructuredIntent,
        mode: str,
        cap: int,
        costs: Costs,
        plan: Plan,
        task_order: TaskOrder,
        body_share: float = 1.0,
    ) -> None:
        self.files = files
        self.file_rel = file_rel
        self.def_rel = def_rel
        self.intent = intent
        self.mode = mode
        self.cap = cap
        self.costs = costs
        self.plan = plan
        self.task_order = task_order
        self.body_share = body_share  # the intent's multiplier of the share spent on bodies first

    def decide(self) -> None:
        """Plan every file: its mode, its whole bodies and why."""
        n = len(self.files)
        if self.mode != "auto":
            for i in range(n):
                self.plan.modes[i] = self.mode
                self.plan.reasons[i] = f"--mode {self.mode}"
        else:
            avail = max(0, self.cap - PREAMBLE_RESERVE)
            spent = self._bodies_first(avail) if self.intent.task else 0
            free = [i for i in range(n) if i not in self.plan.modes]
            rest = max(0, avail - spent)
            sig = {i: self.costs.cost(i, "signatures") for i in free}
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

    def current(self, i: int) -> int:
        mode = self.plan.modes[i]
        if mode == "index":
            return self.costs.index_cost(i)
        if mode == "omitted":
            return 0
        return self.costs.estimate(i, mode, self.plan.bodies.get(i))

    def _covered(self, i: int, chosen: list[int], di: int) -> bool:
        """True when definition di is inside (or around) one already chosen."""
        defs = self.files[i].definitions
        d = defs[di]
        return any(defs[c].start <= d.start and d.end <= defs[c].end for c in chosen) or any(
            d.start <= defs[c].start and defs[c].end <= d.end for c in chosen
        )

    def _bodies_first(self, avail: int) -> int:
        """Reserve part of the budget for the bodies the task needs (`_task_defs`): what a developer
        reads to make the change comes before the outline of everything else. On a tree whose
        outline does not fit, that part grows to PIN_SHARE; the files holding them are pinned."""
        large = sum(self.costs.cost(i, "signatures") for i in range(len(self.files))) > avail
        self.costs.focus = large
        cap = int(avail * (PIN_SHARE if large else BODY_SHARE) * self.body_share)
        named = [t.lower().lstrip("./") for t in self.intent.targets if "/" in t or t.endswith(_CODE_EXTS)]
        by_path = {i for i, pf in enumerate(self.files) if any(pf.rel.lower().endswith(t) for t in named)}
        self.plan.targets |= by_path | self.task_order.named_files()
        spent = 0
        order = self.task_order.needed()
        # the leading definitions the task names keep room for their bodies (aiohttp at 8k: the
        # outline of client.py, named by its path, left no room for ClientSession._request, 2.9k tokens)
        reserve = 0
        for k in order[:MAX_NAMED_CLASSES]:
            if not self.task_order.names(k):
                break
            need = self.costs.delta(*k) + tokens.count(self.files[k[0]].definitions[k[1]].header) + 8  # as `estimate`
            if reserve + need <= cap:
                reserve += need
        # a file the task names by its path shows its whole outline before the other bodies
        room = int(TARGET_OUTLINE_SHARE * avail)
        for fi in sorted(by_path, key=lambda k: (-self.file_rel[k], k)):
            extra = self._widen_outline(fi, min(room, cap - spent - reserve))
            spent += extra
            room -= extra
        if order:
            self.plan.targets.add(order[0][0])
        for fi, di in order:
            chosen = self.plan.bodies.get(fi, [])
            if self._covered(fi, chosen, di):
                continue
            outlined = fi in by_path and self.plan.modes.get(fi) in ("map", "lean")
            mode = self.plan.modes[fi] if outlined else "lean"
            before = self.costs.estimate(fi, mode, chosen) if chosen or outlined else 0
            after = self.costs.estimate(fi, mode, [*chosen, di])
            if after >= self.costs.floor(fi, "full") and after >= self.costs.cost(fi, "full"):
                full = self.costs.cost(fi, "full")
                if not chosen and (fi not in self.plan.modes or outlined) and spent - before + full <= cap:
                    self.plan.modes[fi] = "full"
                    self.plan.reasons[fi] = "full: holds the task's most relevant code"
                    self.plan.pinned.add(fi)
                    spent += full - before
                elif chosen and self.plan.modes.get(fi) == mode and spent - before + full <= cap:
                    # its map with one more needed body would cost more than the whole file
                    self.plan.modes[fi] = "full"
                    self.plan.bodies.pop(fi, None)
                    self.plan.reasons[fi] = "full: cheaper than its map with the bodies the task needs"
                    spent += full - before
                continue
            if self.plan.modes.get(fi) == "full":
                continue
            if spent + after - before <= cap:
                spent += after - before
                self.plan.bodies[fi] = [*chosen, di]
                self.plan.modes[fi] = mode
                self.plan.pinned.add(fi)
                kind = "map" if mode == "map" else "map (lean)"
                self.plan.reasons[fi] = f"{kind}: {len(self.plan.bodies[fi])} whole bodies the task needs first"
        # then the files the task names (and the best match's) show their whole outline, not only
        # the task's bodies, from what the bodies left (the rest of the tree's index lines matter less)
        room = min(avail - spent, room)
        widened = {fi for fi in by_path if fi in self.costs.outline or self.plan.modes.get(fi) == "map"}
        for fi in sorted(self.plan.targets - widened, key=lambda k: (-self.file_rel[k], k)):
            extra = self._widen_outline(fi, room)
            spent += extra
            room -= extra
        return spent

    def _widen_outline(self, fi: int, room: int) -> int:
        """Plan file fi (a target) with its whole outline and the bodies it already has: its full
        skeleton (map), else, on a large tree, its top-level names (a lean map instead of a focus
        map), within `room` more tokens. Returns the tokens it took."""
        if not self.files[fi].is_code or self.plan.modes.get(fi) == "full" or room <= 0:
            return 0
        bodies = self.plan.bodies.get(fi, [])
        now = self.plan.modes.get(fi)
        before = self.costs.estimate(fi, now, bodies) if now in ("lean", "map") else 0
        for mode in ("map", "lean"):
            if mode == "lean":
                if not self.costs.focus or now == "map":
                    return 0  # without focus a lean map already lists every top-level name
                self.costs.outline[fi] = "lean"
                self.costs.forget(fi, "lean")  # the focus map's cost was cached
            after = self.costs.estimate(fi, mode, bodies)
            if after - before <= room and (after < self.costs.floor(fi, "full") or after < self.costs.cost(fi, "full")):
                self.plan.modes[fi] = mode
                if bodies:
                    self.plan.bodies[fi] = bodies
                self.plan.pinned.add(fi)
                self.plan.reasons[fi] = (
                    f"{'map' if mode == 'map' else 'map (lean)'}: a file the task names, its outline whole"
                    + (f", {len(bodies)} whole bodies the task needs first" if bodies else "")
                )
                return after - before
            if mode == "lean":
                del self.costs.outline[fi]
                self.costs.forget(fi, "lean")
        return 0

    def _ladder(self, free: list[int], rest: int) -> None:
        """Plan the files that hold no task body when their outlines do not all fit: every file
        starts as one name in the index, then the most relevant climb to reference and signatures
        lines while the budget lasts (a file that failed to parse climbs first: it stays visible)."""
        order = sorted(free, key=lambda i: (i not in self.plan.targets, self.files[i].parsed, -self.file_rel[i], i))
        left = rest
        for i in order:
            c = self.costs.index_cost(i)
            if c <= left:
                self.plan.modes[i] = "index"
                self.plan.reasons[i] = "index: listed by path only, to fit the budget"
                left -= c
            else:
                self.plan.modes[i] = "omitted"
                self.plan.reasons[i] = "omitted: even its index line does not fit the budget"
        for level in ("reference", "signatures"):
            for i in order:
                if self.plan.modes[i] in ("index", "omitted") or (
                    level == "signatures" and self.plan.modes[i] == "reference"
                ):
                    delta = self.costs.cost(i, level) - self.current(i)
                    if delta <= left:
                        left -= delta
                        self.plan.modes[i] = level
                        self.plan.notes[i] = "outline only: budget"
                        self.plan.reasons[i] = f"{level}: the most relevant outlines first, within the budget"

    def _ranked_defs(self) -> dict[int, list[int]]:
        out: dict[int, list[int]] = {}
        for (fi, di), score in sorted(self.def_rel.items(), key=lambda kv: (-kv[1], kv[0])):
            if score > 0 and not container(self.files, fi, di):
                out.setdefault(fi, []).append(di)
        return out

    def _fit(self, i: int, budget: int, ranked: list[int]) -> None:
        """The richest plan for file i within `budget` tokens."""
        full = self.costs.cost(i, "full")
        if full <= budget:
            self.plan.modes[i] = "full"
            self.plan.reasons[i] = f"full: fits its budget of {budget:,} tokens"
            return
        skeleton = self.costs.cost(i, "map")
        if skeleton <= budget and skeleton < full:
            chosen: list[int] = []
            for di in ranked:
                if self._covered(i, chosen, di):
                    continue
                if self.costs.estimate(i, "map", [*chosen, di]) <= budget:
                    chosen.append(di)
            self.plan.modes[i] = "map"
            self.plan.bodies[i] = chosen
            self.plan.reasons[i] = (
                f"map: full needs {full:,} > budget {budget:,}; {len(chosen)} whole bodies for the task"
            )
            return
        if ranked and self.costs.cost(i, "lean") <= budget:
            chosen = []
            for di in ranked:
                if not self._covered(i, chosen, di) and self.costs.estimate(i, "lean", [*chosen, di]) <= budget:
                    chosen.append(di)
            if chosen:
                self.plan.modes[i] = "lean"
                self.plan.bodies[i] = chosen
                self.plan.reasons[i] = (
                    f"map (lean): the map needs {skeleton:,} > budget {budget:,}; {len(chosen)} whole bodies"
                )
                return
        sig = self.costs.cost(i, "signatures")
        if sig <= budget:
            self.plan.modes[i] = "signatures"
            self.plan.reasons[i] = f"signatures: budget {budget:,} below the map ({skeleton:,})"
            return
        self.plan.modes[i] = "reference"
        self.plan.reasons[i] = f"reference: budget {budget:,} below the signatures ({sig:,})"

    def _fill(self, avail: int) -> None:
        """Spend what the allocation left on the most relevant whole bodies, then whole files."""
        left = avail - sum(self.current(i) for i in self.plan.modes)
        if left <= 0:
            return
        candidates = sorted(self.def_rel.items(), key=lambda kv: (-kv[1], kv[0]))[:MAX_FILL_CANDIDATES]
        for (fi, di), _score in candidates:
            if left <= 0:
                break
            if self.plan.modes[fi] == "full" or container(self.files, fi, di) or self.plan.modes[fi] == "omitted":
                continue
            chosen = self.plan.bodies.get(fi, []) if self.plan.modes[fi] in ("map", "lean") else []
            if di in chosen or self._covered(fi, chosen, di):
                continue
            mode = "map" if self.plan.modes[fi] == "map" else "lean"
            new = self.costs.estimate(fi, mode, [*chosen, di])
            delta = new - self.current(fi)
            if delta <= left and (new < self.costs.floor(fi, "full") or new < self.costs.cost(fi, "full")):
                left -= delta
                self.plan.modes[fi] = mode
                self.plan.bodies[fi] = [*chosen, di]
                self.plan.reasons[fi] = f"map: {len(self.plan.bodies[fi])} whole bodies for the task (leftover budget)"
                self.plan.notes.pop(fi, None)
        for fi in sorted(range(len(self.files)), key=lambda k: (-self.file_rel[k], k)):
            cur_mode = self.plan.modes[fi]
            if cur_mode == "omitted":
                continue
            rank = len(MODES) if cur_mode == "index" else MODES.index("map" if cur_mode == "lean" else cur_mode)
            for better in ("full", "map", "signatures", "reference"):
                if MODES.index(better) >= rank and not (cur_mode == "lean" and better == "map"):
                    break
                if self.costs.floor(fi, better) - self.current(fi) > left:
                    continue  # cannot fit: no need to render the file in that mode to know it
                bodies = self.plan.bodies.get(fi) if better == "map" else None
                delta = self.costs.estimate(fi, better, bodies) - self.current(fi)
                if delta <= left:
                    left -= delta
                    self.plan.modes[fi] = better
                    if better != "map":
                        self.plan.bodies.pop(fi, None)
                    self.plan.reasons[fi] = f"{better}: upgraded with leftover budget"
                    self.plan.notes.pop(fi, None)
                    break
