"""Ollama (chat and embeddings) through the official `ollama` SDK (NDJSON streaming).

The server is [llm] base_url, else `OLLAMA_HOST` (read as the ollama client reads it), else
http://127.0.0.1:11434.
"""

from __future__ import annotations

import contextlib
import os
import urllib.parse
from collections.abc import Iterator
from typing import Any

from lorekeeper.llm.base import CHECK_TIMEOUT, Completion, LLMUnavailableError, Provider, ProviderStatus

DEFAULT_HOST = "http://127.0.0.1:11434"
DEFAULT_PORT = 11434


def parse_host(value: str | None) -> str:
    """`OLLAMA_HOST` as the ollama client reads it: `host`, `host:port`, `:port` or a URL.

    Without a scheme: http and port 11434; `http://h` means port 80 and `https://h` 443. A path
    is kept (a server behind a reverse proxy).
    """
    value = (value or "").strip()
    port = DEFAULT_PORT
    scheme, sep, hostport = value.partition("://")
    if not sep:
        scheme, hostport = "http", value
    elif scheme == "http":
        port = 80
    elif scheme == "https":
        port = 443
    split = urllib.parse.urlsplit(f"{scheme}://{hostport}")
    host = split.hostname or "127.0.0.1"
    with contextlib.suppress(ValueError):  # a port that is not a number: the connection error says where
        port = split.port or port
    if ":" in host:
        host = f"[{host}]"  # IPv6
    path = split.path.rstrip("/")
    return f"{scheme}://{host}:{port}{path}"


