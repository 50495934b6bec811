"""Small helpers for text: :func:`clip` (any language), and English grammar
(:func:`plural`, :func:`joined`) left for the developers' command line and the card
set's English text (the oracle the phrase-built text is held to): words people read
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


def joined(words: Sequence[str]) -> str:
    """``Ada``, ``Ada and Bo``, ``Ada, Bo and Cy``.

    >>> joined(["Ada"]), joined(["Ada", "Bo"]), joined(["Ada", "Bo", "Cy"])
    ('Ada', 'Ada and Bo', 'Ada, Bo and Cy')
    """
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]
