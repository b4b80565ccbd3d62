"""Issue 28 d6: every top-level module of `lorekeeper` sits in a layer of the import-linter contract,
so a new module cannot escape the architecture's rules by being left out of it."""

from __future__ import annotations

import pkgutil
import re
import tomllib
from pathlib import Path

import lorekeeper

ROOT = Path(__file__).resolve().parents[2]


def layered_modules() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    (layers,) = [c["layers"] for c in contracts if c["type"] == "layers" and c.get("containers") == ["lorekeeper"]]
    return {name.strip("() ") for layer in layers for name in re.split(r"[|:]", layer)}


def test_every_top_level_module_is_in_a_layer() -> None:
    modules = {m.name for m in pkgutil.iter_modules(lorekeeper.__path__)}
    assert {"workspace", "facts", "ui"} <= modules
    missing = sorted(modules - layered_modules())
    assert not missing, f"modules in no layer of the import-linter contract (pyproject.toml): {missing}"


def test_no_layer_names_a_module_that_is_gone() -> None:
    modules = {m.name for m in pkgutil.iter_modules(lorekeeper.__path__)}
    optional = {n.strip("() ") for n in re.findall(r"\(\w+\)", (ROOT / "pyproject.toml").read_text(encoding="utf-8"))}
    assert not sorted(layered_modules() - modules - optional)
