"""The agent tools, as plain functions over a `Workspace`: the MCP server calls them, and each
returns exactly the JSON the matching CLI command prints (`route --json`, `prompt --json`,
`eval --skill --json`, `feedback up|down --json`, `ctx pack --json`).

Freshness: nothing here is cached across calls except what the services key on the store revision
(the router), so a change made by another process (an import, a new learning) shows in the next
call of a long-lived server.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from lorekeeper.errors import InvalidInputError
from lorekeeper.skills.router import DEFAULT_TOP

if TYPE_CHECKING:
    from lorekeeper.workspace import Workspace

#: eval runs of the agents' own answers, checked against the routed skills (reflect.check)
AGENT_SOURCE = "agent"
MAX_RESPONSE_CHARS = 2_000_000


class AgentTools:
    """The tools of one workspace; `ws` stays open for the server's life."""

    def __init__(self, ws: Workspace, default_project: str | None = None) -> None:
        self.ws = ws
        self.default_project = default_project or None
        self._ctx_sessions: dict[str, Any] = {}  # resolved root -> ContextSession of this connection
        self._ctx_last: str | None = None

    def _p(self, project: str | None, *, creates: bool = False) -> str | None:
        """The project a tool call is for. A project named in the call must be one the store knows
        (ERR_NOT_FOUND, as the CLI's `--project`: it used to be an empty success) unless the tool
        writes its first row (`story_start`, as `story start`). The server's default project is
        not checked: `mcp --project P` may be set up before anything is written for P."""
        if project and not creates:
            from lorekeeper.store.projects import require_project

            with self.ws.store.session() as s:
                require_project(s, project)
        return project or self.default_project

    # ------------------------------------------------------------------ deterministic
    def route_skills(self, message: str, project: str | None = None, top: int | None = None) -> dict[str, Any]:
        """`lorekeeper route MESSAGE [--project P] [--top N] --json`."""
        n = top if top is not None else int(self.ws.config.get("router.top", DEFAULT_TOP))
        if n < 0:
            raise InvalidInputError("top must be 0 or more")
        return self.ws.routers.get(self._p(project)).route(message, top=n).to_dict()

    def build_prompt(self, message: str, project: str | None = None) -> dict[str, Any]:
        """`lorekeeper prompt MESSAGE [--project P] --json`: SKILLS_HINT, LEARNINGS, blocks, message."""
        return self.ws.prompts.build(message, self._p(project)).to_dict()

    def evaluate_response(
        self,
        response: str,
        skill: str | None = None,
        project: str | None = None,
        message: str | None = None,
        record: bool = True,
    ) -> dict[str, Any]:
        """With `skill`: `lorekeeper eval --skill NAME [--project P] --response - --json` (the same
        eval run, source "cli": an agent checking its answer is a use of the skill).

        With `message` instead: the skills routed for the message check the response, the quality
        events are recorded and the answer is kept under an interaction id that `record_feedback`
        takes (as the Playground does with the model's answer)."""
        if len(response) > MAX_RESPONSE_CHARS:
            raise InvalidInputError(f"the response is over {MAX_RESPONSE_CHARS:,} characters")
        project = self._p(project)
        if skill:
            self.ws.skills.rules(skill, project or None)  # an invalid rules file fails first, as in the CLI
            report = self.ws.evals.run_skill(response, skill, project or None, record=record)
            return report.to_dict()
        if message is None:
            raise InvalidInputError(
                "give `skill` (check against its rules) or `message` (check against the routed skills)"
            )
        prompt = self.ws.prompts.build(message, project or None)
        answer = self.ws.reflect.check(prompt, response, model="mcp", source=AGENT_SOURCE)
        out = answer.to_dict()
        out.pop("answer", None)  # the caller has it; echoing megabytes back helps nobody
        return out

    def ctx_pack(
        self, path: str, task: str | None = None, budget: int | None = None, mode: str = "auto"
    ) -> dict[str, Any]:
        """`lorekeeper ctx pack DIR [--task T] [--budget N] [--mode M] --json` (the text included)."""
        from lorekeeper.context.pack import PACK_MODES, pack
        from lorekeeper.context.session import pack_budget

        root = Path(path).expanduser()
        if not root.is_dir():
            raise InvalidInputError(f"{path} is not a directory")
        if mode not in PACK_MODES:
            raise InvalidInputError(f"unknown mode {mode!r}: use {', '.join(PACK_MODES)}")
        if budget is not None and budget < 1:
            raise InvalidInputError("budget must be at least 1 token")
        session = self._ctx_session(root)
        inner, notice = pack_budget(budget, holding=bool(session.items))  # room for the notice: the budget holds
        result = pack(root, task=task, budget=inner, mode=mode)
        out = result.to_dict(with_text=True)
        out["budget"] = budget  # the budget asked for: the session's notice fits inside it
        # the connection's context session: what this agent already holds comes back as one line
        out["text"] = session.apply_pack(result, task, notice_budget=notice).text
        return out

    # ------------------------------------------------------------------ facts (issue 11)
    def facts_pack(
        self, project: str | None = None, budget: int | None = None, approved_only: bool = False
    ) -> dict[str, Any]:
        """`lorekeeper facts pack --project P [--budget N] [--approved-only] --json`."""
        proj = self._p(project)
        if not proj:
            raise InvalidInputError("a facts pack is for a project: give `project`")
        return self.ws.facts.pack(proj, budget, approved_only=approved_only).to_dict()

    def conventions_for_path(self, path: str, project: str | None = None) -> dict[str, Any]:
        """`lorekeeper facts conventions PATH --project P --json`: the facts scoped to the file."""
        proj = self._p(project)
        if not proj:
            raise InvalidInputError("conventions are a project's: give `project`")
        return {"path": path, "facts": [f.to_dict() for f in self.ws.facts.conventions(path, proj)]}

    # ------------------------------------------------------------------ memory (issue 12)
    def memory_search(
        self,
        query: str,
        corpus: str = "notes",
        impact: str | None = None,
        verdict: str | None = None,
        domain: str | None = None,
        project: str | None = None,
        top: int = 5,
        mode: str = "hybrid",
        trace: str | None = None,
        min_score: float | None = None,
    ) -> dict[str, Any]:
        """`lorekeeper memory search QUERY --corpus C [filters] [--min-score X] [--top N] [--trace STORY] --json`;
        with `trace` the query and its results are signed in the story's log before they return."""
        from lorekeeper.memory.indexes import Filters
        from lorekeeper.memory.layout import CORPORA, check_story_id

        if corpus not in CORPORA:
            raise InvalidInputError(f"unknown corpus {corpus!r}: use {', '.join(CORPORA)}")
        ws = self.ws
        flt = Filters.of(impact, verdict, domain, self._p(project) if project else None)
        story = check_story_id(trace) if trace else None
        if story:  # a traced search writes: fail closed before the search (issue 24), as the CLI
            ws.audit.check_writable()
        hits = [
            h.to_dict() for h in ws.memory.search(query, corpus, filters=flt, top=top, mode=mode, min_score=min_score)
        ]
        if story:  # the trace is written before the results are returned (fail closed), as the CLI
            ws.audit.log.record(
                "memory_search",
                {
                    "story_id": story,
                    "query": query,
                    "corpus": corpus,
                    "mode": mode,
                    "filters": {k: v for k, v in flt.__dict__.items() if v}
                    | ({"min_score": min_score} if min_score is not None else {}),
                    "results": [h["id"] for h in hits],
                },
                story=story,
            )
        return {"results": hits}

    def story_start(self, story: str, domain: str, project: str | None = None) -> dict[str, Any]:
        """`lorekeeper story start STORY --domain D --project P --json`: 5 learnings + 3 notes + 3
        clarifications, traced (signed) before they are returned; a failed trace is its error code."""
        proj = self._p(project, creates=True)
        if not proj:
            raise InvalidInputError("a story belongs to a project: give `project`")
        inj = self.ws.stories.start(story, domain, proj)
        if inj.error is not None:  # failed closed: no block without its trace
            raise inj.error
        return inj.to_dict()

    # ------------------------------------------------------------------ signed writes
    def record_feedback(
        self, answer: str, positive: bool, reason: str = "", project: str | None = None
    ) -> dict[str, Any]:
        """`lorekeeper feedback up|down ANSWER [--reason R] --json`: quality feedback, signed; thumbs
        down also saves a learning. Without the audit key nothing is written (ERR_AUDIT_KEY_UNAVAILABLE)."""
        ws = self.ws
        a = ws.reflect.answer(answer, self._p(project))
        ws.audit.require_key()
        base: dict[str, Any] = {
            "interaction": a.interaction,
            "project": a.project or None,
            "skills": list(a.skills),
            "positive": positive,
        }
        if positive:
            ws.reflect.thumbs_up(a)
        else:
            base["learning"] = ws.reflect.thumbs_down(a, reason).to_dict()
        warnings = [*ws.learnings.take_audit_warnings(), *ws.reflect.take_audit_warnings()]
        if warnings:
            base["warnings"] = warnings
        return base

    # ------------------------------------------------------------------ context session (issue 16)
    def _ctx_session(self, root: Path) -> Any:
        from lorekeeper.context.ledger import DEFAULT_WINDOW
        from lorekeeper.context.session import ContextSession

        key = str(root.resolve())
        s = self._ctx_sessions.get(key)
        if s is None:
            window = int(self.ws.config.get("ctx.window", DEFAULT_WINDOW))
            s = ContextSession(f"mcp-{len(self._ctx_sessions) + 1}", root, window=window, agent="mcp")
            self._ctx_sessions[key] = s
        self._ctx_last = key
        return s

    def _ctx_current(self, path: str | None) -> Any:
        from lorekeeper.errors import NotFoundError

        key = str(Path(path).expanduser().resolve()) if path else self._ctx_last
        if key is None or key not in self._ctx_sessions:
            raise NotFoundError(
                "no context session for this folder on this connection yet: call ctx_pack or ctx_read first"
            )
        self._ctx_last = key
        return self._ctx_sessions[key]

    def ctx_read(
        self, path: str, mode: str = "auto", task: str | None = None, budget: int | None = None, root: str | None = None
    ) -> dict[str, Any]:
        """`lorekeeper ctx session read ID FILE --json` in the connection's session of `root` (default:
        the session used last, else the file's folder)."""
        from lorekeeper.context.read import READ_MODES

        file = Path(path).expanduser()
        if not file.is_file():
            raise InvalidInputError(f"{path} is not a file")
        if mode not in READ_MODES:
            raise InvalidInputError(f"unknown mode {mode!r}: use {', '.join(READ_MODES)}")
        if budget is not None and budget < 1:
            raise InvalidInputError("budget must be at least 1 token")
        if root:
            base = Path(root).expanduser()
            if not base.is_dir():
                raise InvalidInputError(f"{root} is not a directory")
            s = self._ctx_session(base)
        elif self._ctx_last is not None:
            s = self._ctx_sessions[self._ctx_last]
        else:
            s = self._ctx_session(file.parent)
        return dict(s.read(file, mode=mode, task=task, budget=budget).to_dict())

    def ctx_session_status(self, path: str | None = None) -> dict[str, Any]:
        """`lorekeeper ctx session status ID --json` of the connection's session."""
        return dict(self._ctx_current(path).status())

    def ctx_session_note(self, text: str, kind: str = "decision", path: str | None = None) -> dict[str, Any]:
        """`lorekeeper ctx session note ID TEXT --kind K --json`."""
        s = self._ctx_current(path)
        return {"session": s.id, **s.note(text, kind)}

    def ctx_handoff(
        self, to_role: str = "reviewer", to_agent: str | None = None, budget: int = 800, path: str | None = None
    ) -> dict[str, Any]:
        """`lorekeeper ctx session handoff ID --to-role R --budget N --json`."""
        from dataclasses import asdict

        s = self._ctx_current(path)
        try:
            return asdict(s.handoff(to_role, to_agent=to_agent, budget=budget))
        except ValueError as exc:  # an unknown role
            if isinstance(exc, InvalidInputError):
                raise
            raise InvalidInputError(str(exc)) from None
