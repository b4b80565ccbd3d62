"""Learning events go to the signed audit chain (`ws.audit.log`), so who learnt what and when is provable.

Each change to the learnings (added, edited, archived, restored, imported) is appended after its
transaction committed, as a signed, chained event; `story` is passed along so a GDPR purge of a
story tombstones its learning events too. When the audit key cannot be loaded, the learning is
still kept (learnings are the operator's data, and deterministic features work without a key) but
the change is reported as unsigned: the warning is returned to the caller, never swallowed.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from lorekeeper.errors import LorekeeperError

if TYPE_CHECKING:
    from lorekeeper.learnings.service import EventHook
    from lorekeeper.workspace import Workspace

log = logging.getLogger(__name__)


def _operator() -> str:
    """Who made the change (the OS login), as the review panels record it."""
    import getpass

    try:
        return getpass.getuser()
    except Exception:  # noqa: BLE001 - no login name in some containers
        return "operator"


def audit_hook(ws: Workspace) -> EventHook:
    def hook(name: str, data: dict[str, object]) -> None:
        audit = getattr(ws, "audit", None)
        if audit is None:
            return
        story = data.get("story")
        try:
            audit.log.append(
                name, {**data, "by": _operator()}, story=story if isinstance(story, str) and story else None
            )
        except LorekeeperError as exc:
            warning = f"{name} was saved but not signed in the audit log: {exc.code}: {exc.message}"
            log.info(warning)  # the caller shows it (CLI stderr, panel message)
            ws.learnings.audit_warnings.append(warning)

    return hook
