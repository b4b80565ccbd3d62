"""tests/packaging: the bundle smoke test (marker `bundle`) runs only from `make dist-check`.

`make test` never builds the bundle: items marked `bundle` are deselected unless the marker
expression names them (`-m bundle`) or LOREKEEPER_BUNDLE points at a built executable.
"""

from __future__ import annotations

import os

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "bundle: runs the PyInstaller bundle (make dist-check)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "bundle" in (config.getoption("markexpr") or "") or os.environ.get("LOREKEEPER_BUNDLE"):
        return
    keep, drop = [], []
    for item in items:
        (drop if item.get_closest_marker("bundle") else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
