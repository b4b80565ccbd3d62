"""Parse one source file with tree-sitter into the facts every layer needs.

A `ParsedFile` holds the definitions (with their header normalised to one line), the imports, the
calls and identifiers inside each definition, the multi-line string spans that rewrites must not
touch, and the first parse error if there is one. It keeps byte offsets into the UTF-8 source, so
renderers can cut the original text exactly.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import PurePath
from typing import TYPE_CHECKING

from lorekeeper.context.languages import MARKDOWN_EXTENSIONS, LanguageSpec, parser_for, spec_for

if TYPE_CHECKING:  # tree-sitter is imported lazily at run time (the CLI starts without it)
    from tree_sitter import Language, Node, Query

# Node types that carry a name a reader would look for (identifier recall, relevance terms).
IDENTIFIER_TYPES = frozenset(
    {"identifier", "property_identifier", "field_identifier", "type_identifier", "shorthand_property_identifier"}
)
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_STRING_QUOTES = re.compile(r"^[rRbBuUfF]*(\"\"\"|\'\'\'|\"|\')|(\"\"\"|\'\'\'|\"|\')$")


@dataclass
class Definition:
    kind: str  # function | class | type
    name: str
    qualname: str  # Outer.inner for nested definitions
    depth: int  # enclosing definitions
    start: int  # byte offsets of the whole definition (decorators included)
    end: int
    header: str  # the signature on one line: comments removed, line breaks turned into one space
    body_start: int  # byte offset where the body starts (== end when there is none)
    start_line: int  # 0-based line of the `def`/`class` keyword line
    end_line: int
    decorators: list[str] = field(default_factory=list)
    doc: str = ""  # first line of the docstring
    doc_span: tuple[int, int] | None = None
    calls: set[str] = field(default_factory=set)
    identifiers: Counter[str] = field(default_factory=Counter)
    parent: int | None = None  # index of the enclosing definition
    complexity: int = 1  # cyclomatic: 1 + branches (for smells)
    max_nesting: int = 0


@dataclass
class Import:
    text: str  # the statement on one line
    line: int
    targets: list[str]  # module references to resolve against the tree ("pkg.mod", "./util", ...)


@dataclass
class ParsedFile:
    rel: str  # path relative to the packed root, with forward slashes
    language: str  # python, typescript, ..., markdown, text
    text: str
    definitions: list[Definition] = field(default_factory=list)
    imports: list[Import] = field(default_factory=list)
    identifiers: Counter[str] = field(default_factory=Counter)
    protected: list[tuple[int, int]] = field(default_factory=list)  # multi-line string line spans
    error_line: int | None = None  # 1-based line of the first parse error
    headings: list[str] = field(default_factory=list)  # markdown outline
    aliases: dict[str, set[str]] = field(default_factory=dict)  # `name = make(f, g)` -> {make, f, g}

    @property
    def parsed(self) -> bool:
        return self.error_line is None

    @property
    def is_code(self) -> bool:
        return self.language not in ("markdown", "text")


_FUNCTION_VALUES = frozenset({"arrow_function", "function_expression", "function", "generator_function"})
_BRANCH_TYPES = frozenset(
    {
        "if_statement",
        "elif_clause",
        "for_statement",
        "while_statement",
        "except_clause",
        "case_clause",
        "conditional_expression",
        "boolean_operator",
        "for_in_statement",
        "catch_clause",
        "ternary_expression",
        "switch_case",
        "if_expression",
        "match_arm",
        "while_expression",
        "for_expression",
        "expression_case",
        "communication_case",
        "type_case",
        "do_statement",
        "enhanced_for_statement",
        "switch_label",
    }
)
_NESTING_TYPES = frozenset(
    {
        "if_statement",
        "for_statement",
        "while_statement",
        "try_statement",
        "with_statement",
        "for_in_statement",
        "switch_statement",
        "if_expression",
        "match_expression",
        "while_expression",
        "for_expression",
        "loop_expression",
        "do_statement",
        "enhanced_for_statement",
        "select_statement",
        "expression_switch_statement",
        "type_switch_statement",
    }
)


# Expression-level nodes: in a light parse (no task: calls and identifiers are not needed) their
# subtrees are not walked, as they hold no definition or import the renderers need.
LIGHT_SKIP = frozenset(
    {
        "expression_statement",
        "return_statement",
        "call",
        "assignment",
        "augmented_assignment",
        "argument_list",
        "binary_operator",
        "comparison_operator",
        "boolean_operator",
        "lambda",
        "list",
        "dictionary",
        "tuple",
        "set",
        "parenthesized_expression",
        "subscript",
        "attribute",
        "keyword_argument",
        "assert_statement",
        "raise_statement",
        "delete_statement",
        "pass_statement",
        "expression_list",
        "call_expression",
        "member_expression",
        "arguments",
        "binary_expression",
        "assignment_expression",
        "macro_invocation",
        "field_expression",
        "method_invocation",
        "local_variable_declaration",
        "short_var_declaration",
        "let_declaration",
        "list_comprehension",
        "dictionary_comprehension",
        "generator_expression",
        "conditional_expression",
        "not_operator",
        "unary_operator",
    }
)


def parse_file(rel: str, text: str, *, detail: bool = True) -> ParsedFile:
    """Parse `text` (the content of `rel`); non-code files get an outline or nothing.
    `detail=False` skips calls, identifiers and complexity (about twice as fast)."""
    spec = spec_for(rel)
    if spec is None:
        suffix = PurePath(rel).suffix.lower()
        if suffix in MARKDOWN_EXTENSIONS:
            pf = ParsedFile(rel, "markdown", text)
            pf.headings = [ln.rstrip() for ln in text.splitlines() if ln.startswith("#")]
            return pf
        return ParsedFile(rel, "text", text)
    return _parse_code(rel, text, spec, detail)


def _parse_code(rel: str, text: str, spec: LanguageSpec, detail: bool) -> ParsedFile:
    src = text.encode("utf-8")
    parser = parser_for(spec.name)
    tree = parser.parse(src)
    pf = ParsedFile(rel, spec.name, text)
    root = tree.root_node
    if root.has_error:
        pf.error_line = _first_error_line(root)
    _Walker(spec, src, pf, detail).run(root)
    if not detail:
        assert parser.language is not None  # parser_for always builds the parser with its grammar
        pf.protected = _string_spans(parser.language, spec, root)
    return pf


def _string_spans(language: Language, spec: LanguageSpec, root: Node) -> list[tuple[int, int]]:
    """Line spans of the multi-line string literals (a tree-sitter query: C speed)."""
    import tree_sitter

    q = _queries.get(spec.name)
    if q is None:
        known = [t for t in sorted(spec.strings) if language.id_for_node_kind(t, True)]
        q = tree_sitter.Query(language, " ".join(f"({t}) @s" for t in known))
        _queries[spec.name] = q
    spans = []
    for node in tree_sitter.QueryCursor(q).captures(root).get("s", []):
        s, e = node.start_point[0], node.end_point[0]
        if e > s:
            spans.append((int(s), int(e)))
    return sorted(set(spans))


_queries: dict[str, Query] = {}


def _text(node: Node) -> str:
    """The node's source text (a tree parsed from bytes always keeps it)."""
    return (node.text or b"").decode("utf-8", "replace")


