"""No name lost: every declared name reaches the signatures and map packs, whatever the syntax."""

from __future__ import annotations

import re
import textwrap

from lorekeeper.context import parse
from lorekeeper.context.render import render

GO = """
    package binding

    var (
        JSON          = jsonBinding{}
        XML, YAML BindingBody = xmlBinding{}, yamlBinding{}
    )

    const (
        MIMEJSON = "application/json"
        modeDebug int = iota
        modeRelease
    )

    const defaultBody = "<html><body>404 page not found, and a value far too long to print</body></html>"

    var _ Binding = (*jsonBinding)(nil)

    func Default(method, contentType string) Binding {
        return JSON
    }
"""
GO_NAMES = {"JSON", "XML", "YAML", "MIMEJSON", "modeDebug", "modeRelease", "defaultBody", "Default"}


def words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z_$][\w$]*", text))


def test_go_grouped_declarations_and_long_values_in_signatures_and_map() -> None:
    pf = parse.parse_file("binding/binding.go", textwrap.dedent(GO))
    assert pf.parsed
    for mode in ("signatures", "map"):
        body = render(pf, mode).body
        assert words(body) >= GO_NAMES, (mode, GO_NAMES - words(body))
        assert "const defaultBody = ..." in body  # a long value: elided, not silently dropped
        assert "var XML, YAML BindingBody = ..." in body


def test_map_keeps_constants_and_fields_beside_their_definitions() -> None:
    src = '''
        """Settings."""
        RETRIES = 3
        TIMEOUT: float = 2.5


        class Config:
            """Holds the settings."""

            name: str = "app"
            debug = False

            def load(self, path):
                """Read a file."""
                return open(path).read()
    '''
    pf = parse.parse_file("config.py", textwrap.dedent(src))
    body = render(pf, "map").body
    assert {"RETRIES", "TIMEOUT", "name", "debug", "load"} <= words(body)
    assert body.index("RETRIES") < body.index("class Config") < body.index("name: str") < body.index("def load")
    whole = render(pf, "map", bodies={1}).body  # load's body printed whole: nothing inside it twice
    assert whole.count("return open(path).read()") == 1


# vue core's own shapes the grammar rejects: an interface member the grammar reads as the previous
# line's continuation (`in2?:` after a line without `;`) and an array of import types
VUE_TS = """
    export interface SVGAttributes {
      hanging?: Numberish | undefined
      in2?: Numberish | undefined
      in?: string | undefined
      intercept?: Numberish | undefined
    }

    export interface SFCScriptBlock extends SFCBlock {
      imports?: Record<string, ImportBinding>
      scriptAst?: import('@babel/types').Statement[]
      warnings?: string[]
    }

    export function parse(
      source: string,
      options: SFCParseOptions = {},
    ): SFCParseResult {
      return cache.get(source)
    }

    export function shouldForceReload(prevImports: Record<string, ImportBinding>): boolean {
      return false
    }
"""


def test_typescript_the_grammar_rejects_is_reparsed_tolerantly() -> None:
    pf = parse.parse_file("packages/compiler-sfc/src/parse.ts", textwrap.dedent(VUE_TS))
    assert pf.parsed  # the tolerant second parse: no fallback outline
    body = render(pf, "signatures").body
    names = {"hanging", "in2", "in", "intercept", "imports", "scriptAst", "warnings", "parse", "shouldForceReload"}
    assert words(body) >= names
    assert "scriptAst?: import('@babel/types').Statement[]" in body  # verbatim, not the blanked copy
    assert "parse(source: string, options: SFCParseOptions = {},): SFCParseResult" in body  # whole, one line


ZOD_TS = """
    export interface $ZodMemoizer {
      alloc<T extends object>(inst: $ZodType, payload: ParsePayload, empty: T): T;
    }

    export interface _$ZodTypeInternals {
      version: typeof version;
      run(payload: ParsePayload<any>, ctx: ParseContextInternal): util.MaybeAsync<ParsePayload>;
      parse(payload: ParsePayload<any>, ctx: ParseContextInternal): util.MaybeAsync<ParsePayload>;
    }

    export class Checker {
      check(value: unknown): boolean {
        const seen = new Set<unknown>();
        for (const item of [value, value, value]) {
          if (seen.has(item)) {
            return false;
          }
          seen.add(item);
        }
        return seen.size > 0 && typeof value !== "undefined" && value !== null;
      }
    }
"""


def test_an_interface_member_is_printed_once() -> None:
    pf = parse.parse_file("v4/core/schemas.ts", textwrap.dedent(ZOD_TS))
    for mode in ("signatures", "map"):
        r = render(pf, mode)
        assert r.mode == mode
        body = r.body
        for name in ("alloc<T", "run(payload", "parse(payload"):
            assert body.count(name) == 1, (mode, name, body)
        assert "check(value: unknown): boolean" in body  # a class's methods still have their own lines
