"""Suite-wide: no test, doctest included, can reach anything but this machine."""

from __future__ import annotations

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
