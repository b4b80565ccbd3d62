"""`claude -p`: the Claude Code program, prompt on stdin only (never in argv, env or a temp file).

The answer streams from the program's stdout as it writes it. A program that stays silent for
longer than [llm] timeout is killed.
"""

from __future__ import annotations

import os
import queue
import shlex
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator

from lorekeeper.llm.base import LLMUnavailableError, Provider, ProviderStatus

_EOF = object()


class ClaudeCliProvider(Provider):
    name = "claude-cli"

    def argv(self) -> list[str]:
        cmd = shlex.split(self.settings.command or "claude")
        args = [*cmd, "-p"]
        if self.settings.model:
            args += ["--model", self.settings.model]
        return args

    def _program(self) -> str | None:
        cmd = shlex.split(self.settings.command or "claude")
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

    def stream(self, prompt: str, *, system: str = "") -> Iterator[str]:
        if self._program() is None:
            raise LLMUnavailableError(self.status().reason, provider=self.name)
        text = f"{system}\n\n{prompt}" if system else prompt
        try:
            proc = subprocess.Popen(
                self.argv(),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=os.environ.copy(),
            )
        except OSError as exc:
            raise LLMUnavailableError(
                f"cannot start {self.settings.command!r}: {exc.strerror}", provider=self.name
            ) from None
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
                data = os.read(fd, 4096)
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
        import codecs

        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        finished = False
        try:
            while True:
                try:
                    item = chunks.get(timeout=self.settings.timeout)
                except queue.Empty:
                    raise LLMUnavailableError(
                        f"{self.settings.command!r} wrote nothing for {self.settings.timeout:g} s and was stopped; raise [llm] timeout",
                        provider=self.name,
                    ) from None
                if item is _EOF:
                    tail = decoder.decode(b"", final=True)
                    if tail:
                        yield tail
                    break
                assert isinstance(item, bytes)
                piece = decoder.decode(item)
                if piece:
                    yield piece
            deadline = time.monotonic() + self.settings.timeout
            while proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.01)
            for t in threads:
                t.join(timeout=1)
            code = proc.poll()
            if code is None:
                raise LLMUnavailableError(
                    f"{self.settings.command!r} did not exit after its answer", provider=self.name
                )
            if code != 0:
                err = b"".join(errbuf).decode("utf-8", "replace").strip().splitlines()
                detail = err[-1] if err else "no message"
                raise LLMUnavailableError(
                    f"{self.settings.command!r} exited with status {code}: {detail[:300]}",
                    provider=self.name,
                    status=code,
                )
            finished = True
        finally:
            if not finished and proc.poll() is None:
                proc.kill()
                proc.wait(timeout=5)
