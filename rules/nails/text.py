"""Hammer & Nails in words: tiles in one line, the table as text (the terminal,
Discord code blocks) and what each option of a decision means
("tile 17 at C4, turned 90° — covers 1 red nail; fires Play Again").

Only what the view holds is shown, so the channel's view never names a hand.

The build stack is drawn as a grid of its visible zones, one character each,
with column letters along the top and row numbers down the left, so that a
placement can be read off it and typed (``17@C4/90``): ``R`` ``G`` ``B`` ``Y``
nails (ships) of each colour — lowercase when the nail carries a mechanic,
which fires when a hammer covers it — ``H`` a hammer (laser), ``.`` a blank,
``#`` a Ø zone nothing may cover, a space for empty table; octagons show their
centre as ``c`` (a cow) or ``o`` (a blank centre). A ``*`` follows each zone of
the tile laid last.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rules.cells import cell_name, column_name, row_name
from rules.core import Decision
from rules.errors import MalformedChoice
from rules.nails.decks import DECKS
from rules.nails.stack import BuildStack, Covered, Placement
from rules.nails.state import (
    ACCEPT,
    CANNOT,
    CHALLENGE,
    HAND,
    KEEP,
    NO,
    PENALTY,
    YES,
    NailsView,
    fired_mechanics,
)
from rules.nails.tiles import COLOURS, MECHANICS, Tile, Zone

LIMIT = 100
"""The longest option text (Discord's menus take 100 characters)."""

MECHANIC_NAMES = {
    "again": "Play Again",
    "remove": "Remove a Tile",
    "search": "Search the Deck",
    "draw2": "Draw Two",
    "null": "Ø",
    "cover-green": "Must Cover Green",
    "cover-red": "Must Cover Red",
    "cover-blue": "Must Cover Blue",
    "cover-yellow": "Must Cover Yellow",
    "opp-discard": "Opponent Discards",
    "discard": "Discard One",
}
"""Each mechanic's short name (the long words are :data:`rules.nails.tiles.MECHANICS`)."""

LETTERS = {colour: letter for letter, colour in COLOURS.items()}
"""Each nail colour's grid letter: ``red`` → ``R``."""
HAMMER, BLANK, NULL, EMPTY, COW, OPEN, LAST = "H", ".", "#", " ", "c", "o", "*"

PHASES = {
    "place": "to place a tile",
    "forced-cover": "to cover the {nail} they said they could not",
    "cover": "to cover the {nail} or declare they cannot",
    "challenge": "to challenge the declaration or accept it",
    "again": "to play again or not",
    "draw2": "to draw two tiles or not",
    "remove": "to remove a top tile",
    "search": "to take a tile from the deck",
    "victim": "to pick an opponent who discards at random",
    "discard": "to discard a tile or keep them all",
    "trim": f"to discard down to {HAND} tiles",
    "stuck": "to discard a tile and draw one (no legal placement)",
    "tiebreak": "to take a top tile off the stack (tie-break)",
}
"""What the seat to move is deciding, by phase (``{nail}``: the deck's word)."""


def mechanic_name(mechanic: str) -> str:
    """A mechanic's short name.

    >>> mechanic_name("again"), mechanic_name("cover-red")
    ('Play Again', 'Must Cover Red')
    """
    return MECHANIC_NAMES.get(mechanic) or MECHANICS.get(mechanic, mechanic)


def zone_text(zone: Zone, word_nail: str = "nail", word_hammer: str = "hammer") -> str:
    """One zone in words: ``red nail (Play Again)``, ``hammer``, ``blank (Ø)``."""
    if zone.kind == "nail":
        text = f"{zone.colour} {word_nail}"
    else:
        text = word_hammer if zone.kind == "hammer" else "blank"
    return f"{text} ({mechanic_name(zone.mechanic)})" if zone.mechanic else text


def tile_text(tile: Tile, word_nail: str = "nail", word_hammer: str = "hammer") -> str:
    """A tile in one line, its zones clockwise from the top-left (octagons: from
    the top, after the centre).

    >>> from rules.nails.decks import DECKS
    >>> tile_text(DECKS["workshop"].tile(3))
    'tile 3: red nail (Play Again) · hammer (Search the Deck) · blank · green nail'
    >>> tile_text(DECKS["space"].tile(5), "ship", "laser")
    'tile 5 [blank]: red ship · laser (Search the Deck) · red ship · blue ship'
    """
    centre = f" [{tile.centre}]" if tile.centre else ""
    zones = " · ".join(zone_text(zone, word_nail, word_hammer) for zone in tile.zones)
    return f"tile {tile.number}{centre}: {zones}"


def replay(view: NailsView) -> BuildStack:
    """The build stack the view shows, rebuilt from its layers (a new one each call)."""
    stack = BuildStack(view.shape)  # type: ignore[arg-type]
    for tile, placement in view.layers:
        stack.place(tile, placement, first=True)
    return stack


_replayed: list[tuple[tuple[object, ...], BuildStack]] = []


def _stack(view: NailsView) -> BuildStack:
    """:func:`replay`, remembered for the last view's layers, only to be read: a menu
    describes every option of one view in turn."""
    if _replayed and _replayed[0][0] is view.layers:
        return _replayed[0][1]
    stack = replay(view)
    _replayed[:] = [(view.layers, stack)]
    return stack


def zone_letter(zone: Zone) -> str:
    """A visible zone's grid character (see the module's docstring).

    >>> from rules.nails.tiles import parse_zone
    >>> [zone_letter(parse_zone(code)) for code in ("R", "G:again", "H:search", "_", "H:null")]
    ['R', 'g', 'H', '.', '#']
    """
    if zone.kind == "nail":
        letter = LETTERS.get(zone.colour or "", "?")
        return letter.lower() if zone.mechanic else letter
    if zone.null:
        return NULL
    return HAMMER if zone.kind == "hammer" else BLANK


def grid_lines(view: NailsView, stack: BuildStack | None = None) -> list[str]:
    """The build stack's visible zones as a character grid, one cell of margin
    all round so that every anchor a tile could use has a name.

    >>> from rules.nails.state import NailsState
    >>> print("\\n".join(grid_lines(NailsState.position([[1], [2]]).observe(None))))
       -A  A  B  C
    -1
     1     r  H
     2     G  .
     3
    """
    stack = replay(view) if stack is None else stack
    if not stack.layers:
        return ["(the build stack is empty)"]
    x0, y0, x1, y1 = stack.bounds()
    xs = range(x0 - 1, x1 + 2)
    ys = range(y0 - 1, y1 + 2)
    width = max(len(column_name(x)) for x in xs) + 1
    labels = {y: row_name(y) for y in ys}
    margin = max(len(label) for label in labels.values())
    last = view.last.tile if view.last is not None else None
    visible = stack.visible_zones()
    lines = [(" " * (margin + 1)
              + "".join(f"{column_name(x):>{width - 1}} " for x in xs)).rstrip()]
    for y in ys:
        row = []
        for x in xs:
            centre = stack.centres.get((x, y))
            shown = visible.get((x, y))
            if centre is not None:
                char, owner = (COW if centre.centre == "cow" else OPEN), centre.number
            elif shown is not None:
                char, owner = zone_letter(shown[1]), shown[0]
            else:
                char, owner = EMPTY, None
            mark = LAST if owner is not None and owner == last else " "
            row.append(f"{char:>{width - 1}}{mark}")
        lines.append(f"{labels[y]:>{margin}} {''.join(row)}".rstrip())
    return lines


def legend(view: NailsView, stack: BuildStack | None = None) -> str:
    """The line that explains the grid's characters."""
    stack = replay(view) if stack is None else stack
    colours = set(view.colours) | {zone.colour for _, zone in stack.visible_zones().values()
                                   if zone.colour}
    letters = " ".join(LETTERS[c] for c in COLOURS.values() if c in colours)
    parts = [f"{letters} {view.nail_word}s (lowercase: with a mechanic, fired by covering "
             f"with a {view.hammer_word})", f"{HAMMER} {view.hammer_word}", f"{BLANK} blank",
             f"{NULL} Ø (never covered)"]
    if view.shape == "octagon":
        parts += [f"{COW} cow", f"{OPEN} blank centre"]
    parts.append(f"{LAST} last tile laid")
    return "Key: " + " · ".join(parts)


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"Player {seat + 1}"


def _count(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def obligation_text(view: NailsView, names: Sequence[str]) -> str | None:
    """Who must cover which colour, and who fired it; ``None`` when nobody must."""
    if view.obligation is None or view.outcome is not None:
        return None
    colour, by = view.obligation
    what = f"a {colour} {view.nail_word}"
    if view.phase in ("cover", "challenge", "forced-cover"):
        return f"{_name(names, view.turn)} must cover {what} ({_name(names, by)} fired it)"
    return f"the next player must cover {what} ({_name(names, by)} fired it)"


def header(view: NailsView, names: Sequence[str]) -> str:
    """The first line: the deck, the draw pile, the objective and who is deciding what."""
    goal = "most" if view.most_wins else "fewest"
    parts = [f"Hammer & Nails — {view.deck} deck", f"{_count(view.deck_size, 'tile')} to draw",
             f"discards {view.discard_size}", f"{goal} {view.nail_word}s win"]
    if view.final_round and view.outcome is None:
        parts.append("final round")
    if view.outcome is not None:
        parts.append("game over")
    else:
        seats = list(view.waiting) or [view.turn]
        doing = PHASES.get(view.phase, view.phase).format(nail=view.nail_word)
        parts.append(f"{_join([_name(names, s) for s in seats])} {doing}")
    duty = obligation_text(view, names)
    if duty:
        parts.append(duty)
    return " · ".join(parts)


def count_text(view: NailsView, seat: int) -> str:
    """A seat's count as the view may know it: the final count once the game is over;
    before, what everyone sees (its colour showing and penalties), plus what the seat's
    own hand adds for the seat itself, or "+ hand" for a hand it cannot see. A team
    shares a count, to which both its hands add ("+ hands"; "+ your teammate's").

    >>> from rules.nails.state import NailsState
    >>> state = NailsState.position([[41], [42]], draw=[43])
    >>> count_text(state.observe(0), 0), count_text(state.observe(0), 1)
    ('count 1 + 1 in your hand', 'count 1 + hand')
    """
    shown = f"count {view.showing[seat]}"
    if view.outcome is not None:
        return shown
    team = view.colours.count(view.colours[seat]) > 1
    if seat == view.seat and view.in_hand is not None:
        return f"{shown} + {view.in_hand} in your hand" + (" + your teammate's" if team else "")
    return f"{shown} + {'hands' if team else 'hand'}"


def player_line(view: NailsView, names: Sequence[str], seat: int) -> str:
    """``1. Ada (you) — red · hand 4 · count 5 + 1 in your hand · 2 penalty nails``: the
    count as :func:`count_text` says it, the same as the final count at the end."""
    you = " (you)" if seat == view.seat else ""
    tags = []
    if seat == view.dealer:
        tags.append("dealer")
    if seat in view.went_out:
        tags.append("out")
    penalty = view.penalties[seat]
    return (f"{seat + 1}. {_name(names, seat)}{you} — {view.colours[seat]} · hand "
            f"{view.hand_sizes[seat]} · {count_text(view, seat)}"
            f" · {penalty} penalty {view.nail_word}{'' if penalty == 1 else 's'}"
            + "".join(f" · {tag}" for tag in tags))


def outcome_text(view: NailsView, names: Sequence[str]) -> str | None:
    """The result line, or ``None`` while the game goes on."""
    outcome = view.outcome
    if outcome is None:
        return None
    scores = ""
    if outcome.scores is not None:
        scores = "; " + ", ".join(f"{_name(names, s)} {score}"
                                  for s, score in enumerate(outcome.scores))
    reason = outcome.said(names)
    if outcome.is_draw:
        return f"Game over: a draw — {reason}{scores}"
    winners = [_name(names, s) for s in outcome.winners]
    verb = "wins" if len(winners) == 1 else "win"
    return f"Game over: {_join(winners)} {verb} — {reason}{scores}"


def render_text(view: NailsView, names: Sequence[str]) -> str:
    """The whole table as text, with this seat's hand if the view holds one.

    >>> from rules.nails.state import NailsState
    >>> state = NailsState.position([[41], [42]], draw=[43])
    >>> print(render_text(state.observe(0), ["Ada", "Bo"]))  # doctest: +NORMALIZE_WHITESPACE
    Hammer & Nails — workshop deck · 1 tile to draw · discards 44 · fewest nails win \
· Ada to place a tile
    1. Ada (you) — red · hand 1 · count 1 + 1 in your hand · 0 penalty nails
    2. Bo — green · hand 1 · count 1 + hand · 0 penalty nails · dealer
       -A  A  B  C
    -1
     1     r  H
     2     G  .
     3
    Key: R G nails (lowercase: with a mechanic, fired by covering with a hammer) · H hammer \
· . blank · # Ø (never covered) · * last tile laid
    Nail mechanics showing: A1 Play Again
    Top tiles: 3@A1
    Your hand:
      tile 41: red nail · blank · blank · blank
    """
    stack = replay(view)
    lines = [header(view, names)]
    lines += [player_line(view, names, seat) for seat in range(view.seats)]
    lines += grid_lines(view, stack)
    lines.append(legend(view, stack))
    mechanics = [f"{cell_name(*cell)} {mechanic_name(zone.mechanic)}"
                 for cell, (_, zone) in sorted(stack.visible_zones().items(),
                                               key=lambda item: (item[0][1], item[0][0]))
                 if zone.kind == "nail" and zone.mechanic]
    if mechanics:
        lines.append(f"{view.nail_word.capitalize()} mechanics showing: "
                     + ", ".join(mechanics))
    if view.last is not None:
        fired = ", ".join(mechanic_name(m) for m in view.fired)
        lines.append(f"Last laid: {view.last.notation}"
                     + (f", firing {fired}" if fired else ", firing nothing"))
    placements = {tile.number: placement for tile, placement in view.layers}
    lines.append("Top tiles: " + (", ".join(placements[n].notation for n in view.top_tiles
                                            if n in placements) or "none"))
    if view.hand is not None:
        lines.append("Your hand:" if view.hand else "Your hand: empty")
        lines += ["  " + tile_text(tile, view.nail_word, view.hammer_word) for tile in view.hand]
    if view.revealed is not None:
        lines.append("Shown to you (the challenger's hand):" if view.revealed
                     else "Shown to you: the challenger's hand is empty")
        lines += ["  " + tile_text(tile, view.nail_word, view.hammer_word)
                  for tile in view.revealed]
    result = outcome_text(view, names)
    if result:
        lines.append(result)
    return "\n".join(lines)


# -- options -----------------------------------------------------------------------------

def _fit(text: str) -> str:
    return text if len(text) <= LIMIT else text[:LIMIT - 1].rstrip() + "…"


def zones_summary(zones: Sequence[Zone], view: NailsView) -> str:
    """``1 red nail, 1 hammer, 2 blanks``: zones counted by kind, nails by colour."""
    counts = Counter(f"{z.colour} {view.nail_word}" if z.kind == "nail" else
                     (view.hammer_word if z.kind == "hammer" else "blank") for z in zones)
    order = [f"{c} {view.nail_word}" for c in COLOURS.values()] + [view.hammer_word, "blank"]
    return ", ".join(_count(counts[noun], noun) for noun in order if counts[noun])


def known_tile(view: NailsView, number: int) -> Tile | None:
    """Tile ``number`` if the view shows it (hand, stack, a shown hand), else from the
    shipped deck the view names (decks are public: every tile's face is known)."""
    for tile in (*(view.hand or ()), *(t for t, _ in view.layers), *(view.revealed or ())):
        if tile.number == number:
            return tile
    deck = DECKS.get(view.deck)
    if deck is not None and number in deck and deck.shape == view.shape:
        return deck.tile(number)
    return None


def placement_text(view: NailsView, option: str) -> str:
    """``tile 17 at C4, turned 90° — covers 1 red nail; fires Play Again``."""
    try:
        placement = Placement.parse(option)
    except MalformedChoice:
        return option
    where = placement.notation.split("@", 1)[1].split("/", 1)[0]
    text = f"tile {placement.tile} at {where}"
    if placement.rotation:
        text += f", turned {placement.rotation}°"
    tile = next((t for t in view.hand or () if t.number == placement.tile), None)
    covered: list[Covered] | None = None
    if tile is not None:
        covered = _stack(view).check(tile, placement)
    if not covered:
        return _fit(text)
    text += " — covers " + zones_summary([c.under for c in covered], view)
    fired = fired_mechanics(covered)
    if fired:
        text += "; fires " + ", ".join(mechanic_name(m) for m in fired)
    return _fit(text)


def option_text(view: NailsView, decision: Decision, option: str,
                names: Sequence[str]) -> str:
    """What choosing ``option`` does, in words (at most 100 characters).

    >>> from rules.nails.state import NailsState
    >>> state = NailsState.position([[2, 5], [6, 7]])
    >>> decision = state.decision_for(0)
    >>> option_text(state.observe(0), decision, "2@-A-1/90", ["Ada", "Bo"])
    'tile 2 at -A-1, turned 90° — covers 1 red nail; fires Play Again'
    >>> option_text(state.observe(0), decision, "2@-A2", ["Ada", "Bo"])
    'tile 2 at -A2 — covers 1 green nail'
    """
    kind = decision.kind
    word = view.nail_word

    def described(number: str, verb: str) -> str:
        tile = known_tile(view, int(number)) if number.isdigit() else None
        if tile is None:
            return f"{verb} tile {number}"
        return _fit(f"{verb} {tile_text(tile, view.nail_word, view.hammer_word)}")

    if kind in ("place", "cover"):
        if option == CANNOT:
            colour = view.obligation[0] if view.obligation else None
            return (f"Declare you cannot cover a {colour} {word}" if colour
                    else "Declare you cannot cover it")
        return placement_text(view, option)
    if kind == "challenge":
        if option == CHALLENGE:
            return _fit(f"Challenge: say they could cover it (whoever is wrong takes "
                        f"{PENALTY} penalty {word}s)")
        if option == ACCEPT:
            return "Accept: they place any tile instead"
    if kind in ("again", "draw2") and option in (YES, NO):
        if kind == "again":
            return "Play again" if option == YES else "Don't play again"
        return "Draw two tiles" if option == YES else "Don't draw"
    if kind in ("remove", "tiebreak") and option.isdigit():
        stack = _stack(view)
        number = int(option)
        shown = [zone for tile, zone in stack.visible_zones().values() if tile == number]
        summary = zones_summary(shown, view)
        return _fit(f"Remove tile {number}" + (f" (shows {summary})" if summary else ""))
    if kind == "search" and option.isdigit():
        tile = known_tile(view, int(option))
        if tile is None:
            return f"Take tile {option}"
        return _fit(f"Take {tile_text(tile, view.nail_word, view.hammer_word)}")
    if kind == "victim" and option[:1].upper() == "P" and option[1:].isdigit():
        seat = int(option[1:]) - 1
        size = (f" ({_count(view.hand_sizes[seat], 'tile')})"
                if 0 <= seat < len(view.hand_sizes) else "")
        return _fit(f"{_name(names, seat)}{size} discards at random")
    if kind in ("discard", "trim", "stuck"):
        if option == KEEP:
            return "Keep all your tiles"
        if option.isdigit():
            return described(option, "Discard")
    return option
