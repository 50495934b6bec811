"""The network guard: in tests, every connection to anything but this machine fails at
once (and DNS lookups of other names too), so no test reaches the internet by accident."""

from __future__ import annotations

import errno
import ipaddress
import socket
from typing import Any

import pytest


class InternetAccessBlocked(OSError):
    """A test tried to reach a non-loopback address."""


def _ip(host: Any) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """``host`` as an IP address (a zone suffix ignored); ``None`` for names.

    >>> _ip(b"127.0.0.1"), _ip("fe80::1%eth0"), _ip("localhost")
    (IPv4Address('127.0.0.1'), IPv6Address('fe80::1'), None)
    """
    if isinstance(host, bytes):
        host = host.decode()
    if not isinstance(host, str):
        return None
    try:
        return ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return None


def _is_loopback(host: Any) -> bool:
    """Whether ``host`` names this machine.

    >>> [_is_loopback(h) for h in ("localhost", "127.0.0.2", "::ffff:127.0.0.1", "1.1.1.1")]
    [True, True, True, False]
    """
    if isinstance(host, bytes):
        host = host.decode()
    if isinstance(host, str) and host.lower() in ("localhost", "localhost.", "ip6-localhost"):
        return True
    ip = _ip(host)
    if ip is None:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped.is_loopback
    return ip.is_loopback


class NetworkGuard:
    """Makes every socket connection to a non-loopback address fail immediately.

    Patches ``socket.socket.connect``/``connect_ex``/``sendto``, ``socket.create_connection``
    and ``socket.getaddrinfo`` (so no DNS query leaves the machine). Unix sockets and
    127.0.0.0/8, ::1 and ``localhost`` are allowed. Every refused attempt is recorded in
    ``attempts``.
    """

    def __init__(self) -> None:
        self.attempts: list[str] = []

    def _refuse(self, what: str, target: Any) -> InternetAccessBlocked:
        self.attempts.append(f"{what} {target!r}")
        return InternetAccessBlocked(
            errno.ENETUNREACH, f"tests may not use the network: {what} {target!r} was blocked"
        )

    def check_address(self, family: int, address: Any, what: str = "connect") -> None:
        """Raise :class:`InternetAccessBlocked` unless ``address`` is local."""
        if family == getattr(socket, "AF_UNIX", None) or isinstance(address, str | bytes):
            return
        if isinstance(address, tuple) and address and _is_loopback(address[0]):
            return
        raise self._refuse(what, address)

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Apply the patches through ``monkeypatch`` (undone when it is)."""
        guard = self
        real_connect = socket.socket.connect
        real_connect_ex = socket.socket.connect_ex
        real_sendto = socket.socket.sendto
        real_create_connection = socket.create_connection
        real_getaddrinfo = socket.getaddrinfo

        def connect(sock: socket.socket, address: Any) -> None:
            guard.check_address(sock.family, address)
            return real_connect(sock, address)

        def connect_ex(sock: socket.socket, address: Any) -> int:
            guard.check_address(sock.family, address, "connect_ex")
            return real_connect_ex(sock, address)

        def sendto(sock: socket.socket, data: Any, *args: Any) -> int:
            guard.check_address(sock.family, args[-1], "sendto")
            return real_sendto(sock, data, *args)

        def create_connection(address: Any, *args: Any, **kwargs: Any) -> socket.socket:
            if not _is_loopback(address[0]):
                raise guard._refuse("create_connection", address)
            return real_create_connection(address, *args, **kwargs)

        def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
            # IP literals resolve without DNS; names other than localhost would query it.
            if host not in (None, "", b"") and _ip(host) is None and not _is_loopback(host):
                raise guard._refuse("getaddrinfo", host)
            return real_getaddrinfo(host, *args, **kwargs)

        monkeypatch.setattr(socket.socket, "connect", connect)
        monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
        monkeypatch.setattr(socket.socket, "sendto", sendto)
        monkeypatch.setattr(socket, "create_connection", create_connection)
        monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
