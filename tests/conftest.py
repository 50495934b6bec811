"""Test fixtures: discord ERROR logs fail tests, and a fake Discord. (The no-network
guard is in the root conftest.py, so it covers doctests in every package too.)"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

import pytest

from storage import Store
from tests.e2e import ERROR_LOGGERS, served
from tests.fakediscord import FakeDiscord, LogCapture
from tests.pgserver import pg_server

__all__ = ["pg_server"]  # the session's PostgreSQL server, for every test that asks


@pytest.fixture
def discord_errors() -> Iterator[LogCapture]:
    """Capture ERROR records from ``discord.*``, ``asyncio`` and Croupier's own packages,
    and fail the test at teardown if any is left: a refusal is a reply, never an ERROR.
    discord.py only *logs* exceptions from commands, views and events, so without this a
    crashing handler would pass unnoticed. Tests that provoke an error on purpose consume
    it with ``discord_errors.expect("pattern")``."""
    capture = LogCapture(loggers=ERROR_LOGGERS)
    capture.install()
    try:
        yield capture
        capture.assert_clean()
    finally:
        capture.uninstall()


DISCORD_TIME_SCALE = 0.05
"""Real seconds per second of the waits Discord decides, in tests: outages, injected
latency, and discord.py's waits on Discord's say (reconnect backoff, the pause before
a new IDENTIFY, Retry-After, 5xx retries). What a test checks is that the bot waits and
goes on, not for how long (``FakeState.time_scale``)."""


@pytest.fixture
async def fake_discord(discord_errors: LogCapture) -> AsyncIterator[FakeDiscord]:
    """A started :class:`~tests.fakediscord.FakeDiscord` with discord.py pointed at it
    (``Route.BASE`` and ``DEFAULT_GATEWAY`` patched, restored afterwards) and Discord's
    waits at :data:`DISCORD_TIME_SCALE`. Bots still running at teardown are closed;
    unknown routes or fake crashes fail the test."""
    async with served(FakeDiscord(time_scale=DISCORD_TIME_SCALE)) as fake:
        yield fake



ENGINES = ("sqlite", "postgres")


def pytest_configure(config: pytest.Config) -> None:
    """The ``engines`` marker."""
    config.addinivalue_line(
        "markers", "engines(*names): the test's `store` runs on each engine named"
        " (default: SQLite and PostgreSQL)")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test marked ``engines`` (or in a module so marked) that takes a ``store`` (or
    a ``target``) runs once per engine (``engines("sqlite")`` on a test: that engine alone, for a
    test of SQLite's own file); every other test gets SQLite alone."""
    marker = metafunc.definition.get_closest_marker("engines")
    if "engine" in metafunc.fixturenames and marker is not None:
        metafunc.parametrize("engine", marker.args or ENGINES, indirect=True)


@pytest.fixture
def engine(request: pytest.FixtureRequest) -> str:
    """The engine the ``store`` fixture opens: SQLite unless parametrized."""
    return getattr(request, "param", "sqlite")


@pytest.fixture
async def target(engine: str, tmp_path: Path, request: pytest.FixtureRequest) -> Path | str:
    """Where the test's stores open (``Store.open(target)``, as often as it likes: a
    restart opens the same data again): a new SQLite file's path, or (``engines``
    tests) the URL of the test module's PostgreSQL database, emptied."""
    if engine == "postgres":
        from tests.pgstore import module_database

        return await module_database(request)
    return tmp_path / "croupier.sqlite3"


@pytest.fixture
def fresh_target(target: Path | str, tmp_path: Path) -> Callable[[], Awaitable[Path | str]]:
    """Another empty place for a test's stores, each time it is called: a new SQLite
    file, or on PostgreSQL the module's database emptied again (close the stores of
    the previous one first)."""
    made = itertools.count(1)

    async def fresh() -> Path | str:
        if isinstance(target, str):
            from tests.pgstore import empty

            await empty(target)
            return target
        return tmp_path / f"croupier-{next(made)}.sqlite3"

    return fresh


@pytest.fixture
async def store(target: Path | str) -> AsyncIterator[Store]:
    """A store, closed afterwards: the one place tests get one. On a new SQLite file,
    or (``engines`` tests) on an emptied PostgreSQL database of the test's module."""
    opened = await Store.open(target)
    try:
        yield opened
    finally:
        await opened.close()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The whole games played under faults (tests/test_faults_games.py): seconds each
    took, beside its game's fault-free run."""
    seconds: dict[str, dict[str, float]] = {}
    for report in terminalreporter.stats.get("passed", []):
        for name, value in getattr(report, "user_properties", ()):
            if name == "fault_seconds":
                game, fault, took = value
                seconds.setdefault(game, {})[fault] = took
    if not seconds:
        return
    terminalreporter.section("Whole games under faults: seconds (× the fault-free run)")
    for game, runs in sorted(seconds.items()):
        calm = runs.get("none")
        terminalreporter.line(f"{game}: " + "; ".join(
            f"{fault} {took:.1f}" + (f" (×{took / calm:.1f})" if calm and fault != "none" else "")
            for fault, took in sorted(runs.items(), key=lambda run: (run[0] != "none", run[0]))))
