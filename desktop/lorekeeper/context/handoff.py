"""Multi-agent use: per-role context depth and the hand-off package between agents.

Seven roles (seed 002) each get a `ContextDepthConfig`: a coder reads more files whole, a reviewer
gets more signatures, an explorer a wider graph. `HandoffPackage` bundles the ledger, the intent
and the shared knowledge (`K:discovery:...` facts) so the receiving agent starts informed.

A context session (`context/session.py`) builds its hand-off with `render_handoff`: the files the
agent knows (most worth keeping first, with the mode the receiving role should re-read them in),
the decisions and the open items, as one text within a token budget.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

from lorekeeper.context.intent import StructuredIntent
from lorekeeper.context.ledger import ContextLedger

ROLES = ("coder", "reviewer", "planner", "explorer", "debugger", "tester", "orchestrator")


@dataclass(frozen=True)
class ContextDepthConfig:
    max_files_full: int  # files a pack for this role may send whole
    preferred_mode: str  # mode for files that are not targets
    context_budget: float  # share of the window this role should fill
    graph_hops: int  # how far heat spreads for this role


DEPTH: dict[str, ContextDepthConfig] = {
    "coder": ContextDepthConfig(8, "full", 0.80, 2),
    "reviewer": ContextDepthConfig(3, "signatures", 0.60, 2),
    "planner": ContextDepthConfig(2, "signatures", 0.50, 3),
    "explorer": ContextDepthConfig(2, "map", 0.60, 4),
    "debugger": ContextDepthConfig(6, "full", 0.80, 3),
    "tester": ContextDepthConfig(5, "map", 0.70, 2),
    "orchestrator": ContextDepthConfig(1, "reference", 0.40, 1),
}


def depth_for(role: str) -> ContextDepthConfig:
    try:
        return DEPTH[role.lower()]
    except KeyError:
        raise ValueError(f"unknown role {role!r}: one of {', '.join(ROLES)}") from None


def role_budget(role: str, window: int) -> int:
    """The token budget a pack for `role` should use in a window of `window` tokens."""
    return int(window * depth_for(role).context_budget)


@dataclass
class HandoffPackage:
    from_agent: str
    to_agent: str
    to_role: str
    intent: dict[str, object]
    ledger: dict[str, object]
    knowledge: dict[str, str] = field(default_factory=dict)  # "discovery:auth_bug" -> fact
    files: list[dict[str, object]] = field(default_factory=list)  # what the sender knows, most useful first
    decisions: list[str] = field(default_factory=list)
    open_items: list[str] = field(default_factory=list)
    budget: int | None = None  # o200k tokens the text may take
    text: str = ""  # the package as the receiving agent reads it (within the budget)
    tokens: int = 0
    dropped_files: int = 0  # file lines left out to honour the budget

    def to_json(self) -> str:
        """Canonical JSON (sorted keys): the same hand-off gives the same bytes."""
        return json.dumps(asdict(self), sort_keys=True, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> HandoffPackage:
        data = json.loads(text)
        return cls(**data)

    def knowledge_block(self) -> str:
        """The shared facts as `K:key = value` lines for the receiving agent's prompt."""
        return "\n".join(f"K:{k} = {v}" for k, v in sorted(self.knowledge.items()))


def handoff(
    from_agent: str,
    to_agent: str,
    to_role: str,
    intent: StructuredIntent,
    ledger: ContextLedger,
    knowledge: dict[str, str] | None = None,
) -> HandoffPackage:
    depth_for(to_role)  # validates the role
    return HandoffPackage(
        from_agent, to_agent, to_role.lower(), intent.to_dict(), ledger.snapshot(), dict(knowledge or {})
    )


HANDOFF_MIN_BUDGET = 40  # tokens: the heading alone needs about this much


def render_handoff(pkg: HandoffPackage, budget: int, title: str) -> HandoffPackage:
    """Fill `pkg.text` (and tokens, dropped_files) within `budget` o200k tokens.

    Priority: the heading, the decisions, the open items, then the files in `pkg.files` order. The
    files go first when the budget is short (from the tail of the list, counted in one line), then
    open items, then decisions; the text never exceeds the budget (below the heading: an error)."""
    from lorekeeper.context import tokens
    from lorekeeper.errors import InvalidInputError

    depth = depth_for(pkg.to_role)
    head = [
        f"# Hand-off {title} from {pkg.from_agent} to {pkg.to_agent} ({pkg.to_role}): "
        f"re-read up to {depth.max_files_full} files in full, the others as {depth.preferred_mode}",
    ]
    task = pkg.intent.get("task")
    if task:
        head.append(f"# task: {task} ({pkg.intent.get('task_type')})")
    ledger = pkg.ledger
    if ledger:
        head.append(
            f"# sender's window: {ledger.get('used', 0):,} of {ledger.get('window', 0):,} tokens "
            f"({ledger.get('pressure', 'none')})"
        )
    decisions = [f"- {d}" for d in pkg.decisions] + [f"K:{k} = {v}" for k, v in sorted(pkg.knowledge.items())]
    opens = [f"- {o}" for o in pkg.open_items]
    files = []
    for f in pkg.files:
        files.append(
            f"- {f['path']} [{f['advice']}] sent as {f['mode']} at turn {f['sent_turn']}, "
            f"used {f['uses']}x, {f['tokens']:,} tokens"
        )

    def build(d: list[str], o: list[str], n: int, note: bool = True) -> str:
        parts = ["\n".join(head)]
        if d:
            parts.append("## decisions and facts\n" + "\n".join(d))
        if o:
            parts.append("## open items\n" + "\n".join(o))
        more = len(files) - n
        if n or (more and note):
            lines = files[:n] + ([f"- ... {more} more files left out for the budget"] if more and note else [])
            parts.append("## files the sender knows (most useful first)\n" + "\n".join(lines))
        return "\n\n".join(parts) + "\n"

    def fits(text: str) -> bool:
        return tokens.count(text) <= budget

    if not fits(build([], [], 0, note=False)):
        need = tokens.count(build([], [], 0, note=False))
        raise InvalidInputError(f"a hand-off needs at least {need} tokens for its heading; budget {budget}")
    note = fits(build([], [], 0))
    kept_d, kept_o = list(decisions), list(opens)
    while kept_o and not fits(build(kept_d, kept_o, 0, note)):  # open items go before decisions
        kept_o.pop()
    while kept_d and not fits(build(kept_d, kept_o, 0, note)):
        kept_d.pop()
    lo, hi = 0, len(files)  # the most file lines that fit with what is kept
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits(build(kept_d, kept_o, mid, note)):
            lo = mid
        else:
            hi = mid - 1
    text = build(kept_d, kept_o, lo, note)
    pkg.text = text
    pkg.tokens = tokens.count(text)
    pkg.budget = budget
    pkg.dropped_files = len(files) - lo
    return pkg
