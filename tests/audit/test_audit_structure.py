"""Issue 28: the audit package's structure holds. No call into another object's private members
(the Vault witness called the provider's `_read`/`_write`), and no class large enough to hold
several jobs (`SessionLog` was 1,244 lines with 54 methods before it was split)."""

from __future__ import annotations

import ast
from pathlib import Path

import lorekeeper.audit

AUDIT = Path(lorekeeper.audit.__file__).parent
MAX_CLASS_LINES = 600


def _modules() -> list[tuple[str, ast.Module]]:
    return [(p.name, ast.parse(p.read_text(encoding="utf-8"))) for p in sorted(AUDIT.glob("*.py"))]


def test_no_module_of_audit_reaches_into_another_objects_private_members():
    found = []
    for name, tree in _modules():
        for node in ast.walk(tree):
            private = isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
            if private and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                found.append(f"{name}:{node.lineno}: {ast.unparse(node)}")
            if isinstance(node, ast.ImportFrom):
                found += [f"{name}:{node.lineno}: import {a.name}" for a in node.names if a.name.startswith("_")]
    assert found == []


def test_no_class_of_audit_is_over_600_lines():
    sizes = {
        f"{name}:{node.name}": (node.end_lineno or node.lineno) - node.lineno + 1
        for name, tree in _modules()
        for node in tree.body
        if isinstance(node, ast.ClassDef)
    }
    assert "log.py:SessionLog" in sizes
    assert {k: v for k, v in sizes.items() if v > MAX_CLASS_LINES} == {}
