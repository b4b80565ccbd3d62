"""Fitting a pack to its cap: the plan's files rendered, their exact counts kept (each counted
once per rendering), and files made leaner one step at a time, least relevant first (the files
holding the task's bodies last), until the assembled text, counted exactly, fits. One job: the
budget guarantee; each step frees a known number of tokens, so the pack is re-counted only when
the estimate fits, not once per step."""

from __future__ import annotations

from collections.abc import Callable

from lorekeeper.context import tokens
from lorekeeper.context.pack_costs import Costs
from lorekeeper.context.pack_plan import Plan
from lorekeeper.context.parse import ParsedFile
from lorekeeper.context.render import MODES, Rendered
from lorekeeper.errors import InvalidInputError


class Fitter:
    def __init__(self, files: list[ParsedFile], file_rel: list[float], costs: Costs, plan: Plan) -> None:
        self.files = files
        self.file_rel = file_rel
        self.costs = costs
        self.plan = plan
        self.rendered: dict[int, Rendered] = {}
        self._sent: dict[int, int] = {}  # exact tokens of each rendered file (incremental accounting)
        self._stuck: set[int] = set()  # files whose last step freed nothing: their next one is the index

    @property
    def doc_lines_dropped(self) -> int:
        """Docstring lines MMR dropped from the map-mode files sent."""
        return sum(r.mmr_dropped for r in self.rendered.values())

    def render_plan(self) -> None:
        """Render every file the plan sends (the plan's index and omitted files are listed)."""
        n = len(self.files)
        for i in range(n):
            if self.plan.modes[i] == "index":
                self.plan.indexed.add(i)
            elif self.plan.modes[i] == "omitted":
                self.plan.omitted.append(i)
            else:
                self.rendered[i] = self.costs.render(
                    i, self.plan.modes[i], self.plan.bodies.get(i), self.plan.notes.get(i, "")
                )

    def sent(self, i: int) -> int:
        """Exact tokens of file i as rendered now (counted once per rendering)."""
        if i not in self._sent:
            self._sent[i] = tokens.count(self.rendered[i].text)
        return self._sent[i]

    def _set_rendered(self, i: int, r: Rendered) -> None:
        self.rendered[i] = r
        self._sent.pop(i, None)

    def downgrade_one(self, over: int = 1) -> int | None:
        """Make one file one step leaner and return the tokens it frees (from cached counts): the
        least relevant first, the files holding the task's bodies last; among equals, the step that
        frees at least `over` tokens while losing the least. Reference lines go to the index, index
        entries go last. None when nothing is left to drop."""
        options = []
        for i, r in self.rendered.items():
            now = self.sent(i)
            if r.mode == "map" and self.plan.bodies.get(i):
                step: tuple[str, list[int] | None] = (self.plan.modes[i], self.plan.bodies[i][:-1])
                saving = self.costs.delta(i, self.plan.bodies[i][-1])
            else:
                # compared without the header's note, so an empty file rendered alike in every mode
                # goes to the index instead of being "downgraded" to itself forever
                base = now if r.mode == "map" else min(now, self.costs.cost(i, r.mode))
                leaner = (
                    []
                    if i in self._stuck
                    else [m for m in MODES[MODES.index(r.mode) + 1 :] if self.costs.cost(i, m) < base]
                )
                if leaner:
                    step = (leaner[0], None)
                    saving = now - self.costs.cost(i, leaner[0])
                else:
                    step = ("index", None)
                    saving = now - self.costs.index_cost(i)
            enough = saving >= over
            last = (
                1
                if i in self.plan.pinned or i in self.plan.targets
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
                self.plan.bodies.pop(i, None)
                self.plan.modes[i] = "index"
                self.plan.indexed.add(i)
                self.plan.reasons[i] = f"index: downgraded from {old} to its index line to fit the budget"
                return saving
            if mode in ("map", "lean") and old == "map":
                self.plan.bodies[i] = bodies or []
                self.plan.reasons[i] = f"map: bodies dropped to fit the budget ({len(self.plan.bodies[i])} left)"
                note = "fewer bodies: over budget"
            else:
                self.plan.bodies.pop(i, None)
                self.plan.reasons[i] = f"{mode}: downgraded from {old} to fit the budget"
                note = f"{old}->{mode}: over budget"
            self.plan.modes[i] = mode
            self.plan.notes[i] = note
            before = self.sent(i)
            self._set_rendered(i, self.costs.render(i, mode, self.plan.bodies.get(i), note))
            if self.sent(i) >= before:
                self._stuck.add(i)  # that step freed nothing: its next step is the index
            return before - self.sent(i)
        # index entries go last, a file that failed to parse the very last: it must stay named
        if self.plan.indexed:
            i = min(self.plan.indexed, key=lambda k: (not self.files[k].parsed, self.file_rel[k], -k))
            self.plan.indexed.discard(i)
            self.plan.omitted.append(i)
            self.plan.modes[i] = "omitted"
            self.plan.reasons[i] = "omitted: even its index line does not fit the budget"
            return self.costs.index_cost(i)
        return None

    def fit(self, assemble: Callable[[], str], cap: int, budget: int | None) -> tuple[str, int, int]:
        """Assemble the pack and downgrade until its exact count is within `cap`: the text, its
        tokens and the rounds it took."""
        text = assemble()
        out_tokens = tokens.count(text)
        steps = 0
        while out_tokens > cap:
            steps += 1
            # incremental accounting: each step frees a known number of tokens (per-file counts are
            # cached), so the whole pack is only re-assembled and counted once the estimate fits
            need = out_tokens - cap
            while need > 0:
                freed = self.downgrade_one(need)
                if freed is None:
                    raise InvalidInputError(
                        f"a budget of {budget} tokens cannot hold even the pack header ({out_tokens} tokens): raise --budget"
                        if budget is not None
                        else f"the pack header alone ({out_tokens} tokens) is larger than the limit of {cap} tokens",
                    )
                need -= max(1, freed)
            text = assemble()
            out_tokens = tokens.count(text)
        return text, out_tokens, steps
