"""Write the `[llm]` table of lorekeeper.toml (Settings dialog, `lorekeeper llm configure`).

Edited with tomlkit (issue 28: no regex editor): the table's keys get their new values in place,
their comments and any other key the operator added stay; every other table, comments included,
stays as it was. A new `[llm]` table carries a comment per key. The result is parsed back before
it replaces the file (atomically), so a bad value never lands.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from lorekeeper.errors import InvalidInputError, InvalidSpecError
from lorekeeper.fsutil import atomic_write_text
from lorekeeper.llm.base import PROVIDERS, LLMSettings

#: the comment a new [llm] table gives each key
COMMENTS = {
    "provider": "anthropic | ollama | claude-cli | none",
    "model": "empty: the provider's default",
    "base_url": "empty: the provider's default",
}


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


def _values(settings: LLMSettings) -> dict[str, Any]:
    return {
        "provider": settings.provider,
        "model": settings.model,
        "base_url": settings.base_url,
        "timeout": float(settings.timeout) if settings.timeout != int(settings.timeout) else int(settings.timeout),
        "max_retries": settings.max_retries,
        "max_tokens": settings.max_tokens,
        "command": settings.command,
        "embed_model": settings.embed_model,
    }


def _new_table(values: dict[str, Any]) -> Any:
    import tomlkit

    table = tomlkit.table()
    for key, value in values.items():
        table.add(key, value)
        if key in COMMENTS:
            table[key].comment(COMMENTS[key])
    table.add(
        tomlkit.comment(
            "API keys are not here: `lorekeeper llm set-key` or the Settings dialog puts them in the OS keyring"
        )
    )
    return table


def write_llm_settings(config_path: Path, settings: LLMSettings) -> None:
    import tomlkit  # loaded by the rare write, not by every workspace open
    from tomlkit.exceptions import TOMLKitError

    validate(settings)
    text = config_path.read_text(encoding="utf-8") if config_path.exists() else ""
    try:
        doc = tomlkit.parse(text)
    except TOMLKitError as exc:
        raise InvalidSpecError(f"not valid TOML (nothing written): {exc}", file=str(config_path)) from None
    values = _values(settings)
    table = doc.get("llm")
    if table is None:
        doc.add("llm", _new_table(values))
    elif not isinstance(table, tomlkit.items.AbstractTable):
        raise InvalidSpecError("llm is not a table; edit [llm] by hand", file=str(config_path))
    else:
        for key, value in values.items():
            if key in table:
                before = table.item(key)
                table[key] = value
                after = table.item(key)
                if isinstance(before, tomlkit.items.Item) and isinstance(after, tomlkit.items.Item):
                    after.trivia.comment = before.trivia.comment  # the operator's comment stays on its key
                    after.trivia.comment_ws = before.trivia.comment_ws
            else:
                table[key] = value
    out = tomlkit.dumps(doc).rstrip("\n") + "\n"
    tomllib.loads(out)  # never write a file that does not parse
    atomic_write_text(config_path, out)
