"""Suite-wide: no test, doctest included, can reach anything but this machine."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from tests.fakediscord import NetworkGuard


@pytest.fixture(scope="session", autouse=True)
def no_internet() -> Iterator[NetworkGuard]:
    """For the whole session, connecting to anything but loopback (or Unix sockets) raises
    :class:`~tests.fakediscord.InternetAccessBlocked` at once, and DNS lookups of other
    names are refused, so no test can reach the network even by accident."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        guard = NetworkGuard()
        guard.install(monkeypatch)
        yield guard


def pytest_collection_finish(session: pytest.Session) -> None:
    """Every module and test is loaded and lives to the end of the session: frozen, so no
    garbage collection walks them (each full collection did, hundreds of times a worker)."""
    gc.collect()
    gc.freeze()
