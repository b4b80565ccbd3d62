"""The LEARNINGS block: newest first, 2,000 characters at most (header and newlines included)."""

from __future__ import annotations

from lorekeeper.learnings.block import BUDGET, HEADER, learnings_block


def rule_of(n: int, ch: str = "x") -> str:
    return ch * n


def test_header_is_the_seeds():
    assert HEADER == "LEARNINGS (past corrections \u2014 follow these rules):"
    assert BUDGET == 2000


def test_newest_first_and_formatted_as_dash_lines():
    b = learnings_block(
        [(3, "Avoid sudo in deployment scripts"), (1, "Always use t-call for translations in Odoo QWeb")]
    )
    assert b.text == (
        "LEARNINGS (past corrections \u2014 follow these rules):\n"
        "- Avoid sudo in deployment scripts\n"
        "- Always use t-call for translations in Odoo QWeb"
    )
    assert b.used == (3, 1) and b.dropped == 0


def test_a_block_of_exactly_2000_characters_is_kept_whole():
    # header + "\n- " + rule == 2000
    n = BUDGET - len(HEADER) - 3
    b = learnings_block([(1, rule_of(n))])
    assert len(b.text) == 2000 and b.used == (1,)


def test_one_character_more_drops_the_rule():
    n = BUDGET - len(HEADER) - 3 + 1
    b = learnings_block([(1, rule_of(n))])
    assert b.text == "" and b.used == () and b.dropped == 1


def test_a_rule_longer_than_the_budget_stops_the_block_even_if_older_ones_would_fit():
    b = learnings_block([(5, "short new rule"), (4, rule_of(3000)), (3, "short old rule")])
    assert b.used == (5,) and b.dropped == 2
    assert "short old rule" not in b.text


def test_many_rules_fill_up_to_the_budget_and_drop_the_oldest():
    rules = [(i, f"rule number {i:03d} " + "y" * 80) for i in range(100, 0, -1)]  # newest (100) first
    b = learnings_block(rules)
    assert len(b.text) <= 2000
    assert b.used[0] == 100 and list(b.used) == list(range(100, 100 - len(b.used), -1))
    next_line = "\n- " + rules[len(b.used)][1]
    assert len(b.text) + len(next_line) > 2000  # the next one really did not fit


def test_no_rules_no_block():
    assert learnings_block([]).text == ""
