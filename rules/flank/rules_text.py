"""The rules of Flank as players read them (``/rules flank``; under 2,000 characters)."""

RULES_TEXT = """\
**Flank** — two players, black (X, moves first) and white (O).

**Pieces.** Each player has 25 two-sided cards (black on one side, white on the other) \
and 5 stopper tiles. The table has no edges unless the game is played on an N×N board.

**Opening.** Four cards go in the centre, X O over O X (D4 E4 / D5 E5), two from each \
supply, so each player starts with 23 cards in hand.

**A turn.** Lay one card, your colour up, on an empty cell so that it *outflanks*: in at \
least one of the 8 directions, a contiguous run of one or more of your opponent's cards \
runs from it to a card of your colour. Every outflanked run, in every direction, flips to \
your colour. You may then put one of your stoppers on the card you just laid \
(write `C4*` instead of `C4`).

**Stoppers.** A stoppered card is never flipped, and a run that contains your opponent's \
stoppered card does not outflank; your own stoppered card may end a run. No card may be \
laid on any of the 8 cells around a stoppered card: stoppers are the edge of the table.

**Passing.** If you have no legal placement, or no cards left, you pass.

**End.** The game ends when both players pass in succession or both supplies are empty. \
The colour with more cards showing wins; equal counts are a draw.

**Cells.** Columns are letters, rows are numbers, row 1 at the top. The table may grow \
past A1: columns …, -B, -A, A, B, … and rows …, -2, -1, 1, 2, ….

**Options.** `board` (0 = no edges, or an even N from 4 to 26 for an N×N board), \
`stoppers` (per player, 0–10, default 5), `cards` (per player with the 2 opening cards; \
default 25, or N×N/2 on a board). An 8×8 board with no stoppers is classic Othello.
"""
