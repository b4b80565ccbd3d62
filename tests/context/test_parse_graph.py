"""tree-sitter parsing and the import graph, for every language the engine claims."""

from __future__ import annotations

from pathlib import Path

from lorekeeper.context.graph import build_import_graph, relevance
from lorekeeper.context.intent import classify
from lorekeeper.context.parse import parse_file, words_of
from lorekeeper.context.scan import scan


def _files(root: Path):
    sources, _ = scan(root)
    return [parse_file(s.rel, s.text) for s in sources]


def test_imports_resolve_across_languages(sample_tree: Path) -> None:
    files = _files(sample_tree)
    idx = {f.rel: i for i, f in enumerate(files)}
    g = build_import_graph(files)
    edges = {(files[a].rel, files[b].rel) for a, b in g.edges}
    assert ("app/auth.py", "app/session.py") in edges  # python relative import
    assert ("tests/test_auth.py", "app/auth.py") in edges  # python absolute import
    assert ("web/main.ts", "web/util.ts") in edges  # typescript relative import
    assert ("src/lib.rs", "src/entropy.rs") in edges  # rust use crate::
    assert ("go/cmd/main.go", "go/store/store.go") in edges  # go package path
    assert ("java/com/acme/App.java", "java/com/acme/util/Strings.java") in edges  # java import
    assert g.number_of_nodes() == len(idx)


def test_multiline_signature_is_one_line_without_comments(sample_tree: Path) -> None:
    pf = parse_file("auth.py", (sample_tree / "app/auth.py").read_text())
    login = next(d for d in pf.definitions if d.name == "login")
    assert login.qualname == "Authenticator.login"
    assert login.depth == 1
    assert "#" not in login.header and "\n" not in login.header
    assert login.header == "def login(self, user: str, password: str, *, remember: bool = False,) -> Session:"
    validate = next(d for d in pf.definitions if d.name == "validate_token")
    assert validate.doc == "Check a token's signature against the secret."
    assert "_digest" in validate.calls


def test_strings_in_signatures_keep_their_spaces(sample_tree: Path) -> None:
    pf = parse_file("db.py", (sample_tree / "app/db.py").read_text())
    connect = next(d for d in pf.definitions if d.name == "connect")
    assert connect.header == 'def connect(path: str = ":memory:", sep: str = SEP) -> sqlite3.Connection:'
    assert pf.protected  # the multi-line SQL string is protected from rewrites


def test_definitions_of_other_languages(sample_tree: Path) -> None:
    names = {f.rel: {d.name for d in f.definitions} for f in _files(sample_tree)}
    assert names["web/main.ts"] == {"Greeter", "greet"}
    assert names["src/entropy.rs"] == {"shannon"}
    assert names["go/store/store.go"] == {"Open"}
    assert names["java/com/acme/util/Strings.java"] == {"Strings", "upper"}


def test_parse_error_is_located(sample_tree: Path) -> None:
    pf = parse_file("broken.py", (sample_tree / "app/broken.py").read_text())
    assert pf.error_line == 4


def test_identifier_words() -> None:
    assert words_of("parseHTTPHeader_v2") == ["parse", "http", "header", "v", "2"]
    assert words_of("hide_input") == ["hide", "input"]


def test_heat_reaches_files_that_share_no_word_with_the_task(sample_tree: Path) -> None:
    files = _files(sample_tree)
    rel = relevance(files, classify("fix the token validation"))
    score = {f.rel: rel.files[i] for i, f in enumerate(files)}
    assert max(score, key=score.get) == "app/auth.py"
    # session.py is imported by auth.py: heat diffusion ranks it above unrelated files
    assert score["app/session.py"] > score["web/util.ts"]
    assert score["app/session.py"] > score["go/store/store.go"]
    # the call graph: validate_token calls _digest, which shares no word with the task
    defs = {(files[f].definitions[d].qualname): v for (f, d), v in rel.definitions.items()}
    assert defs["validate_token"] == 1.0
    assert defs.get("_digest", 0) > 0


def test_communities_are_deterministic(click_tree: Path) -> None:
    files = _files(click_tree)
    a = relevance(files, classify(None)).community
    b = relevance(files, classify(None)).community
    assert a == b and max(a) >= 1


def test_arrow_functions_assigned_to_constants_are_definitions(tmp_path: Path) -> None:
    src = (
        "export const add = (a: number, b: number): number => a + b;\n"
        "const mul = function (a, b) { return a * b; };\n"
        "const LIMIT = 3;\n"
    )
    pf = parse_file("m.ts", src)
    assert [(d.name, d.header) for d in pf.definitions] == [
        ("add", "export const add = (a: number, b: number): number =>"),
        ("mul", "const mul = function (a, b)"),
    ]


def test_typescript_type_aliases_and_function_fields() -> None:
    src = (
        "export type Handler = (e: Event) => void;\n"
        "class Btn {\n  private count = 0;\n  onClick = (e: Event): void => { this.count++; };\n"
        "  render(): string { return 'x'; }\n}\n"
    )
    pf = parse_file("btn.ts", src)
    assert [(d.qualname, d.kind) for d in pf.definitions] == [
        ("Handler", "type"),
        ("Btn", "class"),
        ("Btn.onClick", "function"),
        ("Btn.render", "function"),
    ]
    assert pf.definitions[2].header == "onClick = (e: Event): void =>"
