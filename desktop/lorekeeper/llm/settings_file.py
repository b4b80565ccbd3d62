"""Write the `[llm]` table of lorekeeper.toml (Settings dialog, `lorekeeper llm configure`).

Only that table is rewritten; every other line of the file, comments included, stays as it was.
The result is parsed back before it replaces the file (atomically), so a bad value never lands.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

from lorekeeper.errors import InvalidInputError
from lorekeeper.fsutil import atomic_write_text
from lorekeeper.llm.base import PROVIDERS, LLMSettings

_HEADER = re.compile(r"^\s*\[\s*llm\s*\]\s*(#.*)?$")
_ANY_HEADER = re.compile(r"^\s*\[")


def validate(settings: LLMSettings) -> LLMSettings:
    if settings.provider not in PROVIDERS:
        raise InvalidInputError(f"unknown provider {settings.provider!r}: use one of {', '.join(PROVIDERS)}")
    if settings.timeout <= 0:
        raise InvalidInputError("the timeout must be a positive number of seconds")
    if settings.max_retries < 0:
        raise InvalidInputError("max_retries cannot be negative")
    if settings.max_tokens <= 0:
        raise InvalidInputError("max_tokens must be positive")
    if settings.base_url and not re.match(r"^https?://", settings.base_url):
        raise InvalidInputError(f"base_url must start with http:// or https://, not {settings.base_url!r}")
    return settings


def _table(settings: LLMSettings) -> list[str]:
    def s(v: str) -> str:
        return json.dumps(v, ensure_ascii=False)  # a JSON string is a valid TOML basic string

    return [
        "[llm]",
        f"provider = {s(settings.provider):<26} # anthropic | ollama | claude-cli | none",
        f"model = {s(settings.model):<29} # empty: the provider's default",
        f"base_url = {s(settings.base_url):<26} # empty: the provider's default",
        f"timeout = {settings.timeout:g}",
        f"max_retries = {settings.max_retries}",
        f"max_tokens = {settings.max_tokens}",
        f"command = {s(settings.command)}",
        f"embed_model = {s(settings.embed_model)}",
        "# API keys are not here: `lorekeeper llm set-key` or the Settings dialog puts them in the OS keyring",
    ]


def write_llm_settings(config_path: Path, settings: LLMSettings) -> None:
    validate(settings)
    text = config_path.read_text(encoding="utf-8") if config_path.exists() else ""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if _HEADER.match(line)), None)
    table = _table(settings)
    if start is None:
        new = [*lines, "", *table] if lines else table
    else:
        end = start + 1
        while end < len(lines) and not _ANY_HEADER.match(lines[end]):
            end += 1
        # keep the blank lines that separated the table from the next one
        tail_blank = 0
        while end - tail_blank - 1 > start and not lines[end - tail_blank - 1].strip():
            tail_blank += 1
        new = [*lines[:start], *table, *([""] * tail_blank), *lines[end:]]
    out = "\n".join(new) + "\n"
    tomllib.loads(out)  # never write a file that does not parse
    atomic_write_text(config_path, out)
