"""Discord's pace, for a test that wants the bot to meet it: REST latency, and the
per-channel bucket that message edits share.

**Latency.** Every REST request to Discord crosses the Internet twice; from a bot's
host that is a quarter of a second or so a request. ``FakeDiscord(latency=0.25)``
makes every REST request (interaction callbacks and follow-ups included) take that
long, in *real* seconds, whatever the fake's ``time_scale``: the 3 s an interaction
has to be acknowledged are real, and latency is what eats them. Half the pause comes
before the request reaches the fake (its acknowledgement is judged then, as Discord
judges it on arrival), half after, on the answer's way back.

**The edit bucket.** Discord limits requests per route and *top-level resource*: "per-
route rate limits often account for top-level resources within the path using an
identifier ... channels (channel_id)" (https://discord.com/developers/docs/topics/
rate-limits). Edits of the messages of one channel (``PATCH /channels/{id}/messages/
{id}``) share one bucket, 5 edits per 5 s as bots observe it in the headers (Discord
does not document the numbers and says not to hard-code them). The fake counts them in
a fixed window per channel, opened by the first edit after the last window ended, and
says so in the headers Discord sends (``X-RateLimit-Limit``, ``-Remaining``,
``-Reset``, ``-Reset-After``, ``-Bucket``), which discord.py reads to hold back the
next edit itself; an edit over the limit gets Discord's 429 (``Retry-After``, ``Via``,
``X-RateLimit-Scope: user`` and the JSON body), on which discord.py waits and tries
again. The window's seconds are Discord's, so they run at the fake's ``time_scale``
like a 429 fault's. An interaction's own answer (the callback, its follow-up webhook)
is not in the bucket: that is why updating the clicked message with the interaction's
response is the fast way.

>>> bucket = EditBucket(limit=2, per=5.0)
>>> [bucket.take(7, now=100.0, scale=1.0).allowed for _ in range(3)]
[True, True, False]
>>> bucket.take(8, now=100.0, scale=1.0).allowed   # another channel: its own bucket
True
>>> bucket.take(7, now=105.5, scale=1.0).allowed   # the window is over
True
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

EDIT_ROUTE = re.compile(r"/channels/(\d+)/messages/(\d+)$")
"""A message edit (``PATCH``), the path after ``/api/v10``; group 1 is the channel."""
DISCORD_EDITS = 5
"""Edits per window in one channel, as Discord's headers say for bots."""
DISCORD_EDIT_SECONDS = 5.0
"""The window, in Discord's seconds."""
REAL_LATENCY = 0.25
"""A REST request's round trip to Discord from a bot's host, in seconds: what
``real_discord`` in ``tests/test_e2e_real_latency.py`` uses."""


@dataclass(frozen=True)
class Verdict:
    """What the bucket says of one edit: whether it goes through, and the headers
    Discord sends with the answer either way."""

    allowed: bool
    retry_after: float
    """Discord's seconds until the window ends (what a 429 tells to wait)."""
    headers: dict[str, str]

    def body(self) -> dict[str, object]:
        """Discord's JSON body for the 429."""
        return {"message": "You are being rate limited.", "retry_after": self.retry_after,
                "global": False}


@dataclass
class EditBucket:
    """Discord's per-channel bucket of message edits (see the module)."""

    limit: int = DISCORD_EDITS
    per: float = DISCORD_EDIT_SECONDS
    """The window, in Discord's seconds."""
    limited: int = 0
    """Edits answered 429 so far."""
    _windows: dict[int, tuple[float, int]] = field(default_factory=dict, repr=False)
    """Per channel: when its window ends (``time.monotonic``) and the edits in it."""

    @staticmethod
    def channel_of(method: str, path: str) -> int | None:
        """The channel whose bucket a request counts in (the path after ``/api/v10``),
        or ``None`` if it is not a message edit."""
        found = EDIT_ROUTE.match(path) if method == "PATCH" else None
        return int(found[1]) if found else None

    def take(self, channel_id: int, *, now: float | None = None, scale: float = 1.0) -> Verdict:
        """Count one edit in ``channel_id``'s bucket at ``now`` (real seconds,
        ``time.monotonic``); ``scale`` is the fake's real seconds per Discord second."""
        now = time.monotonic() if now is None else now
        ends, used = self._windows.get(channel_id, (0.0, 0))
        if now >= ends:
            ends, used = now + self.per * scale, 0
        allowed = used < self.limit
        if allowed:
            used += 1
        else:
            self.limited += 1
        self._windows[channel_id] = (ends, used)
        left = max(0.0, (ends - now) / scale)
        headers = {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(self.limit - used),
            "X-RateLimit-Reset": f"{time.time() + left:.3f}",
            "X-RateLimit-Reset-After": f"{left:.3f}",
            "X-RateLimit-Bucket": "fake-channel-message-edits",
        }
        if not allowed:
            # Without Via discord.py takes a 429 for a Cloudflare ban and does not wait.
            headers.update({"Retry-After": f"{max(1, round(left + 0.5))}", "Via": "1.1 google",
                            "X-RateLimit-Scope": "user"})
        return Verdict(allowed, round(left, 3), headers)
