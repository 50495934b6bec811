"""Small helpers for text: :func:`clip` (any language), and English grammar
(:func:`plural`, :func:`ordinal`, :func:`place_label`, :func:`joined`) left for the
command line and the card set's English until they speak phrases: words people read
are phrases (:mod:`rules.phrases`), made in each language from the catalogs
(``bot.matches.results`` says places, verdicts and lists in the locale spoken)."""

from __future__ import annotations

from collections.abc import Sequence


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