def _first_error_line(root: Node) -> int:
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            return int(node.start_point[0]) + 1
        if node.has_error:
            stack.extend(reversed(node.children))
    return 1


class _Walker:
    """One pass over the tree: definitions, imports, calls, identifiers, protected strings."""

    def __init__(self, spec: LanguageSpec, src: bytes, pf: ParsedFile, detail: bool = True) -> None:
        self.spec = spec
        self.src = src
        self.pf = pf
        self.detail = detail
        self._comment_marks = (b"#",) if spec.name == "python" else (b"//", b"/*")

    def run(self, root: Node) -> None:
        # (node, enclosing definition index, nesting depth inside that definition)
        stack: list[tuple[Node, int | None, int]] = [(root, None, 0)]
        spec = self.spec
        defs = self.pf.definitions
        light = not self.detail
        while stack:
            node, owner, nest = stack.pop()
            t = node.type
            if light:
                if t in LIGHT_SKIP or t in spec.strings or t in spec.comments or t in IDENTIFIER_TYPES:
                    continue
                if t in spec.imports:
                    self._import(node)
                    continue
                if t in spec.definitions:
                    idx = self._definition(node, spec.definitions[t], owner)
                    if idx is not None:
                        owner = idx
                stack.extend((child, owner, 0) for child in reversed(node.children))
                continue
            if t in spec.strings:
                s, e = node.start_point[0], node.end_point[0]
                if e > s:
                    self.pf.protected.append((s, e))
                continue
            if t in spec.comments:
                continue
            if t in spec.imports:
                self._import(node)
                continue
            if t in IDENTIFIER_TYPES:
                name = (node.text or b"").decode("utf-8", "replace")  # inline: the hottest line of a pack
                self.pf.identifiers[name] += 1
                if owner is not None:
                    defs[owner].identifiers[name] += 1
                continue
            if owner is not None:
                d = defs[owner]
                if t in _BRANCH_TYPES:
                    d.complexity += 1
                if t in _NESTING_TYPES:
                    nest += 1
                    d.max_nesting = max(d.max_nesting, nest)
            if owner is None and t == "assignment" and spec.name == "python":
                self._alias(node)
            if t in spec.calls and owner is not None:
                callee = node.child_by_field_name(spec.calls[t])
                if callee is not None:
                    words = _WORD.findall(_text(callee))
                    if words:
                        defs[owner].calls.add(words[-1])
            if t in spec.definitions:
                idx = self._definition(node, spec.definitions[t], owner)
                if idx is not None:
                    owner, nest = idx, 0
            children = node.children
            for child in reversed(children):
                stack.append((child, owner, nest))
        defs_sorted = sorted(range(len(defs)), key=lambda i: defs[i].start)
        if defs_sorted != list(range(len(defs))):
            remap = {old: new for new, old in enumerate(defs_sorted)}
            new_defs = [defs[i] for i in defs_sorted]
            for d in new_defs:
                if d.parent is not None:
                    d.parent = remap[d.parent]
            self.pf.definitions = new_defs

    # -- pieces ---------------------------------------------------------------------------------

    def _definition(self, node: Node, kind: str, owner: int | None) -> int | None:
        head = node  # where the header text starts
        if node.type == "variable_declarator":
            value = node.child_by_field_name("value")
            if value is None or value.type not in _FUNCTION_VALUES:
                return None
            decl = node.parent
            if decl is None or len(decl.named_children) != 1:  # `const a = 1, f = () => 0`: keep it simple
                return None
            head = decl.parent if decl.parent is not None and decl.parent.type == "export_statement" else decl
            return self._add(
                node,
                head,
                kind,
                owner,
                node.child_by_field_name("name"),
                value.child_by_field_name("body"),
            )
        if node.type in ("field_definition", "public_field_definition"):
            value = node.child_by_field_name("value")
            if value is None or value.type not in _FUNCTION_VALUES:
                return None
            name = node.child_by_field_name("name") or node.child_by_field_name("property")
            return self._add(node, node, kind, owner, name, value.child_by_field_name("body"))
        name_node = node.child_by_field_name("name")
        if name_node is None and node.type == "impl_item":
            name_node = node.child_by_field_name("type")
        if name_node is None and node.type == "type_declaration":
            spec_node = next((c for c in node.named_children if c.type.endswith("spec")), None)
            name_node = spec_node.child_by_field_name("name") if spec_node is not None else None
        if name_node is None:
            return None
        body = node.child_by_field_name("body")
        return self._add(node, head, kind, owner, name_node, None if kind == "type" else body)

    def _add(
        self, node: Node, head: Node, kind: str, owner: int | None, name_node: Node | None, body: Node | None
    ) -> int | None:
        if name_node is None:
            return None
        name = _text(name_node)
        if body is None:
            body_start = node.end_byte
        else:
            body_start = body.start_byte
        start = head.start_byte
        decorators: list[str] = []
        parent_node = node.parent
        if parent_node is not None and parent_node.type == "decorated_definition":
            start = parent_node.start_byte
            decorators = [self._one_line(c, c.end_byte) for c in parent_node.children if c.type == "decorator"]
        header = self._one_line(head, body_start)
        defs = self.pf.definitions
        depth = 0 if owner is None else defs[owner].depth + 1
        qual = name if owner is None else f"{defs[owner].qualname}.{name}"
        d = Definition(
            kind=kind,
            name=name,
            qualname=qual,
            depth=depth,
            start=start,
            end=max(node.end_byte, head.end_byte),
            header=header,
            body_start=body_start,
            start_line=int(node.start_point[0]),
            end_line=int(node.end_point[0]),
            decorators=decorators,
            parent=owner,
        )
        if self.spec.docstrings and body is not None:
            first = next((c for c in body.named_children if c.type not in self.spec.comments), None)
            if first is not None and first.type == "expression_statement" and first.named_child_count == 1:
                s = first.named_children[0]
                if s.type == "string":
                    raw = _STRING_QUOTES.sub("", _text(s))
                    lines = [ln.strip() for ln in raw.strip().splitlines() if ln.strip()]
                    d.doc = lines[0] if lines else ""
                    d.doc_span = (first.start_byte, first.end_byte)
        defs.append(d)
        return len(defs) - 1

    def _alias(self, node: Node) -> None:
        """Module-level `name = other` or `name = factory(f, g)`: a call to `name` reaches them."""
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if left is None or right is None or left.type != "identifier":
            return
        if right.type == "identifier":
            targets = {_text(right)}
        elif right.type == "call":
            fn = right.child_by_field_name("function")
            args = right.child_by_field_name("arguments")
            targets = set(_WORD.findall(_text(fn))[-1:]) if fn is not None else set()
            if args is not None:
                targets |= {_text(a) for a in args.named_children if a.type == "identifier"}
        else:
            return
        if targets:
            self.pf.aliases[_text(left)] = targets

    def _import(self, node: Node) -> None:
        text = self._one_line(node, node.end_byte)
        targets: list[str] = []
        lang = self.spec.name
        if lang == "python":
            targets = _python_import_targets(node)
        elif lang in ("javascript", "typescript", "tsx"):
            source = node.child_by_field_name("source")
            if source is not None:
                targets = [_text(source).strip("'\"`")]
        elif lang == "go":
            targets = [m.strip('"`') for m in re.findall(r'"[^"]+"|`[^`]+`', text)]
        elif lang == "rust":
            body = re.sub(r"^(pub(\([^)]*\))?\s+)?(use|extern crate)\s+", "", text).rstrip(";")
            targets = [body.split("{")[0].rstrip(":").replace("::", ".")]
        elif lang == "java":
            body = re.sub(r"^(import|package)\s+(static\s+)?", "", text).rstrip(";").strip()
            targets = [body.removesuffix(".*")]
        self.pf.imports.append(Import(text, int(node.start_point[0]), [t for t in targets if t]))

    def _one_line(self, node: Node, stop: int) -> str:
        """The text of `node` up to byte `stop`, comments removed, each line break (with its
        indentation) turned into one space; the inside of strings is kept byte for byte."""
        src = self.src
        raw = src[node.start_byte : stop].rstrip()
        if b"\n" not in raw and b"\r" not in raw and not any(m in raw for m in self._comment_marks):
            return raw.decode("utf-8", "replace").strip()  # the common case: already one clean line
        pieces: list[str] = []
        last_end: int | None = None
        stack = [node]
        strings = self.spec.strings
        comments = self.spec.comments
        while stack:
            n = stack.pop()
            if n.start_byte >= stop:
                continue
            t = n.type
            if t in comments:
                continue
            kids = n.children
            if kids and t not in strings and n.end_byte > n.start_byte:
                stack.extend(reversed(kids))
                continue
            s, e = n.start_byte, min(n.end_byte, stop)
            if e <= s:
                continue
            if last_end is not None:
                gap = src[last_end:s]
                pieces.append(" " if b"\n" in gap or b"\r" in gap else gap.decode("utf-8", "replace"))
            pieces.append(src[s:e].decode("utf-8", "replace"))
            last_end = e
        return "".join(pieces).strip()


