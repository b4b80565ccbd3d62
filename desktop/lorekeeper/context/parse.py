"""Parse one source file with tree-sitter into the facts every layer needs.

A `ParsedFile` holds the definitions (with their header normalised to one line), the imports, the
calls and identifiers inside each definition, the multi-line string spans that rewrites must not
touch, and the first parse error if there is one. It keeps byte offsets into the UTF-8 source, so
renderers can cut the original text exactly.
"""

from __future__ import annotations

import bisect
import hashlib
import operator
import re
from collections import Counter, OrderedDict
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import PurePath
from typing import Any

from lorekeeper.context.languages import MARKDOWN_EXTENSIONS, LanguageSpec, parser_for, spec_for

# Node types that carry a name a reader would look for (identifier recall, relevance terms).
IDENTIFIER_TYPES = frozenset(
    {"identifier", "property_identifier", "field_identifier", "type_identifier", "shorthand_property_identifier"}
)
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_TIGHT = re.compile(r"(?<=[(\[{]) | (?=[)\]}])")  # the space a joined line break left inside brackets
_KEEP_BYTES = re.compile(rb"[\"'`\\]")  # a header holding these is joined token by token
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
class Member:
    """A signature line that is not a definition with a body: a module-level constant or type
    alias, a class attribute, a Rust macro or const, a Go const/var (signatures mode keeps them)."""

    name: str
    text: str  # one line: name, annotation, the value when short (else `...`)
    start: int  # byte offset, to interleave with the definitions
    depth: int


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
    members: list[Member] = field(default_factory=list)

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


# Node types that may hold a `Member` (see `_Walker._member`).
_MEMBER_TYPES = frozenset(
    {
        "expression_statement",
        "type_alias_statement",
        "lexical_declaration",
        "variable_declaration",
        "public_field_definition",
        "field_definition",
        "macro_definition",
        "const_item",
        "associated_type",
        "static_item",
        "const_declaration",
        "var_declaration",
    }
)
# Python members: every module-level and class-level assignment (`MAX = 3`, `F = TypeVar("F")`,
# `name: str = ""`, enum members, dataclass fields, `a = b = f`) and `type X = ...` statements; never
# a local or an assignment nested in an `if`/`try` block at module level.
PY_SHORT_VALUE = 12  # a Python member's value is kept up to this many characters, else `= ...`
PY_TYPE_VALUE = 48  # ... and a type alias's (`X: TypeAlias = ...`) or a TypeVar/NewType's value
_PY_TYPE_FACTORY = re.compile(rb"^(?:\w+\.)?(?:TypeVar|NewType|ParamSpec|TypeVarTuple)\(")
SHORT_VALUE = 24  # a member's value is kept up to this many characters, else `= ...` (Python) or dropped

# TypeScript 4.7 variance annotations (`<in out T>`), which the newest tree-sitter-typescript wheel
# (0.23.2) does not parse: blanked (same length, so byte offsets stay) for a second parse.
# Comments may stand between the `<` and the annotation (`<\n /** @ts-ignore */\n out Shape ...>`);
# possessive quantifiers: a line of `////...` must not backtrack exponentially.
_VARIANCE = re.compile(
    rb"(?<=[<,])((?:\s++|//[^\n]*+|/\*(?:[^*]++|\*(?!/))*+\*/)*+)((?:in|out|in\s+out)\s+)"
    rb"(?=[A-Za-z_$][\w$]*\s*(?:[,>=]|extends\b))"
)


# `import('mod').T` (an import type, which the grammar fails on in `T[]` and a few other places):
# the call blanked to an identifier of the same length (`______.T`), valid as a type and a value.
_IMPORT_TYPE = re.compile(rb"""\bimport\(\s*(?:'[^'\n]*'|"[^"\n]*")\s*\)(?=\s*\.)""")
TOLERANT_STEPS = 24  # member separators tried, one per parse, before the fallback outline is used


