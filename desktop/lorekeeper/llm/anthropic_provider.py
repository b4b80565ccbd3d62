"""The Anthropic Messages API through the official `anthropic` SDK, always streaming over SSE.

Safe with a real (paid) key:
- every call streams, so a long answer is never cut by [llm] timeout: the timeout counts the
  silence between two pieces of the stream (the SDK's read timeout), not the total time;
- the SDK's own retries are off (`max_retries=0`); this provider retries a request only when it
  never reached the API (connection refused, reset or a connect timeout before any answer came
  back), at most [llm] max_retries times. A timeout while waiting for the model, an error status
  or a failure after the first token is reported, never re-requested: a second request would be a
  second paid generation;
- an empty answer is reported (ERR_LLM_UNAVAILABLE, `reason="empty_answer"`), not re-requested;
- an answer cut at [llm] max_tokens is flagged: `stop_reason == "max_tokens"` (`last_truncated`
  after `stream`, `Completion.truncated` from `complete`).

The key goes out in exactly one `x-api-key` header (the SDK from 1.0 on merges it with its own
case-insensitively; 0.x sent it twice, hence the `anthropic>=1.0` floor; 2.x sends only a Bearer
token for `api_key`, hence the explicit header, and the Bearer header is omitted). `llm status` lists the models through the free
`GET /v1/models`, never a generation.
"""

from __future__ import annotations

import json
import time
from collections.abc import Generator, Iterator
from typing import Any

from lorekeeper.llm.base import CHECK_TIMEOUT, LLMSettings, LLMUnavailableError, Provider, ProviderStatus
from lorekeeper.llm.keys import get_key

RETRY_PAUSE = 0.25  # seconds before the first retry of a request that never reached the API; doubles

NO_KEY = "no Anthropic API key: set it in Settings or with `lorekeeper llm set-key` (stored in the OS keyring)"


def _base_url(url: str) -> str | None:
    """The SDK adds `/v1/messages` itself: a base URL written with its `/v1` is accepted too."""
    url = url.strip().rstrip("/")
    url = url.removesuffix("/v1")
    return url or None


def _names(exc: BaseException | None) -> set[str]:
    return {c.__name__ for c in type(exc).__mro__} if exc is not None else set()


def _is_timeout(exc: BaseException) -> bool:
    """The SDK's APITimeoutError, or the HTTP library's timeout raised while the stream is read."""
    return bool(_names(exc) & {"APITimeoutError", "TimeoutException"})


def never_reached_the_api(exc: BaseException) -> bool:
    """A connection failure before the request got to the API: retrying it costs nothing.

    The SDK reports these as APIConnectionError caused by the HTTP library's ConnectError or
    ConnectTimeout (a read timeout means the request arrived and the model may be generating).
    A server that closed the connection without a byte of answer counts too (RemoteProtocolError).
    """
    names = _names(exc)
    cause = _names(exc.__cause__)
    if "APIConnectionError" not in names and not names & {"ConnectError", "ConnectTimeout"}:
        return False
    if "APITimeoutError" in names:
        return "ConnectTimeout" in cause
    return not cause or bool(cause & {"ConnectError", "ConnectTimeout", "RemoteProtocolError"})


