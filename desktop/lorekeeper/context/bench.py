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
from typing import TYPE_CHECKING

from lorekeeper.context import tokens
from lorekeeper.context.languages import spec_for
from lorekeeper.context.render import HEADER_PREFIX
from lorekeeper.context.scan import Source, scan
from lorekeeper.errors import InvalidInputError

if TYPE_CHECKING:
    from tree_sitter import Node

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
    language: str = "python"
    source_parses: bool = True  # the file itself parses (else "parses" does not judge its section)


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
    hit, parses = _hits(facts, sections, modes, shared)
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
        parses=parses,
        files=len(facts),
        constant_recall=_ratio(hit["const"]),
        attribute_recall=_ratio(hit["attr"]),
        decorator_recall=_ratio(hit["dec"]),
    )


def _hits(
    facts: list[FileFacts], sections: dict[str, str], modes: dict[str, str], shared: str
) -> tuple[dict[str, list[int]], float | None]:
    """[found, total] per kind of fact, and the share of the files claimed "full" that parse."""
    shared_py, shared_code = _WS.sub("", shared), _squash_code(shared)
    hit = {k: [0, 0] for k in ("names", "sig", "multi", "imp", "ident", "const", "attr", "dec")}
    parse_ok = parse_total = 0
    for f in facts:
        sec = sections.get(f.rel, "")
        words = set(re.findall(r"[A-Za-z_$][A-Za-z0-9_$]*", sec))
        if f.language == "python":
            squashed = _WS.sub("", sec) + "\0" + _WS.sub("", _strip_comments(sec))
        else:
            squashed = _squash_code(sec) + "\0" + _squash_code(_C_COMMENT.sub("", sec))
        _count(hit["names"], [n in words for n in f.names])
        _count(hit["sig"], [s in squashed for s in f.signatures])
        _count(hit["multi"], [s in squashed for s in f.multiline])
        shared_sq = shared_py if f.language == "python" else shared_code
        _count(hit["imp"], [s in squashed or s in shared_sq for s in f.imports])
        _count(hit["ident"], [i in words for i in f.identifiers])
        _count(hit["const"], [n in words for n in f.constants])
        _count(hit["attr"], [n in words for n in f.attributes])
        _count(hit["dec"], [d in squashed for d in f.decorators])
        if modes.get(f.rel) == "full" and f.source_parses:
            parse_total += 1
            parse_ok += _parses(f.language, sec.lstrip("\n"))
    return hit, (parse_ok / parse_total) if parse_total else None


def _parses(language: str, text: str) -> bool:
    if language == "python":
        try:
            ast.parse(text)
        except (SyntaxError, ValueError):
            return False
        return True
    from lorekeeper.context.languages import parser_for

    return not parser_for(language).parse(text.encode("utf-8")).root_node.has_error


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
    """Pack `root` in each mode and score it over every language, with the naive dump first."""
    return measure(root, modes, task=task, budget=budget).rows