def _tolerant_ts(parser: Any, src: bytes, tree: Any) -> Any:
    """A second chance for a TypeScript file the grammar rejects, on a copy of the same length (so
    every byte offset, and the text cut from `src`, stays): variance words blanked, import types
    blanked, and a `;` put in the indentation of a line where an interface member the grammar
    reads as the previous line's continuation starts (`x: number` then `in2?: string`). The copy's
    tree is used only when it parses cleanly; otherwise the original (with its error) stands."""
    work = bytearray(src)
    if _VARIANCE.search(src):
        work = bytearray(_VARIANCE.sub(lambda m: m.group(1) + b" " * len(m.group(2)), src))
    if b"import(" in src:
        work = bytearray(_IMPORT_TYPE.sub(lambda m: b"_" * len(m.group(0)), bytes(work)))
    if work == src:
        second = tree
    else:
        second = parser.parse(bytes(work))
    last = -1
    for _ in range(TOLERANT_STEPS):
        if not second.root_node.has_error:
            return second
        row = _first_error_line(second.root_node) - 1
        start = 0
        for _k in range(row):
            start = work.find(b"\n", start) + 1
            if start == 0:
                break
        if start <= last or bytes(work[start : start + 1]) not in (b" ", b"\t"):
            break  # no progress, or nothing to put a separator in: give up
        last = start
        work[start] = ord(";")
        second = parser.parse(bytes(work))
    return second if not second.root_node.has_error else tree


_GAP_COMMENTS = re.compile(rb"//[^\n]*+|/\*(?:[^*]++|\*(?!/))*+\*/|#[^\n]*+")  # skipped comments in a gap


CACHE_MAX_BYTES = 32 << 20  # parse results kept per content hash in this process (~8M tokens of text)
_cache: OrderedDict[tuple[bytes, str, bool], ParsedFile] = OrderedDict()
_cache_bytes = 0


def parse_file(rel: str, text: str, *, detail: bool = True) -> ParsedFile:
    """Parse `text` (the content of `rel`); non-code files get an outline or nothing.
    `detail=False` skips calls, identifiers and complexity (about twice as fast).
    Results are cached per content hash (and language) for the life of the process, so a file
    seen twice (a copy, the same tree packed for another task) is parsed once; the cached facts
    are shared, read-only, between the results."""
    spec = spec_for(rel)
    key = _key(rel, text, detail)
    hit = _cache.get(key)
    if hit is not None:
        _cache.move_to_end(key)
        return replace(hit, rel=rel, text=text)
    pf = _parse_uncached(rel, text, spec, detail)
    _remember(key, pf)
    return replace(pf)  # a shallow copy: the cached object itself is never handed out


def _remember(key: tuple[bytes, str, bool], pf: ParsedFile) -> None:
    global _cache_bytes
    _cache[key] = pf
    _cache_bytes += len(pf.text)
    while _cache_bytes > CACHE_MAX_BYTES and len(_cache) > 1:
        _k, old = _cache.popitem(last=False)
        _cache_bytes -= len(old.text)


def parse_batch(items: list[tuple[str, str]], detail: bool) -> list[ParsedFile]:
    """Parse (rel, text) pairs in a worker process; the texts are not sent back (the caller has
    them: `adopt` puts them back and fills this process's cache)."""
    out = []
    for rel, text in items:
        pf = _parse_uncached(rel, text, spec_for(rel), detail)
        pf.text = ""
        out.append(pf)
    return out


def adopt(pf: ParsedFile, text: str, detail: bool) -> ParsedFile:
    """A result of `parse_batch` with its text back, remembered in the content cache."""
    pf.text = text
    _remember(_key(pf.rel, text, detail), pf)
    return pf


def cached(rel: str, text: str, detail: bool) -> bool:
    """True when `parse_file(rel, text, detail=detail)` would be answered from the cache."""
    return _key(rel, text, detail) in _cache


def disk_key(rel: str, text: str, detail: bool) -> bytes:
    """The key of this parse in the cache between runs (`diskcache`): content, language, detail."""
    from lorekeeper.context.diskcache import content_key

    digest, kind, detail = _key(rel, text, detail)
    return content_key("parse", digest, kind, "detail" if detail else "light")


def _key(rel: str, text: str, detail: bool) -> tuple[bytes, str, bool]:
    spec = spec_for(rel)
    kind = spec.name if spec is not None else PurePath(rel).suffix.lower()
    return (hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest(), kind, detail)


def _parse_uncached(rel: str, text: str, spec: LanguageSpec | None, detail: bool) -> ParsedFile:
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
    if tree.root_node.has_error and spec.name in ("typescript", "tsx"):
        tree = _tolerant_ts(parser, src, tree)  # the text is still cut from `src`: headers are verbatim
    pf = ParsedFile(rel, spec.name, text)
    root = tree.root_node
    if root.has_error:
        pf.error_line = _first_error_line(root)
    _Walker(spec, src, pf, detail).run(root)
    return pf


