"""The text of a pack: the header (what was asked, the modes, what was listed, omitted or
skipped), the imports hoisted once, the files (task packs: those holding the task's bodies first,
in the high-attention position, then by relevance), the index of files sent by path only, and a
tail anchor repeating the most relevant definition's header (recency). One job: delivery."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from lorekeeper.context.intent import StructuredIntent
from lorekeeper.context.pack_costs import Costs
from lorekeeper.context.pack_hoist import folder
from lorekeeper.context.pack_plan import Plan
from lorekeeper.context.parse import ParsedFile
from lorekeeper.context.render import MODES, Rendered
from lorekeeper.context.scan import Skipped, display_name, skipped_notes

INDEX_TITLE = "=== index: files listed by path only, to fit the budget"


class PackText:
    def __init__(
        self,
        files: list[ParsedFile],
        file_rel: list[float],
        def_rel: dict[tuple[int, int], float],
        intent: StructuredIntent,
        costs: Costs,
        plan: Plan,
        rendered: dict[int, Rendered],
    ) -> None:
        self.files = files
        self.file_rel = file_rel
        self.intent = intent
        self.costs = costs
        self.plan = plan
        self.rendered = rendered
        self._anchor_def = min(def_rel.items(), key=lambda kv: (-kv[1], kv[0]))[0] if intent.task and def_rel else None

    def assemble(self, root: Path, budget: int | None, skipped: list[Skipped]) -> str:
        """The pack's text as planned and rendered now (counted by the caller)."""
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
        if self.plan.indexed:
            lines.append(f"# listed by path only (index at the end): {len(self.plan.indexed)} files")
        if self.plan.omitted:
            lines.append(f"# omitted to fit the budget: {len(self.plan.omitted)} files")
        lines.extend(skipped_notes(skipped))
        parts = ["\n".join(lines) + "\n"]
        for key, hoisted in sorted(self.costs.shared.items()):
            where = f" in {key}/" if key else ""
            parts.append(
                f"=== imports shared by several files{where} (listed once)\n" + "\n".join(sorted(hoisted)) + "\n"
            )
        if intent.task:  # files holding the task's bodies first (high-attention position), then by relevance

            def best(k: int) -> float:
                scores = self.costs.def_scores.get(k, {})
                if k in self.plan.pinned and self.plan.modes.get(k) == "full":  # sent whole for the task's bodies
                    return max(scores.values(), default=0.0)
                return max((scores.get(d, 0.0) for d in self.plan.bodies.get(k, [])), default=0.0)

            order = sorted(self.rendered, key=lambda k: (-round(best(k), 6), -self.file_rel[k], self.files[k].rel))
        else:
            order = sorted(self.rendered, key=lambda k: self.files[k].rel)
        parts.extend(self.rendered[i].text for i in order)
        if self.plan.indexed:
            parts.append(self._index_text())
        anchor = self._anchor()
        if anchor:
            parts.append(anchor)
        return "\n".join(parts)

    def _index_text(self) -> str:
        """One line per folder naming the files sent by path only."""
        by_folder: dict[str, list[str]] = {}
        for i in sorted(self.plan.indexed, key=lambda k: self.files[k].rel):
            rel = self.files[i].rel
            by_folder.setdefault(folder(rel), []).append(rel.rsplit("/", 1)[-1])
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
