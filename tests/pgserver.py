"""A throwaway PostgreSQL server for the tests and the benchmarks.

It is built from the server binaries on the machine (``initdb`` + ``pg_ctl``) in a
temporary folder, listens on loopback and on a Unix socket in that folder only, and is
stopped and removed at the end, even when tests fail (``atexit`` is the safety net for
a process that never reaches its ``finally``). In pytest there is one per xdist worker
(the session-scoped fixture :func:`pg_server`); outside pytest use
:func:`throwaway_server`::

    with throwaway_server(durable=True) as server:
        url = asyncio.run(server.database("bench"))

``pg_ctl`` and ``initdb`` refuse to run as root, so as root they run as the
``postgres`` user (``runuser``) in a folder made theirs.
"""

from __future__ import annotations

import atexit
import contextlib
import glob
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

INSTALL_HINT = (
    "PostgreSQL server binaries (initdb, pg_ctl) were not found; install them to run the "
    "PostgreSQL tests: `apt-get install postgresql` on Debian/Ubuntu (or set PG_BINDIR "
    "to the folder that holds initdb and pg_ctl)."
)
"""Why the PostgreSQL tests are skipped, and how to stop skipping them."""

SERVER_USER = "postgres"
"""The role the server is initialised with (and, as root, the OS user it runs as)."""

_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


class PgUnavailable(RuntimeError):
    """No PostgreSQL server binaries on this machine (see :data:`INSTALL_HINT`)."""


def find_bindir() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``: ``$PG_BINDIR``, else what
    ``pg_config --bindir`` says, else the newest ``/usr/lib/postgresql/*/bin``
    (Debian keeps the server binaries off ``PATH``), else ``PATH``; ``None`` if none."""
    candidates: list[Path] = []
    if os.environ.get("PG_BINDIR"):
        candidates.append(Path(os.environ["PG_BINDIR"]))
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        out = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True,
                             timeout=10, check=True).stdout.strip()
        if out:
            candidates.append(Path(out))
    versioned = glob.glob("/usr/lib/postgresql/*/bin") + glob.glob("/usr/pgsql-*/bin")
    candidates += sorted((Path(p) for p in versioned), key=_version_key, reverse=True)
    on_path = shutil.which("pg_ctl")
    if on_path:
        candidates.append(Path(on_path).resolve().parent)
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    return None


def _version_key(path: Path) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", str(path))) or (0,)


def _free_port() -> int:
    # Another worker may take it before the server binds it: start() retries on a clash.
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _as_server_user() -> list[str]:
    """The prefix that runs a command as the server's OS user: ``runuser`` as root."""
    if os.geteuid() != 0:
        return []
    runuser = shutil.which("runuser") or "/usr/sbin/runuser"
    return [runuser, "-u", SERVER_USER, "--"]


def _clean_env() -> dict[str, str]:
    # A developer's PGDATA/PGPORT/... must not point initdb or pg_ctl at their own server.
    return {key: value for key, value in os.environ.items() if not key.startswith("PG")}