_detail_queries: dict[tuple[str, bool], Any] = {}
_SWEEP_ORDER = operator.itemgetter(0, 1, 2)


def _detail_query(spec: LanguageSpec, detail: bool = True) -> Any:
    """One query per language capturing what `_Walker._sweep` needs: definitions (@d), members
    (@m), module-level assignments (@a, Python aliases), identifiers (@i), callees (@c), branches
    (@b), nesting nodes (@n), strings (@s), comments and imports (@x). Node types or fields the
    grammar lacks are left out. Without detail: definitions, members, strings, comments and
    imports only (a light parse: no calls, identifiers or complexity)."""
    q = _detail_queries.get((spec.name, detail))
    if q is not None:
        return q
    import tree_sitter

    language = parser_for(spec.name).language
    assert language is not None

    def known(t: str) -> bool:
        return bool(language.id_for_node_kind(t, True))

    def caps(types: Any, name: str) -> list[str]:
        return [f"({t}) @{name}" for t in sorted(types) if known(t)]

    patterns = caps(spec.definitions, "d") + caps(_MEMBER_TYPES, "m")
    if detail:
        patterns += caps(IDENTIFIER_TYPES, "i")
        if spec.name == "python":
            patterns += caps({"assignment"}, "a")
        for t, fld in sorted(spec.calls.items()):
            if known(t) and language.field_id_for_name(fld) is not None:
                patterns.append(f"({t} {fld}: (_) @c)")
        patterns += caps(_BRANCH_TYPES, "b") + caps(_NESTING_TYPES, "n")
    patterns += caps(spec.strings, "s") + caps(spec.comments | spec.imports, "x")
    q = tree_sitter.QueryCursor(tree_sitter.Query(language, "\n".join(patterns)))
    _detail_queries[(spec.name, detail)] = q
    return q


def _first_error_line(root: object) -> int:
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:  # type: ignore[attr-defined]
            return int(node.start_point[0]) + 1  # type: ignore[attr-defined]
        if node.has_error:  # type: ignore[attr-defined]
            stack.extend(reversed(node.children))  # type: ignore[attr-defined]
    return 1


