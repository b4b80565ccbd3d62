"""`FactPacks`: the static pack, the conventions of a path and the FACTS prompt block (seed 003).

- `pack(project, budget=None, approved_only=False) -> Pack` (`.to_dict()`, `.markdown`): the
  sharpest facts within a token budget; `packable(project)`: the facts a pack may hold, best first.
- `conventions(path, project) -> list[FactInfo]`: the scoped facts matching a path.
- `prompt_block(request)`: the FACTS injector of `PromptBuilder` (within `[facts] prompt_budget`).
"""

from __future__ import annotations

import builtins
import logging
import operator
from typing import Any

from sqlalchemy import func, select

from lorekeeper.errors import InvalidInputError, LorekeeperError
from lorekeeper.facts.model import FactInfo, glob_matches, posix, specificity
from lorekeeper.facts.reading import FactReader
from lorekeeper.facts.reports import DEFAULT_PACK_BUDGET, Pack
from lorekeeper.facts.settings import FactSettings
from lorekeeper.store.engine import Store
from lorekeeper.store.models import Fact
from lorekeeper.store.scopes import validate_project

log_module = logging.getLogger(__name__)


def _count_tokens(text: str) -> int:
    from lorekeeper.context import tokens

    return int(tokens.count(text))


def render_line(f: FactInfo) -> str:
    """One fact as a markdown bullet for AGENTS.md / CLAUDE.md."""
    line = f"- **{f.type}** {f.statement}"
    if f.detail:
        line += f" {f.detail}"
    if f.scope:
        line += " _(applies to: " + ", ".join(f"`{g}`" for g in f.scope) + ")_"
    origins = ", ".join(dict.fromkeys(p.origin for p in f.provenance))
    if origins:
        line += f" — source: {origins}"
    return line


def pack_header(project: str) -> str:
    return f"## Facts for {project}\n\nRules from {project}'s documentation, sharpest first (Lorekeeper).\n"


_pack_order = operator.attrgetter("pack_order")


class FactPacks:
    def __init__(self, store: Store, reader: FactReader, settings: FactSettings) -> None:
        self.store = store
        self.reader = reader
        self.settings = settings

    # ------------------------------------------------------------------ packs and conventions
    def packable(self, project: str, *, approved_only: bool = False) -> builtins.list[FactInfo]:
        """The facts a pack may hold, best first: score (weight × confidence + bonus), then id."""
        proj = validate_project(project)
        statuses = (
            {"approved"} if approved_only or not self.settings.include_candidates(proj) else {"approved", "candidate"}
        )
        facts = [f for f in self.reader.list(proj) if f.status in statuses]
        return sorted(facts, key=_pack_order)

    def pack(self, project: str, budget: int | None = None, *, approved_only: bool = False) -> Pack:
        """The static pack: the sharpest facts within `budget` o200k tokens (header included),
        in score order; the first fact that does not fit ends it (a lower-scored fact never takes
        the place of a higher one)."""
        proj = validate_project(project)
        if not proj:
            raise InvalidInputError("a pack is for a project: give --project")
        limit = DEFAULT_PACK_BUDGET if budget is None else int(budget)
        if limit < 0:
            raise InvalidInputError("the budget is a number of tokens, 0 or more")
        facts = self.packable(proj, approved_only=approved_only)
        header = pack_header(proj)
        used = _count_tokens(header + "\n")
        chosen: builtins.list[FactInfo] = []
        lines: builtins.list[str] = []
        for f in facts:
            line = render_line(f)
            cost = _count_tokens(line + "\n")
            if used + cost > limit:
                break
            used += cost
            chosen.append(f)
            lines.append(line)
        markdown = header + "\n" + "".join(line + "\n" for line in lines) if chosen else ""
        return Pack(
            project=proj,
            budget=limit,
            tokens=used if chosen else 0,
            facts=chosen,
            omitted=len(facts) - len(chosen),
            include_candidates=self.settings.include_candidates(proj) and not approved_only,
            markdown=markdown,
        )

    def conventions(self, path: str, project: str) -> builtins.list[FactInfo]:
        """The facts whose (non-empty) scope matches `path`, most specific glob first (then pack
        score, then id). Universal facts are not here: they live in the pack."""
        proj = validate_project(project)
        target = posix(path)
        if not target:
            raise InvalidInputError("give the path of the file being edited")
        out: builtins.list[tuple[tuple[int, int, int], FactInfo]] = []
        for f in self.packable(proj):
            matching = [g for g in f.scope if glob_matches(g, target)]
            if matching:
                out.append((max(specificity(g) for g in matching), f))
        out.sort(key=lambda t: (tuple(-x for x in t[0]), -round(t[1].score, 9), t[1].id))
        return [f for _, f in out]

    def prompt_block(self, request: Any) -> str:
        """The FACTS block of the assembled prompt (an injector of `PromptBuilder`): the project's
        pack within `[facts] prompt_budget` tokens; empty without a project, facts or audit key."""
        project = getattr(request, "project", "") or ""
        if not project:
            return ""
        with self.store.session() as s:
            if not s.scalar(select(func.count()).select_from(Fact).where(Fact.project == project)):
                return ""
        try:
            pack = self.pack(project, self.settings.prompt_budget())
        except LorekeeperError as exc:  # no key session: unverifiable facts are never injected
            log_module.info("FACTS block left out: %s", exc)
            return ""
        if not pack.facts:
            return ""
        body = "".join(render_line(f) + "\n" for f in pack.facts)
        return f"FACTS ({project}'s documented rules — follow these):\n{body}".rstrip("\n")
