"""What each file costs in a pack, in each mode: its renderings and their exact o200k counts
(cached), and, for a map with whole bodies, an estimate (the skeleton plus each body's extra
tokens). One job: prices. It decides nothing; `pack_plan` and `pack_fit` decide from its prices.

Estimates can only cost quality, never the budget: the assembled pack is counted exactly last.
"""

from __future__ import annotations

from lorekeeper.context import tokens
from lorekeeper.context.pack_hoist import folder
from lorekeeper.context.parse import ParsedFile
from lorekeeper.context.render import Rendered, render

MAP_TEXT_MAX_TOKENS = 300  # a non-code file this small is sent whole in map mode


class Costs:
    """Renders files and prices them. The rendering inputs that the plan sets as it goes live
    here too: `focus` (a tree too large for the budget: lean maps keep only the task's bodies),
    `outline` (a target file -> the mode keeping its whole outline) and `shared` (the import lines
    hoisted once, which renderings made after the hoisting leave out)."""

    def __init__(self, files: list[ParsedFile], counts: list[int], def_rel: dict[tuple[int, int], float]) -> None:
        self.files = files
        self.counts = counts
        self.def_scores: dict[int, dict[int, float]] = {}  # file -> definition -> relevance
        for (fi, di), v in def_rel.items():
            self.def_scores.setdefault(fi, {})[di] = v
        self.focus = False
        self.outline: dict[int, str] = {}
        self.shared: dict[str, set[str]] = {}  # "" (absolute) or a folder (relative) -> hoisted lines
        self._costs: dict[tuple[int, str], int] = {}
        self._deltas: dict[tuple[int, int], int] = {}
        self._shorts: dict[tuple[int, int], int] = {}
        self._src: dict[int, bytes] = {}
        self._index_costs: dict[int, int] = {}

    def render(self, i: int, mode: str, bodies: list[int] | None = None, note: str = "") -> Rendered:
        """File i in `mode` ("lean": a map listing only top-level names, or, in focus, only the
        bodies' own lines), with `bodies` (definition indices) whole."""
        pf = self.files[i]
        if not pf.is_code and mode == "map":
            mode = "full" if self.counts[i] <= MAP_TEXT_MAX_TOKENS else "reference"
        elif not pf.is_code and mode == "signatures" and pf.language != "markdown":
            mode = "reference"
        lean = mode == "lean"
        mode = "map" if lean else mode
        scores = self.def_scores.get(i, {}) if bodies else None
        skip = self.shared.get("", set()) | self.shared.get(folder(pf.rel), set())
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

    def index_cost(self, i: int) -> int:
        """What file i costs as one name in the index section (its folder's prefix amortised)."""
        if i not in self._index_costs:
            self._index_costs[i] = tokens.count(" " + self.files[i].rel.rsplit("/", 1)[-1]) + 1
        return self._index_costs[i]

    def cost(self, i: int, mode: str) -> int:
        """Exact tokens of file i in `mode` (map: the skeleton without bodies), header included."""
        key = (i, mode)
        if key not in self._costs:
            self._costs[key] = tokens.count(self.render(i, mode).text)
        return self._costs[key]

    def forget(self, i: int, mode: str) -> None:
        """Drop the cached cost of file i in `mode` (its rendering inputs changed)."""
        self._costs.pop((i, mode), None)

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

    def floor(self, i: int, mode: str) -> int:
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
        """Tokens of file i in `mode` with `bodies` whole: exact without bodies, else estimated."""
        if mode not in ("map", "lean") or not bodies:
            return self.cost(i, mode)
        best = max(bodies, key=lambda k: self.def_scores.get(i, {}).get(k, 0.0))
        anchor = tokens.count(self.files[i].definitions[best].header) + 8
        extra = sum(self.delta(i, di) for di in bodies)
        if mode == "lean" and self.focus and self.outline.get(i) != "lean":  # no skeleton line for the bodies' headers
            extra += sum(self._shorts[(i, di)] for di in bodies)
        return self.cost(i, mode) + extra + anchor

    def alternatives(self, i: int) -> dict[str, int]:
        """What file i would cost in signatures and reference mode (for re-injection plans)."""
        return {m: self.cost(i, m) for m in ("signatures", "reference")}
