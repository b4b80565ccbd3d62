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
