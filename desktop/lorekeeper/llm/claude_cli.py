"""`claude -p`: Claude Code as a plain model, prompt on stdin only (never in argv, env or a file).

The program runs as a model, not as an agent (the flags are documented in the README):

    claude -p --output-format stream-json --verbose --include-partial-messages
           --tools "" --strict-mcp-config --setting-sources "" --no-session-persistence
           --disable-slash-commands [--model M]

- `--tools ""`: no built-in tool (no Bash, no file edits, no web); `--strict-mcp-config` without
  `--mcp-config`: no MCP server either;
- `--setting-sources ""`: no user, project or local settings, hence no hooks, no CLAUDE.md, no
  permission rules from the caller's setup; `--disable-slash-commands`: a prompt that starts with
  `/` is text;
- `--no-session-persistence`: no saved session per call;
- it runs in a new, empty temporary directory (removed afterwards), not in the caller's;
- `--output-format stream-json` (print mode requires `--verbose` with it) and
  `--include-partial-messages`: one JSON event per line, text deltas as the model writes them.

[llm] timeout counts silence: the program is stopped when it writes nothing for that long, however
long the whole answer takes. An answer cut at the output limit (`stop_reason` "max_tokens") is
flagged through `last_truncated`.
"""

from __future__ import annotations

import codecs
import json
import os
import queue
import shlex
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from typing import Any

from lorekeeper.llm.base import LLMUnavailableError, Provider, ProviderStatus

# The flags that make `claude -p` a model without tools, settings, session or project context.
ISOLATION_FLAGS = (
    "--tools",
    "",
    "--strict-mcp-config",
    "--setting-sources",
    "",
    "--no-session-persistence",
    "--disable-slash-commands",
)
STREAM_FLAGS = ("--output-format", "stream-json", "--verbose", "--include-partial-messages")
WORKDIR_PREFIX = "lorekeeper-claude-"
# Claude Code refuses to start inside another Claude Code session when this is set.
DROPPED_ENV = ("CLAUDECODE",)

_EOF = object()


class _Events:
    """Turns stream-json lines into text pieces, remembering how the answer ended."""

    def __init__(self) -> None:
        self.streamed = False  # text came as partial deltas: whole `assistant` messages repeat it
        self.yielded = False
        self.stop_reason = ""
        self.error = ""
        self.result_text = ""
        self.not_json: list[str] = []

    def feed(self, line: str) -> Iterator[str]:
        line = line.strip()
        if not line:
            return
        try:
            event = json.loads(line)
        except ValueError:
            self.not_json.append(line)
            return
        if not isinstance(event, dict):
            return
        kind = event.get("type")
        if kind == "stream_event":
            yield from self._partial(event.get("event") or {})
        elif kind == "assistant":
            message = event.get("message") or {}
            self._stop(message.get("stop_reason"))
            if not self.streamed:
                for block in message.get("content") or []:
                    if isinstance(block, dict) and block.get("type") == "text" and block.get("text"):
                        self.yielded = True
                        yield str(block["text"])
        elif kind == "result":
            self._stop(event.get("stop_reason"))
            result = event.get("result")
            if event.get("is_error") or (event.get("subtype") not in (None, "success")):
                errors = event.get("errors")
                detail = result or ("; ".join(map(str, errors)) if isinstance(errors, list) else "")
                self.error = str(detail or event.get("subtype") or "error")
            elif isinstance(result, str):
                self.result_text = result

    def _partial(self, ev: dict[str, Any]) -> Iterator[str]:
        kind = ev.get("type")
        if kind == "content_block_delta":
            delta = ev.get("delta") or {}
            if delta.get("type") == "text_delta" and delta.get("text"):
                self.streamed = self.yielded = True
                yield str(delta["text"])
        elif kind == "message_delta":
            self._stop((ev.get("delta") or {}).get("stop_reason"))

    def _stop(self, reason: object) -> None:
        if isinstance(reason, str) and reason:
            self.stop_reason = reason


