"""The rules of Flank as players read them (``/rules flank``; under 2,000 characters)."""

RULES_TEXT = """\
**Flank** — two players. Who goes first is drawn at random; they play black (X).

**Pieces.** 25 two-sided cards and 5 stoppers each. No table edges unless played on an N×N \
board.

**Opening.** X O over O X in the centre (D4 E4 / D5 E5), two cards from each supply: \
23 left each.

**A turn.** Lay a card, your colour up, on an empty cell so that it *outflanks*: in at least \
one of the 8 directions a run of your opponent's cards goes from it to one of yours. Every \
outflanked run flips to your colour. You may then put a stopper on the card you just laid \
(`C4*`).

**Stoppers.** A stoppered card never flips, and a run through your opponent's stoppered card \
does not outflank; your own stoppered card may end a run. What else a stopper does is the \
option `stopper_zone`:
• `none` (default): nothing around it, but no stopper is allowed where it would leave your \
opponent, while they hold cards, with no move. Games run to the last card.
• `orthogonal`: no card may be laid on the 4 cells beside a stoppered card. Black can force \
a 9–0 win in five placements (F4* D3 C3* D2* C5).
• `ring`: no card on the 8 cells around it (the original rule). Stoppers wall players in: \
most games end early in a blockade.

**Passing.** With no legal placement or no cards left you pass.

**End.** Both players pass in succession, or both supplies are empty. More cards showing \
your colour wins; equal is a draw.

**Cells.** Columns are letters, rows numbers, row 1 at the top; past A1 come -A, -B … and \
-1, -2 ….

**Options.** `board` (no edges, or an even N×N from 4×4 to 26×26), `stoppers` (0–10, \
default 5), `cards` (default 25, or N×N/2 on a board), `stopper_zone` (above), e.g. \
`/play flank stopper_zone:ring`. An 8×8 board with no stoppers is Othello.
"""
