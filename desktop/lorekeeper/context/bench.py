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
    constants: set[str] = field(default_factory=set)  # module-level assigned names and type aliases
    attributes: set[str] = field(default_factory=set)  # class-level assigned names (enum members too)
    decorators: list[str] = field(default_factory=list)  # dotted decorator names, "@pkg.name"


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
    constant_recall: float = 1.0
    attribute_recall: float = 1.0
    decorator_recall: float = 1.0
    layers: list[dict[str, object]] = field(default_factory=list)  # the pack's per-layer metrics

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
    ast_lines: list[str] | None = None  # split as `ast.get_source_segment` splits, once per file
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
            if ast_lines is None:
                ast_lines = io.StringIO(text, newline="").readlines()
            f.imports.append(_squash(_source_segment(ast_lines, node)))
        if isinstance(node, ast.Name) and len(node.id) >= MIN_IDENTIFIER_LENGTH:
            f.identifiers.add(node.id)
        elif isinstance(node, ast.Attribute) and len(node.attr) >= MIN_IDENTIFIER_LENGTH:
            f.identifiers.add(node.attr)
        elif isinstance(node, ast.arg) and len(node.arg) >= MIN_IDENTIFIER_LENGTH:
            f.identifiers.add(node.arg)
    f.naive = "".join(naive)
    _members(f, tree)
    return f


def _source_segment(lines: list[str], node: ast.stmt) -> str:
    """`ast.get_source_segment(text, node) or ""` over lines split once (on \\r\\n, \\n and \\r, ends
    kept): the standard function splits the whole source again for every node it is given."""
    if node.end_lineno is None or node.end_col_offset is None:
        return ""
    first, last = node.lineno - 1, node.end_lineno - 1
    if first == last:
        return lines[first].encode()[node.col_offset : node.end_col_offset].decode()
    head = lines[first].encode()[node.col_offset :].decode()
    tail = lines[last].encode()[: node.end_col_offset].decode()
    return "".join([head, *lines[first + 1 : last], tail])


def _assigned(stmt: ast.stmt) -> list[str]:
    if isinstance(stmt, ast.Assign):
        return [t.id for t in stmt.targets if isinstance(t, ast.Name)]
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
        return [stmt.target.id]
    type_alias = getattr(ast, "TypeAlias", None)
    if type_alias is not None and isinstance(stmt, type_alias):
        return [stmt.name.id]
    return []


def _members(f: FileFacts, tree: ast.AST) -> None:
    """Constants, class attributes and decorator names (what signatures mode must also keep)."""
    for stmt in getattr(tree, "body", []):
        f.constants.update(_assigned(stmt))
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for stmt in node.body:
                f.attributes.update(_assigned(stmt))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for dec in node.decorator_list:
                target = dec.func if isinstance(dec, ast.Call) else dec
                f.decorators.append("@" + _WS.sub("", ast.unparse(target)))


def _header(lines: list[str], node: ast.AST) -> tuple[str, str]:
    """(whitespace-free header without its final colon, verbatim header lines) of a def/class."""
    start = node.lineno - 1  # type: ignore[attr-defined]
    col = node.col_offset  # type: ignore[attr-defined]
    chunk = "".join(lines[start : node.end_lineno])  # type: ignore[attr-defined]
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
    hit = {k: [0, 0] for k in ("names", "sig", "multi", "imp", "ident", "const", "attr", "dec")}
    parse_ok = parse_total = 0
    for f in facts:
        sec = sections.get(f.rel, "")
        words = set(re.findall(r"[A-Za-z_$][A-Za-z0-9_$]*", sec))
        squashed = _WS.sub("", sec) + "\0" + _WS.sub("", _strip_comments(sec))
        _count(hit["names"], [n in words for n in f.names])
        _count(hit["sig"], [s in squashed for s in f.signatures])
        _count(hit["multi"], [s in squashed for s in f.multiline])
        _count(hit["imp"], [s in squashed or s in shared_sq for s in f.imports])
        _count(hit["ident"], [i in words for i in f.identifiers])
        _count(hit["const"], [n in words for n in f.constants])
        _count(hit["attr"], [n in words for n in f.attributes])
        _count(hit["dec"], [d in squashed for d in f.decorators])
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
        constant_recall=_ratio(hit["const"]),
        attribute_recall=_ratio(hit["attr"]),
        decorator_recall=_ratio(hit["dec"]),
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
        row = score(f"lorekeeper {mode}", result.text, facts, result.input_tokens, time.perf_counter() - t0)
        row.layers = list(result.layers)
        rows.append(row)
    return rows