@dataclass
class PgServer:
    """One running throwaway server: where it listens, and how to get databases in it."""

    bindir: Path
    folder: Path
    port: int
    durable: bool
    host: str = "127.0.0.1"
    user: str = SERVER_USER
    _templates: dict[str, str] = field(default_factory=dict)
    _counter: int = 0
    _stopped: bool = False

    @property
    def datadir(self) -> Path:
        """The cluster's data directory."""
        return self.folder / "data"

    @property
    def socket_dir(self) -> Path:
        """The folder holding the server's Unix socket."""
        return self.folder

    @property
    def logfile(self) -> Path:
        """The server's log (worth reading when a start fails)."""
        return self.folder / "server.log"

    def dsn(self, database: str = "postgres") -> str:
        """A ``postgresql://`` URL for ``database`` on this server (TCP on loopback)."""
        return f"postgresql://{self.user}@{self.host}:{self.port}/{database}"

    def unique_name(self, prefix: str = "db") -> str:
        """A database name not yet used on this server (``prefix`` sanitised)."""
        self._counter += 1
        base = re.sub(r"[^a-z0-9_]", "_", prefix.lower())[:40] or "db"
        if not re.match(r"[a-z_]", base):
            base = f"d_{base}"
        return f"{base}_{os.getpid()}_{self._counter}"

    async def database(self, name: str | None = None, *, template: str | None = None) -> str:
        """Create database ``name`` (a fresh unique one if ``None``), a copy of
        ``template`` if given, and return its ``postgresql://`` URL. A template must have
        no open connections while it is copied (PostgreSQL refuses otherwise)."""
        import asyncpg  # only the PostgreSQL tests pay for it

        name = name or self.unique_name()
        for ident in (name, template):
            if ident is not None and not _NAME.match(ident):
                raise ValueError(f"not a plain database name: {ident!r}")
        # PostgreSQL 15's default strategy (WAL_LOG) is kept: for a template of
        # Croupier's size it copied in ~30-45 ms here, FILE_COPY (two checkpoints) in ~40-70.
        sql = f'CREATE DATABASE "{name}"'
        if template is not None:
            sql += f' TEMPLATE "{template}"'
        conn = await asyncpg.connect(self.dsn())
        try:
            await conn.execute(sql)
        finally:
            await conn.close()
        return self.dsn(name)

    async def template(self, name: str, build: Callable[[str], Awaitable[None]]) -> str:
        """A template database made once per server: the first call creates ``name`` and
        awaits ``build(url)`` to fill it (its connections must be closed when it returns);
        later calls return at once. Returns the template's name, for
        ``database(template=...)``."""
        if name not in self._templates:
            url = await self.database(name)
            await build(url)
            self._templates[name] = url
        return name

    async def drop(self, name: str) -> None:
        """Drop database ``name``, closing any connection still open to it."""
        import asyncpg

        if not _NAME.match(name):
            raise ValueError(f"not a plain database name: {name!r}")
        conn = await asyncpg.connect(self.dsn())
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await conn.close()
        self._templates.pop(name, None)

    def postmaster_pid(self) -> int | None:
        """The server's process id while it runs, from ``postmaster.pid``."""
        try:
            return int((self.datadir / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def stop(self) -> None:
        """Stop the server at once (``-m immediate``: nothing here is worth a clean
        shutdown) and remove its folder. Safe to call twice."""
        if self._stopped:
            return
        self._stopped = True
        pid = self.postmaster_pid()
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            subprocess.run([*_as_server_user(), str(self.bindir / "pg_ctl"), "stop", "-m",
                            "immediate", "-w", "-t", "10", "-D", str(self.datadir)],
                           capture_output=True, env=_clean_env(), timeout=20, check=False)
        if pid is not None and _alive(pid):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        shutil.rmtree(self.folder, ignore_errors=True)
        with contextlib.suppress(ValueError):
            _running.remove(self)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


_running: list[PgServer] = []


@atexit.register
def _stop_all() -> None:
    for server in list(_running):
        server.stop()


def _run(cmd: list[str], what: str) -> None:
    done = subprocess.run(cmd, capture_output=True, text=True, env=_clean_env(), timeout=60,
                          check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{what} failed ({done.returncode}): {done.stderr or done.stdout}")


def start_server(*, durable: bool = False, max_connections: int = 100,
                 settings: dict[str, str] | None = None) -> PgServer:
    """Initialise and start a throwaway server; the caller must :meth:`PgServer.stop` it
    (or use :func:`throwaway_server`). ``durable=False`` turns off fsync,
    synchronous_commit and full-page writes (tests); ``durable=True`` keeps PostgreSQL's
    defaults, so commits wait for the WAL flush (benchmarks). ``settings`` adds ``-c``
    options. Raises :class:`PgUnavailable` without server binaries."""
    bindir = find_bindir()
    if bindir is None:
        raise PgUnavailable(INSTALL_HINT)
    # Short and under /tmp: a Unix socket path must stay under ~100 bytes, and the
    # server's user must be able to reach it (pytest's tmp dirs are root-only).
    folder = Path(tempfile.mkdtemp(prefix="croupier-pg-", dir="/tmp"))
    try:
        if os.geteuid() == 0:
            shutil.chown(folder, user=SERVER_USER)
        _run([*_as_server_user(), str(bindir / "initdb"), "--no-sync", "-A", "trust",
              "-U", SERVER_USER, "-E", "UTF8", "--locale=C", "-D", str(folder / "data")],
             "initdb")
        options = {"listen_addresses": "127.0.0.1", "max_connections": str(max_connections)}
        if not durable:
            options |= {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}
        options |= settings or {}
        for attempt in range(5):
            server = PgServer(bindir=bindir, folder=folder, port=_free_port(), durable=durable)
            flags = " ".join(f"-c {key}={value}" for key, value in options.items())
            try:
                _run([*_as_server_user(), str(bindir / "pg_ctl"), "start", "-w", "-t", "30",
                      "-D", str(server.datadir), "-l", str(server.logfile),
                      "-o", f"-k {folder} -p {server.port} {flags}"], "pg_ctl start")
            except RuntimeError:
                log = server.logfile.read_text(errors="replace") if server.logfile.exists() \
                    else ""
                if "already in use" in log and attempt < 4:
                    continue  # another process took the port between probe and bind
                server.stop()  # pg_ctl may have given up waiting on a server that runs
                raise RuntimeError(f"PostgreSQL did not start; its log:\n{log}") from None
            _running.append(server)
            return server
        raise AssertionError("unreachable")
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise


@contextlib.contextmanager
def throwaway_server(durable: bool = False, *, max_connections: int = 100,
                     settings: dict[str, str] | None = None) -> Iterator[PgServer]:
    """A started server for the ``with`` block, stopped and removed after it whatever
    happens (arguments as :func:`start_server`)."""
    server = start_server(durable=durable, max_connections=max_connections,
                          settings=settings)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """One throwaway PostgreSQL server per test session (so per xdist worker), not
    durable, stopped at the end; skips the test with an install hint when the machine
    has no PostgreSQL server binaries."""
    try:
        server = start_server()
    except PgUnavailable as missing:
        pytest.skip(str(missing))
    try:
        yield server
    finally:
        server.stop()
