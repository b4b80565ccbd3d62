"""MMR de-duplication across the files of a pack: an import line in 2+ compressed files is printed
once, in a section of its own. A relative import means something else in another folder, so those
are shared per folder."""

from __future__ import annotations

from dataclasses import dataclass, field

from lorekeeper.context import tokens
from lorekeeper.context.mmr import shared_lines
from lorekeeper.context.parse import ParsedFile


@dataclass
class Hoisted:
    shared: dict[str, set[str]] = field(default_factory=dict)  # "" (absolute) or a folder -> lines
    lines: int = 0  # import lines printed once instead of in each file
    tokens: int = 0  # what that saves


def hoist_imports(files: list[ParsedFile], modes: dict[int, str]) -> Hoisted:
    """The import lines shared by the files planned in a compressed mode (`modes`: file -> mode)."""
    groups: dict[str, list[list[str]]] = {}
    for i, m in modes.items():
        if m not in ("map", "lean", "signatures"):
            continue
        pf = files[i]
        by_group: dict[str, list[str]] = {}
        for imp in pf.imports:
            key = folder(pf.rel) if relative(imp.text, pf.language) else ""
            by_group.setdefault(key, []).append(imp.text)
        for key, lines in by_group.items():
            groups.setdefault(key, []).append(lines)
    out = Hoisted(shared={k: v for k, v in ((k, shared_lines(g)) for k, g in sorted(groups.items())) if v})
    # what the hoisting saves: each shared line is printed once instead of once per file
    for key, hoisted in out.shared.items():
        for line in hoisted:
            repeats = sum(1 for per_file in groups[key] if line in per_file) - 1
            out.lines += repeats
            out.tokens += repeats * (tokens.count(line) + 1)
    return out


def folder(rel: str) -> str:
    return rel.rsplit("/", 1)[0] if "/" in rel else "."


def relative(text: str, language: str) -> bool:
    """True for an import whose meaning depends on the importing file's folder."""
    if language == "python":
        return text.startswith("from .")
    if language in ("javascript", "typescript", "tsx"):
        return any(q + p in text for q in "'\"`" for p in ("./", "../"))
    if language == "rust":
        return "self::" in text or "super::" in text
    return False
