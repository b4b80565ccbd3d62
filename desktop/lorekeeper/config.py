"""`lorekeeper.toml`: the workspace configuration, defaults merged under what the file says."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

from lorekeeper.errors import InvalidSpecError
from lorekeeper.paths import resources_dir

CONFIG_NAME = "lorekeeper.toml"


def default_config_text() -> str:
    return (resources_dir() / "default_config.toml").read_text(encoding="utf-8")


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _merge(out[k], v)
        else:
            out[k] = v
    return out


class Config:
    def __init__(self, data: dict[str, Any], path: Path | None = None) -> None:
        self.data = data
        self.path = path

    @classmethod
    def load(cls, path: Path) -> Config:
        defaults = tomllib.loads(default_config_text())
        try:
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise InvalidSpecError(f"not valid TOML: {exc}", file=str(path)) from None
        except OSError as exc:
            raise InvalidSpecError(f"cannot read configuration: {exc.strerror}", file=str(path)) from None
        return cls(_merge(defaults, raw), path)

    def reload(self) -> None:
        """Read the file again in place: every service holding this `Config` sees the new values."""
        if self.path is None:
            return
        self.data = Config.load(self.path).data

    def get(self, dotted: str, default: Any = None) -> Any:
        cur: Any = self.data
        for part in dotted.split("."):
            if not isinstance(cur, dict) or part not in cur:
                return default
            cur = cur[part]
        return cur
