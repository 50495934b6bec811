"""Small helpers for the words games narrate with."""

from __future__ import annotations

from collections.abc import Collection, Sequence


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


def table_size(seats: int | None, least: int, most: int) -> str:
    """A table's size as rules say it: ``3 players`` at a table of three, the range
    the game takes at no table in particular (``seats`` ``None``).

    >>> table_size(3, 2, 6), table_size(None, 2, 6), table_size(None, 2, 2)
    ('3 players', '2 to 6 players', '2 players')
    """
    if seats is not None:
        return plural(seats, "player")
    return plural(least, "player") if least == most else f"{least} to {most} players"


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, ending in an ellipsis when cut.

    >>> clip("abcdef", 4), clip("abc", 4)
    ('abc…', 'abc')
    """
    return text if len(text) <= limit else text[:limit - 1] + "…"


def ordinal(number: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` … ``11th``, ``21st``.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st', '111th']
    """
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def place_label(place: int, places: Sequence[int]) -> str:
    """A finishing place as a ranking says it, ``=`` marking a shared place.

    >>> [place_label(p, (1, 2, 2, 4)) for p in (1, 2, 4)]
    ['1st', '=2nd', '4th']
    """
    shared = sum(1 for other in places if other == place) > 1
    return ("=" if shared else "") + ordinal(place)


def joined(words: Sequence[str]) -> str:
    """``Ada``, ``Ada and Bo``, ``Ada, Bo and Cy``.

    >>> joined(["Ada"]), joined(["Ada", "Bo"]), joined(["Ada", "Bo", "Cy"])
    ('Ada', 'Ada and Bo', 'Ada, Bo and Cy')
    """
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def verdict(names: Sequence[str], places: Sequence[int],
            computers: Collection[int] = ()) -> str:
    """Who won, in one phrase: one winner ``wins``, several ``win``, several
    computer players alone ``Computer players win``, everyone first ``A draw``.
    ``computers`` are the seats played by the computer.

    >>> verdict(["Ada", "Bo"], (2, 1))
    'Bo wins'
    >>> verdict(["Ada", "Bo", "Cy"], (3, 1, 1))
    'Bo and Cy win'
    >>> verdict(["Tess", "Croupier Bot", "Dealer Bot"], (3, 1, 1), computers={1, 2})
    'Computer players win'
    >>> verdict(["Ada", "Bo"], (1, 1))
    'A draw'
    """
    winners = [seat for seat, place in enumerate(places) if place == 1]
    if len(places) > 1 and len(winners) == len(places):
        return "A draw"
    if len(winners) > 1 and all(seat in computers for seat in winners):
        return "Computer players win"
    words = [names[seat] if seat < len(names) else f"Player {seat + 1}" for seat in winners]
    return f"{joined(words)} {'wins' if len(words) == 1 else 'win'}"
