"""Which of the bot's gateway shards this process connects (``croupier run --cluster I
--clusters N [--shards S]``, docs/scaling.md): cluster ``I`` of ``N`` holds the shards
``range(I, S, N)`` of ``S``. Plain data, no discord.py: the command line builds one
before anything connects."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Cluster:
    """Cluster ``index`` of ``count``; ``shards`` is the bot's shard count, ``None``
    for Discord's recommendation rounded up to a multiple of ``count``."""

    index: int = 0
    count: int = 1
    shards: int | None = None

    @property
    def sharded(self) -> bool:
        """Whether the client must be sharded: one process without ``--shards`` is
        today's unsharded bot.

        >>> Cluster().sharded, Cluster(shards=1).sharded, Cluster(0, 2).sharded
        (False, True, True)
        """
        return self.count > 1 or self.shards is not None

    def shard_count(self, recommended: int) -> int:
        """The shard count to connect with: ``shards`` if given, else Discord's
        ``recommended`` count rounded up to a multiple of ``count``, so that every
        cluster holds as many shards and each computes the same count alone.

        >>> Cluster(1, 2).shard_count(3), Cluster(0, 3).shard_count(1)
        (4, 3)
        >>> Cluster(0, 2, shards=5).shard_count(9)
        5
        """
        if self.shards is not None:
            return self.shards
        return max(1, -(-recommended // self.count)) * self.count

    def shard_ids(self, shard_count: int) -> list[int]:
        """This cluster's shards among ``shard_count``.

        >>> Cluster(1, 3).shard_ids(8), Cluster(0, 1).shard_ids(2)
        ([1, 4, 7], [0, 1])
        """
        return list(range(self.index, shard_count, self.count))