# -- other languages: facts from tree-sitter node types (not the packer's walker) ----------------

_DEF_NODES = {
    "typescript": {
        "function_declaration",
        "generator_function_declaration",
        "class_declaration",
        "abstract_class_declaration",
        "interface_declaration",
        "type_alias_declaration",
        "enum_declaration",
        "method_definition",
        "method_signature",
        "abstract_method_signature",
        "function_signature",
    },
    "rust": {
        "function_item",
        "function_signature_item",
        "struct_item",
        "enum_item",
        "trait_item",
        "type_item",
        "mod_item",
        "macro_definition",
        "const_item",
        "static_item",
    },
    "go": {"function_declaration", "method_declaration", "type_spec", "const_spec", "var_spec"},
}
_DEF_NODES["tsx"] = _DEF_NODES["typescript"]
_IMPORT_NODES = {
    "typescript": {"import_statement"},
    "tsx": {"import_statement"},
    "rust": {"use_declaration"},
    "go": {"import_declaration"},
}
_FUNCTION_VALUES = {"arrow_function", "function_expression", "function", "generator_function"}


def code_facts(root: Path, languages: tuple[str, ...] = ("typescript", "tsx", "rust", "go")) -> list[FileFacts]:
    """Names and the naive dump of every TypeScript/Rust/Go file: every definition name (functions,
    methods, classes, interfaces, type aliases, enums; Rust macros, consts, statics, type aliases;
    Go types, consts, vars) at any depth outside function bodies, JS/TS functions bound to a name
    anywhere (test callbacks included), and module-level JS/TS variables. The naive dump holds
    each import and each definition's text up to its body, verbatim."""
    from lorekeeper.context.languages import parser_for, spec_for

    sources, _ = scan(Path(root))
    out = []
    for src in sources:
        spec = spec_for(src.rel)
        if spec is None or spec.name not in languages:
            continue
        data = src.text.encode("utf-8")
        tree = parser_for(spec.name).parse(data)
        out.append(_code_facts(src.rel, data, tree.root_node, spec.name))
    return out


def _code_facts(rel: str, data: bytes, root: object, lang: str) -> FileFacts:
    f = FileFacts(rel)
    naive = [rel + "\n"]
    defs, imports = _DEF_NODES[lang], _IMPORT_NODES[lang]
    stack = [root]
    while stack:
        node = stack.pop()
        t = node.type  # type: ignore[attr-defined]
        name = None
        if t in imports:
            naive.append(_line_span(data, node) + "\n")
            continue
        if t in defs:
            name = node.child_by_field_name("name")  # type: ignore[attr-defined]
        elif t == "variable_declarator":
            value = node.child_by_field_name("value")  # type: ignore[attr-defined]
            top = node.parent.parent  # type: ignore[attr-defined]
            if top is not None and top.type == "export_statement":
                top = top.parent
            if (value is not None and value.type in _FUNCTION_VALUES) or (top is not None and top.type == "program"):
                name = node.child_by_field_name("name")  # type: ignore[attr-defined]
        if name is not None and name.type in ("identifier", "type_identifier", "property_identifier"):
            f.names.add(name.text.decode("utf-8", "replace"))
            body = node.child_by_field_name("body")  # type: ignore[attr-defined]
            if t == "variable_declarator":
                value = node.child_by_field_name("value")  # type: ignore[attr-defined]
                body = (
                    value.child_by_field_name("body") if value is not None and value.type in _FUNCTION_VALUES else value
                )
            stop: int = (
                body.start_byte
                if body is not None and t not in ("interface_declaration", "enum_item")
                else node.end_byte  # type: ignore[attr-defined]
            )
            naive.append(_line_span(data, node, stop) + "\n")
            if t in ("function_item", "function_declaration", "method_declaration") and lang != "typescript":
                continue  # locals of a Rust/Go function are not definitions of the file
        stack.extend(reversed(node.children))  # type: ignore[attr-defined]
    f.naive = "".join(naive)
    return f


def _line_span(data: bytes, node: object, stop: int | None = None) -> str:
    start = data.rfind(b"\n", 0, node.start_byte) + 1  # type: ignore[attr-defined]
    end = node.end_byte if stop is None else stop  # type: ignore[attr-defined]
    return data[start:end].decode("utf-8", "replace").rstrip()
