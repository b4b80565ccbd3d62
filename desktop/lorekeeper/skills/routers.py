"""The routers of a workspace, rebuilt only when the library changed (`ws.routers.get(project)`).

Kept per process, not per workspace: the resident agent service (`lorekeeper agentd`) opens the
workspace afresh for every call, and at 10,000 skills loading and indexing the library costs about
a second. The key names the store (its URL, and the database file's identity, so a restored or
recreated file is another store), the project and the key session; the store's revision, which
moves on any process's write, says whether a kept router is current.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Protocol

from lorekeeper.skills.router import Router

if TYPE_CHECKING:
    from lorekeeper.skills.library import SkillLibrary
    from lorekeeper.store.engine import Store

#: routers kept across the workspaces a process opens (the agent service)
ROUTER_CACHE_SIZE = 8

_Key = tuple[str, str, tuple[str, str, int] | None]
_ROUTERS: OrderedDict[_Key, tuple[int, Router]] = OrderedDict()


class KeySessionInfo(Protocol):
    """What the cache keys on of the audit key session (`audit.session.KeySession`)."""

    @property
    def provider(self) -> str: ...
    @property
    def location(self) -> str: ...
    @property
    def version(self) -> int: ...


class KeySessions(Protocol):
    """The audit service as the cache sees it: the key session when one is loaded (never loads it)."""

    @property
    def key_session(self) -> KeySessionInfo | None: ...


class RouterCache:
    """`get(project)`: a router over what `project` sees. With the key session loaded (prompt, the
    hook, MCP) only skills that verify are routed (issue 24); without it (`route` never loads the
    key: deterministic) the library is scored as stored."""

    def __init__(self, store: Store, skills: SkillLibrary, audit: KeySessions) -> None:
        self.store = store
        self.skills = skills
        self.audit = audit

    def get(self, project: str | None = None) -> Router:
        session = self.audit.key_session
        verified = session is not None
        key: _Key = (
            self.store_identity(),
            f"{'v' if verified else 'u'}:{project or ''}",
            (session.provider, session.location, session.version) if session is not None else None,
        )
        revision = self.store.revision()  # moves on any process's change (another one's import too)
        cached = _ROUTERS.get(key)
        if cached and cached[0] == revision:
            _ROUTERS.move_to_end(key)
            return cached[1]
        router = Router(self.skills.routable(project, verified=verified))
        _ROUTERS[key] = (revision, router)
        while len(_ROUTERS) > ROUTER_CACHE_SIZE:
            _ROUTERS.popitem(last=False)
        return router

    def store_identity(self) -> str:
        """The store's URL; for a SQLite file also its device, inode and ctime (a restored or
        recreated file is another store)."""
        path = self.store.sqlite_path
        if path is None:
            return self.store.url
        try:
            st = path.stat()
        except OSError:
            return self.store.url
        return f"{self.store.url}#{st.st_dev}:{st.st_ino}:{st.st_ctime_ns}"
