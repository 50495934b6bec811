"""The rules of Eclipse as players read them (``/rules eclipse``; under 4,000 characters
in every language), written from the game's options and its table's size: paragraphs
of phrases, which ``bot.i18n`` says in the reader's language."""

from __future__ import annotations

from rules.eclipse.cards import BOTTOM_SIGN, EMBLEM_SIGN, EMBLEMS, TOP_SIGN, emblem_max
from rules.eclipse.options import EclipseOptions
from rules.eclipse.placement import COMPLETE
from rules.eclipse.state import HAND_SIZE
from rules.eclipse.terms import EMBLEM_WORD, TOP_WORD, either, ranked
from rules.phrases import Phrase

MIN_SEATS, MAX_SEATS = 2, 6


def rules_text(options: EclipseOptions, seats: int | None) -> list[Phrase]:
    """The rules of a game with ``options`` at a table of ``seats`` (``None``: any), a
    phrase a paragraph.

    >>> paragraphs = rules_text(EclipseOptions.parse({"counterattack": 2, "hand_cap": 30}), 4)
    >>> dict(paragraphs[0].args)["seats"]
    Phrase(eclipse.rules.players(count=4))
    >>> dict(paragraphs[7].args), dict(paragraphs[8].args)
    ({}, {'hand_cap': 30})
    >>> paragraphs[7].count
    2
    """
    deck = options.cards
    symbols = [card for card in deck.cards if not card.follower]
    followers = len(deck.cards) - len(symbols)
    numbers = sorted({card.number for card in symbols})
    emblems = ranked([Phrase("eclipse.rules.sign", sign=EMBLEM_SIGN[e], word=EMBLEM_WORD[e])
                      for e in EMBLEMS])
    tops = either([Phrase("eclipse.rules.sign", sign=TOP_SIGN[t], word=TOP_WORD[t])
                   for t in sorted({c.top for c in symbols if c.top}, key=list(TOP_SIGN).index)])
    bottoms = either(list(BOTTOM_SIGN.values()))
    seat_words = Phrase("eclipse.rules.players", count=seats) if seats is not None else \
        Phrase("eclipse.rules.players_range", least=MIN_SEATS, most=MAX_SEATS)
    return [
        Phrase("eclipse.rules.intro", seats=seat_words,
               cards=Phrase("eclipse.rules.cards", count=len(deck.cards)), deck=deck.name,
               symbols=Phrase("eclipse.rules.symbol_cards", count=len(symbols)), tops=tops,
               bottoms=bottoms, emblems=emblems, least=emblem_max(EMBLEMS[0]),
               most=emblem_max(EMBLEMS[-1]), low=numbers[0], high=numbers[-1],
               followers=Phrase("eclipse.rules.followers", count=followers)),
        Phrase("eclipse.rules.deal", hand=HAND_SIZE),
        Phrase("eclipse.rules.hand"),
        Phrase("eclipse.rules.deposit", hand=HAND_SIZE),
        Phrase("eclipse.rules.subsets", complete=COMPLETE),
        Phrase("eclipse.rules.safe_set", complete=COMPLETE),
        Phrase("eclipse.rules.out"),
        _counterattack(options.counterattack),
        Phrase("eclipse.rules.end", hand_cap=options.hand_cap),
        Phrase("eclipse.rules.options"),
    ]


def _counterattack(count: int) -> Phrase:
    if count == 0:
        return Phrase("eclipse.rules.no_counterattack")
    return Phrase("eclipse.rules.counterattack", count=count)
