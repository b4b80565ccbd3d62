"""`lorekeeper mcp`: the agent tools over MCP on stdio (the official `mcp` SDK's `MCPServer`).

Each tool has a typed input schema (the annotated parameters below) and returns the same JSON as
the matching CLI command, as structured content. A `LorekeeperError` becomes an MCP tool error
(`isError: true`) whose text starts with the stable code (`ERR_NOT_FOUND: ...`); anything else is
`ERR_INTERNAL` with the traceback in `<workspace>/logs/errors.log`, as in the CLI.

One workspace stays open for the server's life; tool calls are serialised (one lock), and every
call reads the store afresh, so changes of other processes show at the next call.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

from pydantic import Field

from lorekeeper import __version__
from lorekeeper.agents.tools import AgentTools
from lorekeeper.errors import LorekeeperError

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

    from lorekeeper.workspace import Workspace

T = TypeVar("T")
SERVER_NAME = "lorekeeper"

INSTRUCTIONS = (
    "Lorekeeper is the operator's intelligence layer. Before answering, call route_skills or "
    "build_prompt with the user's message to get SKILLS_HINT and LEARNINGS (past corrections to "
    "follow); facts_pack and conventions_for_path give the project's documented rules; story_start "
    "and memory_search give the story's memory. After answering, call evaluate_response to check "
    "the answer against the skills' deterministic rules; record_feedback rates an evaluated answer."
)

Project = Annotated[
    str | None, Field(description="Project name: its skill forks and learnings apply (omit for global).")
]


def _log_unexpected(ws: Workspace, exc: BaseException) -> str:
    from lorekeeper import errorlog

    return str(errorlog.log_exception(ws.root, "lorekeeper mcp", exc))


def coded_tool_error(name: str, exc: BaseException) -> str:
    """One line that starts with a stable code, for any tool failure (issue 31 item 1): bad
    arguments are ERR_INVALID_INPUT naming each field (never pydantic's text with its web link), an
    unknown tool ERR_NOT_FOUND, our own errors keep their code without the SDK's "Error executing
    tool X: " prefix, and a crash inside the SDK is ERR_INTERNAL."""
    from pydantic import ValidationError

    cause = exc.__cause__
    if isinstance(cause, ValidationError):
        parts = []
        for err in cause.errors():
            field = ".".join(str(p) for p in err.get("loc", ())) or "arguments"
            parts.append(f"{field}: {str(err.get('msg', 'invalid')).rstrip('.').lower()}")
        return f"ERR_INVALID_INPUT: invalid arguments for {name}: " + "; ".join(parts)
    text = " ".join(str(exc).split())
    prefix = f"Error executing tool {name}"
    if text.startswith(prefix):
        text = text[len(prefix) :].lstrip(": ")
    if text.startswith("ERR_"):
        return text
    if text.lower().startswith("unknown tool"):
        return f"ERR_NOT_FOUND: {text}; tools/list names the tools"
    return f"ERR_INTERNAL: {text or 'unexpected error'} in {name}; the server's log has the details"


def _coded_server(base: type[MCPServer[Any]]) -> type[MCPServer[Any]]:
    from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError

    class CodedServer(base):  # type: ignore[valid-type,misc]  # the SDK class, imported lazily
        async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
            tool = self._tool_manager.get_tool(name)
            if tool is not None and isinstance(arguments, dict):
                # pydantic ignores them: a mistyped `projct` ran the call for no project at all
                known = tool.parameters.get("properties", {})
                unknown = sorted(str(k) for k in arguments if k not in known)
                if unknown:
                    raise ToolError(
                        f"ERR_INVALID_INPUT: invalid arguments for {name}: "
                        + "; ".join(f"{k}: unknown argument" for k in unknown)
                        + f" (the arguments are {', '.join(known) or 'none'})"
                    )
            try:
                return await super().call_tool(name, arguments, context)
            except UnexpectedToolError as exc:
                raise UnexpectedToolError(coded_tool_error(name, exc)) from exc.__cause__
            except ToolError as exc:
                raise ToolError(coded_tool_error(name, exc)) from exc.__cause__

    return CodedServer


def build_server(ws: Workspace, default_project: str | None = None) -> MCPServer[Any]:
    """The server with every tool registered over `ws` (which stays open); `default_project` applies
    to the calls that name no project (`lorekeeper mcp --project P`)."""
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp_types import ToolAnnotations

    tools = AgentTools(ws, default_project)
    lock = threading.Lock()
    server: MCPServer[Any] = _coded_server(MCPServer)(
        SERVER_NAME, version=__version__, instructions=INSTRUCTIONS, log_level="WARNING"
    )

    def call(fn: Callable[[], T]) -> T:
        with lock:
            try:
                return fn()
            except LorekeeperError as exc:
                raise ToolError(f"{exc.code}: {exc.message}") from None
            except Exception as exc:  # noqa: BLE001 - mapped like the CLI's catch-all, traceback logged
                log = _log_unexpected(ws, exc)
                raise ToolError(f"ERR_INTERNAL: unexpected error ({type(exc).__name__}); details in {log}") from None

    read_only = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)

    @server.tool(annotations=read_only)
    def route_skills(
        message: Annotated[str, Field(description="The user's message to route.")],
        project: Project = None,
        top: Annotated[int | None, Field(ge=0, description="How many skills to hint (default: router.top).")] = None,
    ) -> dict[str, Any]:
        """Rank the skills for a message (score = 2 x triggers + 1 x keywords) and return the SKILLS_HINT
        block. Same JSON as `lorekeeper route MESSAGE --json`."""
        return call(lambda: tools.route_skills(message, project, top))

    @server.tool(annotations=read_only)
    def build_prompt(
        message: Annotated[str, Field(description="The user's message.")],
        project: Project = None,
    ) -> dict[str, Any]:
        """The assembled prompt for a message: SKILLS_HINT, LEARNINGS (newest first, 2,000 characters at
        most), injected blocks, then the message. Same JSON as `lorekeeper prompt MESSAGE --json`."""
        return call(lambda: tools.build_prompt(message, project))

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False))
    def evaluate_response(
        response: Annotated[str, Field(description="The answer to check, exactly as given to the user.")],
        skill: Annotated[str | None, Field(description="Check against this skill's eval rules.")] = None,
        project: Project = None,
        message: Annotated[
            str | None,
            Field(description="Instead of `skill`: the user's message; the skills routed for it check the answer."),
        ] = None,
        record: Annotated[bool, Field(description="Keep the run in the eval history (with `skill`).")] = True,
    ) -> dict[str, Any]:
        """Check an answer with deterministic eval rules; returns passed, the rule results and the footnote
        ("Eval: ⚠️ ... | ℹ️ ..."). With `skill`: same JSON as `lorekeeper eval --skill NAME --json`. With
        `message`: the routed skills' rules, quality events recorded, and an `interaction` id for
        record_feedback."""
        return call(lambda: tools.evaluate_response(response, skill, project, message, record))

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False))
    def record_feedback(
        answer: Annotated[str, Field(description="The answer's interaction id (or a unique prefix, or `last`).")],
        positive: Annotated[bool, Field(description="True: thumbs up; false: thumbs down (saves a learning).")],
        reason: Annotated[str, Field(description="Thumbs down: what to do instead (the learning's rule).")] = "",
        project: Project = None,
    ) -> dict[str, Any]:
        """Thumbs up or down on an evaluated answer: quality feedback and a signed audit event, as
        `lorekeeper feedback up|down ANSWER --json`."""
        return call(lambda: tools.record_feedback(answer, positive, reason, project))

    # not idempotent: the connection's context session sends a second pack as deltas
    @server.tool(annotations=ToolAnnotations(read_only_hint=True, idempotent_hint=False, open_world_hint=False))
    def ctx_pack(
        path: Annotated[str, Field(description="Directory to pack (absolute, or relative to the server's folder).")],
        task: Annotated[str | None, Field(description="What the agent is about to do; drives relevance.")] = None,
        budget: Annotated[int | None, Field(ge=1, description="Hard limit in o200k_base tokens.")] = None,
        mode: Annotated[
            Literal["auto", "full", "map", "signatures"], Field(description="Per-file modes, or one mode for all.")
        ] = "auto",
    ) -> dict[str, Any]:
        """Compress a source tree into one text for the agent, never over the budget. Same JSON as
        `lorekeeper ctx pack DIR --json`; `text` is sent through this connection's context session:
        files you already hold unchanged come back as one line ('unchanged since turn N')."""
        return call(lambda: tools.ctx_pack(path, task, budget, mode))

    @server.tool(annotations=read_only)
    def facts_pack(
        project: Project = None,
        budget: Annotated[int | None, Field(ge=0, description="o200k tokens at most (default 2000).")] = None,
        approved_only: Annotated[bool, Field(description="Leave candidate facts out.")] = False,
    ) -> dict[str, Any]:
        """The project's sharpest typed facts (constraints, conventions, pitfalls, ...) within a token
        budget, with their markdown. Same JSON as `lorekeeper facts pack --project P --json`."""
        return call(lambda: tools.facts_pack(project, budget, approved_only))

    @server.tool(annotations=read_only)
    def conventions_for_path(
        path: Annotated[str, Field(description="The file about to be edited, relative to the project root.")],
        project: Project = None,
    ) -> dict[str, Any]:
        """The facts whose scope glob matches the file, most specific first (universal facts are in
        facts_pack). Same JSON as `lorekeeper facts conventions PATH --project P --json`."""
        return call(lambda: tools.conventions_for_path(path, project))

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False))
    def memory_search(
        query: Annotated[str, Field(description="What to look for.")],
        corpus: Annotated[
            Literal["notes", "clarifications", "learnings"], Field(description="Which memory corpus.")
        ] = "notes",
        impact: Annotated[Literal["fort", "modere", "faible"] | None, Field(description="Notes: impact.")] = None,
        verdict: Annotated[Literal["signal", "bruit", "veille"] | None, Field(description="Notes: verdict.")] = None,
        domain: Annotated[str | None, Field(description="Only this domain.")] = None,
        project: Project = None,
        top: Annotated[int, Field(ge=1, le=50, description="Results at most.")] = 5,
        mode: Annotated[Literal["hybrid", "bm25", "vector"], Field(description="RRF of both, or one.")] = "hybrid",
        trace: Annotated[
            str | None, Field(description="A story id: the query and results are signed in its trace first.")
        ] = None,
        min_score: Annotated[
            float | None, Field(ge=0, le=1, description="Learnings: only those with a reuse score at least this.")
        ] = None,
    ) -> dict[str, Any]:
        """Search the living memory (research notes, clarification summaries, learnings): BM25 and
        vectors fused by reciprocal rank fusion; learnings by relevance, then reuse score;
        clarifications need a domain and a project. Same JSON as `lorekeeper memory search QUERY --json`."""
        return call(
            lambda: tools.memory_search(query, corpus, impact, verdict, domain, project, top, mode, trace, min_score)
        )

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False))
    def story_start(
        story: Annotated[str, Field(description="The story id, e.g. PD-42.")],
        domain: Annotated[str, Field(description="The story's domain, e.g. erp.")],
        project: Project = None,
    ) -> dict[str, Any]:
        """Start a story: exactly 5 learnings, 3 research notes and 3 clarification summaries (fewer
        when the corpora hold fewer: under_corpus), traced and signed before the block is returned.
        Same JSON as `lorekeeper story start STORY --domain D --project P --json`."""
        return call(lambda: tools.story_start(story, domain, project))

    # --- context session of this connection (issue 16): ctx_pack above sends deltas through it ---
    session_tool = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)

    @server.tool(annotations=session_tool)
    def ctx_read(
        path: Annotated[str, Field(description="The file to read.")],
        mode: Annotated[
            Literal["auto", "full", "map", "signatures", "reference"], Field(description="Compression mode.")
        ] = "auto",
        task: Annotated[str | None, Field(description="Keep whole the definitions this task needs.")] = None,
        budget: Annotated[int | None, Field(ge=1, description="Hard limit in o200k_base tokens.")] = None,
        root: Annotated[str | None, Field(description="The session's folder (default: the last one used).")] = None,
    ) -> dict[str, Any]:
        """Read one file compressed, in this connection's context session: a file you already hold
        unchanged comes back as one line. Same JSON as `lorekeeper ctx session read ID FILE --json`."""
        return call(lambda: tools.ctx_read(path, mode, task, budget, root))

    @server.tool(annotations=read_only)
    def ctx_session_status(
        path: Annotated[str | None, Field(description="The session's folder (default: the last one used).")] = None,
    ) -> dict[str, Any]:
        """What this connection's context session holds: files (most worth keeping first), window
        pressure, evictions, tokens sent vs without the session. As `lorekeeper ctx session status ID --json`."""
        return call(lambda: tools.ctx_session_status(path))

    @server.tool(annotations=session_tool)
    def ctx_session_note(
        text: Annotated[str, Field(description="The decision, open item or discovery.")],
        kind: Annotated[Literal["decision", "open", "discovery"], Field(description="What it is.")] = "decision",
        path: Annotated[str | None, Field(description="The session's folder (default: the last one used).")] = None,
    ) -> dict[str, Any]:
        """Record a decision, an open item or a discovery for the hand-off."""
        return call(lambda: tools.ctx_session_note(text, kind, path))

    @server.tool(annotations=read_only)
    def ctx_handoff(
        to_role: Annotated[str, Field(description="The receiving role: coder, reviewer, planner, ...")] = "reviewer",
        to_agent: Annotated[str | None, Field(description="The receiving agent's name.")] = None,
        budget: Annotated[int, Field(ge=1, description="o200k tokens the hand-off may take.")] = 800,
        path: Annotated[str | None, Field(description="The session's folder (default: the last one used).")] = None,
    ) -> dict[str, Any]:
        """Summarise this connection's context session for another agent (files known, decisions, open
        items) within a token budget. Same JSON as `lorekeeper ctx session handoff ID --json`."""
        return call(lambda: tools.ctx_handoff(to_role, to_agent, budget, path))

    return server


