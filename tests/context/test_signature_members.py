"""Signatures mode keeps what an agent needs to write correct code besides the def headers:
constants, type aliases, decorators, class attributes and enum members (Python); definitions in
call arguments and object literals, variance words (TypeScript); macros, type aliases and
constants (Rust); constants and interfaces (Go)."""

from __future__ import annotations

import re
import textwrap

from lorekeeper.context import parse
from lorekeeper.context.render import render


def signatures(rel: str, text: str) -> str:
    pf = parse.parse_file(rel, textwrap.dedent(text))
    assert pf.parsed
    return render(pf, "signatures").body


def words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z_$][\w$]*", text))


PY = '''
    from dataclasses import dataclass
    from enum import Enum
    import typing as t

    MAX_SIZE = 10
    DEFAULT_NAME: str = "a value far too long to be worth its tokens"
    F = t.TypeVar("F", bound=t.Callable[..., t.Any])
    JSON: t.TypeAlias = dict[str, t.Any]
    type Pair = tuple[int, int]
    first = second = 0

    class Color(Enum):
        RED = 1
        GREEN = 2

    @dataclass(frozen=True)
    class Point:
        """A point."""
        x: int
        y: int = 0
        label: str | None = None

        @property
        def norm(self) -> float:
            local_total = 3
            return 0.0

    if t.TYPE_CHECKING:
        HIDDEN = 1
'''


def test_python_signatures_keep_constants_aliases_decorators_attributes_and_enum_members() -> None:
    out = signatures("m.py", PY)
    lines = out.splitlines()
    # constants with their short value; a long value as `...`; the annotation always
    assert "MAX_SIZE = 10" in out
    assert "DEFAULT_NAME: str = ..." in out and "far too long" not in out
    # type aliases and TypeVars keep their value (it is the type)
    assert 'F = t.TypeVar("F", bound=t.Callable[..., t.Any])' in out
    assert "JSON: t.TypeAlias = dict[str, t.Any]" in out
    assert "type Pair = tuple[int, int]" in out
    assert "first = second = 0" in out
    # enum members and dataclass fields, indented under their class, one line per scope
    assert "\tRED = 1; GREEN = 2" in lines
    assert "\tx: int; y: int = 0; label: str | None = None" in lines
    assert "@dataclass(frozen=True) class Point" in lines
    assert "\t@property def norm(self) -> float" in lines
    # never a local, nor a constant hidden in a module-level block, nor the docstring
    assert not {"local_total", "HIDDEN"} & words(out) and "A point." not in out
    # the lines stay valid Python statements (a list of headers, bodies elided)
    assert lines.index("class Color(Enum)") < lines.index("\tRED = 1; GREEN = 2")


def test_typescript_multiline_header_with_a_comment_keeps_its_variance_words() -> None:
    ts = """
        export interface ZodObject<
          /** @ts-ignore Cast variance */
          out Shape extends Base = Loose,
          // the config
          in out Config extends Cfg = Strip,
        > extends Other<Shape> {
          safeParse(data: unknown): Result<Shape>;
        }
        export type Fn<
          // contravariant
          in T,
        > = (x: T) => void;
    """
    for detail in (False, True):
        pf = parse.parse_file("schemas.ts", textwrap.dedent(ts), detail=detail)
        assert pf.parsed
        headers = {d.name: d.header for d in pf.definitions}
        assert "<out Shape extends Base = Loose, in out Config extends Cfg = Strip, >" in headers["ZodObject"]
        assert "Fn<in T, >" in headers["Fn"]
        assert "ts-ignore" not in headers["ZodObject"] and "contravariant" not in headers["Fn"]


def test_typescript_signatures_keep_definitions_in_call_arguments_and_object_literals() -> None:
    out = signatures(
        "api.test.ts",
        """
        import { z } from "zod";
        export const MAX = 3;
        export enum Color { Red = "red", Green = "green" }
        describe("parse", () => {
          it("works", () => { const double = (x: number) => x * 2; });
        });
        export const api = { get(url: string) { return 1; }, post: async (url: string, body: unknown) => 2 };
        export const store = create((set) => ({ count: 0, inc: () => set((s) => ({ count: s.count + 1 })) }));
        class Box<in out T> { static readonly KIND = "box"; value: T; handle = (e: Event) => {}; }
        """,
    )
    assert {"MAX", "Color", "Red", "Green", "double", "api", "get", "post", "store", "inc", "Box", "KIND"} <= words(out)
    assert "const double = (x: number) =>" in out
    assert "post: async (url: string, body: unknown) =>" in out
    assert "class Box<in out T>" in out
    assert 'static readonly KIND = "box"; value: T' in out


def test_rust_signatures_keep_macros_type_aliases_and_constants() -> None:
    out = signatures(
        "lib.rs",
        """
        macro_rules! square { ($x:expr) => { $x * $x }; }
        pub type Result<T> = std::result::Result<T, Error>;
        pub const MAX_DEPTH: usize = 64;
        static GREETING: &str = "hello";
        pub trait Shape { const SIDES: u32; type Output: Clone; fn area(&self) -> f64; }
        impl Point { pub const ORIGIN: Point = Point { x: 0, y: 0 }; pub fn new(x: i32) -> Self { Point { x } } }
        mod inner { macro_rules! helper { () => {} } }
        fn body() { const LOCAL: u8 = 1; }
        """,
    )
    lines = out.splitlines()
    assert "macro_rules! square" in lines and "\tmacro_rules! helper" in lines
    assert "pub type Result<T> = std::result::Result<T, Error>;" in lines
    assert "pub const MAX_DEPTH: usize = 64;" in out and 'static GREETING: &str = "hello";' in out
    assert "\tconst SIDES: u32; type Output: Clone;" in lines
    assert "\tpub const ORIGIN: Point = Point { x: 0, y: 0 };" in lines
    assert "LOCAL" not in out and "$x * $x" not in out


def test_go_signatures_keep_constants_variables_and_interfaces() -> None:
    out = signatures(
        "m.go",
        """
        package m

        import "errors"

        const MaxDepth = 64

        const (
        \tModeA Mode = iota
        \tModeB
        )

        var ErrClosed = errors.New("closed")

        type Reader interface {
        \tRead(p []byte) (n int, err error)
        }

        func (m Mode) String() string { const local = 1; return "" }
        """,
    )
    assert {"MaxDepth", "ModeA", "ModeB", "ErrClosed", "Reader", "Read", "String"} <= words(out)
    assert "const MaxDepth = 64" in out and "const ModeA Mode = iota" in out
    assert 'var ErrClosed = errors.New("closed")' in out
    assert "type Reader interface {Read(p []byte) (n int, err error)}" in out
    assert "func (m Mode) String() string" in out and "local" not in out
