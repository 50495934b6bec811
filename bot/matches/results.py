"""A result in words, in the locale spoken (:func:`bot.i18n.speaking`): places as a
ranking says them, who won in one phrase, names joined as a sentence does. Every side
that shows a result (Discord's table, the local table, the web) says it so.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from babel import Locale

from bot.i18n import DEFAULT, LOCALES, Phrase, current, say, tr, trn
from bot.i18n.stored import read_words as read_reason
from bot.i18n.stored import stored_words as stored_reason
from rules.core import fill_names
from rules.phrases import Words

__all__ = ["joined", "ordinal", "place_label", "read_reason", "reason_said", "stored_reason",
           "verdict"]


def ordinal(number: int) -> str:
    """``number`` as a place in the locale spoken (``1st``, ``22nd``; ``1º``): the form
    chosen by the locale's CLDR ordinal rules.

    >>> from bot.i18n import speaking
    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 21, 112)]
    ['1st', '2nd', '3rd', '4th', '11th', '21st', '112th']
    >>> with speaking("pt_BR"):
    ...     ordinal(2)
    '2º'
    """
    locale = current()
    form = Locale.parse(locale if locale in LOCALES else DEFAULT).ordinal_form(number)
    if form == "one":
        return tr("result.ordinal.one", n=number)
    if form == "two":
        return tr("result.ordinal.two", n=number)
    if form == "few":
        return tr("result.ordinal.few", n=number)
    return tr("result.ordinal.other", n=number)


def place_label(place: int, places: Sequence[int]) -> str:
    """A finishing place as a ranking says it, ``=`` marking a shared place.

    >>> [place_label(p, (1, 2, 2, 4)) for p in (1, 2, 4)]
    ['1st', '=2nd', '4th']
    """
    shared = sum(1 for other in places if other == place) > 1
    return ("=" if shared else "") + ordinal(place)


def joined(words: Sequence[str]) -> str:
    """Names as a sentence lists them: ``Ada``, ``Ada and Bo``, ``Ada, Bo and Cy``.

    >>> joined(["Ada", "Bo", "Cy"])
    'Ada, Bo and Cy'
    """
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return tr("result.and", first=", ".join(words[:-1]), last=words[-1])


def verdict(names: Sequence[str], places: Sequence[int],
            computers: Collection[int] = ()) -> str:
    """Who won, in one phrase: one winner wins, several win, several computer players
    alone "Computer players win", everyone first "A draw". ``computers`` are the seats
    the computer plays.

    >>> verdict(["Ada", "Bo", "Cy"], (3, 1, 1)), verdict(["Ada", "Bo"], (1, 1))
    ('Bo and Cy win', 'A draw')
    >>> verdict(["Tess", "Ace Bot", "Dealer Bot"], (3, 1, 1), computers={1, 2})
    'Computer players win'
    """
    winners = [seat for seat, place in enumerate(places) if place == 1]
    if len(places) > 1 and len(winners) == len(places):
        return tr("result.draw")
    if len(winners) > 1 and all(seat in computers for seat in winners):
        return tr("result.computers_win")
    said = [names[seat] if seat < len(names) else tr("result.player", n=seat + 1)
            for seat in winners]
    return trn("result.wins", len(said), who=joined(said))


def reason_said(reason: Words, names: Sequence[str]) -> str:
    """An outcome's reason in the locale spoken, its seats named from ``names`` (as
    Discord text or plain, as the caller gives them): a phrase from the catalogs, or the
    older text naming seats as ``{s0}``.

    >>> from bot.i18n import Phrase, Seat
    >>> reason_said(Phrase("core.event.forfeits", who=Seat(1)), ["Ada", "{s0}"])
    '{s0} forfeits.'
    >>> reason_said("{s1} forfeited", ["Ada", "Bo"])
    'Bo forfeited'
    """
    if isinstance(reason, Phrase):
        return say(reason, None, names)
    return fill_names(reason, names)