def _python_import_targets(node: Node) -> list[str]:
    t = node.type
    if t == "future_import_statement":
        return []
    if t == "import_statement":
        out = []
        for c in node.named_children:
            n = c.child_by_field_name("name") if c.type == "aliased_import" else c
            if n is not None:
                out.append(_text(n))
        return out
    module = node.child_by_field_name("module_name")
    base = _text(module) if module is not None else ""
    out = [base] if base.strip(".") else []
    for c in node.children_by_field_name("name"):
        n = c.child_by_field_name("name") if c.type == "aliased_import" else c
        if n is None:
            continue
        name = _text(n)
        sep = "" if base.endswith(".") else "."
        out.append(f"{base}{sep}{name}" if base else name)
    return out


@lru_cache(maxsize=200_000)
def words_of(identifier: str) -> list[str]:
    """Lower-case parts of an identifier: `parseHTTPHeader_v2` -> parse, http, header, v2."""
    parts = re.findall(r"[A-Z]+(?=[A-Z][a-z]|\d|\b|_)|[A-Z]?[a-z]+|[A-Z]+|\d+", identifier)
    return [p.lower() for p in parts if p]


_SUFFIXES = (
    "ations",
    "ation",
    "ments",
    "ment",
    "ions",
    "ion",
    "ings",
    "ing",
    "ers",
    "er",
    "ies",
    "es",
    "ed",
    "ly",
    "s",
    "e",
)
MIN_STEM = 3  # a suffix is stripped only when this many letters remain


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """A light suffix stripper so `completion`, `complete` and `completes` meet (`complet`)."""
    w = word.lower()
    for suf in _SUFFIXES:
        if w.endswith(suf) and len(w) - len(suf) >= MIN_STEM:
            return w[: -len(suf)]
    return w


@lru_cache(maxsize=200_000)
def identifier_stems(identifier: str) -> frozenset[str]:
    """Stems of an identifier and of each of its words (what task terms are matched against)."""
    return frozenset({stem(identifier), *(stem(w) for w in words_of(identifier))})
