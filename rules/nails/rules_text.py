"""The rules of Hammer & Nails as players read them (``/rules nails``; under 4,000 characters)."""

RULES_TEXT = """\
**Hammer & Nails** — 2 players (red and green), or 4: two teams sharing a colour, or \
four colours with the `workshop4` deck. Build a stack of tiles so that *your* nails end \
up hidden and your opponents' show.

**Tiles.** Square tiles have four zones (the Space deck: octagons with a centre and four \
zones). A zone shows a red or green nail (ships), a hammer (laser) or nothing, and may \
carry a mechanic. Tiles are written by number; a placement is `17@C4/90`: tile 17 with \
its top-left zone (an octagon's centre) on cell C4, turned 90° clockwise.

**Start.** Each player draws a tile; the lowest deals; the next player starts. 4 tiles \
each; one tile from the deck starts the stack.

**A turn.** Lay a tile so that it covers at least one showing zone, each covered zone on a \
different tile. A blank may be covered by a nail or a blank; a nail by a hammer or a \
blank; a hammer only by a blank; a Ø zone never. Zones over empty table are free. Then \
draw up to 4 (or discard down to 4). With no legal placement: discard a tile, draw one.

**Mechanics** fire when a hammer covers a nail: the nail's mechanic, then the hammer's. \
Play Again (optional) · Remove a top tile from the stack · Look through the deck for a \
tile · Draw two (optional) · Ø can't be covered · Next player must cover a green / red \
nail · One opponent discards a tile at random · Discard a tile of your choice (optional).

**Must cover.** The next player covers a nail of that colour, or declares they cannot. \
The player who fired it may challenge: if they could, they must cover one and take 2 \
penalty nails; if not, the challenger takes 2, shows their hand to the declarer, and the \
declarer discards a tile at random, draws one and must play it if able.

**End.** When the deck is empty and a player ends a turn with no tiles, the round is \
finished and the game ends. Count your colour showing, in your hand, plus penalties. \
Fewest wins (`objective:most` for most; the Space deck counts most, and each ship next to \
a cow scores +1). Ties: the tied players, from the one who went out first, each remove a \
top tile, then recount.
"""