class AnthropicProvider(Provider):
    name = "anthropic"

    def __init__(self, settings: LLMSettings, api_key: str | None = None) -> None:
        super().__init__(settings)
        self._api_key = api_key

    def _key(self) -> str | None:
        return self._api_key or get_key("anthropic")

    def status(self) -> ProviderStatus:
        if not self._key():
            return ProviderStatus(self.name, self.model, False, NO_KEY)
        return ProviderStatus(self.name, self.model, True, "")

    def check(self) -> ProviderStatus:
        """Contact the API through the free model list (`GET /v1/models`): key accepted, models known."""
        if not self._key():
            return ProviderStatus(self.name, self.model, False, NO_KEY, checked=False)
        client = self._client(timeout=min(self.settings.timeout, CHECK_TIMEOUT))
        try:
            models = tuple(str(m.id) for m in client.models.list(limit=100).data)
        except Exception as exc:  # noqa: BLE001 - any failure is a status, not a crash
            err = self._translate(exc)
            reachable = "APIStatusError" in _names(exc)
            return ProviderStatus(
                self.name, self.model, False, getattr(err, "message", str(err)), checked=True, reachable=reachable
            )
        finally:
            client.close()
        return ProviderStatus(self.name, self.model, True, "", checked=True, reachable=True, models=models)

    def _client(self, *, timeout: float | None = None) -> Any:
        key = self._key()
        if not key:
            raise LLMUnavailableError(NO_KEY, provider=self.name)
        import anthropic
        from anthropic._types import Omit  # public since 0.x; `Omit()` drops a header the SDK would add

        return anthropic.Anthropic(
            api_key=key,
            base_url=_base_url(self.settings.base_url),
            # One number for connect, and for the silence between two pieces of the stream.
            timeout=timeout if timeout is not None else self.settings.timeout,
            max_retries=0,  # the SDK would re-send after a timeout: a paid generation each time
            # The Messages API authenticates with x-api-key. SDK 2.x sends `api_key` as a Bearer
            # token only; 1.x sends X-Api-Key and merges this one with it (one header either way).
            # The Bearer header is dropped: next to x-api-key it would send the key a second time.
            default_headers={"X-Api-Key": key, "Authorization": Omit()},  # type: ignore[dict-item]
        )

    def _request(self, prompt: str, system: str) -> dict[str, Any]:
        req: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.settings.max_tokens,
            "messages": [{"role": "user", "content": prompt}],
        }
        if system:
            req["system"] = system
        # `settings.temperature` is not sent: the Messages API of the SDK we ship (2.x) has no
        # sampling temperature (its `create` refuses the argument)
        return req

    def stream(self, prompt: str, *, system: str = "") -> Iterator[str]:
        self.last_stop_reason = ""
        attempts = max(self.settings.max_retries, 0) + 1
        for attempt in range(attempts):
            client = self._client()
            try:
                try:
                    response = client.messages.create(**self._request(prompt, system), stream=True)
                except Exception as exc:  # noqa: BLE001 - SDK errors become one stable code
                    if attempt + 1 < attempts and never_reached_the_api(exc):
                        time.sleep(RETRY_PAUSE * 2**attempt)
                        continue
                    raise self._translate(exc) from None
                # From here on the API has the request: whatever happens is reported, not re-sent.
                got = yield from self._read(response)
            finally:
                client.close()
            if not got:
                raise LLMUnavailableError(
                    f"the model sent an empty answer (stop reason {self.last_stop_reason or 'none'}); "
                    "it was not asked again, since every request is paid: rephrase or try again",
                    provider=self.name,
                    reason="empty_answer",
                    stop_reason=self.last_stop_reason or None,
                )
            return

    def _read(self, response: Any) -> Generator[str, None, bool]:
        """Yield the text of a stream (or of one JSON message, from a server that ignores `stream`).

        Returns whether any text came; sets `last_stop_reason`."""
        got = False
        try:
            http = getattr(response, "response", None)
            ctype = str(http.headers.get("content-type", "")) if http is not None else ""
            if http is not None and "json" in ctype.lower() and "event-stream" not in ctype.lower():
                data = json.loads(http.read() or b"{}")
                self.last_stop_reason = str(data.get("stop_reason") or "")
                text = "".join(
                    str(b.get("text", ""))
                    for b in data.get("content") or []
                    if isinstance(b, dict) and b.get("type") == "text"
                )
                if text:
                    got = True
                    yield text
                return got
            for event in response:
                kind = getattr(event, "type", "")
                if kind == "content_block_delta":
                    delta = event.delta
                    piece = getattr(delta, "text", None) if getattr(delta, "type", "") == "text_delta" else None
                    if piece:
                        got = True
                        yield str(piece)
                elif kind == "message_delta":
                    reason = getattr(event.delta, "stop_reason", None)
                    if reason:
                        self.last_stop_reason = str(reason)
                elif kind == "message_start":
                    reason = getattr(getattr(event, "message", None), "stop_reason", None)
                    if reason:
                        self.last_stop_reason = str(reason)
        except Exception as exc:  # noqa: BLE001
            raise self._translate(exc, after_text=got) from None
        finally:
            close = getattr(response, "close", None)
            if close is not None:
                close()
        return got

    def _translate(self, exc: Exception, *, after_text: bool = False) -> Exception:
        import anthropic

        where = self.settings.base_url or "api.anthropic.com"
        if isinstance(exc, LLMUnavailableError):
            return exc
        not_again = " (not re-sent: the model may have been generating)" if after_text else ""
        if _is_timeout(exc):
            what = "stopped answering for" if after_text else "did not answer within"
            return LLMUnavailableError(
                f"the Anthropic API at {where} {what} {self.settings.timeout:g} s; try again or raise [llm] timeout{not_again}",
                provider=self.name,
                reason="timeout",
            )
        if isinstance(exc, anthropic.APIConnectionError) or "TransportError" in _names(exc):
            if after_text:
                return LLMUnavailableError(
                    f"the connection to the Anthropic API at {where} broke during the answer{not_again}",
                    provider=self.name,
                )
            return LLMUnavailableError(
                f"cannot reach the Anthropic API at {where}: check [llm] base_url and the network", provider=self.name
            )
        if isinstance(exc, anthropic.APIStatusError):
            status = getattr(exc, "status_code", None)
            body = getattr(exc, "body", None)
            detail = ""
            if isinstance(body, dict):
                inner = body.get("error")
                err: dict[str, Any] = inner if isinstance(inner, dict) else body
                detail = f"{err.get('type', '')}: {err.get('message', '')}".strip(": ")
            detail = detail or str(getattr(exc, "message", "")) or type(exc).__name__
            hint = {
                401: " — the API key was rejected; set a new one with `lorekeeper llm set-key`",
                403: " — the key may not use this model",
                404: " — check [llm] model",
                429: " — rate limited; wait and try again",
                529: " — the API is overloaded; try again later",
            }.get(status or 0, "")
            return LLMUnavailableError(
                f"the Anthropic API answered {status}: {detail}{hint}", provider=self.name, status=status
            )
        if isinstance(exc, anthropic.AnthropicError):
            return LLMUnavailableError(f"the Anthropic API failed: {exc}", provider=self.name)
        return exc
