"""Sort orders for paged listings: a column name chosen from a whitelist, never SQL text.

A listing (eval history, learnings...) maps the names it accepts to columns; `order_clauses`
turns `(order_by, descending)` into ORDER BY clauses with the primary key as the tiebreak in the
same direction, so the order is total: the reverse of a listing is exactly the listing reversed,
which lets a table read its last page as the first page of the reverse order (no large OFFSET).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lorekeeper.errors import InvalidInputError


def order_clauses(columns: Mapping[str, Any], order_by: str, descending: bool, tiebreak: Any) -> list[Any]:
    """ORDER BY clauses for `order_by` (a key of `columns`); unknown names are refused."""
    column = columns.get(order_by)
    if column is None:
        raise InvalidInputError(f"cannot sort by {order_by!r}; sortable columns: {', '.join(sorted(columns))}.")
    if descending:
        return [column.desc(), tiebreak.desc()]
    return [column.asc(), tiebreak.asc()]
