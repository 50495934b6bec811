"""The rules of Flank as players read them (``/rules flank``; under 2,500 characters),
written from the game's options."""

from __future__ import annotations

from rules.cells import cell_name, column_name
from rules.flank.options import MAX_BOARD, MAX_STOPPERS, FlankOptions
from rules.words import plural

ZONES = {
    "none": "nothing around it, but no stopper is allowed where it would leave your "
            "opponent, while they hold cards, with no move. Games run to the last card",
    "orthogonal": "no card may be laid on the 4 cells beside a stoppered card",
    "ring": "no card on the 8 cells around it (the original rule). Stoppers wall players "
            "in: most games end early in a blockade",
}
"""What each ``stopper_zone`` does, in words."""
FORCED_WIN = ("Black can force a 9–0 win in five placements (F4* D3 C3* D2* C5) on the "
              "table without edges")
"""Why ``orthogonal`` is no good on the open table (3 stoppers and 7 cards suffice)."""


def rules_text(options: FlankOptions, seats: int | None = None) -> str:
    """The rules of a game with ``options`` (Flank is always for two).

    >>> text = rules_text(FlankOptions.parse({"board": 8, "stoppers": 0}))
    >>> "32 two-sided cards" in text, "This is Othello" in text
    (True, True)
    """
    cards, stoppers = options.card_count, options.stoppers
    c = options.board // 2 - 1 if options.bounded else 3
    centre = f"{cell_name(c, c)} {cell_name(c + 1, c)} / {cell_name(c, c + 1)} " \
             f"{cell_name(c + 1, c + 1)}"
    if options.bounded:
        n = options.board
        table = (f"Played on an {n}×{n} board: columns A–{column_name(n - 1)}, rows 1–{n}, "
                 "row 1 at the top; nothing is laid beyond its edges.")
    else:
        table = ("No table edges: columns are letters, rows numbers counted from the top; past "
                 "A1 come -A, -B … and -1, -2 ….")
    pieces = f"{plural(cards, 'two-sided card')}" + (
        f" and {plural(stoppers, 'stopper')} each." if stoppers else " each; no stoppers.")
    extra = options.extra_stoppers or 0
    if extra:
        pieces += (f" Black gets {plural(extra, 'stopper')} more: white lays the last card, "
                   "which is worth about as much.")
    elif stoppers and not options.bounded:
        pieces += " Both get as many stoppers (the original rule), which favours white, who " \
                  "lays the last card."
    parts = [
        "**Flank** — two players. Who goes first is drawn at random; they play black (X).",
        f"**Pieces.** {pieces} {table}",
        f"**Opening.** X O over O X in the centre ({centre}), two cards from each supply: "
        f"{cards - 2} left each.",
        "**A turn.** Lay a card, your colour up, on an empty cell so that it *outflanks*: in "
        "at least one of the 8 directions a run of your opponent's cards goes from it to one "
        "of yours. Every outflanked run flips to your colour."
        + (" You may then put a stopper on the card you just laid (`C4*`)." if stoppers
           else ""),
    ]
    if stoppers:
        parts.append(_stoppers(options))
    else:
        parts.append("**Stoppers.** No stoppers in this game (`stoppers:0`)."
                     + (" This is Othello: an 8×8 board, no stoppers."
                        if options.board == 8 else ""))
    parts += [
        "**Passing.** With no legal placement or no cards left you pass.",
        "**End.** Both players pass in succession, or both supplies are empty. More cards "
        "showing your colour wins; equal is a draw.",
        f"**Options.** `board` (no edges, or an even N×N from 4×4 to {MAX_BOARD}×{MAX_BOARD}), "
        f"`stoppers` (0–{MAX_STOPPERS} each), `cards` (each, the opening pair included; "
        "half of N×N on a board), `stopper_zone` (above), `extra_stoppers` (black's "
        "stoppers beyond white's; unset: as above, none on a board), e.g. "
        "`/play flank stopper_zone:ring`. An 8×8 board with no stoppers is Othello.",
    ]
    return "\n\n".join(parts) + "\n"


def _stoppers(options: FlankOptions) -> str:
    zone = options.stopper_zone
    said = ZONES[zone]
    if zone == "orthogonal" and not options.bounded and options.stoppers >= 3 \
            and options.card_count >= 7:
        said += f". {FORCED_WIN}"
    others = "; ".join(f"`{other}`: {ZONES[other].split('.')[0]}" for other in ZONES
                       if other != zone)
    return ("**Stoppers.** A stoppered card never flips, and a run through your opponent's "
            "stoppered card does not outflank; your own stoppered card may end a run. What "
            f"else a stopper does is the option `stopper_zone`; this game: `{zone}`: {said}. "
            f"(Otherwise {others}.)")
