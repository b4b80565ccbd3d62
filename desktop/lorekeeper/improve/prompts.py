"""Prompt templates of the improvement loop, read from resources/prompts/ (str.format placeholders)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from lorekeeper.errors import InvalidSpecError
from lorekeeper.paths import resources_dir

NAMES = ("sage", "scenarios", "judge", "bench_system")


@dataclass(frozen=True)
class Template:
    name: str
    text: str

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()

    def render(self, **values: object) -> str:
        try:
            return self.text.format(**values)
        except (KeyError, IndexError, ValueError) as exc:
            raise InvalidSpecError(
                f"prompt template {self.name}.md has a bad placeholder: {exc}",
                file=str(resources_dir() / "prompts" / f"{self.name}.md"),
            ) from None


def template(name: str) -> Template:
    path = resources_dir() / "prompts" / f"{name}.md"
    try:
        return Template(name, path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InvalidSpecError(f"prompt template missing: {exc}", file=str(path)) from None
