"""YAML from outside, bounded before it is built (issue 24 d6).

PyYAML's SafeLoader is safe from code execution but not from size: a 1.2 KB "billion laughs"
(anchors whose aliases repeat each other nine times, ten levels down) composes into a small graph
that any walker expanding it (`dict(...)`, a copy, our `_plain`) turns into a billion nodes, and
20,000 nested `[` overflow the composer's recursion. `check` reads the event stream once (the
parser is a state machine, not recursive, so it is safe at any depth) and refuses, naming the line:

- a text over `max_chars` (ERR_INPUT_TOO_LARGE);
- nesting deeper than `max_depth` (ERR_INPUT_TOO_DEEP);
- more than `max_aliases` aliases, or a document whose aliases would expand it past `max_nodes`
  nodes (ERR_INPUT_TOO_COMPLEX): every node's expanded size is counted as the events go by,
  an alias weighing what its anchor's node weighed, so a bomb is stopped at its first layer past
  the bound, long before any expansion.

`compose` and `safe_load` run the check, then PyYAML's own (safe) composer / constructor.
Invalid YAML still raises `yaml.YAMLError`, as PyYAML does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml

from lorekeeper.errors import UnsafeInputError

#: libyaml's parser when PyYAML was built with it (issue 26: importing 10,000 skills spent most of
#: its validation in PyYAML's pure-Python scanner, twice per SKILL.md). `compose` takes it for an
#: ASCII text (marks' indexes are then the same in both) and keeps the pure-Python path for the
#: verdict and message of anything it refuses, so both agree on every input.
_CLoader: Any = getattr(yaml, "CSafeLoader", None)


@dataclass(frozen=True)
class YamlLimits:
    max_chars: int = 1024 * 1024
    max_depth: int = 64
    max_aliases: int = 100
    max_nodes: int = 10_000


DEFAULT_LIMITS = YamlLimits()


def _refuse(msg: str, code: str, what: str | None, line0: int, mark: Any) -> UnsafeInputError:
    line = line0 + mark.line if mark is not None else None
    return UnsafeInputError(msg, code=code, file=what, line=line)


def check(
    text: str, *, limits: YamlLimits = DEFAULT_LIMITS, what: str | None = None, line0: int = 1, loader: Any = None
) -> None:
    """Raise UnsafeInputError when `text` is too large, too deep or expands too much (see the
    module). `what` names the file in the error, `line0` is the file line of the text's first."""
    if len(text) > limits.max_chars:
        raise UnsafeInputError(
            f"YAML is {len(text):,} characters; the limit is {limits.max_chars:,}",
            code="ERR_INPUT_TOO_LARGE",
            file=what,
        )
    weights: dict[str, int] = {}  # anchor -> expanded size of its node
    stack: list[list[Any]] = []  # open collections: [anchor, expanded size so far]
    aliases = 0

    def add(weight: int, mark: Any) -> None:
        if stack:
            stack[-1][1] += weight
            if stack[-1][1] > limits.max_nodes:
                raise _refuse(
                    f"YAML aliases expand it past {limits.max_nodes:,} nodes (an alias bomb?): refused",
                    "ERR_INPUT_TOO_COMPLEX",
                    what,
                    line0,
                    mark,
                )

    for ev in yaml.parse(text, Loader=loader or yaml.SafeLoader):  # the composer's own parser: same verdicts
        if isinstance(ev, yaml.AliasEvent):
            aliases += 1
            if aliases > limits.max_aliases:
                raise _refuse(
                    f"YAML holds more than {limits.max_aliases} aliases: refused",
                    "ERR_INPUT_TOO_COMPLEX",
                    what,
                    line0,
                    ev.start_mark,
                )
            add(weights.get(str(ev.anchor), 1), ev.start_mark)
        elif isinstance(ev, yaml.ScalarEvent):
            if ev.anchor is not None:
                weights[str(ev.anchor)] = 1
            add(1, ev.start_mark)
        elif isinstance(ev, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            stack.append([ev.anchor, 1])
            if len(stack) > limits.max_depth:
                raise _refuse(
                    f"YAML is nested more than {limits.max_depth} levels deep: refused",
                    "ERR_INPUT_TOO_DEEP",
                    what,
                    line0,
                    ev.start_mark,
                )
        elif isinstance(ev, yaml.CollectionEndEvent) and stack:
            anchor, weight = stack.pop()
            if anchor is not None:
                weights[str(anchor)] = weight
            add(weight, ev.start_mark)
        elif isinstance(ev, yaml.DocumentEndEvent):
            weights.clear()  # anchors do not cross documents


def compose(text: str, *, limits: YamlLimits = DEFAULT_LIMITS, what: str | None = None, line0: int = 1) -> Any:
    """`yaml.compose(text, SafeLoader)` after `check`: the node graph (None for an empty text)."""
    if _CLoader is not None and text.isascii() and len(text) <= limits.max_chars:
        try:
            check(text, limits=limits, what=what, line0=line0, loader=_CLoader)
            node = yaml.compose(text, Loader=_CLoader)
        except (yaml.YAMLError, UnsafeInputError, RecursionError):
            pass  # refused: the pure-Python path below gives the verdict and its message
        else:
            _python_styles(node)
            return node
    check(text, limits=limits, what=what, line0=line0)
    return yaml.compose(text, Loader=yaml.SafeLoader)


def _python_styles(root: Any) -> None:
    """libyaml marks a plain scalar with style "" where PyYAML's composer says None."""
    stack, seen = [root], set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            if node.style == "":
                node.style = None
        elif isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                stack += (k, v)
        elif isinstance(node, yaml.SequenceNode):
            stack += node.value


def safe_load(text: str, *, limits: YamlLimits = DEFAULT_LIMITS, what: str | None = None, line0: int = 1) -> Any:
    """`yaml.safe_load(text)` after `check`."""
    check(text, limits=limits, what=what, line0=line0)
    return yaml.safe_load(text)
