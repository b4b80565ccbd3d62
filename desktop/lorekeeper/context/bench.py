"""Measure a pack independently of the compressor: Python's own `ast` and `tokenize`, not tree-sitter.

For every Python file of the tree the reference facts are extracted with `ast`:
- names: every function, method and class name, nested ones included (found as a whole word);
- signatures: the complete header of each def (decorators excluded), from `def`/`async def` to
  its parameters' closing parenthesis and return annotation, compared with all whitespace and
  comments removed (so a multi-line signature joined on one line still counts; a cut one does not);
- imports: each import statement, compared the same way;
- identifiers: every name of 4+ characters used in the file (variables, attributes, arguments).
Each is looked for in the file's own section of the output (a pack, a repomix file or the naive
dump), plus the pack's shared-imports block. `parses` checks the files the output claims are
sent in full. The naive dump (path, every import line and every def/class header verbatim) is the
reference point for the signatures-mode target (at most 0.9x its tokens).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import asdict, dataclass, field
from pathlib import Path

from lorekeeper.context import tokens
from lorekeeper.context.render import HEADER_PREFIX
from lorekeeper.context.scan import scan

MIN_IDENTIFIER_LENGTH = 4
_WS = re.compile(r"\s+")
_PACK_HEADER = re.compile(r"^" + re.escape(HEADER_PREFIX) + r"(.+?) \[(\w+) -\d+[^\]]*\]$", re.MULTILINE)
_REPOMIX_FILE = re.compile(r'<file path="([^"]+)">\n(.*?)\n</file>', re.DOTALL)


@dataclass
class FileFacts:
    rel: str
    names: set[str] = field(default_factory=set)
    signatures: list[str] = field(default_factory=list)  # whitespace-free
    multiline: list[str] = field(default_factory=list)  # the subset spanning several lines
    imports: list[str] = field(default_factory=list)
    identifiers: set[str] = field(default_factory=set)
    naive: str = ""  # this file's part of the naive dump


@dataclass
class Score:
    label: str
    tokens_in: int
    tokens_out: int
    seconds: float
    name_recall: float
    signature_recall: float
    multiline_signature_recall: float
    import_recall: float
    identifier_recall: float
    parses: float | None  # share of files claimed "full" that parse; None when none is claimed
    files: int

    @property
    def reduction(self) -> float:
        return 1 - self.tokens_out / self.tokens_in if self.tokens_in else 0.0

    def to_dict(self) -> dict[str, object]:
        out = asdict(self)
        out["reduction"] = round(self.reduction, 4)
        return out


def python_facts(root: Path) -> list[FileFacts]:
    """Reference facts of every Python file under `root` that `ast` can parse."""
    sources, _ = scan(Path(root))
    out = []
    for src in sources:
        if not src.rel.endswith(".py"):
            continue
        try:
            tree = ast.parse(src.text)
        except (SyntaxError, ValueError):
            continue
        out.append(_facts(src.rel, src.text, tree))
    return out


def _facts(rel: str, text: str, tree: ast.AST) -> FileFacts:
    lines = text.splitlines(keepends=True)
    f = FileFacts(rel)
    naive = [rel + "\n"]
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            f.names.add(node.name)
            header, verbatim = _header(lines, node)
            naive.append(verbatim)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                f.signatures.append(header)
                if node.body and verbatim.count("\n") > 1:
                    f.multiline.append(header)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            seg = "".join(lines[node.lineno - 1 : node.end_lineno])
            naive.append(seg if seg.endswith("\n") else seg + "\n")
            f.imports.append(_squash(ast.get_source_segment(text, node) or ""))
        if isinstance(node, ast.Name) and len(node.id) >= MIN_IDENTIFIER_LENGTH:
            f.identifiers.add(node.id)
        elif isinstance(node, ast.Attribute) and len(node.attr) >= MIN_IDENTIFIER_LENGTH:
            f.identifiers.add(node.attr)
        elif isinstance(node, ast.arg) and len(node.arg) >= MIN_IDENTIFIER_LENGTH:
            f.identifiers.add(node.arg)
    f.naive = "".join(naive)
    return f


def _header(lines: list[str], node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> tuple[str, str]:
    """(whitespace-free header without its final colon, verbatim header lines) of a def/class."""
    start = node.lineno - 1
    col = node.col_offset
    chunk = "".join(lines[start : node.end_lineno])
    first_line_prefix = chunk[:col]
    body = chunk[col:]
    depth = 0
    parts: list[str] = []
    end_line = 0
    try:
        for tok in tokenize.generate_tokens(io.StringIO(body).readline):
            if tok.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
                continue
            if tok.type == tokenize.OP and tok.string in "([{":
                depth += 1
            elif tok.type == tokenize.OP and tok.string in ")]}":
                depth -= 1
            elif tok.type == tokenize.OP and tok.string == ":" and depth == 0:
                end_line = tok.end[0]
                break
            parts.append(tok.string)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    header = _WS.sub("", "".join(parts))
    verbatim = first_line_prefix + "".join(body.splitlines(keepends=True)[: max(1, end_line)])
    if not verbatim.endswith("\n"):
        verbatim += "\n"
    return header, verbatim


def _squash(s: str) -> str:
    out = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(s).readline):
            if tok.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
                continue
            out.append(tok.string)
        return _WS.sub("", "".join(out)).rstrip(":")
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return _WS.sub("", s).rstrip(":")


def naive_dump(facts: list[FileFacts]) -> str:
    """The baseline: path, import lines and def/class headers verbatim, per file."""
    return "".join(f.naive for f in facts)


def sections_of(output: str) -> tuple[dict[str, str], dict[str, str], str]:
    """Split an output into (rel -> section text, rel -> claimed mode, shared text) for a
    Lorekeeper pack, a repomix XML file or the naive dump."""
    if _PACK_HEADER.search(output):
        marks = list(_PACK_HEADER.finditer(output))
        sections, modes = {}, {}
        for k, m in enumerate(marks):
            end = marks[k + 1].start() if k + 1 < len(marks) else len(output)
            sections[m.group(1)] = output[m.end() : end]
            modes[m.group(1)] = m.group(2)
        shared = ""
        start = output.find(HEADER_PREFIX + "imports shared")
        while start >= 0:
            nxt = output.find("\n" + HEADER_PREFIX, start + 1)
            shared += output[start : nxt if nxt > 0 else len(output)]
            start = output.find(HEADER_PREFIX + "imports shared", start + 1)
        return sections, modes, shared
    if "<file path=" in output:
        return {m.group(1): m.group(2) for m in _REPOMIX_FILE.finditer(output)}, {}, ""
    return {}, {}, ""


def score(
    label: str, output: str, facts: list[FileFacts], tokens_in: int, seconds: float, naive: bool = False
) -> Score:
    """Recall of the reference facts in `output` (see the module docstring)."""
    if naive:
        sections = {f.rel: f.naive for f in facts}
        modes: dict[str, str] = {}
        shared = ""
    else:
        sections, modes, shared = sections_of(output)
        if not sections:  # unknown format: search the whole text
            sections = {f.rel: output for f in facts}
    shared_sq = _WS.sub("", shared)
    hit = {"names": [0, 0], "sig": [0, 0], "multi": [0, 0], "imp": [0, 0], "ident": [0, 0]}
    parse_ok = parse_total = 0
    for f in facts:
        sec = sections.get(f.rel, "")
        words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", sec))
        squashed = _WS.sub("", sec) + "\0" + _WS.sub("", _strip_comments(sec))
        _count(hit["names"], [n in words for n in f.names])
        _count(hit["sig"], [s in squashed for s in f.signatures])
        _count(hit["multi"], [s in squashed for s in f.multiline])
        _count(hit["imp"], [s in squashed or s in shared_sq for s in f.imports])
        _count(hit["ident"], [i in words for i in f.identifiers])
        if modes.get(f.rel) == "full":
            parse_total += 1
            try:
                ast.parse(sec.lstrip("\n"))
                parse_ok += 1
            except (SyntaxError, ValueError):
                pass
    return Score(
        label=label,
        tokens_in=tokens_in,
        tokens_out=tokens.count(output),
        seconds=round(seconds, 3),
        name_recall=_ratio(hit["names"]),
        signature_recall=_ratio(hit["sig"]),
        multiline_signature_recall=_ratio(hit["multi"]),
        import_recall=_ratio(hit["imp"]),
        identifier_recall=_ratio(hit["ident"]),
        parses=(parse_ok / parse_total) if parse_total else None,
        files=len(facts),
    )


def _strip_comments(text: str) -> str:
    """`text` without its Python comments (found by `tokenize`, so a '#' in a string stays);
    an output that does not tokenize to the end keeps the comments after the failure point."""
    lines = text.splitlines(keepends=True)
    cuts: dict[int, int] = {}
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                cuts[tok.start[0] - 1] = tok.start[1]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    for row, col in cuts.items():
        if row < len(lines):
            lines[row] = lines[row][:col] + "\n"
    return "".join(lines)


def _count(acc: list[int], results: list[bool]) -> None:
    acc[0] += sum(results)
    acc[1] += len(results)


def _ratio(acc: list[int]) -> float:
    return round(acc[0] / acc[1], 4) if acc[1] else 1.0


def run(
    root: Path,
    modes: tuple[str, ...] = ("full", "signatures", "auto"),
    task: str | None = None,
    budget: int | None = None,
) -> list[Score]:
    """Pack `root` in each mode and score it, with the naive dump as the first row."""
    import time

    from lorekeeper.context.pack import pack

    facts = python_facts(root)
    rows = []
    dump = naive_dump(facts)
    sources, _ = scan(Path(root))
    tokens_in = sum(tokens.count_many([s.text for s in sources]))
    rows.append(score("naive dump", dump, facts, tokens_in, 0.0, naive=True))
    for mode in modes:
        t0 = time.perf_counter()
        result = pack(root, mode=mode, task=task, budget=budget if mode == "auto" else None)
        rows.append(score(f"lorekeeper {mode}", result.text, facts, result.input_tokens, time.perf_counter() - t0))
    return rows
