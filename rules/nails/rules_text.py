"""The rules of Hammer & Nails as players read them (``/rules nails``; under 4,000
characters in every language), written from the game's options and its table's size,
as phrase paragraphs (``bot.i18n`` makes them in the reader's language)."""

from __future__ import annotations

from rules.nails.decks import DECKS
from rules.nails.options import NailsOptions
from rules.nails.state import HAND, PENALTY
from rules.nails.tiles import Deck
from rules.nails.words import colour_name, joined, listed
from rules.phrases import Phrase, Words

MECHANICS = ("again", "remove", "search", "draw2", "null", "cover", "opp-discard", "discard")
"""The mechanics in the order the rules list them (``cover`` stands for every
``cover-<colour>``)."""


def deck_for(options: NailsOptions, seats: int | None) -> Deck:
    """The deck a table of ``seats`` plays with ``options``: four players who play
    no teams take the four-colour workshop deck."""
    if seats == 4 and options.teams is False and options.deck == "workshop":
        return DECKS["workshop4"]
    return DECKS[options.deck]


def _colours(deck: Deck, colours: list[str] | tuple[str, ...]) -> list[Words]:
    """Colours as words agreeing with the deck's nail word (ships are feminine in
    Portuguese)."""
    if deck.nail_word == "ship":
        feminine = {"red": Phrase("nails.colour_f.red"), "green": Phrase("nails.colour_f.green"),
                    "blue": Phrase("nails.colour_f.blue"),
                    "yellow": Phrase("nails.colour_f.yellow")}
        return [feminine.get(c) or c for c in colours]
    return [colour_name(c) for c in colours]


def _either(words: list[Words]) -> Words:
    """``a``, ``a or b``, ``a, b or c``."""
    if len(words) == 1:
        return words[0]
    return Phrase("nails.join.or", first=listed(words[:-1]), last=words[-1])


def rules_text(options: NailsOptions, seats: int | None) -> list[Phrase]:
    """The rules of a game with ``options`` at a table of ``seats`` (``None``: any),
    one phrase a paragraph.

    >>> paragraphs = rules_text(NailsOptions.parse({"deck": "space"}), 2)
    >>> paragraphs[0].key, len(paragraphs)
    ('nails.rules.intro.ship', 7)
    """
    deck = deck_for(options, seats)
    ships = deck.nail_word == "ship"
    most = deck.most_wins if options.most_wins is None else options.most_wins
    cows = any(tile.centre == "cow" for tile in deck.tiles)
    players = _players(deck, options, seats)
    if ships:
        intro = Phrase("nails.rules.intro.ship", players=players,
                       goal=Phrase("nails.rules.goal_most.ship") if most
                       else Phrase("nails.rules.goal_fewest.ship"))
    else:
        intro = Phrase("nails.rules.intro.nail", players=players,
                       goal=Phrase("nails.rules.goal_most.nail") if most
                       else Phrase("nails.rules.goal_fewest.nail"))
    colours = _either(_colours(deck, deck.colours))
    if deck.shape == "octagon":
        tiles = (Phrase("nails.rules.tiles_octagon_cows", count=len(deck.tiles)) if cows
                 else Phrase("nails.rules.tiles_octagon", count=len(deck.tiles)))
    else:
        tiles = Phrase("nails.rules.tiles_square", count=len(deck.tiles))
    zones = (Phrase("nails.rules.zones.ship", tiles=tiles, colours=colours) if ships
             else Phrase("nails.rules.zones.nail", tiles=tiles, colours=colours))
    notation = (Phrase("nails.rules.notation_octagon") if deck.shape == "octagon"
                else Phrase("nails.rules.notation_square"))
    start = Phrase("nails.rules.start", hand=HAND)
    turn = (Phrase("nails.rules.turn.ship", hand=HAND) if ships
            else Phrase("nails.rules.turn.nail", hand=HAND))
    said = listed(_mechanics(deck), "dot")
    mechanics = (Phrase("nails.rules.mechanics.ship", mechanics=said) if ships
                 else Phrase("nails.rules.mechanics.nail", mechanics=said))
    cover = (Phrase("nails.rules.cover.ship", penalty=PENALTY) if ships
             else Phrase("nails.rules.cover.nail", penalty=PENALTY))
    scoring: Words = (Phrase("nails.rules.scoring_most") if most
                      else Phrase("nails.rules.scoring_fewest"))
    if cows:
        scoring = (Phrase("nails.rules.cows.ship", scoring=scoring) if ships
                   else Phrase("nails.rules.cows.nail", scoring=scoring))
    last = (Phrase("nails.rules.end_dealer") if options.final_round == "dealer"
            else Phrase("nails.rules.end_each"))
    end = Phrase("nails.rules.end", last=last, scoring=scoring)
    return [intro, Phrase("nails.rules.tiles", zones=zones, notation=notation), start, turn,
            mechanics, cover, end]


def _players(deck: Deck, options: NailsOptions, seats: int | None) -> Phrase:
    colours = list(deck.colours)
    if len(colours) > 2:
        named: Words = joined([colour_name(c) for c in colours[:seats or len(colours)]])
        if len(colours) == 4 and seats in (None, 4):
            named = Phrase("nails.rules.four_colours", colours=named)
        if seats is not None:
            return Phrase("nails.rules.players_each", count=seats, colours=named)
        return Phrase("nails.rules.players_each_four", least=2, most=len(colours),
                      colours=named)
    first, second = colour_name(colours[0]), colour_name(colours[1])
    if seats is None:
        four = (Phrase("nails.rules.four_no_teams") if options.teams is False
                else Phrase("nails.rules.four_teams"))
        return Phrase("nails.rules.players_any", first=first, second=second, four=four)
    if seats == 4:
        return Phrase("nails.rules.players_teams", first=first, second=second)
    return Phrase("nails.rules.players", count=seats, colours=joined([first, second]))


def _mechanics(deck: Deck) -> list[Words]:
    present = {m for tile in deck.tiles for m in tile.mechanics}
    covers = [c for c in deck.colours if f"cover-{c}" in present]
    words = {
        "again": Phrase("nails.rules.mechanic.again"),
        "remove": Phrase("nails.rules.mechanic.remove"),
        "search": Phrase("nails.rules.mechanic.search"),
        "draw2": Phrase("nails.rules.mechanic.draw2"),
        "null": Phrase("nails.rules.mechanic.null"),
        "opp-discard": Phrase("nails.rules.mechanic.opp_discard"),
        "discard": Phrase("nails.rules.mechanic.discard"),
    }
    said: list[Words] = []
    for key in MECHANICS:
        if key == "cover":
            if covers:
                colours = listed(_colours(deck, covers), "slash")
                said.append(Phrase("nails.rules.mechanic.cover.ship", colours=colours)
                            if deck.nail_word == "ship" else
                            Phrase("nails.rules.mechanic.cover.nail", colours=colours))
        elif key in present:
            said.append(words[key])
    return said