def serve(ws: Workspace, default_project: str | None = None) -> None:
    """Run the server on stdio until the client closes it."""
    import anyio

    anyio.run(_serve_stdio, build_server(ws, default_project))


class _InFlight:
    """The client's requests not answered yet (by id), so the end of input can wait for them."""

    def __init__(self) -> None:
        import anyio

        self._ids: dict[Any, int] = {}
        self._idle = anyio.Event()
        self._idle.set()

    def _settled(self, request_id: Any) -> None:
        left = self._ids.get(request_id, 0) - 1
        if left > 0:
            self._ids[request_id] = left
        else:
            self._ids.pop(request_id, None)
        if not self._ids:
            self._idle.set()

    def saw_incoming(self, message: Any) -> None:
        from mcp_types import JSONRPCNotification, JSONRPCRequest

        if isinstance(message, JSONRPCRequest):
            import anyio

            if self._idle.is_set():
                self._idle = anyio.Event()
            self._ids[message.id] = self._ids.get(message.id, 0) + 1
        elif isinstance(message, JSONRPCNotification) and message.method == "notifications/cancelled":
            params = message.params or {}
            self._settled(params.get("requestId"))  # a cancelled request gets no answer (spec)

    def saw_outgoing(self, message: Any) -> None:
        from mcp_types import JSONRPCError, JSONRPCResponse

        if isinstance(message, (JSONRPCResponse, JSONRPCError)) and message.id is not None:
            self._settled(message.id)

    async def idle(self) -> None:
        await self._idle.wait()


