"""The workspace's model: its settings from lorekeeper.toml, its provider, its key, its status."""

from __future__ import annotations

from pathlib import Path

from lorekeeper.config import Config
from lorekeeper.llm import keys
from lorekeeper.llm.base import LLMSettings, Provider, ProviderStatus
from lorekeeper.llm.settings_file import write_llm_settings


class LLMService:
    """`config` is the workspace's (shared, reloaded in place); `config_path` is its lorekeeper.toml."""

    def __init__(self, config: Config, config_path: Path) -> None:
        self.config = config
        self.config_path = config_path

    @property
    def settings(self) -> LLMSettings:
        return LLMSettings.from_mapping(self.config.get("llm", {}))

    def provider(self) -> Provider:
        from lorekeeper.llm import make_provider

        return make_provider(self.settings)

    def status(self) -> ProviderStatus:
        from lorekeeper.llm import make_provider

        try:
            return make_provider(self.settings).status()
        except Exception as exc:  # noqa: BLE001 - a bad config is a status, not a crash
            return ProviderStatus(self.settings.provider, "", False, str(getattr(exc, "message", exc)))

    def check(self) -> ProviderStatus:
        """`status`, but the provider contacts its server (short timeout, never a paid endpoint)."""
        from lorekeeper.llm import make_provider

        try:
            return make_provider(self.settings).check()
        except Exception as exc:  # noqa: BLE001 - a bad config is a status, not a crash
            return ProviderStatus(self.settings.provider, "", False, str(getattr(exc, "message", exc)))

    def configure(self, settings: LLMSettings) -> LLMSettings:
        """Write the [llm] table and reload the configuration."""
        write_llm_settings(self.config_path, settings)
        self.config.path = self.config_path
        self.config.reload()
        return self.settings

    def key_source(self, provider: str | None = None) -> str:
        return keys.key_source(provider or self.settings.provider)

    def set_key(self, key: str, provider: str | None = None) -> None:
        keys.set_key(provider or self.settings.provider or "anthropic", key)

    def delete_key(self, provider: str | None = None) -> bool:
        return keys.delete_key(provider or self.settings.provider or "anthropic")
