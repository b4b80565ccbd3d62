"""Multi-agent use: per-role context depth and the hand-off package between agents.

Seven roles (seed 002) each get a `ContextDepthConfig`: a coder reads more files whole, a reviewer
gets more signatures, an explorer a wider graph. `HandoffPackage` bundles the ledger, the intent
and the shared knowledge (`K:discovery:...` facts) so the receiving agent starts informed.
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