@dataclass
class LanguageReport:
    """One language of the tree: its files, its input tokens and, per mode ("naive" is the naive
    dump), the tokens its files take in the output and the recall of its facts."""

    language: str
    files: int
    tokens_in: int
    names: int  # how many reference names / signatures / imports there are to find
    signatures: int
    imports: int
    modes: dict[str, dict[str, object]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass
class BenchReport:
    root: str
    task: str | None
    budget: int | None
    rows: list[Score]
    languages: list[LanguageReport]
    layers: dict[str, list[dict[str, object]]]  # mode -> the pack's per-layer metrics
    errors: dict[str, str] = field(default_factory=dict)  # mode -> why it could not be packed

    def to_dict(self) -> dict[str, object]:
        """The stable `ctx bench --json` shape (README, "ctx bench"): version 1."""
        return {
            "version": 1,
            "root": self.root,
            "task": self.task,
            "budget": self.budget,
            "rows": [r.to_dict() for r in self.rows],
            "languages": [lang.to_dict() for lang in self.languages],
            "layers": self.layers,
            "errors": self.errors,
        }


def measure(
    root: Path,
    modes: tuple[str, ...] = ("full", "map", "signatures", "auto"),
    *,
    task: str | None = None,
    budget: int | None = None,
) -> BenchReport:
    """Pack `root` once per mode (the budget applies to the auto pack) and score each pack
    against the reference facts of every supported language: overall rows, per-language rows
    and each pack's per-layer metrics."""
    import time

    from lorekeeper.context.pack import pack

    root = Path(root)
    sources, _ = scan(root)
    facts = ground_truth(root, sources)
    counts = dict(zip((s.rel for s in sources), tokens.count_many([s.text for s in sources]), strict=True))
    tokens_in = sum(counts.values())
    rows = [score("naive dump", naive_dump(facts), facts, tokens_in, 0.0, naive=True)]
    outputs: dict[str, tuple[dict[str, str], dict[str, str], str]] = {
        "naive": ({f.rel: f.naive for f in facts}, {}, "")
    }
    layers: dict[str, list[dict[str, object]]] = {}
    errors: dict[str, str] = {}
    for mode in modes:
        t0 = time.perf_counter()
        try:
            result = pack(root, mode=mode, task=task, budget=budget if mode == "auto" else None)
        except InvalidInputError as exc:  # e.g. auto's default share of a tiny tree: the header alone
            errors[mode] = exc.message
            continue
        row = score(f"lorekeeper {mode}", result.text, facts, result.input_tokens, time.perf_counter() - t0)
        row.layers = list(result.layers)
        rows.append(row)
        layers[mode] = list(result.layers)
        outputs[mode] = sections_of(result.text)
    return BenchReport(str(root), task, budget, rows, _by_language(facts, counts, outputs), layers, errors)


def _by_language(
    facts: list[FileFacts],
    counts: dict[str, int],
    outputs: dict[str, tuple[dict[str, str], dict[str, str], str]],
) -> list[LanguageReport]:
    groups: dict[str, list[FileFacts]] = {}
    for f in facts:
        groups.setdefault(f.language, []).append(f)
    order = {spec: k for k, spec in enumerate(_LANGUAGE_ORDER)}
    out = []
    for language in sorted(groups, key=lambda name: order.get(name, len(order))):
        group = groups[language]
        lang = LanguageReport(
            language=language,
            files=len(group),
            tokens_in=sum(counts.get(f.rel, 0) for f in group),
            names=sum(len(f.names) for f in group),
            signatures=sum(len(f.signatures) for f in group),
            imports=sum(len(f.imports) for f in group),
        )
        for mode, (sections, claimed, shared) in outputs.items():
            texts = [sections.get(f.rel, "") for f in group]
            hit, parses = _hits(group, sections, claimed, shared)
            lang.modes[mode] = {
                "tokens": sum(tokens.count_many(texts)),
                "name_recall": _ratio(hit["names"]),
                "signature_recall": _ratio(hit["sig"]),
                "import_recall": _ratio(hit["imp"]),
                "parses": parses,
            }
        out.append(lang)
    return out


def ground_truth(root: Path, sources: list[Source] | None = None) -> list[FileFacts]:
    """The reference facts of every file of a supported language: Python's from `ast` (the
    stricter, fully independent reference), the others' from a tree-sitter walk of this module
    (`_code_facts`), not from the packer's query, so a definition the renderer misses is a miss."""
    if sources is None:
        sources, _ = scan(Path(root))
    out = []
    for src in sources:
        spec = spec_for(src.rel)
        if spec is None:
            continue
        if spec.name == "python":
            try:
                tree = ast.parse(src.text)
            except (SyntaxError, ValueError):
                continue
            out.append(_facts(src.rel, src.text, tree))
        else:
            out.append(_tree_facts(src.rel, src.text, spec.name))
    return out


# -- every other language: facts from a tree-sitter walk of our own (not the packer's query) ------

_LANGUAGE_ORDER = ("python", "javascript", "typescript", "tsx", "rust", "go", "java")
_JS_DEF_NODES = {"function_declaration", "generator_function_declaration", "class_declaration", "method_definition"}
_TS_DEF_NODES = _JS_DEF_NODES | {
    "abstract_class_declaration",
    "interface_declaration",
    "type_alias_declaration",
    "enum_declaration",
    "method_signature",
    "abstract_method_signature",
    "function_signature",
}
_DEF_NODES = {  # definitions: their name is a fact and their header is part of the naive dump
    "javascript": _JS_DEF_NODES,
    "typescript": _TS_DEF_NODES,
    "tsx": _TS_DEF_NODES,
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
    "java": {
        "class_declaration",
        "interface_declaration",
        "enum_declaration",
        "record_declaration",
        "annotation_type_declaration",
        "method_declaration",
        "constructor_declaration",
    },
}
# members: their name is a fact, but they sit inside a header already in the naive dump (Go
# interface methods, enum members) or are class attributes
_MEMBER_NODES = {
    "javascript": {"field_definition"},
    "typescript": {"public_field_definition", "enum_assignment"},
    "tsx": {"public_field_definition", "enum_assignment"},
    "rust": {"enum_variant"},
    "go": {"method_elem", "method_spec"},
    "java": {"enum_constant"},
}
_FUNCTION_NODES = {  # definitions whose header is a signature fact
    "function_declaration",
    "generator_function_declaration",
    "method_definition",
    "method_signature",
    "abstract_method_signature",
    "function_signature",
    "function_item",
    "function_signature_item",
    "method_declaration",
    "constructor_declaration",
    "method_elem",
    "method_spec",
}
_IMPORT_NODES = {
    "javascript": {"import_statement"},
    "typescript": {"import_statement"},
    "tsx": {"import_statement"},
    "rust": {"use_declaration", "extern_crate_declaration"},
    "go": {"import_declaration"},
    "java": {"import_declaration"},
}
_NAME_NODES = {
    "identifier",
    "type_identifier",
    "property_identifier",
    "field_identifier",
    "private_property_identifier",
}
_COMMENT_NODES = {"comment", "line_comment", "block_comment"}
_FUNCTION_VALUES = {"arrow_function", "function_expression", "function", "generator_function"}
_JS_FAMILY = {"javascript", "typescript", "tsx"}
_C_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)
_TRAILING_COMMA = re.compile(r",([)\]}>])")


