"""Eclipse's words as data (docs/i18n.md): its terms (tops, emblems, the sides of a
hand, a ♀ subset's parity) and ways to put phrases together, each a
:class:`~rules.phrases.Phrase` that ``bot.i18n`` makes in the reader's language.

Keys are written out one by one, never made from data, so that every key is found by
reading the code (tests/test_i18n_catalogs.py).

>>> EMBLEM_WORD["cog"].key, SIDE_WORD["attacker"].key
('eclipse.emblem.cog', 'eclipse.side.attacker')
>>> str(lines(["a", "b", "c"]))
"eclipse.join.lines(first='a', rest=Phrase(eclipse.join.lines(first='b', rest='c')))"
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rules.phrases import Phrase, Words

TOP_WORD = {"sun": Phrase("eclipse.top.sun"), "moon": Phrase("eclipse.top.moon")}
EMBLEM_WORD = {
    "shield": Phrase("eclipse.emblem.shield"),
    "bolt": Phrase("eclipse.emblem.bolt"),
    "cog": Phrase("eclipse.emblem.cog"),
    "butterfly": Phrase("eclipse.emblem.butterfly"),
    "star": Phrase("eclipse.emblem.star"),
}
SIDE_WORD = {"attacker": Phrase("eclipse.side.attacker"),
             "defender": Phrase("eclipse.side.defender")}
PARITY_WORD = {"odd": Phrase("eclipse.parity.odd"), "even": Phrase("eclipse.parity.even")}
FOLLOWER_WORD = Phrase("eclipse.card.follower")


def key_word(key: str) -> Words:
    """A subset's key in words: an emblem, or ``odd``/``even`` (anything else as it is)."""
    return EMBLEM_WORD.get(key) or PARITY_WORD.get(key) or key


def _chain(parts: Sequence[Words], join: Callable[[Words, Words], Phrase]) -> Words:
    """``parts`` joined pairwise from the right: ``join(a, join(b, c))``."""
    if not parts:
        return ""
    rest: Words = parts[-1]
    for part in reversed(parts[:-1]):
        rest = join(part, rest)
    return rest


def lines(parts: Sequence[Words]) -> Words:
    """``parts`` one under the other (a text of several lines)."""
    return _chain(parts, lambda a, b: Phrase("eclipse.join.lines", first=a, rest=b))


def steps(parts: Sequence[Words]) -> Words:
    """The steps of a judging in one line, ``;`` between them."""
    return _chain(parts, lambda a, b: Phrase("eclipse.join.steps", first=a, rest=b))


def listed(parts: Sequence[Words]) -> Words:
    """``a, b, c``: things listed (the cards drawn, the cards of a counterattack)."""
    return _chain(parts, lambda a, b: Phrase("eclipse.join.list", first=a, rest=b))


def spaced(parts: Sequence[Words]) -> Words:
    """``a b c``: things side by side (the cards of a subset)."""
    return _chain(parts, lambda a, b: Phrase("eclipse.join.spaced", first=a, rest=b))


def either(parts: Sequence[Words]) -> Words:
    """``a or b``: the choices of one thing (a card's top)."""
    return _chain(parts, lambda a, b: Phrase("eclipse.join.or", first=a, rest=b))


def ranked(parts: Sequence[Words]) -> Words:
    """``a > b > c``: things from the strongest."""
    return _chain(parts, lambda a, b: Phrase("eclipse.join.above", first=a, rest=b))


__all__ = ["EMBLEM_WORD", "FOLLOWER_WORD", "PARITY_WORD", "SIDE_WORD", "TOP_WORD", "either",
           "key_word", "lines", "listed", "ranked", "spaced", "steps"]
