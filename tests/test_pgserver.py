"""The throwaway PostgreSQL server the tests and benchmarks start (tests/pgserver.py)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import asyncpg
import pytest

from tests import pgserver
from tests.pgserver import PgServer, find_bindir, throwaway_server

needs_pg = pytest.mark.skipif(find_bindir() is None, reason="no PostgreSQL server binaries")


async def _fetchval(url: str, sql: str) -> object:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetchval(sql)
    finally:
        await conn.close()


async def test_server_answers_on_loopback(pg_server: PgServer) -> None:
    """The session's server runs and answers SQL at the URL it gives."""
    assert pg_server.dsn().startswith(f"postgresql://postgres@127.0.0.1:{pg_server.port}/")
    assert await _fetchval(pg_server.dsn(), "SELECT 41 + 1") == 42
    assert await _fetchval(pg_server.dsn(), "SHOW fsync") == "off"


async def test_database_from_template_is_independent(pg_server: PgServer) -> None:
    """A database copied from a template starts with the template's rows, and what it
    changes afterwards touches neither the template nor a sibling copy."""
    async def build(url: str) -> None:
        conn = await asyncpg.connect(url)
        try:
            await conn.execute("CREATE TABLE t (x BIGINT); INSERT INTO t VALUES (1)")
        finally:
            await conn.close()

    template = await pg_server.template("tpl_independent", build)
    assert await pg_server.template("tpl_independent", build) == template  # made once
    first = await pg_server.database(template=template)
    second = await pg_server.database(template=template)
    conn = await asyncpg.connect(first)
    try:
        await conn.execute("INSERT INTO t VALUES (2)")
    finally:
        await conn.close()
    assert await _fetchval(first, "SELECT count(*) FROM t") == 2
    assert await _fetchval(second, "SELECT count(*) FROM t") == 1
    assert await _fetchval(pg_server.dsn(template), "SELECT count(*) FROM t") == 1
    await pg_server.drop(second.rsplit("/", 1)[1])
    with pytest.raises(asyncpg.InvalidCatalogNameError):
        await _fetchval(second, "SELECT 1")


async def test_bad_database_names_are_refused(pg_server: PgServer) -> None:
    """Names go into SQL as identifiers, so anything but a plain name is refused."""
    for bad in ('x"; DROP DATABASE postgres; --', "Upper", ""):
        with pytest.raises(ValueError):
            await pg_server.database(bad or "a b")


def _running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie awaiting its reaper is not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@needs_pg
def test_stop_leaves_no_process_and_no_folder() -> None:
    """A durable server starts in about a second and a half (timed), keeps PostgreSQL's
    durable commits, and leaves neither a process nor its folder behind, even when the
    ``with`` block fails."""
    began = time.monotonic()
    with pytest.raises(RuntimeError, match="boom"), throwaway_server(durable=True) as server:
        started = time.monotonic() - began
        pid = server.postmaster_pid()
        folder = server.folder
        assert pid is not None and _running(pid)
        assert folder.is_dir()
        assert asyncio.run(_fetchval(server.dsn(), "SHOW synchronous_commit")) == "on"
        assert asyncio.run(_fetchval(server.dsn(), "SHOW fsync")) == "on"
        raise RuntimeError("boom")
    assert started < 5, f"start-to-ready took {started:.2f}s"
    assert not _running(pid)
    assert not folder.exists()


def test_without_server_binaries_it_says_how_to_install_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine without PostgreSQL's server binaries gets a skip reason that says
    what to install, not an error."""
    monkeypatch.setattr(pgserver, "find_bindir", lambda: None)
    with pytest.raises(pgserver.PgUnavailable, match=r"apt-get install postgresql"):
        pgserver.start_server()