class _Walker:
    """One query over the tree, swept in source order (`_sweep`): definitions, imports, members,
    and with detail the calls, identifiers and complexity; the protected strings."""

    def __init__(self, spec: LanguageSpec, src: bytes, pf: ParsedFile, detail: bool = True) -> None:
        self.spec = spec
        self.src = src
        self.pf = pf
        self.detail = detail
        self._comment_marks = (b"#",) if spec.name == "python" else (b"//", b"/*")

    def run(self, root: object) -> None:
        self._sweep(root)
        defs = self.pf.definitions
        defs_sorted = sorted(range(len(defs)), key=lambda i: defs[i].start)
        if defs_sorted != list(range(len(defs))):
            remap = {old: new for new, old in enumerate(defs_sorted)}
            new_defs = [defs[i] for i in defs_sorted]
            for d in new_defs:
                if d.parent is not None:
                    d.parent = remap[d.parent]
            self.pf.definitions = new_defs

    def _sweep(self, root: Any) -> None:
        """Everything from one tree-sitter query (C speed) instead of a Python walk over every
        node: definitions, imports, members, aliases, identifiers, callees, branches, nesting nodes
        and strings are captured, then swept in source order with a stack of the open definitions,
        nesting nodes and excluded spans (strings, comments, imports: the per-node walk this
        replaces never entered them), so each capture goes to its innermost definition."""
        spec = self.spec
        captures = _detail_query(spec, self.detail).captures(root)
        # (start, -end, order, kind, node): the enclosing node first; at one node, member before
        # definition (a TypeScript field is both), intervals before the points they hold
        order = {"m": 0, "d": 1, "x": 2, "s": 2, "n": 2, "i": 3, "c": 3, "b": 3, "a": 3}
        items: list[tuple[int, int, int, str, Any]] = []
        idents = captures.pop("i", [])  # most captures: given their owner by bisection afterwards
        for name, nodes in captures.items():
            o = order[name]
            items.extend((n.start_byte, -n.end_byte, o, name, n) for n in nodes)
        items.sort(key=_SWEEP_ORDER)
        defs = self.pf.definitions
        protected = self.pf.protected
        definitions = spec.definitions
        # open intervals: (end, owner definition, nesting depth inside it, excluded)
        stack: list[tuple[int, int | None, int, bool]] = [(1 << 62, None, 0, False)]
        # segments of the source with one owner and exclusion: (start byte, owner, excluded)
        seg_at: list[int] = [0]
        seg_of: list[tuple[int | None, bool]] = [(None, False)]
        for start, neg_end, _o, kind, node in items:
            while stack[-1][0] <= start:
                end = stack.pop()[0]
                seg_at.append(end)
                seg_of.append((stack[-1][1], stack[-1][3]))
            _e, owner, nest, excluded = stack[-1]
            if excluded:
                continue
            if kind == "c":
                if owner is not None:
                    words = _WORD.findall(node.text.decode("utf-8", "replace"))
                    if words:
                        defs[owner].calls.add(words[-1])
            elif kind == "b":
                if owner is not None:
                    defs[owner].complexity += 1
            elif kind == "n":
                if owner is not None:
                    d = defs[owner]
                    d.max_nesting = max(d.max_nesting, nest + 1)
                    stack.append((-neg_end, owner, nest + 1, False))
                else:
                    stack.append((-neg_end, None, 0, False))
            elif kind == "d":
                idx = self._definition(node, definitions[node.type], owner)
                if idx is not None:
                    stack.append((-neg_end, idx, 0, False))
                    seg_at.append(start)
                    seg_of.append((idx, False))
            elif kind == "m":
                self._member(node, node.type, owner)
            elif kind == "a":
                if owner is None:
                    self._alias(node)
            else:  # a string, comment or import: nothing inside it counts
                if kind == "s":
                    s_line, e_line = node.start_point[0], node.end_point[0]
                    if e_line > s_line:
                        protected.append((int(s_line), int(e_line)))
                elif node.type in spec.imports:
                    self._import(node)
                stack.append((-neg_end, owner, nest, True))
                seg_at.append(start)
                seg_of.append((owner, True))
        while len(stack) > 1:
            seg_at.append(stack.pop()[0])
            seg_of.append((stack[-1][1], stack[-1][3]))
        file_ids = self.pf.identifiers
        for node in idents:
            # the last segment starting at or before the identifier (an interval opening at its
            # very byte holds it: a definition opens at its name in `const f = ...`)
            owner, excluded = seg_of[bisect.bisect_right(seg_at, node.start_byte) - 1]
            if excluded:
                continue
            name = node.text.decode("utf-8", "replace")
            file_ids[name] += 1
            if owner is not None:
                defs[owner].identifiers[name] += 1

    # -- pieces ---------------------------------------------------------------------------------

    def _definition(self, node: object, kind: str, owner: int | None) -> int | None:
        head = node  # where the header text starts
        if node.type == "variable_declarator":  # type: ignore[attr-defined]
            value = node.child_by_field_name("value")  # type: ignore[attr-defined]
            if value is None or value.type not in _FUNCTION_VALUES:
                return None
            decl = node.parent  # type: ignore[attr-defined]
            if decl is None or len(decl.named_children) != 1:  # `const a = 1, f = () => 0`: keep it simple
                return None
            head = decl.parent if decl.parent is not None and decl.parent.type == "export_statement" else decl
            return self._add(
                node,
                head,
                kind,
                owner,
                node.child_by_field_name("name"),  # type: ignore[attr-defined]
                value.child_by_field_name("body"),
            )
        if node.type == "pair":  # type: ignore[attr-defined]
            value = node.child_by_field_name("value")  # type: ignore[attr-defined]
            if value is None or value.type not in _FUNCTION_VALUES:
                return None
            key = node.child_by_field_name("key")  # type: ignore[attr-defined]
            if key is None or key.type not in ("property_identifier", "string", "identifier"):
                return None
            return self._add(node, node, kind, owner, key, value.child_by_field_name("body"))
        if node.type in ("field_definition", "public_field_definition"):  # type: ignore[attr-defined]
            value = node.child_by_field_name("value")  # type: ignore[attr-defined]
            if value is None or value.type not in _FUNCTION_VALUES:
                return None
            name = node.child_by_field_name("name") or node.child_by_field_name("property")  # type: ignore[attr-defined]
            return self._add(node, node, kind, owner, name, value.child_by_field_name("body"))
        name_node = node.child_by_field_name("name")  # type: ignore[attr-defined]
        if name_node is None and node.type == "impl_item":  # type: ignore[attr-defined]
            name_node = node.child_by_field_name("type")  # type: ignore[attr-defined]
        if name_node is None and node.type == "type_declaration":  # type: ignore[attr-defined]
            spec_node = next((c for c in node.named_children if c.type.endswith("spec")), None)  # type: ignore[attr-defined]
            name_node = spec_node.child_by_field_name("name") if spec_node is not None else None
        if name_node is None:
            return None
        body = node.child_by_field_name("body")  # type: ignore[attr-defined]
        return self._add(node, head, kind, owner, name_node, None if kind == "type" else body)

    def _add(
        self, node: object, head: object, kind: str, owner: int | None, name_node: object, body: object
    ) -> int | None:
        if name_node is None:
            return None
        name = name_node.text.decode("utf-8", "replace")  # type: ignore[attr-defined]
        if body is None:
            body_start = node.end_byte  # type: ignore[attr-defined]
        else:
            body_start = body.start_byte  # type: ignore[attr-defined]  # tree-sitter nodes are passed as object here
        start = head.start_byte  # type: ignore[attr-defined]
        decorators: list[str] = []
        parent_node = node.parent  # type: ignore[attr-defined]
        if parent_node is not None and parent_node.type == "decorated_definition":
            start = parent_node.start_byte
            decorators = [self._one_line(c, c.end_byte) for c in parent_node.children if c.type == "decorator"]
        elif parent_node is not None and parent_node.type == "class_body":
            prev = node.prev_named_sibling  # type: ignore[attr-defined]
            while prev is not None and prev.type == "decorator":
                decorators.insert(0, self._one_line(prev, prev.end_byte))
                start = prev.start_byte
                prev = prev.prev_named_sibling
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
            end=max(node.end_byte, head.end_byte),  # type: ignore[attr-defined]
            header=header,
            body_start=body_start,
            start_line=int(node.start_point[0]),  # type: ignore[attr-defined]
            end_line=int(node.end_point[0]),  # type: ignore[attr-defined]
            decorators=decorators,
            parent=owner,
        )
        if self.spec.docstrings and body is not None:
            first = next((c for c in body.named_children if c.type not in self.spec.comments), None)  # type: ignore[attr-defined]  # tree-sitter nodes are passed as object here
            if first is not None and first.type == "expression_statement" and first.named_child_count == 1:
                s = first.named_children[0]
                if s.type == "string":
                    raw = _STRING_QUOTES.sub("", s.text.decode("utf-8", "replace"))
                    lines = [ln.strip() for ln in raw.strip().splitlines() if ln.strip()]
                    d.doc = lines[0] if lines else ""
                    d.doc_span = (first.start_byte, first.end_byte)
        defs.append(d)
        return len(defs) - 1

    def _member(self, node: Any, t: str, owner: int | None) -> None:
        """Record `node` as a `Member` when it declares a constant, type alias, attribute or macro
        at module level or in a class/impl/trait/mod body (never a local inside a function)."""
        defs = self.pf.definitions
        if owner is not None and defs[owner].kind == "function":
            return
        depth = 0 if owner is None else defs[owner].depth + 1
        lang = self.spec.name
        parent = node.parent
        ptype = parent.type if parent is not None else ""
        if lang == "python":
            in_class = ptype == "block" and parent.parent is not None and parent.parent.type == "class_definition"
            if ptype != "module" and not in_class:
                return
            if t == "type_alias_statement":
                self._add_member(node, node.child_by_field_name("left"), None, depth)
                return
            if t != "expression_statement" or node.named_child_count != 1:
                return
            a = node.named_children[0]
            if a.type != "assignment":
                return
            left = a.child_by_field_name("left")
            if left is None or left.type not in ("identifier", "pattern_list"):
                return
            right = a.child_by_field_name("right")
            while right is not None and right.type == "assignment":  # `a = b = value`: every name
                right = right.child_by_field_name("right")
            annotation = a.child_by_field_name("type")
            typing = (annotation is not None and b"TypeAlias" in annotation.text) or (
                right is not None and right.type == "call" and _PY_TYPE_FACTORY.search(right.text[:40]) is not None
            )
            self._add_member(a, left, right, depth, limit=PY_TYPE_VALUE if typing else PY_SHORT_VALUE)
        elif lang in ("javascript", "typescript", "tsx"):
            if t in ("public_field_definition", "field_definition"):
                value = node.child_by_field_name("value")
                if value is not None and value.type in _FUNCTION_VALUES:
                    return
                name = node.child_by_field_name("name") or node.child_by_field_name("property")
                self._add_member(node, name, value, depth)
                return
            if t not in ("lexical_declaration", "variable_declaration"):
                return
            top = parent.parent if ptype == "export_statement" and parent.parent is not None else parent
            if top is None or top.type != "program":
                return
            head = parent if ptype == "export_statement" else node
            for decl in node.named_children:
                if decl.type != "variable_declarator":
                    continue
                value = decl.child_by_field_name("value")
                if value is not None and value.type in _FUNCTION_VALUES:
                    continue  # a definition
                self._add_member(decl, decl.child_by_field_name("name"), value, depth, prefix_from=head)
        elif lang == "rust":
            if t == "macro_definition":
                name = node.child_by_field_name("name")
                if name is not None:
                    text = "macro_rules! " + name.text.decode("utf-8", "replace")
                    self.pf.members.append(Member(name.text.decode("utf-8", "replace"), text, node.start_byte, depth))
            elif t == "associated_type":  # `type Output: Clone;` in a trait
                self._add_member(node, node.child_by_field_name("name"), None, depth)
            elif t in ("const_item", "static_item"):
                self._add_member(node, node.child_by_field_name("name"), node.child_by_field_name("value"), depth)
        elif lang == "go" and t in ("const_declaration", "var_declaration") and ptype == "source_file":
            keyword = "const" if t == "const_declaration" else "var"
            specs: list[Any] = []
            for child in node.named_children:  # `var ( ... )` holds its specs in a var_spec_list
                specs.extend(child.named_children if child.type == "var_spec_list" else [child])
            for spec_node in specs:
                if spec_node.type not in ("const_spec", "var_spec"):
                    continue
                names = spec_node.children_by_field_name("name")
                if names:
                    value = spec_node.child_by_field_name("value")
                    self._add_member(spec_node, names[0], value, depth, keyword=keyword)

    def _add_member(
        self,
        node: Any,
        name_node: Any,
        value: Any,
        depth: int,
        *,
        prefix_from: Any = None,
        keyword: str = "",
        limit: int = SHORT_VALUE,
    ) -> None:
        if name_node is None:
            return
        start = prefix_from.start_byte if prefix_from is not None else node.start_byte
        if value is None:
            text = self._one_line_bytes(start, node.end_byte)
        else:
            head = self._one_line_bytes(start, value.start_byte).rstrip()
            shown = self._one_line(value, value.end_byte)
            if len(shown) > limit or "\n" in shown:
                shown = ""  # the name (and annotation) alone: `NAME: T` declares it
            text = (
                f"{head} {shown}"
                if shown
                else (head + " ..." if self.spec.name in ("python", "go") else head.rstrip("=").rstrip())
            )
            if node.end_byte > value.end_byte:  # `;` after the value (Rust)
                text += self.src[value.end_byte : node.end_byte].decode("utf-8", "replace").strip()
        if keyword:
            text = f"{keyword} {text}"
        name = name_node.text.decode("utf-8", "replace")
        self.pf.members.append(Member(name, text.strip(), start, depth))

    def _one_line_bytes(self, start: int, stop: int) -> str:
        raw = self.src[start:stop].decode("utf-8", "replace")
        if "\n" not in raw:
            return raw.strip()
        return _TIGHT.sub("", " ".join(ln.strip() for ln in raw.splitlines() if ln.strip()))

    def _alias(self, node: object) -> None:
        """Module-level `name = other` or `name = factory(f, g)`: a call to `name` reaches them."""
        left = node.child_by_field_name("left")  # type: ignore[attr-defined]
        right = node.child_by_field_name("right")  # type: ignore[attr-defined]
        if left is None or right is None or left.type != "identifier":
            return
        if right.type == "identifier":
            targets = {right.text.decode("utf-8", "replace")}
        elif right.type == "call":
            fn = right.child_by_field_name("function")
            args = right.child_by_field_name("arguments")
            targets = set(_WORD.findall(fn.text.decode("utf-8", "replace"))[-1:]) if fn is not None else set()
            if args is not None:
                targets |= {a.text.decode("utf-8", "replace") for a in args.named_children if a.type == "identifier"}
        else:
            return
        if targets:
            self.pf.aliases[left.text.decode("utf-8", "replace")] = targets

    def _import(self, node: object) -> None:
        text = self._one_line(node, node.end_byte)  # type: ignore[attr-defined]
        targets: list[str] = []
        lang = self.spec.name
        if lang == "python":
            targets = _python_import_targets(node)
        elif lang in ("javascript", "typescript", "tsx"):
            source = node.child_by_field_name("source")  # type: ignore[attr-defined]
            if source is not None:
                targets = [source.text.decode("utf-8", "replace").strip("'\"`")]
        elif lang == "go":
            targets = [m.strip('"`') for m in re.findall(r'"[^"]+"|`[^`]+`', text)]
        elif lang == "rust":
            body = re.sub(r"^(pub(\([^)]*\))?\s+)?(use|extern crate)\s+", "", text).rstrip(";")
            targets = [body.split("{")[0].rstrip(":").replace("::", ".")]
        elif lang == "java":
            body = re.sub(r"^(import|package)\s+(static\s+)?", "", text).rstrip(";").strip()
            targets = [body.removesuffix(".*")]
        self.pf.imports.append(Import(text, int(node.start_point[0]), [t for t in targets if t]))  # type: ignore[attr-defined]

    def _one_line(self, node: object, stop: int) -> str:
        """The text of `node` up to byte `stop`, comments removed, each line break (with its
        indentation) turned into one space; the inside of strings is kept byte for byte."""
        src = self.src
        raw = src[node.start_byte : stop].rstrip()  # type: ignore[attr-defined]
        if not any(m in raw for m in self._comment_marks):
            if b"\n" not in raw and b"\r" not in raw:
                return raw.decode("utf-8", "replace").strip()  # the common case: already one clean line
            if not _KEEP_BYTES.search(raw):  # no string, no line continuation: join the lines
                joined = " ".join(ln.strip() for ln in raw.decode("utf-8", "replace").splitlines() if ln.strip())
                return _TIGHT.sub("", joined)
        pieces: list[str] = []
        last_end: int | None = None
        stack = [node]
        strings = self.spec.strings
        comments = self.spec.comments
        while stack:
            n = stack.pop()
            if n.start_byte >= stop:  # type: ignore[attr-defined]
                continue
            t = n.type  # type: ignore[attr-defined]
            if t in comments:
                continue
            kids = n.children  # type: ignore[attr-defined]
            if kids and t not in strings and n.end_byte > n.start_byte:  # type: ignore[attr-defined]
                stack.extend(reversed(kids))
                continue
            s, e = n.start_byte, min(n.end_byte, stop)  # type: ignore[attr-defined]
            if e <= s:
                continue
            if last_end is not None:
                gap = src[last_end:s]
                if b"\n" in gap or b"\r" in gap:
                    # a line break: one space, none inside brackets (`f(\n    a,\n)` -> `f(a,)`);
                    # words in a gap are text no node holds (TypeScript variance words blanked
                    # for the parse: `<\n /** c */\n out T>` keeps its `out`)
                    words = [w for w in _GAP_COMMENTS.sub(b" ", gap).split() if w != b"\\"]
                    tight = src[last_end - 1 : last_end] in b"([{" or src[s : s + 1] in b")]}"
                    if words:
                        pieces.append(
                            ("" if src[last_end - 1 : last_end] in b"([{<" else " ")
                            + " ".join(w.decode("utf-8", "replace") for w in words)
                            + " "
                        )
                    else:
                        pieces.append("" if tight else " ")
                else:
                    pieces.append(gap.decode("utf-8", "replace"))
            pieces.append(src[s:e].decode("utf-8", "replace"))
            last_end = e
        return "".join(pieces).strip()


def _python_import_targets(node: object) -> list[str]:
    t = node.type  # type: ignore[attr-defined]
    if t == "future_import_statement":
        return []
    if t == "import_statement":
        out = []
        for c in node.named_children:  # type: ignore[attr-defined]
            n = c.child_by_field_name("name") if c.type == "aliased_import" else c
            if n is not None:
                out.append(n.text.decode("utf-8", "replace"))
        return out
    module = node.child_by_field_name("module_name")  # type: ignore[attr-defined]
    base = module.text.decode("utf-8", "replace") if module is not None else ""
    out = [base] if base.strip(".") else []
    for c in node.children_by_field_name("name"):  # type: ignore[attr-defined]
        n = c.child_by_field_name("name") if c.type == "aliased_import" else c
        if n is None:
            continue
        name = n.text.decode("utf-8", "replace")
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
