"""The rules of Hammer & Nails as players read them (``/rules nails``; under 4,000
characters), written from the game's options and its table's size."""

from __future__ import annotations

from rules.nails.decks import DECKS
from rules.nails.options import NailsOptions
from rules.nails.state import HAND, PENALTY
from rules.nails.tiles import Deck
from rules.words import joined, plural, table_size

MECHANIC_WORDS = {
    "again": "Play Again (optional)",
    "remove": "Remove a top tile from the stack",
    "search": "Look through the deck for a tile",
    "draw2": "Draw two (optional)",
    "null": "Ø can't be covered",
    "cover": "Next player must cover a {colours} {nail}",
    "opp-discard": "One opponent discards a tile at random",
    "discard": "Discard a tile of your choice (optional)",
}
"""The mechanics in the rules' words, in the order they are listed (``cover`` stands
for every ``cover-<colour>``)."""


def deck_for(options: NailsOptions, seats: int | None) -> Deck:
    """The deck a table of ``seats`` plays with ``options``: four players who play
    no teams take the four-colour workshop deck."""
    if seats == 4 and options.teams is False and options.deck == "workshop":
        return DECKS["workshop4"]
    return DECKS[options.deck]


def rules_text(options: NailsOptions, seats: int | None) -> str:
    """The rules of a game with ``options`` at a table of ``seats`` (``None``: any).

    >>> text = rules_text(NailsOptions.parse({"deck": "space"}), 2)
    >>> text.split(" Build")[0]
    '**Hammer & Nails** — 2 players: red and blue.'
    """
    deck = deck_for(options, seats)
    nail, hammer = deck.nail_word, deck.hammer_word
    most = deck.most_wins if options.most_wins is None else options.most_wins
    goal = ("so that *your* {n}s show and your opponents' end up hidden" if most
            else "so that *your* {n}s end up hidden and your opponents' show").format(n=nail)
    octagon = deck.shape == "octagon"
    cows = any(tile.centre == "cow" for tile in deck.tiles)
    if octagon:
        tiles = (f"**Tiles.** {len(deck.tiles)} octagonal tiles, each with a centre "
                 f"({'a cow or ' if cows else ''}blank, never covered) and four zones.")
        anchor = "its centre"
    else:
        tiles = f"**Tiles.** {len(deck.tiles)} square tiles, each with four zones (2×2)."
        anchor = "its top-left zone"
    scoring = (f"Count your colour showing, in your hand, plus penalties. "
               f"{'Most' if most else 'Fewest'} wins"
               + (" (`objective:fewest` for fewest)." if most else
                  " (`objective:most` for most).")
               + (f" Each {nail} of yours next to a cow scores +1." if cows else ""))
    return "\n\n".join([
        f"**Hammer & Nails** — {_players(deck, options, seats)} Build a stack of tiles "
        f"{goal}.",

        f"{tiles} A zone shows a {' or '.join(deck.colours)} {nail}, a {hammer} or nothing, "
        f"and may carry a mechanic. Tiles are written by number; a placement is `17@C4/90`: "
        f"tile 17 with {anchor} on cell C4, turned 90° clockwise.",

        f"**Start.** Each player draws a tile; the lowest deals; the next player starts. "
        f"{HAND} tiles each; one tile from the deck starts the stack.",

        f"**A turn.** Lay a tile so that it covers at least one showing zone, each covered "
        f"zone on a different tile. A blank may be covered by a {nail} or a blank; a {nail} "
        f"by a {hammer} or a blank; a {hammer} only by a blank; a Ø zone never. Zones over "
        f"empty table are free. Then draw up to {HAND} (or discard down to {HAND}). With no "
        "legal placement: discard a tile, draw one.",

        f"**Mechanics** fire when a {hammer} covers a {nail}: the {nail}'s mechanic, then "
        f"the {hammer}'s. " + " · ".join(_mechanics(deck)) + ".",

        f"**Must cover.** The next player covers a {nail} of that colour, or declares they "
        f"cannot. The player who fired it may challenge: if they could, they must cover one "
        f"and take {PENALTY} penalty {nail}s; if not, the challenger takes {PENALTY}, shows "
        "their hand to the declarer, and the declarer discards a tile at random, draws one "
        "and must play it if able.",

        f"**End.** When the deck is empty and a player ends a turn with no tiles, "
        f"{_last_turns(options)} {scoring} Ties: the tied players, from the one who went "
        "out first, each remove a top tile, then recount.",
    ]) + "\n"


def _last_turns(options: NailsOptions) -> str:
    """How the game ends once a player goes out."""
    if options.final_round == "dealer":
        return ("the round is finished with the dealer's turn and the game ends "
                "(`final_round:each`: each other player has one last turn).")
    return ("each other player has one last turn and the game ends (`final_round:dealer`: "
            "the round is finished, the dealer last).")


def _players(deck: Deck, options: NailsOptions, seats: int | None) -> str:
    colours = list(deck.colours)
    if len(colours) > 2:
        many = "four colours: " if len(colours) == 4 and seats in (None, 4) else ""
        return (f"{table_size(seats, 2, len(colours))}, a colour each ({many}"
                f"{joined(colours[:seats or len(colours)])}).")
    if seats is None:
        four = ("a colour each with the four-colour workshop deck (`teams:no`)"
                if options.teams is False else
                "two teams sharing a colour (`teams:no`: a colour each, with the workshop "
                "deck)")
        return f"2 or 4 players: 2 play {colours[0]} and {colours[1]}; 4 play {four}."
    if seats == 4:
        return (f"4 players in two teams: {colours[0]} (1st and 3rd seats) and {colours[1]} "
                "(2nd and 4th); a team shares a colour and a count, not hands.")
    return f"{plural(seats, 'player')}: {joined(colours[:seats])}."


def _mechanics(deck: Deck) -> list[str]:
    present = {m for tile in deck.tiles for m in tile.mechanics}
    covers = [c for c in deck.colours if f"cover-{c}" in present]
    said = []
    for key, words in MECHANIC_WORDS.items():
        if key == "cover":
            if covers:
                said.append(words.format(colours=" / ".join(covers), nail=deck.nail_word))
        elif key in present:
            said.append(words)
    return said
