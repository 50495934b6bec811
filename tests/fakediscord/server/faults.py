"""Faults a test switches on: Discord answering REST requests with rate limits,
server errors, an error after doing the work, or slowly.

A :class:`Fault` says which requests it hits (method, a pattern on the path after
``/api/v10``, DM channels or not, how many times) and what happens to them. The
server's middleware asks :meth:`Faults.take` before each request and answers as
Discord does. Only REST requests are affected; the gateway has its own
(``request_reconnect``).

>>> fault = Fault("status", status=503, method="POST", route=r"/channels/\\d+/messages")
>>> fault.hits_request("POST", "/channels/12/messages", dm=False)
True
>>> fault.hits_request("PATCH", "/channels/12/messages/3", dm=False)
False
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

FaultKind = Literal["status", "performed_then", "ratelimit", "latency"]

STATUS_MESSAGES = {
    500: "500: Internal Server Error",
    502: "502: Bad Gateway",
    503: "503: Service Unavailable",
    504: "504: Gateway Timeout",
}


@dataclass
class Fault:
    """One injected fault.

    * ``status``: the request is not carried out; Discord answers ``status``.
    * ``performed_then``: the request is carried out, then answered with ``status``
      (a proxy in front of Discord failing after Discord did the work).
    * ``ratelimit``: a 429 with ``Retry-After`` of ``seconds`` and Discord's body.
    * ``latency``: the request waits ``seconds``, then is served.

    ``seconds`` (of a latency, or a 429's ``Retry-After``) are Discord's: the fake's
    ``time_scale`` says how long they take (see ``FakeState.time_scale``).
    """

    kind: FaultKind
    status: int = 503
    code: int = 0
    """Discord's JSON error code in the answer (e.g. 10062 "Unknown interaction")."""
    message: str | None = None
    """Discord's message in the answer; by default the status's own."""
    seconds: float = 0.0
    method: str | None = None
    """Only requests of this HTTP method (``None``: any)."""
    route: str | None = None
    """Only paths (after ``/api/v10``) this pattern matches from their start."""
    dm: bool | None = None
    """Only requests on a DM channel (``True``), or on other channels (``False``)."""
    times: int | None = 1
    """How many requests it hits before it is spent (``None``: every one)."""
    hits: int = 0
    """How many it has hit so far."""

    @property
    def spent(self) -> bool:
        """Whether it has hit all the requests it was meant to."""
        return self.times is not None and self.hits >= self.times

    def hits_request(self, method: str, path: str, *, dm: bool) -> bool:
        """Whether this fault applies to a request (it is not counted here)."""
        if self.spent or (self.method is not None and method != self.method):
            return False
        if self.route is not None and not re.match(self.route, path):
            return False
        return self.dm is None or self.dm == dm

    def body(self) -> dict[str, Any]:
        """Discord's JSON body for the error answer."""
        if self.kind == "ratelimit":
            return {"message": "You are being rate limited.", "retry_after": self.seconds,
                    "global": False}
        return {"code": self.code, "message": self.message
                or STATUS_MESSAGES.get(self.status, f"{self.status}: Error")}

    def headers(self) -> dict[str, str]:
        """Discord's headers for the error answer."""
        if self.kind != "ratelimit":
            return {}
        # Discord's answers come through Google's load balancer: discord.py takes a 429
        # without ``Via`` for a Cloudflare ban and gives up at once instead of waiting.
        return {"Retry-After": f"{self.seconds:g}", "Via": "1.1 google", "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0", "X-RateLimit-Reset-After": f"{self.seconds:g}",
                "X-RateLimit-Bucket": "fakebucket", "X-RateLimit-Scope": "user"}


class Faults:
    """The faults switched on for one fake Discord, first match wins."""

    def __init__(self) -> None:
        self.active: list[Fault] = []

    def add(self, fault: Fault) -> Fault:
        """Switch ``fault`` on; returns it (its ``hits`` count what it did)."""
        self.active.append(fault)
        return fault

    def clear(self) -> None:
        """Switch every fault off."""
        self.active.clear()

    def take(self, method: str, path: str, *, dm: bool) -> Fault | None:
        """The fault that hits this request, counted as a hit, or ``None``."""
        for fault in self.active:
            if fault.hits_request(method, path, dm=dm):
                fault.hits += 1
                return fault
        return None
