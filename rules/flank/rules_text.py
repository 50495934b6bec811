"""The rules of Flank as players read them (``/rules flank``; under 4,000 characters in
every language), written from the game's options as paragraphs of words (phrases)."""

from __future__ import annotations

from rules.cells import cell_name, column_name
from rules.flank.options import MAX_BOARD, MAX_STOPPERS, FlankOptions
from rules.phrases import Phrase


def rules_text(options: FlankOptions, seats: int | None = None) -> list[Phrase]:
    """The rules of a game with ``options`` (Flank is always for two), one phrase per
    paragraph.

    >>> paragraphs = rules_text(FlankOptions.parse({"board": 8, "stoppers": 0}))
    >>> [p.key for p in paragraphs][3:5]
    ['flank.rules.turn', 'flank.rules.othello']
    """
    cards, stoppers = options.card_count, options.stoppers
    c = options.board // 2 - 1 if options.bounded else 3
    centre = f"{cell_name(c, c)} {cell_name(c + 1, c)} / {cell_name(c, c + 1)} " \
             f"{cell_name(c + 1, c + 1)}"
    return [
        Phrase("flank.rules.intro"),
        _pieces(options),
        Phrase("flank.rules.opening", centre=centre, left=cards - 2),
        Phrase("flank.rules.turn_stoppers") if stoppers else Phrase("flank.rules.turn"),
        _stoppers(options),
        Phrase("flank.rules.passing"),
        Phrase("flank.rules.end"),
        Phrase("flank.rules.options", max_board=MAX_BOARD, max_stoppers=MAX_STOPPERS),
    ]


def _pieces(options: FlankOptions) -> Phrase:
    """What each player gets, the seats' balance of stoppers, and the table's edges."""
    cards = Phrase("flank.rules.cards", count=options.card_count)
    if options.stoppers:
        supply = Phrase("flank.rules.supply", cards=cards,
                        stoppers=Phrase("flank.count.stoppers", count=options.stoppers))
    else:
        supply = Phrase("flank.rules.supply_no_stoppers", cards=cards)
    if options.bounded:
        n = options.board
        table = Phrase("flank.rules.board", n=n, last=column_name(n - 1))
    else:
        table = Phrase("flank.rules.no_edges")
    extra = options.extra_stoppers or 0
    if extra:
        balance = Phrase("flank.rules.extra", more=Phrase("flank.count.stoppers",
                                                          count=extra))
    elif options.stoppers and not options.bounded:
        balance = Phrase("flank.rules.even")
    else:
        return Phrase("flank.rules.pieces", supply=supply, table=table)
    return Phrase("flank.rules.pieces_balanced", supply=supply, balance=balance, table=table)


def _stoppers(options: FlankOptions) -> Phrase:
    """What a stopper does under this game's ``stopper_zone`` (and under the others)."""
    if not options.stoppers:
        return Phrase("flank.rules.othello") if options.board == 8 \
            else Phrase("flank.rules.no_stoppers")
    zone = options.stopper_zone
    if zone == "ring":
        return Phrase("flank.rules.zone_ring")
    if zone == "orthogonal":
        # Why `orthogonal` is no good on the open table (3 stoppers and 7 cards suffice).
        if not options.bounded and options.stoppers >= 3 and options.card_count >= 7:
            return Phrase("flank.rules.zone_orthogonal_forced")
        return Phrase("flank.rules.zone_orthogonal")
    return Phrase("flank.rules.zone_none")
