"""Gateway sharding as Discord does it (discord.com/developers/docs/events/gateway,
*Sharding*): a session IDENTIFYs with ``shard: [shard_id, num_shards]`` (none means
``[0, 1]``); a guild's events go to the shard ``(guild_id >> 22) % num_shards``, events
without a guild (DMs, DM interactions) to shard 0; an invalid pair is closed with 4010
Invalid Shard. Starting sessions is limited by ``max_concurrency``: shards share a
bucket ``shard_id % max_concurrency``, and each bucket may IDENTIFY once per 5 s."""

from __future__ import annotations

from dataclasses import dataclass

INVALID_SHARD = 4010
"""Close code for an IDENTIFY whose ``shard`` is not a valid ``[shard_id, num_shards]``."""
IDENTIFY_WINDOW = 5.0
"""Discord's seconds within which one bucket of shards may IDENTIFY once."""


def shard_of(guild_id: int, num_shards: int) -> int:
    """The shard that receives ``guild_id``'s events among ``num_shards``.

    >>> shard_of(41771983423143937, 2), shard_of(41771983423143937 + (1 << 22), 2)
    (0, 1)
    """
    return (guild_id >> 22) % num_shards


@dataclass(frozen=True)
class ShardKey:
    """One session's ``[shard_id, num_shards]``."""

    shard_id: int = 0
    num_shards: int = 1

    @classmethod
    def parse(cls, raw: object) -> ShardKey | None:
        """The IDENTIFY's ``shard`` field read as Discord reads it: absent (``None``) is
        ``[0, 1]``; anything but two integers with ``0 <= shard_id < num_shards`` is
        ``None`` (refused with 4010).

        >>> ShardKey.parse(None), ShardKey.parse([1, 2])
        (ShardKey(shard_id=0, num_shards=1), ShardKey(shard_id=1, num_shards=2))
        >>> [ShardKey.parse(bad) for bad in ([2, 2], [0, 0], [-1, 2], [0], ["0", 1], [True, 2])]
        [None, None, None, None, None, None]
        """
        if raw is None:
            return cls()
        if not isinstance(raw, list) or len(raw) != 2:
            return None
        # bool is an int in Python, not in Discord's JSON.
        if not all(isinstance(n, int) and not isinstance(n, bool) for n in raw):
            return None
        shard_id, num_shards = raw
        if num_shards < 1 or not 0 <= shard_id < num_shards:
            return None
        return cls(shard_id, num_shards)

    def receives(self, guild_id: int | None) -> bool:
        """Whether this shard gets an event of ``guild_id`` (``None``: no guild, shard 0's).

        >>> ShardKey(0, 2).receives(None), ShardKey(1, 2).receives(None)
        (True, False)
        """
        if guild_id is None:
            return self.shard_id == 0
        return shard_of(guild_id, self.num_shards) == self.shard_id

    def as_list(self) -> list[int]:
        """The ``[shard_id, num_shards]`` READY echoes."""
        return [self.shard_id, self.num_shards]


class IdentifyBuckets:
    """Discord's limit on starting sessions: shards share a bucket ``shard_id %
    max_concurrency``, and each bucket may IDENTIFY once per :data:`IDENTIFY_WINDOW`
    (in Discord's seconds: ``scale`` real seconds each)."""

    def __init__(self, max_concurrency: int) -> None:
        if max_concurrency < 1:
            raise ValueError("max_concurrency is at least 1")
        self.max_concurrency = max_concurrency
        self._last: dict[int, float] = {}

    def take(self, shard: ShardKey, now: float, *, scale: float) -> bool:
        """Whether ``shard`` may IDENTIFY at ``now`` (real seconds); counted if so.

        >>> buckets = IdentifyBuckets(2)
        >>> [buckets.take(ShardKey(s, 4), 0.0, scale=1) for s in (0, 1, 2)]
        [True, True, False]
        >>> buckets.take(ShardKey(2, 4), 5.0, scale=1)
        True
        """
        key = shard.shard_id % self.max_concurrency
        last = self._last.get(key)
        if last is not None and now - last < IDENTIFY_WINDOW * scale:
            return False
        self._last[key] = now
        return True
