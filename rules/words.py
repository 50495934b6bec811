"""Small helpers for the words games narrate with."""

from __future__ import annotations


def who(seat: int) -> str:
    """A seat's place-holder in event text, filled with a name by
    :meth:`rules.core.Event.render`.

    >>> who(2)
    '{s2}'
    """
    return "{s" + str(seat) + "}"


def plural(count: int, noun: str) -> str:
    """``1 card``, ``3 cards``.

    >>> plural(1, "tile"), plural(3, "tile")
    ('1 tile', '3 tiles')
    """
    return f"{count} {noun}{'' if count == 1 else 's'}"


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, ending in an ellipsis when cut.

    >>> clip("abcdef", 4), clip("abc", 4)
    ('abc…', 'abc')
    """
    return text if len(text) <= limit else text[:limit - 1] + "…"