class OllamaProvider(Provider):
    name = "ollama"

    @property
    def host(self) -> str:
        """The server root; a URL written with the API's `/api` suffix is accepted too."""
        url = self.settings.base_url.strip().rstrip("/")
        if not url and os.environ.get("OLLAMA_HOST", "").strip():
            url = parse_host(os.environ["OLLAMA_HOST"]).rstrip("/")
        url = url.removesuffix("/api")
        return url or DEFAULT_HOST

    def check(self) -> ProviderStatus:
        """Ask the server for its models (`GET /api/tags`, short timeout); ready when ours is there."""
        import ollama

        client = ollama.Client(host=self.host, timeout=min(self.settings.timeout, CHECK_TIMEOUT))
        try:
            tags = client.list()
        except Exception as exc:  # noqa: BLE001 - unreachable is a status, not a crash
            err = self._translate(exc)
            reachable = isinstance(exc, ollama.ResponseError)
            return ProviderStatus(self.name, self.model, False, err.message, checked=True, reachable=reachable)
        models = tuple(str(getattr(m, "model", "") or "") for m in getattr(tags, "models", []) or [])
        models = tuple(m for m in models if m)
        wanted = self.model
        have = wanted in models or f"{wanted}:latest" in models
        reason = "" if have else f"Ollama at {self.host} has no model {wanted!r}: pull it first: `ollama pull {wanted}`"
        return ProviderStatus(self.name, self.model, have, reason, checked=True, reachable=True, models=models)

    def _client(self) -> Any:
        import ollama

        return ollama.Client(host=self.host, timeout=self.settings.timeout)

    def _options(self) -> dict[str, Any]:
        """[llm] max_tokens as Ollama's `num_predict`: the same output limit as the other providers."""
        options: dict[str, Any] = {"num_predict": self.settings.max_tokens} if self.settings.max_tokens > 0 else {}
        if self.settings.temperature is not None:
            options["temperature"] = self.settings.temperature
        return options

    def _note_done(self, part: Any) -> None:
        """Ollama ends a stream with `done_reason`: "length" is an answer cut at num_predict."""
        if getattr(part, "done", False):
            reason = str(getattr(part, "done_reason", "") or "")
            self.last_stop_reason = "max_tokens" if reason == "length" else reason

    def stream(self, prompt: str, *, system: str = "") -> Iterator[str]:
        self.last_stop_reason = ""
        messages = ([{"role": "system", "content": system}] if system else []) + [{"role": "user", "content": prompt}]
        attempts = max(self.settings.max_retries, 0) + 1
        for attempt in range(attempts):
            started = False
            try:
                client = self._client()
                for part in client.chat(model=self.model, messages=messages, stream=True, options=self._options()):
                    self._note_done(part)
                    text = part.message.content if part.message else ""
                    if text:
                        started = True
                        yield text
                if not started:  # reported, not asked again (as the other providers do)
                    raise LLMUnavailableError(
                        f"the model sent an empty answer (stop reason {self.last_stop_reason or 'none'}); "
                        "it was not asked again: rephrase or try again",
                        provider=self.name,
                        reason="empty_answer",
                        stop_reason=self.last_stop_reason or None,
                    )
                return
            except LLMUnavailableError:
                raise  # already ours (the empty answer)
            except Exception as exc:  # noqa: BLE001 - SDK errors become one stable code
                err = self._translate(exc)
                retryable = getattr(err, "details", {}).get("retryable", False)
                if started or not retryable or attempt == attempts - 1:
                    raise err from None

    def complete_json(self, prompt: str, *, schema: dict[str, Any], system: str = "") -> Completion:
        """Structured output: the JSON schema goes as the chat's `format`, so the model can only
        produce matching JSON (Ollama 0.5+)."""
        messages = ([{"role": "system", "content": system}] if system else []) + [{"role": "user", "content": prompt}]
        attempts = max(self.settings.max_retries, 0) + 1
        for attempt in range(attempts):
            try:
                parts: list[str] = []
                self.last_stop_reason = ""
                chat = self._client().chat(
                    model=self.model, messages=messages, stream=True, format=schema, options=self._options()
                )
                for part in chat:
                    self._note_done(part)
                    text = part.message.content if part.message else ""
                    if text:
                        parts.append(text)
                return Completion("".join(parts), self.last_stop_reason)
            except Exception as exc:  # noqa: BLE001 - SDK errors become one stable code
                err = self._translate(exc)
                if not getattr(err, "details", {}).get("retryable", False) or attempt == attempts - 1:
                    raise err from None
        raise LLMUnavailableError("no answer from Ollama")  # pragma: no cover - the loop always returns or raises

    def embed(self, texts: list[str]) -> list[list[float]]:
        """Vectors from /api/embed; a server that only has the older /api/embeddings is asked text by text."""
        import ollama

        client = self._client()
        try:
            resp = client.embed(model=self.settings.embed_model, input=list(texts))
            return [list(map(float, v)) for v in resp.embeddings]
        except ollama.ResponseError as exc:
            if exc.status_code != 404 or "model" in str(exc.error).lower():
                raise self._translate(exc) from None
        except Exception as exc:  # noqa: BLE001
            raise self._translate(exc) from None
        try:
            return [
                list(map(float, client.embeddings(model=self.settings.embed_model, prompt=t).embedding)) for t in texts
            ]
        except Exception as exc:  # noqa: BLE001
            raise self._translate(exc) from None

    def _translate(self, exc: Exception) -> LLMUnavailableError:
        import httpx
        import ollama

        if isinstance(exc, ollama.ResponseError):
            status = exc.status_code
            hint = f" — pull it first: `ollama pull {self.model}`" if status == 404 else ""
            return LLMUnavailableError(
                f"Ollama at {self.host} answered {status}: {exc.error}{hint}",
                provider=self.name,
                status=status,
                retryable=status in (429, 500, 502, 503),
            )
        if isinstance(exc, httpx.TimeoutException):
            # Only a connect timeout is retried: after a read timeout the server has the request and
            # the model is generating; a second request would make it generate the answer again.
            return LLMUnavailableError(
                f"Ollama at {self.host} did not answer within {self.settings.timeout:g} s; try again or raise [llm] timeout",
                provider=self.name,
                retryable=isinstance(exc, httpx.ConnectTimeout),
                reason="timeout",
            )
        if isinstance(exc, (ConnectionError, httpx.TransportError)):
            return LLMUnavailableError(
                f"cannot reach Ollama at {self.host}: start it (`ollama serve`) or check [llm] base_url",
                provider=self.name,
                retryable=True,
            )
        return LLMUnavailableError(f"Ollama failed: {type(exc).__name__}: {exc}", provider=self.name)
