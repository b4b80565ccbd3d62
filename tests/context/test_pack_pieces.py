"""The pack's pieces on their own (pack_costs, pack_hoist, pack_fit): what `_Packer` composes."""

from __future__ import annotations

import pytest

from lorekeeper.context import tokens
from lorekeeper.context.pack_costs import Costs
from lorekeeper.context.pack_fit import Fitter
from lorekeeper.context.pack_hoist import hoist_imports
from lorekeeper.context.pack_plan import Plan
from lorekeeper.context.parse import parse_file
from lorekeeper.errors import InvalidInputError

BODY = "\n\ndef {name}(x):\n    '''Doc of {name}.'''\n    total = 0\n    for i in range(x):\n        total += i * i\n    return total\n"


def _files():
    head = "import os\nfrom typing import Any\nfrom .sibling import helper\n"
    return [
        parse_file("a/one.py", head + BODY.format(name="alpha") + BODY.format(name="beta")),
        parse_file("a/two.py", head + BODY.format(name="gamma")),
        parse_file("b/three.py", head + BODY.format(name="delta")),
    ]


def test_imports_are_hoisted_once_and_relative_ones_per_folder() -> None:
    files = _files()
    hoisted = hoist_imports(files, {0: "map", 1: "signatures", 2: "map"})
    assert hoisted.shared[""] == {"import os", "from typing import Any"}
    assert hoisted.shared["a"] == {"from .sibling import helper"}  # b/ has it once: it means another module
    assert "b" not in hoisted.shared
    assert hoisted.lines == 2 * 2 + 1  # each shared line printed once instead of in each file
    assert hoisted.tokens == sum(
        n * (tokens.count(line) + 1)
        for line, n in [("import os", 2), ("from typing import Any", 2), ("from .sibling import helper", 1)]
    )
    assert hoist_imports(files, {0: "full", 1: "index", 2: "reference"}).shared == {}  # only compressed files


def test_costs_are_exact_and_bounded_below_by_the_floor() -> None:
    files = _files()
    costs = Costs(files, tokens.count_many([f.text for f in files]), {(0, 0): 1.0, (0, 1): 0.5})
    for mode in ("full", "map", "signatures", "reference"):
        exact = tokens.count(costs.render(0, mode).text)
        assert costs.cost(0, mode) == exact
        assert costs.floor(0, mode) <= exact
        assert costs.estimate(0, mode) == exact  # no bodies: the exact count
    assert costs.estimate(0, "map", [0]) > costs.cost(0, "map")  # a whole body costs more than its header
    costs.shared = {"": {"import os"}}
    assert costs.cost(0, "map") == tokens.count(_render_without(costs, 0))  # cached until forgotten
    costs.forget(0, "map")
    assert costs.cost(0, "map") < tokens.count(_render_without(costs, 0))  # the hoisted line is left out


def _render_without(costs: Costs, i: int) -> str:
    shared, costs.shared = costs.shared, {}
    try:
        return costs.render(i, "map").text
    finally:
        costs.shared = shared


def test_the_fitter_downgrades_until_the_exact_count_fits_or_says_why() -> None:
    files = _files()
    costs = Costs(files, tokens.count_many([f.text for f in files]), {})
    plan = Plan(modes=dict.fromkeys(range(3), "full"))
    fitter = Fitter(files, [0.3, 0.2, 0.1], costs, plan)
    fitter.render_plan()

    def text() -> str:
        return "# header\n" + "\n".join(r.text for r in fitter.rendered.values())

    whole = tokens.count(text())
    got, n, rounds = fitter.fit(text, whole - 20, None)
    assert n == tokens.count(got) <= whole - 20 and rounds >= 1
    assert plan.modes[2] != "full"  # the least relevant file went leaner first
    assert plan.modes[0] == "full"
    with pytest.raises(InvalidInputError, match="larger than the limit of 1 tokens"):
        fitter.fit(text, 1, None)