async def _serve_stdio(server: MCPServer[Any]) -> None:
    """The SDK's stdio transport, except that a line that is not a JSON-RPC message gets the
    JSON-RPC error reply (-32700 parse error, -32600 invalid request; id null) that the
    specification asks for, instead of being dropped in silence (issue 31 item 1); that the end
    of input waits until every request in flight is answered (the SDK's loop cancels them when its
    input ends, so a client that closed stdin after its requests got no answers); and that the
    client's first line, read (and perhaps answered from the cache) by `lorekeeper.mcpfront` before
    the SDK was imported, goes in first: the SDK's answer to that `initialize` is cached for the
    next start, and dropped when the cached one went out already (issue 26)."""
    import json

    import anyio
    from mcp.server.stdio import stdio_server
    from mcp.shared.message import SessionMessage
    from mcp_types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError, jsonrpc_message_adapter

    from lorekeeper import mcpfront

    first = mcpfront.take_first()
    async with stdio_server() as (read_stream, sdk_write_stream):
        forward_in, forward_out = anyio.create_memory_object_stream[Any](0)
        write_stream, answers = anyio.create_memory_object_stream[Any](0)
        pending = first if first is not None and first.key else None
        in_flight = _InFlight()

        async def screened(item: Any) -> None:
            if isinstance(item, Exception):
                bad_json = "json" in str(item).lower() and "invalid" in str(item).lower()
                code, message = (PARSE_ERROR, "Parse error") if bad_json else (INVALID_REQUEST, "Invalid Request")
                reply = JSONRPCError(jsonrpc="2.0", id=None, error=ErrorData(code=code, message=message))
                await write_stream.send(SessionMessage(reply))
                return
            in_flight.saw_incoming(item.message)
            await forward_in.send(item)

        async def screen() -> None:
            async with forward_in:
                if first is not None and first.line.strip():
                    try:
                        item: Any = SessionMessage(jsonrpc_message_adapter.validate_json(first.line, by_name=False))
                    except Exception as exc:  # noqa: BLE001 - answered as the SDK reader's failures are
                        item = exc
                    await screened(item)
                async for item in read_stream:
                    await screened(item)
                # End of input: the SDK's loop cancels the requests still running when its input
                # ends, so a client that writes its requests and closes stdin got no answer to
                # the calls in flight. Its input ends once each of them is answered (or cancelled).
                await in_flight.idle()

        answers_done = anyio.Event()

        async def outgoing() -> None:
            try:
                await forward_answers()
            finally:
                answers_done.set()

        async def forward_answers() -> None:
            nonlocal pending
            async with answers, sdk_write_stream:  # closing the SDK's stream ends its stdout writer
                async for item in answers:
                    in_flight.saw_outgoing(item.message)
                    if pending is not None:
                        sent = json.loads(item.message.model_dump_json(by_alias=True, exclude_unset=True))
                        if "method" not in sent and sent.get("id") == pending.request_id:
                            answered, pending = pending, None
                            if isinstance(sent.get("result"), dict):
                                mcpfront.remember(answered.key, sent["result"])
                            if answered.answered is not None:
                                continue  # the client has its answer already (one per request)
                    await sdk_write_stream.send(item)

        lowlevel = server._lowlevel_server  # what run_stdio_async drives, with our screen in front
        async with anyio.create_task_group() as tg:
            tg.start_soon(screen)
            tg.start_soon(outgoing)
            await lowlevel.run(forward_out, write_stream, lowlevel.create_initialization_options())
            # The input ended: let the answers already queued (the last line's error reply among
            # them) reach stdout before the writer stops, instead of cancelling them mid-send.
            await write_stream.aclose()
            with anyio.move_on_after(5):  # a client that stopped reading does not hold the exit
                await answers_done.wait()
            tg.cancel_scope.cancel()