class ClaudeCliProvider(Provider):
    name = "claude-cli"

    def _command(self) -> list[str]:
        return shlex.split(self.settings.command or "claude")

    def argv(self) -> list[str]:
        args = [*self._command(), "-p", *STREAM_FLAGS, *ISOLATION_FLAGS]
        if self.settings.model:
            args += ["--model", self.settings.model]
        return args

    def _program(self) -> str | None:
        cmd = self._command()
        return shutil.which(cmd[0]) if cmd else None

    def status(self) -> ProviderStatus:
        if self._program() is None:
            return ProviderStatus(
                self.name,
                self.model,
                False,
                f"the program {self.settings.command!r} was not found: install Claude Code or set [llm] command",
            )
        return ProviderStatus(self.name, self.model, True, "")

    def _env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in DROPPED_ENV}
        env.update(dict(self.settings.extra_env))  # the caller's own variables (LLMSettings.extra_env)
        return env

    def stream(self, prompt: str, *, system: str = "") -> Iterator[str]:
        self.last_stop_reason = ""
        if self._program() is None:
            raise LLMUnavailableError(self.status().reason, provider=self.name)
        text = f"{system}\n\n{prompt}" if system else prompt
        with tempfile.TemporaryDirectory(prefix=WORKDIR_PREFIX, ignore_cleanup_errors=True) as workdir:
            yield from self._run(text, workdir)

    def _run(self, text: str, workdir: str) -> Iterator[str]:
        cmd = self.settings.command
        try:
            proc = subprocess.Popen(
                self.argv(),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=workdir,
                env=self._env(),
            )
        except OSError as exc:
            raise LLMUnavailableError(f"cannot start {cmd!r}: {exc.strerror}", provider=self.name) from None
        chunks: queue.Queue[object] = queue.Queue()
        errbuf: list[bytes] = []

        def feed() -> None:
            try:
                assert proc.stdin is not None
                proc.stdin.write(text.encode("utf-8"))
                proc.stdin.close()
            except (BrokenPipeError, OSError):
                pass

        def drain_out() -> None:
            assert proc.stdout is not None
            fd = proc.stdout.fileno()
            while True:
                data = os.read(fd, 65536)
                if not data:
                    break
                chunks.put(data)
            chunks.put(_EOF)

        def drain_err() -> None:
            assert proc.stderr is not None
            errbuf.append(proc.stderr.read())

        threads = [threading.Thread(target=f, daemon=True) for f in (feed, drain_out, drain_err)]
        for t in threads:
            t.start()
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        events = _Events()
        pending = ""
        finished = False
        try:
            while True:
                try:
                    item = chunks.get(timeout=self.settings.timeout)  # silence, not total time
                except queue.Empty:
                    raise LLMUnavailableError(
                        f"{cmd!r} wrote nothing for {self.settings.timeout:g} s and was stopped; raise [llm] timeout",
                        provider=self.name,
                        reason="timeout",
                    ) from None
                if item is _EOF:
                    pending += decoder.decode(b"", final=True)
                    yield from events.feed(pending)
                    break
                assert isinstance(item, bytes)
                pending += decoder.decode(item)
                *lines, pending = pending.split("\n")
                for line in lines:
                    yield from events.feed(line)
            self.last_stop_reason = events.stop_reason
            deadline = time.monotonic() + self.settings.timeout
            while proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.01)
            for t in threads:
                t.join(timeout=1)
            code = proc.poll()
            if code is None:
                raise LLMUnavailableError(f"{cmd!r} did not exit after its answer", provider=self.name)
            if events.error:
                raise LLMUnavailableError(
                    f"{cmd!r} reported an error: {events.error[:300]}", provider=self.name, status=code
                )
            if code != 0:
                err = b"".join(errbuf).decode("utf-8", "replace").strip().splitlines()
                detail = err[-1] if err else (events.not_json[-1] if events.not_json else "no message")
                hint = (
                    " (an older Claude Code? these flags need a recent one: `claude update`)"
                    if "option" in detail
                    else ""
                )
                raise LLMUnavailableError(
                    f"{cmd!r} exited with status {code}: {detail[:300]}{hint}", provider=self.name, status=code
                )
            if not events.yielded:
                if events.result_text:
                    yield events.result_text
                elif events.not_json:
                    raise LLMUnavailableError(
                        f"{cmd!r} did not answer in stream-json (is it Claude Code?): {events.not_json[0][:200]}",
                        provider=self.name,
                    )
                else:
                    raise LLMUnavailableError(
                        f"{cmd!r} sent an empty answer (stop reason {events.stop_reason or 'none'}); "
                        "it was not asked again",
                        provider=self.name,
                        reason="empty_answer",
                    )
            finished = True
        finally:
            if not finished and proc.poll() is None:
                proc.kill()
                proc.wait(timeout=5)
            for t in threads:
                t.join(timeout=1)
            for stream in (proc.stdout, proc.stderr):
                if stream is not None:
                    stream.close()
