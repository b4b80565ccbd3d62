"""Prompt assembly: the seed's buildGsdPrompt.

The prompt sent to the model is, in order, each block followed by a blank line when present:

    SKILLS_HINT (focus on these):        <- the router's advisory hint for the message
    - skill: description
    <blank>
    LEARNINGS (past corrections — follow these rules):   <- newest first, 2,000 characters at most
    - rule
    <blank>
    <blocks from registered injectors>   <- the extension point: memory injection plugs in here
    <blank>
    the operator's message

`PromptBuilder.register(name, injector)` adds a block producer; an injector receives the
`PromptRequest` (message, project, routed skills) and returns its block text ("" for nothing).

Fail closed (issue 24): LEARNINGS and every injector's block come from signed rows, so when the
key session cannot start (`trust` raises ERR_AUDIT_KEY_UNAVAILABLE) they are all left out and the
prompt carries one notice saying why (`AssembledPrompt.notices`); SKILLS_HINT, which needs no key
(like `route`), stays. The notice is for the operator's log and stderr, never in the prompt text
or `to_dict()` (what an agent reads). The Claude Code hook gives exactly these blocks and notice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from lorekeeper.audit.errors import AuditKeyUnavailableError
from lorekeeper.learnings.block import LearningsBlock
from lorekeeper.learnings.service import LearningService
from lorekeeper.skills.router import DEFAULT_TOP, Router, RouteResult
from lorekeeper.store.scopes import validate_project


@dataclass(frozen=True)
class PromptRequest:
    message: str
    project: str
    route: RouteResult
    story: str = ""  # the story the prompt is for: memory injection plugs its block in (issue 12)


Injector = Callable[[PromptRequest], str]


@dataclass(frozen=True)
class AssembledPrompt:
    message: str
    project: str
    route: RouteResult
    learnings: LearningsBlock
    blocks: tuple[tuple[str, str], ...] = field(default=())  # (injector name, block) of the extension point
    text: str = ""
    notices: tuple[str, ...] = ()  # why blocks were left out (the operator's log, never the agent's)

    @property
    def skills(self) -> tuple[str, ...]:
        return tuple(m.name for m in self.route.skills)

    def to_dict(self) -> dict[str, object]:
        return {
            "project": self.project or None,
            "skills": [m.to_dict() for m in self.route.skills],
            "hint": self.route.hint,
            "learnings": {
                "block": self.learnings.text,
                "ids": list(self.learnings.used),
                "dropped": self.learnings.dropped,
            },
            "blocks": [{"name": n, "text": t} for n, t in self.blocks],
            "prompt": self.text,
        }


def keyless_notice(exc: AuditKeyUnavailableError) -> str:
    """The one notice `prompt` and the hook log when the key session cannot start."""
    return (
        "LEARNINGS, FACTS and memory left out: their rows cannot be verified without the audit key "
        f"({exc.code}: {exc.message})"
    )


def join_blocks(*parts: str) -> str:
    return "\n\n".join(p for p in parts if p)


class PromptBuilder:
    """`router(project)` is the (cached) router over what a project sees; `top` the default number
    of routed skills (`router.top` in lorekeeper.toml); `trust()` starts the key session (the
    audit service's `require_key`) and raises ERR_AUDIT_KEY_UNAVAILABLE when it cannot."""

    def __init__(
        self,
        router: Callable[[str | None], Router],
        learnings: LearningService,
        *,
        top: int = DEFAULT_TOP,
        trust: Callable[[], object] | None = None,
    ) -> None:
        self.router = router
        self.learnings = learnings
        self.top = top
        self.trust = trust
        self._injectors: list[tuple[str, Injector]] = []

    def register(self, name: str, injector: Injector) -> None:
        """Add a block producer (e.g. memory injection) after the LEARNINGS block; same name replaces."""
        self._injectors = [(n, f) for n, f in self._injectors if n != name] + [(name, injector)]

    def unregister(self, name: str) -> None:
        self._injectors = [(n, f) for n, f in self._injectors if n != name]

    @property
    def injectors(self) -> tuple[str, ...]:
        return tuple(n for n, _ in self._injectors)

    def build(
        self,
        message: str,
        project: str | None = None,
        *,
        top: int | None = None,
        route_on: str | None = None,
        story: str | None = None,
    ) -> AssembledPrompt:
        """`route_on`: the text the skills are routed on when it is not the message itself (Fix It
        routes its follow-up on the original request, not on the previous answer it quotes)."""
        proj = validate_project(project)
        n = top if top is not None else self.top
        keyless: AuditKeyUnavailableError | None = None
        try:
            if self.trust is not None:
                self.trust()
        except AuditKeyUnavailableError as exc:  # fail closed: nothing read from signed rows
            keyless = exc
        # routed after the key session started: the router then skips skills that do not verify
        route = self.router(proj or None).route(message if route_on is None else route_on, top=n)
        if keyless is not None:
            text = join_blocks(route.hint, message)
            notice = keyless_notice(keyless)
            return AssembledPrompt(message, proj, route, LearningsBlock("", (), 0), (), text, (notice,))
        block = self.learnings.block(proj)
        request = PromptRequest(message, proj, route, story or "")
        extra = tuple((name, text) for name, inj in self._injectors if (text := inj(request)))
        text = join_blocks(route.hint, block.text, *(t for _, t in extra), message)
        return AssembledPrompt(message, proj, route, block, extra, text)
