"""The Anthropic Messages API through the official `anthropic` SDK (streaming over SSE)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from lorekeeper.llm.base import LLMSettings, LLMUnavailableError, Provider, ProviderStatus
from lorekeeper.llm.keys import get_key


def _base_url(url: str) -> str | None:
    """The SDK adds `/v1/messages` itself: a base URL written with its `/v1` is accepted too."""
    url = url.strip().rstrip("/")
    url = url.removesuffix("/v1")
    return url or None


class AnthropicProvider(Provider):
    name = "anthropic"

    def __init__(self, settings: LLMSettings, api_key: str | None = None) -> None:
        super().__init__(settings)
        self._api_key = api_key

    def _key(self) -> str | None:
        return self._api_key or get_key("anthropic")

    def status(self) -> ProviderStatus:
        if not self._key():
            return ProviderStatus(
                self.name,
                self.model,
                False,
                "no Anthropic API key: set it in Settings or with `lorekeeper llm set-key` (stored in the OS keyring)",
            )
        return ProviderStatus(self.name, self.model, True, "")

    def _client(self) -> Any:
        key = self._key()
        if not key:
            raise LLMUnavailableError(self.status().reason)
        import anthropic

        return anthropic.Anthropic(
            api_key=key,
            base_url=_base_url(self.settings.base_url),
            timeout=self.settings.timeout,
            max_retries=max(self.settings.max_retries, 0),
            # The SDK sends the key as a Bearer token; the Messages API also documents x-api-key,
            # which servers that speak the API (gateways, proxies) check: send both.
            default_headers={"x-api-key": key},
        )

    def _request(self, prompt: str, system: str) -> dict[str, Any]:
        req: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.settings.max_tokens,
            "messages": [{"role": "user", "content": prompt}],
        }
        if system:
            req["system"] = system
        return req

    def stream(self, prompt: str, *, system: str = "") -> Iterator[str]:
        client = self._client()
        got = False
        try:
            with client.messages.stream(**self._request(prompt, system)) as s:
                for text in s.text_stream:
                    if text:
                        got = True
                        yield text
        except Exception as exc:  # noqa: BLE001 - SDK errors become one stable code
            raise self._translate(exc) from None
        finally:
            client.close()
        if not got:
            # A server that ignores `"stream": true` answers with one JSON message, which the SSE
            # reader sees as an empty stream: ask once more without streaming.
            text = self.complete(prompt, system=system)
            if text:
                yield text

    def complete(self, prompt: str, *, system: str = "") -> str:
        client = self._client()
        try:
            msg = client.messages.create(**self._request(prompt, system))
        except Exception as exc:  # noqa: BLE001
            raise self._translate(exc) from None
        finally:
            client.close()
        return "".join(getattr(b, "text", "") for b in msg.content if getattr(b, "type", "") == "text")

    def _translate(self, exc: Exception) -> Exception:
        import anthropic

        where = self.settings.base_url or "api.anthropic.com"
        if isinstance(exc, LLMUnavailableError):
            return exc
        if isinstance(exc, anthropic.APITimeoutError):
            return LLMUnavailableError(
                f"the Anthropic API at {where} did not answer within {self.settings.timeout:g} s; try again or raise [llm] timeout",
                provider=self.name,
            )
        if isinstance(exc, anthropic.APIConnectionError):
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
