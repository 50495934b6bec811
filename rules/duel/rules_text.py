"""The rules of Arcane Duel as players read them (``/rules duel``; under 4,000 characters
in every language), written from the duel's options and its table's size: paragraphs of
phrases (``bot.i18n`` makes them in the reader's language)."""

from __future__ import annotations

from rules.duel.core import HAND_LIMIT, OPENING_HAND
from rules.duel.decks import DECK_SIZE
from rules.duel.options import DuelOptions
from rules.phrases import Phrase

MIN_SEATS, MAX_SEATS = 2, 4


def _head_start(options: DuelOptions) -> Phrase:
    """How moving first is offset (``head_start``), in one sentence.

    >>> _head_start(DuelOptions.parse({"head_start": "life", "life": 7}))
    Phrase(duel.rules.head_start.life(life=8))
    """
    match options.head_start:
        case "no-draw":
            return Phrase("duel.rules.head_start.no_draw")
        case "draw":
            return Phrase("duel.rules.head_start.draw")
        case "card":
            return Phrase("duel.rules.head_start.card", cards=OPENING_HAND + 1)
    return Phrase("duel.rules.head_start.life", life=options.life + 1)


def _table(seats: int | None) -> Phrase:
    """The table's size, in words."""
    if seats is None:
        return Phrase("duel.rules.table.any", least=MIN_SEATS, most=MAX_SEATS)
    if seats > 2:
        return Phrase("duel.rules.table.free_for_all", count=seats)
    return Phrase("duel.rules.table.duel", count=seats)


def rules_text(options: DuelOptions, seats: int | None) -> list[Phrase]:
    """The rules of a duel with ``options`` at a table of ``seats`` (``None``: any), as
    paragraphs.

    >>> paragraphs = rules_text(DuelOptions.parse({"life": 7}), 3)
    >>> paragraphs[0].key, dict(paragraphs[0].args)["life"]
    ('duel.rules.setup', 7)
    """
    ffa = seats is not None and seats > 2
    parts = [
        Phrase("duel.rules.setup", table=_table(seats), life=options.life, deck=DECK_SIZE,
               hand=OPENING_HAND, head_start=_head_start(options)),
        Phrase("duel.rules.turn", limit=HAND_LIMIT),
        Phrase("duel.rules.mana"),
        Phrase("duel.rules.fast", passing=Phrase("duel.rules.auto_pass.on") if options.auto_pass
               else Phrase("duel.rules.auto_pass.off")),
        Phrase("duel.rules.combat_ffa") if ffa else Phrase("duel.rules.combat"),
        Phrase("duel.rules.losing", end=Phrase("duel.rules.losing.ffa") if ffa
               else Phrase("duel.rules.losing.duel")),
    ]
    if options.ante:
        parts.append(Phrase("duel.rules.ante_both") if seats == 2
                     else Phrase("duel.rules.ante_all"))
    parts.append(Phrase("duel.rules.discord"))
    return parts
