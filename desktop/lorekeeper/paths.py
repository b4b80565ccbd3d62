"""Where the packaged data lives: inside the wheel, or in the source tree when installed editable."""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PKG = Path(__file__).resolve().parent


@cache
def _data_root() -> tuple[Path, Path, Path]:
    bundled = _PKG / "_data"
    if (bundled / "resources").is_dir():
        return bundled / "resources", bundled / "skills", bundled / "demo"
    repo = _PKG.parents[1]
    return repo / "resources", repo / "skills", repo / "data"


def resources_dir() -> Path:
    """Icons, themes, prompt templates and the default configuration."""
    return _data_root()[0]


def starter_skills_dir() -> Path:
    """The starter skill library shipped with the app."""
    return _data_root()[1]


def packaging_dir() -> Path:
    """The scheduler unit templates and the desktop entry (packaging/ in the source tree)."""
    bundled = _PKG / "_data" / "packaging"
    return bundled if bundled.is_dir() else _PKG.parents[1] / "packaging"


def demo_data_dir() -> Path:
    """Demo workspace content (documents, notes, learnings) used by `init --demo`."""
    return _data_root()[2]