def _squash_code(text: str) -> str:
    """Whitespace removed and a trailing comma before a closing bracket dropped (a header joined
    on one line may lose it without losing anything)."""
    return _TRAILING_COMMA.sub(r"\1", _WS.sub("", text))


def code_facts(
    root: Path, languages: tuple[str, ...] = ("javascript", "typescript", "tsx", "rust", "go", "java")
) -> list[FileFacts]:
    """The tree-sitter facts (`_tree_facts`) of every file of `languages` under `root`."""
    sources, _ = scan(Path(root))
    out = []
    for src in sources:
        spec = spec_for(src.rel)
        if spec is not None and spec.name in languages:
            out.append(_tree_facts(src.rel, src.text, spec.name))
    return out


def _tree_facts(rel: str, text: str, lang: str) -> FileFacts:
    """Names, signatures, imports and the naive dump of one JS/TS/Rust/Go/Java file, from the
    grammar's own node types: every definition name (functions, methods, classes, interfaces,
    type aliases, enums and their members, class fields; Rust macros, consts, statics, type
    aliases, enum variants; Go types, consts, vars, interface methods; Java constructors, enum
    constants, fields) outside Rust/Go/Java function bodies, JS/TS functions bound to a name
    anywhere (test callbacks and object literals included) and module-level JS/TS variables.
    Signatures: each function's or method's text up to its body, comments out, whitespace-free.
    The naive dump holds each import and each definition's text up to its body, verbatim."""
    from lorekeeper.context.languages import parser_for

    data = text.encode("utf-8")
    root = parser_for(lang).parse(data).root_node
    f = FileFacts(rel, language=lang, source_parses=not root.has_error)
    naive = [rel + "\n"]
    defs, members, imports = _DEF_NODES[lang], _MEMBER_NODES[lang], _IMPORT_NODES[lang]
    opaque = {"function_item"} if lang == "rust" else set()
    if lang in ("go", "java"):
        opaque = {"function_declaration", "method_declaration", "constructor_declaration", "func_literal"}
    stack = [root]
    while stack:
        node = stack.pop()
        t = node.type
        if t in imports:
            naive.append(_line_span(data, node) + "\n")
            f.imports.append(_squash_code(_tokens_text(node, node.end_byte)).rstrip(";"))
            continue
        names, header = _definition(node, lang, defs, members)
        if names:
            f.names.update(n.lstrip("#") for n in names)
        if header is not None:
            stop, is_function = header
            if t not in members and t != "pair":  # (the naive floor of the last rounds, unchanged)
                naive.append(_line_span(data, node, stop) + "\n")
            if is_function:
                f.signatures.append(_squash_code(_tokens_text(node, stop)).rstrip(";"))
        if t in opaque:
            continue  # the locals of a Rust/Go/Java function are not definitions of the file
        stack.extend(reversed(node.children))
    f.naive = "".join(naive)
    return f


