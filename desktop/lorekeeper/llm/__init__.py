"""Model providers: `anthropic` (Messages API), `ollama`, `claude-cli` (`claude -p`, stdin only), `none`.

`make_provider(settings)` builds the configured one. Without a model, deterministic features keep
working and model actions raise ERR_LLM_UNAVAILABLE with a message that says what to configure.
"""

from __future__ import annotations

from lorekeeper.llm.base import (
    DEFAULT_MODELS,
    PROVIDERS,
    LLMSettings,
    LLMUnavailableError,
    NoProvider,
    Provider,
    ProviderStatus,
)


def make_provider(settings: LLMSettings) -> Provider:
    if settings.provider == "anthropic":
        from lorekeeper.llm.anthropic_provider import AnthropicProvider

        return AnthropicProvider(settings)
    if settings.provider == "ollama":
        from lorekeeper.llm.ollama_provider import OllamaProvider

        return OllamaProvider(settings)
    if settings.provider == "claude-cli":
        from lorekeeper.llm.claude_cli import ClaudeCliProvider

        return ClaudeCliProvider(settings)
    if settings.provider in ("none", ""):
        return NoProvider(settings)
    raise LLMUnavailableError(f"unknown [llm] provider {settings.provider!r}: use one of {', '.join(PROVIDERS)}")


__all__ = [
    "DEFAULT_MODELS",
    "PROVIDERS",
    "LLMSettings",
    "LLMUnavailableError",
    "NoProvider",
    "Provider",
    "ProviderStatus",
    "make_provider",
]
