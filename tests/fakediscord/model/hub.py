"""What every model object shares: snowflake ids, Discord's timestamps, and the
:class:`Hub` (the fake that owns the world and announces its changes)."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Protocol

from .constants import DISCORD_EPOCH_MS

HALF_INCREMENT = 1 << 21
"""Half the range of a snowflake's low 22 bits (worker, process and increment)."""

if TYPE_CHECKING:
    from .channels import FakeChannel
    from .guilds import FakeGuild
    from .users import FakeMember, FakeRole, FakeUser


def now_iso() -> str:
    """Current time in the ISO 8601 form Discord sends."""
    return datetime.now(UTC).isoformat()


class SnowflakeFactory:
    """Hands out increasing snowflakes whose timestamp part is the real current time.

    Real-looking ids matter: discord.py derives ``created_at`` from them, and tests can
    compare ids to tell which message came first.

    >>> ids = SnowflakeFactory()
    >>> first, second = ids.next(), ids.next()
    >>> second > first and (first >> 22) + DISCORD_EPOCH_MS > 1_700_000_000_000
    True
    """

    def __init__(self) -> None:
        self._last = 0
        self._earlier = 0

    def next(self) -> int:
        """Return a new snowflake, strictly greater than every one before it."""
        candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(candidate, self._last + 1)
        return self._last

    def on_shard(self, shard_id: int, num_shards: int) -> int:
        """A new snowflake whose events go to shard ``shard_id`` of ``num_shards``
        (``(id >> 22) % num_shards == shard_id``: its millisecond, a few past now).

        >>> ids = SnowflakeFactory()
        >>> [(ids.on_shard(s, 3) >> 22) % 3 for s in (2, 0, 1, 1)]
        [2, 0, 1, 1]
        """
        if not 0 <= shard_id < num_shards:
            raise ValueError(f"shard {shard_id} is not one of {num_shards}")
        stamp = max(int(time.time() * 1000) - DISCORD_EPOCH_MS, (self._last >> 22) + 1)
        stamp += (shard_id - stamp) % num_shards
        self._last = stamp << 22
        return self._last

    def earlier(self, seconds: float) -> int:
        """A new snowflake of ``seconds`` ago (something that happened then and is
        heard of now), unique: its low bits count from the middle of their range,
        above those :meth:`next` gives out within one millisecond.

        >>> ids = SnowflakeFactory()
        >>> now, then = ids.next(), ids.earlier(2.0)
        >>> 1_900 <= ((now >> 22) - (then >> 22)) <= 2_100 and then != ids.earlier(2.0)
        True
        """
        self._earlier = (self._earlier + 1) % HALF_INCREMENT
        stamp = int((time.time() - seconds) * 1000) - DISCORD_EPOCH_MS
        return (stamp << 22) | (HALF_INCREMENT + self._earlier)


class Hub(Protocol):
    """What the model needs from the fake that owns it (ids and change notifications)."""

    base_url: str
    bot_user: FakeUser
    users: dict[int, FakeUser]

    def next_id(self) -> int: ...

    def _channel_added(self, channel: FakeChannel) -> None: ...

    def _member_added(self, member: FakeMember) -> None: ...

    def _role_added(self, guild: FakeGuild, role: FakeRole) -> None: ...

    def _add_user_to_guild(
        self, guild: FakeGuild, name: str, *, admin: bool, roles: tuple[str | FakeRole, ...]
    ) -> FakeUser: ...