def _definition(node: Node, lang: str, defs: set[str], members: set[str]) -> tuple[list[str], tuple[int, bool] | None]:
    """(names the node defines, (end of its header, whether it is a function) or None)."""
    t = node.type
    if t in defs or t in members:
        found = [n for n in node.children_by_field_name("name") if n.type in _NAME_NODES]
        if t == "field_definition":
            found = [n for n in node.children_by_field_name("property") if n.type in _NAME_NODES]
        if not found:
            return [], None
        body = node.child_by_field_name("body")
        whole = body is None or t in ("interface_declaration", "enum_item")
        stop = node.end_byte if body is None or whole else body.start_byte
        return [_text(n) for n in found], (stop, t in _FUNCTION_NODES)
    if t == "enum_body" and lang in _JS_FAMILY:  # bare TS enum members: `enum E { A, B }`
        return [_text(c) for c in node.named_children if c.type == "property_identifier"], None
    if t == "variable_declarator" and lang == "java":
        parent = node.parent
        if parent is not None and parent.type in ("field_declaration", "constant_declaration"):
            name = node.child_by_field_name("name")
            return ([_text(name)] if name is not None else []), None
        return [], None
    if t in ("variable_declarator", "pair") and lang in _JS_FAMILY:
        name = node.child_by_field_name("name" if t == "variable_declarator" else "key")
        value = node.child_by_field_name("value")
        if name is None or name.type not in _NAME_NODES:
            return [], None
        if value is not None and value.type in _FUNCTION_VALUES:
            fbody = value.child_by_field_name("body")
            stop = fbody.start_byte if fbody is not None else node.end_byte
            return [_text(name)], (stop, True)
        top = node.parent.parent if node.parent is not None else None
        if top is not None and top.type == "export_statement":
            top = top.parent
        if t == "variable_declarator" and top is not None and top.type == "program":
            return [_text(name)], ((value.start_byte if value is not None else node.end_byte), False)
    return [], None


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


def _tokens_text(node: Node, stop: int) -> str:
    """The leaf tokens of `node` that end before `stop`, comments left out, joined by spaces."""
    out: list[str] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if n.start_byte >= stop or n.type in _COMMENT_NODES:
            continue
        if n.child_count == 0:
            out.append(_text(n))
            continue
        stack.extend(reversed(n.children))
    return " ".join(out)


def _line_span(data: bytes, node: Node, stop: int | None = None) -> str:
    start = data.rfind(b"\n", 0, node.start_byte) + 1
    end = node.end_byte if stop is None else stop
    return data[start:end].decode("utf-8", "replace").rstrip()
