"""What every model provider offers, its settings, and the one error model actions raise."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any, Self

from lorekeeper.errors import LorekeeperError

PROVIDERS = ("anthropic", "ollama", "claude-cli", "none")
DEFAULT_MODELS = {"anthropic": "claude-sonnet-4-6", "ollama": "llama3.2", "claude-cli": "", "none": ""}
DEFAULT_EMBED_MODEL = "nomic-embed-text"
CHECK_TIMEOUT = 5.0  # seconds at most for `llm status` to contact a server


class LLMUnavailableError(LorekeeperError):
    """No model is configured, reachable or willing: the message says which and what to do."""

    code = "ERR_LLM_UNAVAILABLE"


@dataclass(frozen=True)
class LLMSettings:
    """The `[llm]` table of lorekeeper.toml. The API key is not here: it lives in the OS keyring."""

    provider: str = "none"
    model: str = ""
    base_url: str = ""
    timeout: float = 60.0  # seconds for one request (connect, and between two streamed chunks)
    max_retries: int = 2  # retries of a failed request before any answer text arrived
    max_tokens: int = 1024
    command: str = "claude"  # claude-cli: the program (a path or a name on PATH)
    embed_model: str = DEFAULT_EMBED_MODEL
    # options a caller sets for its own calls (`dataclasses.replace`), never read from the file:
    # the sampling temperature where the provider has one (Ollama; None: its default), and variables added to the
    # environment of `claude -p` (the sanitizer's quiet, session-log-free run, seed 004 §3.10.1)
    temperature: float | None = None
    extra_env: tuple[tuple[str, str], ...] = ()

    @classmethod
    def from_mapping(cls, data: dict[str, Any] | None) -> LLMSettings:
        data = data or {}
        out = cls()
        try:
            return replace(
                out,
                provider=str(data.get("provider") or "none").strip().lower(),
                model=str(data.get("model") or "").strip(),
                base_url=str(data.get("base_url") or "").strip(),
                timeout=float(data.get("timeout", out.timeout)),
                max_retries=int(data.get("max_retries", out.max_retries)),
                max_tokens=int(data.get("max_tokens", out.max_tokens)),
                command=str(data.get("command") or out.command).strip(),
                embed_model=str(data.get("embed_model") or out.embed_model).strip(),
            )
        except (TypeError, ValueError) as exc:
            from lorekeeper.errors import InvalidSpecError

            raise InvalidSpecError(f"[llm] has a value of the wrong type: {exc}", field="llm") from None

    @property
    def effective_model(self) -> str:
        return self.model or DEFAULT_MODELS.get(self.provider, "")

    def to_dict(self) -> dict[str, object]:
        return {
            "provider": self.provider,
            "model": self.model,
            "base_url": self.base_url,
            "timeout": self.timeout,
            "max_retries": self.max_retries,
            "max_tokens": self.max_tokens,
            "command": self.command,
            "embed_model": self.embed_model,
        }


@dataclass(frozen=True)
class ProviderStatus:
    provider: str
    model: str
    ready: bool
    reason: str  # why not ready, in words that say what to do; "" when ready
    checked: bool = False  # the server (or program) was contacted, not only the configuration read
    reachable: bool | None = None  # with `checked`: whether it answered
    models: tuple[str, ...] = ()  # with `checked`: the models the server offers

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "provider": self.provider,
            "model": self.model,
            "ready": self.ready,
            "reason": self.reason,
        }
        if self.checked:
            out.update(checked=True, reachable=self.reachable, models=list(self.models))
        return out


class Completion(str):
    """A whole answer: the text itself (a `str`), plus why the model stopped.

    `truncated` is True when the answer was cut at [llm] max_tokens (`stop_reason == "max_tokens"`).
    """

    stop_reason: str

    def __new__(cls, text: str, stop_reason: str = "") -> Self:
        out = super().__new__(cls, text)
        out.stop_reason = stop_reason
        return out

    @property
    def truncated(self) -> bool:
        return self.stop_reason == "max_tokens"


class Provider(ABC):
    name = ""

    def __init__(self, settings: LLMSettings) -> None:
        self.settings = settings
        # Why the last answer from `stream` stopped ("end_turn", "max_tokens", ... or "" when the
        # provider does not say); set when the stream ends. One provider object serves one caller.
        self.last_stop_reason = ""

    @property
    def last_truncated(self) -> bool:
        """Whether the last streamed answer was cut at [llm] max_tokens."""
        return self.last_stop_reason == "max_tokens"

    @property
    def model(self) -> str:
        return self.settings.effective_model

    def status(self) -> ProviderStatus:
        """Whether model actions can run, without calling the model (no network)."""
        return ProviderStatus(self.name, self.model, True, "")

    def check(self) -> ProviderStatus:
        """Like `status`, but contacts the server with a short timeout (never a paid endpoint)."""
        return self.status()

    @abstractmethod
    def stream(self, prompt: str, *, system: str = "") -> Iterator[str]:
        """The answer to `prompt`, piece by piece as the model writes it."""

    def complete(self, prompt: str, *, system: str = "") -> Completion:
        """The whole answer (streamed underneath, so a long answer is not cut by the timeout).

        An empty answer comes back empty (never asked again): callers that parse answers (Sage,
        the judge, scenario generation) report it as ERR_MODEL_ANSWER_INVALID, "it is empty"."""
        try:
            text = "".join(self.stream(prompt, system=system))
        except LLMUnavailableError as exc:
            if exc.details.get("reason") != "empty_answer":
                raise
            text = ""
        return Completion(text, self.last_stop_reason)

    def complete_json(self, prompt: str, *, schema: dict[str, Any], system: str = "") -> Completion:
        """An answer that should be JSON matching `schema`. Providers with structured output
        (Ollama's `format`) constrain the model to the schema; the others get the schema in the
        prompt. The caller still validates the answer: a model can always answer badly."""
        import json

        spec = json.dumps(schema, ensure_ascii=False, separators=(",", ":"))
        return self.complete(f"{prompt}\n\nAnswer with JSON only, matching this JSON schema:\n{spec}", system=system)

    def embed(self, texts: list[str]) -> list[list[float]]:
        raise LLMUnavailableError(
            f'the {self.name} provider has no embeddings; use [embeddings] provider = "ollama" or "hashing"'
        )


class NoProvider(Provider):
    """`provider = "none"`: everything deterministic works; model actions say why they cannot."""

    name = "none"
    REASON = (
        'no model is configured ([llm] provider = "none"). Choose anthropic, ollama or claude-cli in '
        "Settings or with `lorekeeper llm configure --provider ...`."
    )

    def status(self) -> ProviderStatus:
        return ProviderStatus("none", "", False, self.REASON)

    def stream(self, prompt: str, *, system: str = "") -> Iterator[str]:
        raise LLMUnavailableError(self.REASON)
