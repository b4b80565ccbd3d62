"""Source languages the engine understands, and their tree-sitter grammars.

Each grammar comes from its own PyPI wheel (tree-sitter-python, tree-sitter-javascript, ...), which
works offline. A `LanguageSpec` names, for one language, the node types that hold definitions,
imports, calls and comments, so the parser and the renderers stay generic.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import PurePath
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported on first use: the CLI starts without tree-sitter
    from tree_sitter import Parser


@dataclass(frozen=True)
class LanguageSpec:
    name: str
    extensions: tuple[str, ...]
    grammar: str  # "module:function" returning the tree-sitter language pointer
    # node type -> kind ("function", "class", "type") for definitions whose header we keep
    definitions: dict[str, str] = field(default_factory=dict)
    imports: frozenset[str] = frozenset()
    calls: dict[str, str] = field(default_factory=dict)  # call node type -> field holding the callee
    comments: frozenset[str] = frozenset({"comment"})
    strings: frozenset[str] = frozenset()  # node types whose text must never be rewritten
    docstrings: bool = False  # the first string statement of a body documents it (Python)
    significant_indent: bool = False


_PY = LanguageSpec(
    name="python",
    extensions=(".py", ".pyi"),
    grammar="tree_sitter_python:language",
    definitions={"function_definition": "function", "class_definition": "class"},
    imports=frozenset({"import_statement", "import_from_statement", "future_import_statement"}),
    calls={"call": "function"},
    strings=frozenset({"string", "concatenated_string"}),
    docstrings=True,
    significant_indent=True,
)

_JS_DEFS = {
    "variable_declarator": "function",  # `const f = (a) => ...` / `= function (a) {...}` (others are skipped)
    "pair": "function",  # object literal entry holding a function: `{ parse: (x) => {...} }`
    "field_definition": "function",  # class field holding a function: `handle = (e) => {...}`
    "function_declaration": "function",
    "generator_function_declaration": "function",
    "method_definition": "function",
    "class_declaration": "class",
}
_TS_DEFS = {
    **_JS_DEFS,
    "abstract_class_declaration": "class",
    "public_field_definition": "function",  # TypeScript's class field (kept when it holds a function)
    "type_alias_declaration": "type",
    "interface_declaration": "type",
    "enum_declaration": "type",
    "function_signature": "function",
    "method_signature": "function",
    "abstract_method_signature": "function",
}

_JS = LanguageSpec(
    name="javascript",
    extensions=(".js", ".jsx", ".mjs", ".cjs"),
    grammar="tree_sitter_javascript:language",
    definitions=_JS_DEFS,
    imports=frozenset({"import_statement"}),
    calls={"call_expression": "function", "new_expression": "constructor"},
    strings=frozenset({"string", "template_string"}),
)
_TS = LanguageSpec(
    name="typescript",
    extensions=(".ts", ".mts", ".cts"),
    grammar="tree_sitter_typescript:language_typescript",
    definitions=_TS_DEFS,
    imports=frozenset({"import_statement"}),
    calls={"call_expression": "function", "new_expression": "constructor"},
    strings=frozenset({"string", "template_string"}),
)
_TSX = LanguageSpec(
    name="tsx",
    extensions=(".tsx",),
    grammar="tree_sitter_typescript:language_tsx",
    definitions=_TS_DEFS,
    imports=frozenset({"import_statement"}),
    calls={"call_expression": "function", "new_expression": "constructor"},
    strings=frozenset({"string", "template_string"}),
)
_RUST = LanguageSpec(
    name="rust",
    extensions=(".rs",),
    grammar="tree_sitter_rust:language",
    definitions={
        "function_item": "function",
        "function_signature_item": "function",
        "struct_item": "type",  # the fields are the signature of a struct
        "type_item": "type",  # `type Result<T> = ...;`
        "enum_item": "type",
        "trait_item": "class",
        "impl_item": "class",
        "mod_item": "class",
    },
    imports=frozenset({"use_declaration", "extern_crate_declaration"}),
    calls={"call_expression": "function", "macro_invocation": "macro"},
    comments=frozenset({"line_comment", "block_comment"}),
    strings=frozenset({"string_literal", "raw_string_literal"}),
)
_GO = LanguageSpec(
    name="go",
    extensions=(".go",),
    grammar="tree_sitter_go:language",
    definitions={
        "function_declaration": "function",
        "method_declaration": "function",
        "type_declaration": "type",
    },
    imports=frozenset({"import_declaration"}),
    calls={"call_expression": "function"},
    strings=frozenset({"interpreted_string_literal", "raw_string_literal"}),
)
_JAVA = LanguageSpec(
    name="java",
    extensions=(".java",),
    grammar="tree_sitter_java:language",
    definitions={
        "class_declaration": "class",
        "interface_declaration": "class",
        "enum_declaration": "class",
        "record_declaration": "class",
        "method_declaration": "function",
        "constructor_declaration": "function",
    },
    imports=frozenset({"import_declaration", "package_declaration"}),
    calls={"method_invocation": "name", "object_creation_expression": "type"},
    comments=frozenset({"line_comment", "block_comment"}),
    strings=frozenset({"string_literal"}),  # (this grammar version has no text_block node)
)

LANGUAGES: tuple[LanguageSpec, ...] = (_PY, _JS, _TS, _TSX, _RUST, _GO, _JAVA)
_BY_EXT = {ext: spec for spec in LANGUAGES for ext in spec.extensions}

# Text formats packed as text (full, or their outline where one exists); everything else that is
# not UTF-8 text is skipped and listed as binary.
MARKDOWN_EXTENSIONS = (".md", ".markdown", ".rst")


def spec_for(path: str | PurePath) -> LanguageSpec | None:
    return _BY_EXT.get(PurePath(path).suffix.lower())


@cache
def parser_for(name: str) -> Parser:
    """A tree-sitter parser for the language called `name` (grammar loaded once per process)."""
    import importlib

    import tree_sitter

    spec = next(s for s in LANGUAGES if s.name == name)
    module, func = spec.grammar.split(":")
    lang = tree_sitter.Language(getattr(importlib.import_module(module), func)())
    return tree_sitter.Parser(lang)
