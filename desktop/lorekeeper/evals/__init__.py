"""Binary eval engine: declarative, deterministic rules checked against every answer."""

from lorekeeper.evals.engine import EvalReport, RuleResult, evaluate
from lorekeeper.evals.footnote import footnote
from lorekeeper.evals.rules import RULE_TYPES, Rule, RuleSet, load_rules_file, parse_rules

__all__ = [
    "RULE_TYPES",
    "EvalReport",
    "Rule",
    "RuleResult",
    "RuleSet",
    "evaluate",
    "footnote",
    "load_rules_file",
    "parse_rules",
]
