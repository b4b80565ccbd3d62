"""API keys in the OS keyring (never in files, logs or argv).

Service `lorekeeper`, user `llm:<provider>`. For the Anthropic provider the standard
ANTHROPIC_API_KEY environment variable is read when the keyring holds no key, as the SDK does.
"""

from __future__ import annotations

import os

from lorekeeper.llm.base import LLMUnavailableError

SERVICE = "lorekeeper"
ENV_FALLBACK = {"anthropic": "ANTHROPIC_API_KEY"}
NEEDS_KEY = ("anthropic",)


def _user(provider: str) -> str:
    return f"llm:{provider}"


def get_key(provider: str) -> str | None:
    import keyring  # imported on first use: the CLI starts faster without it
    from keyring.errors import KeyringError

    try:
        key = keyring.get_password(SERVICE, _user(provider))
    except (KeyringError, RuntimeError):
        key = None
    if key:
        return key
    env = ENV_FALLBACK.get(provider)
    return os.environ.get(env) or None if env else None


def key_source(provider: str) -> str:
    """'keyring', 'environment' or '' (no key)."""
    import keyring  # imported on first use: the CLI starts faster without it
    from keyring.errors import KeyringError

    try:
        if keyring.get_password(SERVICE, _user(provider)):
            return "keyring"
    except (KeyringError, RuntimeError):
        pass
    env = ENV_FALLBACK.get(provider)
    return "environment" if env and os.environ.get(env) else ""


def set_key(provider: str, key: str) -> None:
    key = key.strip()
    if not key:
        raise LLMUnavailableError("an empty API key was given; nothing was stored")
    if any(c.isspace() for c in key):
        raise LLMUnavailableError("an API key has no spaces or line breaks; nothing was stored")
    import keyring  # imported on first use: the CLI starts faster without it
    from keyring.errors import KeyringError

    try:
        keyring.set_password(SERVICE, _user(provider), key)
    except (KeyringError, RuntimeError) as exc:
        raise LLMUnavailableError(
            f"the OS keyring refused the key ({type(exc).__name__}); unlock or install a keyring backend"
        ) from None


def delete_key(provider: str) -> bool:
    import keyring  # imported on first use: the CLI starts faster without it
    from keyring.errors import KeyringError

    try:
        keyring.delete_password(SERVICE, _user(provider))
    except (KeyringError, RuntimeError):
        return False
    return True
