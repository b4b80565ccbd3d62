"""A file that fails to parse degrades to a lexical outline (numbered import and definition lines),
never to its full text when the budget is tight."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from lorekeeper.context import tokens
from lorekeeper.context.outline import lexical_outline, outline_lines
from lorekeeper.context.pack import pack
from lorekeeper.context.parse import parse_file
from lorekeeper.context.render import render

BROKEN_PY = textwrap.dedent(
    '''
    """Billing rules."""
    import decimal
    from .models import Invoice


    class Ledger:
        def post(self, invoice: Invoice) -> None:
            total = decimal.Decimal(0)
            for line in invoice.lines:
                total += line.amount * line.quantity
            self.entries.append((invoice.number, total))

        async def reconcile(self, other: "Ledger") -> list[str]:
            return [e for e in self.entries if e not in other.entries]


    def refund(invoice: Invoice, reason: str = "") -> Invoice:
        if not reason:
            raise ValueError("a refund needs a reason")
        return invoice.negate(reason)


    def broken(x:
        return x +
    '''
).lstrip()

BROKEN_TS = textwrap.dedent(
    """
    import { z } from "zod";
    export interface Shape { width: number; height: number }
    export type Area = (s: Shape) => number;
    export const area: Area = (s) => s.width * s.height;
    export class Canvas<T> {
      private shapes: T[] = [];
      add(shape: T): void {
        this.shapes.push(shape);
      }
      static empty(): Canvas<never> {
        return new Canvas();
      }
    }
    export function draw(c: Canvas<Shape>) {
      if (c) { return ))) }
    }
    export enum Color { Red, Green }
    """
).lstrip()

BROKEN_RS = textwrap.dedent(
    """
    use std::fmt;
    pub const LIMIT: usize = 8;
    macro_rules! square { ($x:expr) => { $x * $x }; }
    pub struct Point { x: i32, y: i32 }
    impl fmt::Display for Point {
        fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { write!(f, "{}", self.x) }
    }
    pub(crate) async fn fetch(url: &str) -> Result<(), ()> {
        let x = ;;; {
    }
    pub trait Shape { fn area(&self) -> f64; }
    """
).lstrip()

BROKEN_GO = textwrap.dedent(
    """
    package shapes

    import "fmt"

    const Limit = 8

    type Shape interface {
    \tArea() float64
    }

    func (p Point) String() string {
    \treturn fmt.Sprintf("%d", p.x
    }

    func Draw(s Shape) {}
    """
).lstrip()


def _numbered(text: str) -> dict[int, str]:
    return {i + 1: line.rstrip() for i, line in enumerate(text.splitlines())}


def test_outline_lines_per_language_carry_their_line_numbers() -> None:
    cases = {
        ("python", BROKEN_PY): [
            "import decimal",
            "from .models import Invoice",
            "class Ledger:",
            "def post(",
            "async def reconcile(",
            "def refund(",
            "def broken(x:",
        ],
        ("typescript", BROKEN_TS): [
            'import { z } from "zod";',
            "export interface Shape",
            "export type Area",
            "export const area: Area = (s) =>",
            "export class Canvas<T>",
            "add(shape: T): void {",
            "static empty(): Canvas<never> {",
            "export function draw(",
            "export enum Color",
        ],
        ("rust", BROKEN_RS): [
            "use std::fmt;",
            "pub const LIMIT",
            "macro_rules! square",
            "pub struct Point",
            "impl fmt::Display for Point",
            "fn fmt(",
            "pub(crate) async fn fetch(",
            "pub trait Shape",
        ],
        ("go", BROKEN_GO): [
            'import "fmt"',
            "const Limit",
            "type Shape interface",
            "func (p Point) String()",
            "func Draw(",
        ],
    }
    for (language, text), expected in cases.items():
        pf = parse_file({"python": "m.py", "typescript": "m.ts", "rust": "m.rs", "go": "m.go"}[language], text)
        assert not pf.parsed, language  # each sample really fails to parse
        lines = outline_lines(text, language)
        source = _numbered(text)
        for n, line in lines:
            assert source[n].startswith(line.removesuffix(" ...")), (language, n, line)  # the right number
        shown = "\n".join(line for _, line in lines)
        for piece in expected:
            assert piece in shown, (language, piece)
        # bodies are not in the outline
        assert "total +=" not in shown and "this.shapes.push" not in shown and "let x" not in shown


def test_a_broken_file_renders_as_an_outline_in_map_and_signatures() -> None:
    pf = parse_file("billing.py", BROKEN_PY)
    assert pf.error_line is not None
    for mode in ("map", "signatures"):
        r = render(pf, mode)
        assert r.mode == "signatures"
        assert f"fallback: parse error at line {pf.error_line}; lexical outline" in r.header
        assert "6: class Ledger:" in r.body and "7:     def post(self, invoice: Invoice) -> None:" in r.body
        assert "total +=" not in r.body
        assert r.body_tokens < 0.6 * tokens.count(BROKEN_PY)
    full = render(pf, "full")
    assert full.mode == "full" and "total += line.amount" in full.body  # full stays whole
    assert lexical_outline("anything", "markdown") == ""  # no patterns: nothing invented


def test_a_tight_budget_sends_the_outline_of_a_broken_file_not_its_text(tmp_path: Path) -> None:
    root = tmp_path / "tree"
    root.mkdir()
    # a large broken file and a few healthy ones: the broken file must not be sent whole
    big = BROKEN_PY + "\n".join(
        f"\n\ndef rule_{k}(invoice: Invoice) -> int:\n"
        + "".join(f"    step_{j} = invoice.total * {j}\n" for j in range(12))
        for k in range(40)
    )
    (root / "billing.py").write_text(big, encoding="utf-8")
    for name in ("tax", "ship", "notify"):
        (root / f"{name}.py").write_text(
            f'def {name}(order):\n    """Handle {name}."""\n    return order.{name}()\n', encoding="utf-8"
        )
    full_cost = tokens.count(big)
    budget = full_cost // 3
    for task in (None, "refund an invoice without a reason"):
        result = pack(root, task=task, budget=budget)
        assert result.output_tokens <= budget
        entry = next(e for e in result.entries if e.rel == "billing.py")
        section = result.sections.get("billing.py", "")
        assert entry.mode != "full"
        assert entry.mode == "signatures" and "lexical outline" in section.splitlines()[0]
        assert "def rule_39(invoice: Invoice) -> int:" in section and "def broken(x:" in section
        assert "step_3 = invoice.total" not in section


def test_the_outline_of_a_broken_python_file_keeps_its_module_constants() -> None:
    text = textwrap.dedent(
        """
        import decimal
        MAX_LINES = 100
        Amount: TypeAlias = decimal.Decimal
        first = second = 0
        def total(lines: list[Amount]) -> Amount:
            running = 0
            if running == 0:
                return running +
        """
    ).lstrip()
    assert not parse_file("m.py", text).parsed
    shown = [line for _, line in outline_lines(text, "python")]
    assert shown == [
        "import decimal",
        "MAX_LINES = 100",
        "Amount: TypeAlias = decimal.Decimal",
        "first = second = 0",
        "def total(lines: list[Amount]) -> Amount:",
    ]  # never a local (`running = 0`) nor a comparison


CORPUS = Path(__file__).parent / "data" / "unparsable"


@pytest.mark.parametrize("name", sorted(p.name for p in CORPUS.iterdir()))
def test_a_file_that_fails_to_parse_keeps_its_names(name: str) -> None:
    """One broken file per language: the outline keeps every name its first line lists, the
    parameters of a multi-line signature and TypeScript interface members included."""
    text = (CORPUS / name).read_text(encoding="utf-8")
    pf = parse_file(name.removesuffix(".txt"), text)  # stored as .txt: linters would reject them
    assert not pf.parsed, name  # it really fails, tolerant re-parse included
    body = render(pf, "signatures").body
    expected = text.splitlines()[0].split("names:", 1)[1].split()
    assert not [n for n in expected if not re.search(rf"(?<![\w$]){re.escape(n)}(?![\w$])", body)], body
