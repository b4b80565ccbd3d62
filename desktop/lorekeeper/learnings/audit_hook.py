"""Learning events go to the signed audit chain (`ws.audit.log`), so who learnt what and when is provable.

Each change (learnings added, edited, archived, restored, imported; skill saves, forks, imports;
feedback and Fix It) is recorded in the audit outbox inside its own transaction, as a signed,
chained event once written; `story` is passed along so a GDPR purge of a story tombstones its
events too. The workspace builds every hook `fail_closed` (issue 24): an event that cannot be
recorded rolls the change back, so nothing exists without its event. The non-fail-closed mode
(the warning returned to the caller) remains for callers outside a workspace.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from lorekeeper.audit.log import SessionLog
from lorekeeper.errors import LorekeeperError
from lorekeeper.learnings.service import EventHook

log = logging.getLogger(__name__)


def _operator(audit_log: Callable[[], SessionLog]) -> str:
    """Who made the change: the log's operator (the Vault identity, else the OS login; issue 25 d2)."""
    return audit_log().operator()


def audit_hook(audit_log: Callable[[], SessionLog], *, fail_closed: bool = False) -> EventHook:
    """`audit_log` hands out the signed log (it loads the key on first use, fail closed: `ws.audit.log`).

    The event goes through the log's outbox (`SessionLog.record`): called inside the change's
    store transaction, it commits with the change or not at all. `fail_closed` (the learnings,
    issue 18): an event that cannot be recorded raises, so the transaction rolls back and nothing
    is written. Otherwise (called after a commit) the hook returns the warning of a change it
    could not sign; the service keeps it for the caller (`take_audit_warnings`)."""

    def hook(name: str, data: dict[str, object]) -> str | None:
        story = data.get("story")
        try:
            audit_log().record(
                name,
                {**data, "by": data.get("by") or _operator(audit_log)},
                story=story if isinstance(story, str) and story else None,
            )
        except LorekeeperError as exc:
            if fail_closed:
                raise
            warning = f"{name} was saved but not signed in the audit log: {exc.code}: {exc.message}"
            log.info(warning)  # the caller shows it (CLI stderr, panel message)
            return warning
        return None

    return hook
