"""The last few ids seen, for telling a repeat from a first time."""

from __future__ import annotations

from collections.abc import Hashable, Iterable


class RecentIds:
    """The last ``size`` ids added, the oldest forgotten first.

    Asking whether an id is among them is one hash lookup: a list or deque of
    them would compare the id with every one, each a read of memory that is
    cold by the time the same match moves again.

    >>> recent = RecentIds(size=2)
    >>> recent.first("a"), recent.first("a"), recent.first("b"), recent.first("c")
    (True, False, True, True)
    >>> "a" in recent, "b" in recent, "c" in recent
    (False, True, True)
    """

    __slots__ = ("_ids", "size")

    def __init__(self, size: int) -> None:
        self.size = size
        self._ids: dict[Hashable, None] = {}

    def __contains__(self, item: object) -> bool:
        return item in self._ids

    def __len__(self) -> int:
        return len(self._ids)

    def add(self, item: Hashable) -> None:
        """Remember ``item`` (the oldest is forgotten past ``size``)."""
        ids = self._ids
        ids[item] = None
        if len(ids) > self.size:
            del ids[next(iter(ids))]

    def extend(self, items: Iterable[Hashable]) -> None:
        """Remember each of ``items``, in order."""
        for item in items:
            self.add(item)

    def first(self, item: Hashable) -> bool:
        """True the first time ``item`` is seen (among the recent ones); it is
        remembered either way."""
        if item in self._ids:
            return False
        self.add(item)
        return True
