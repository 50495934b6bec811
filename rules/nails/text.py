"""Hammer & Nails in words: tiles in one line, the table as text (the terminal,
Discord code blocks) and what each option of a decision means
("tile 17 at C4, turned 90° — covers 1 red nail; fires Play Again").

Every word is a :class:`~rules.phrases.Phrase` (``bot.i18n`` makes it in each reader's
language); the grid of the build stack is notation and stays plain text. Only what the
view holds is shown, so the channel's view never names a hand.

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
from rules.core import Decision, Outcome
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
from rules.nails.tiles import COLOURS, Tile, Zone
from rules.nails.words import (
    a_kind,
    a_piece,
    colour_name,
    deck_name,
    joined,
    kind,
    kinds,
    listed,
    mechanic_name,
    nouns,
    penalty,
    piece,
    pieces,
)
from rules.phrases import Phrase, Seat, Words

LETTERS = {colour: letter for letter, colour in COLOURS.items()}
"""Each nail colour's grid letter: ``red`` → ``R``."""
HAMMER, BLANK, NULL, EMPTY, COW, OPEN, LAST = "H", ".", "#", " ", "c", "o", "*"


def doing(view: NailsView) -> Words:
    """What the seat to move is deciding, by phase, in the deck's words."""
    ships = view.nail_word == "ship"
    phase = view.phase
    if phase == "forced-cover":
        return (Phrase("nails.phase.forced_cover.ship") if ships
                else Phrase("nails.phase.forced_cover.nail"))
    if phase == "cover":
        return Phrase("nails.phase.cover.ship") if ships else Phrase("nails.phase.cover.nail")
    return {
        "place": Phrase("nails.phase.place"),
        "challenge": Phrase("nails.phase.challenge"),
        "again": Phrase("nails.phase.again"),
        "draw2": Phrase("nails.phase.draw2"),
        "remove": Phrase("nails.phase.remove"),
        "search": Phrase("nails.phase.search"),
        "victim": Phrase("nails.phase.victim"),
        "discard": Phrase("nails.phase.discard"),
        "trim": Phrase("nails.phase.trim", count=HAND),
        "stuck": Phrase("nails.phase.stuck"),
        "tiebreak": Phrase("nails.phase.tiebreak"),
    }.get(phase, phase)


def zone_text(zone: Zone, word_nail: str = "nail", word_hammer: str = "hammer") -> Words:
    """One zone in words: ``red nail (Play Again)``, ``hammer``, ``blank (Ø)``."""
    if zone.kind == "nail":
        text = piece(word_nail, zone.colour or "")
    else:
        text = kind(word_hammer if zone.kind == "hammer" else "blank")
    if zone.mechanic:
        return Phrase("nails.text.zone_mechanic", zone=text,
                      mechanic=mechanic_name(zone.mechanic))
    return text


def tile_text(tile: Tile, word_nail: str = "nail", word_hammer: str = "hammer") -> Phrase:
    """A tile in one line, its zones clockwise from the top-left (octagons: from
    the top, after the centre).

    >>> from rules.nails.decks import DECKS
    >>> tile_text(DECKS["workshop"].tile(3)).key
    'nails.text.tile'
    >>> tile_text(DECKS["space"].tile(5), "ship", "laser").key
    'nails.text.tile_centre'
    """
    zones = listed([zone_text(zone, word_nail, word_hammer) for zone in tile.zones], "dot")
    if tile.centre:
        centre = Phrase("nails.centre.cow") if tile.centre == "cow" else Phrase(
            "nails.centre.blank")
        return Phrase("nails.text.tile_centre", tile=tile.number, centre=centre, zones=zones)
    return Phrase("nails.text.tile", tile=tile.number, zones=zones)


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


def grid_lines(view: NailsView, stack: BuildStack | None = None) -> list[Words]:
    """The build stack's visible zones as a character grid, one cell of margin
    all round so that every anchor a tile could use has a name (notation, not words;
    an empty stack is said in words).

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
        return [Phrase("nails.text.empty_stack")]
    x0, y0, x1, y1 = stack.bounds()
    xs = range(x0 - 1, x1 + 2)
    ys = range(y0 - 1, y1 + 2)
    width = max(len(column_name(x)) for x in xs) + 1
    labels = {y: row_name(y) for y in ys}
    margin = max(len(label) for label in labels.values())
    last = view.last.tile if view.last is not None else None
    visible = stack.visible_zones()
    lines: list[Words] = [(" " * (margin + 1)
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


def legend(view: NailsView, stack: BuildStack | None = None) -> Phrase:
    """The line that explains the grid's characters."""
    stack = replay(view) if stack is None else stack
    colours = set(view.colours) | {zone.colour for _, zone in stack.visible_zones().values()
                                   if zone.colour}
    letters = " ".join(LETTERS[c] for c in COLOURS.values() if c in colours)
    parts: list[Words] = [
        Phrase("nails.key.nails", letters=letters, nails=nouns(view.nail_word),
               hammer=a_kind(view.hammer_word)),
        Phrase("nails.key.letter", letter=HAMMER, what=kind(view.hammer_word)),
        Phrase("nails.key.letter", letter=BLANK, what=kind("blank")),
        Phrase("nails.key.null", letter=NULL)]
    if view.shape == "octagon":
        parts += [Phrase("nails.key.letter", letter=COW, what=Phrase("nails.centre.cow")),
                  Phrase("nails.key.open", letter=OPEN)]
    parts.append(Phrase("nails.key.last", letter=LAST))
    return Phrase("nails.text.key", parts=listed(parts, "dot"))


def _name(names: Sequence[str], seat: int) -> Words:
    return names[seat] if 0 <= seat < len(names) else Phrase("nails.text.player",
                                                              number=seat + 1)


def named(words: Words, names: Sequence[str]) -> Words:
    """``words`` with every seat it names (:class:`~rules.phrases.Seat`, an outcome's
    reason, say) replaced by its name, so that it reads wherever it is made."""
    if isinstance(words, str):
        return words
    args = {}
    for key, value in words.args:
        if isinstance(value, Seat):
            value = _name(names, value.seat)
        elif isinstance(value, Phrase):
            value = named(value, names)
        args[key] = value
    # The same phrase with other arguments (its key copied, not made here).
    made = object.__new__(Phrase)
    object.__setattr__(made, "key", words.key)
    object.__setattr__(made, "count", words.count)
    object.__setattr__(made, "args", tuple(args.items()))
    return made


def reason_words(outcome: Outcome, names: Sequence[str]) -> Words:
    """An outcome's reason with its seats named (a phrase, or the platform's text)."""
    reason: object = outcome.reason
    if isinstance(reason, Phrase):
        return named(reason, names)
    return outcome.said(names)


def obligation_text(view: NailsView, names: Sequence[str]) -> Phrase | None:
    """Who must cover which colour, and who fired it; ``None`` when nobody must."""
    if view.obligation is None or view.outcome is not None:
        return None
    colour, by = view.obligation
    what = a_piece(view.nail_word, colour)
    if view.phase in ("cover", "challenge", "forced-cover"):
        return Phrase("nails.text.must_cover", who=_name(names, view.turn), nail=what,
                      by=_name(names, by))
    return Phrase("nails.text.next_must_cover", nail=what, by=_name(names, by))


def goal(view: NailsView) -> Phrase:
    """``fewest nails win`` or ``most ships win``."""
    if view.most_wins:
        return Phrase("nails.text.goal_most", nails=nouns(view.nail_word))
    return Phrase("nails.text.goal_fewest", nails=nouns(view.nail_word))


def header(view: NailsView, names: Sequence[str]) -> Words:
    """The first line: the deck, the draw pile, the objective and who is deciding what."""
    parts: list[Words] = [Phrase("nails.text.title", deck=deck_name(view.deck)),
                          Phrase("nails.text.to_draw", count=view.deck_size),
                          Phrase("nails.text.discards", count=view.discard_size),
                          goal(view)]
    if view.final_round and view.outcome is None:
        parts.append(Phrase("nails.text.final_round"))
    if view.outcome is not None:
        parts.append(Phrase("nails.text.game_over"))
    else:
        seats = list(view.waiting) or [view.turn]
        parts.append(Phrase("nails.text.doing", who=joined([_name(names, s) for s in seats]),
                            doing=doing(view)))
    duty = obligation_text(view, names)
    if duty:
        parts.append(duty)
    return listed(parts, "dot")


def count_text(view: NailsView, seat: int) -> Phrase:
    """A seat's count as the view may know it: the final count once the game is over;
    before, what everyone sees (its colour showing and penalties), plus what the seat's
    own hand adds for the seat itself, or "+ hand" for a hand it cannot see. A team
    shares a count, to which both its hands add ("+ hands"; "+ your teammate's").

    >>> from rules.nails.state import NailsState
    >>> state = NailsState.position([[41], [42]], draw=[43])
    >>> count_text(state.observe(0), 0), count_text(state.observe(0), 1)
    (Phrase(nails.count.mine(shown=1, hand=1)), Phrase(nails.count.hidden(shown=1)))
    """
    shown = view.showing[seat]
    if view.outcome is not None:
        return Phrase("nails.count.final", shown=shown)
    team = view.colours.count(view.colours[seat]) > 1
    if seat == view.seat and view.in_hand is not None:
        if team:
            return Phrase("nails.count.mine_team", shown=shown, hand=view.in_hand)
        return Phrase("nails.count.mine", shown=shown, hand=view.in_hand)
    if team:
        return Phrase("nails.count.hidden_team", shown=shown)
    return Phrase("nails.count.hidden", shown=shown)


def player_line(view: NailsView, names: Sequence[str], seat: int) -> Words:
    """``1. Ada (you) — red · hand 4 · count 5 + 1 in your hand · 2 penalty nails``: the
    count as :func:`count_text` says it, the same as the final count at the end."""
    args = {"number": seat + 1, "name": _name(names, seat),
            "colour": colour_words(view, seat), "hand": view.hand_sizes[seat],
            "tally": count_text(view, seat),
            "penalty": penalty(view.nail_word, view.penalties[seat])}
    line: Words = (Phrase("nails.text.player_line_you", **args) if seat == view.seat
                   else Phrase("nails.text.player_line", **args))
    tags: list[Words] = []
    if seat == view.dealer:
        tags.append(Phrase("nails.text.dealer"))
    if seat in view.went_out:
        tags.append(Phrase("nails.text.out"))
    return listed([line, *tags], "dot")


def colour_words(view: NailsView, seat: int) -> Words:
    """A seat's colour in words."""
    return colour_name(view.colours[seat])


def outcome_text(view: NailsView, names: Sequence[str]) -> Phrase | None:
    """The result line, or ``None`` while the game goes on."""
    outcome = view.outcome
    if outcome is None:
        return None
    reason = reason_words(outcome, names)
    if outcome.scores is not None:
        scores = listed([Phrase("nails.text.score", name=_name(names, s), score=score)
                         for s, score in enumerate(outcome.scores)])
        if outcome.is_draw:
            return Phrase("nails.text.over_draw_scores", reason=reason, scores=scores)
        winners = [_name(names, s) for s in outcome.winners]
        return Phrase("nails.text.over_win_scores", count=len(winners), who=joined(winners),
                      reason=reason, scores=scores)
    if outcome.is_draw:
        return Phrase("nails.text.over_draw", reason=reason)
    winners = [_name(names, s) for s in outcome.winners]
    return Phrase("nails.text.over_win", count=len(winners), who=joined(winners),
                  reason=reason)


def view_lines(view: NailsView, names: Sequence[str], *, zones_order: bool = False,
               verdict: bool = True) -> list[Words]:
    """The whole table, line by line (:func:`render_text`); ``zones_order`` says in the
    headings of tile lists the order a tile's zones are listed in (the local table),
    and ``verdict`` ``False`` leaves the result line out."""
    stack = replay(view)
    lines: list[Words] = [header(view, names)]
    lines += [player_line(view, names, seat) for seat in range(view.seats)]
    lines += grid_lines(view, stack)
    lines.append(legend(view, stack))
    mechanics = [Phrase("nails.text.cell_mechanic", cell=cell_name(*cell),
                        mechanic=mechanic_name(zone.mechanic))
                 for cell, (_, zone) in sorted(stack.visible_zones().items(),
                                               key=lambda item: (item[0][1], item[0][0]))
                 if zone.kind == "nail" and zone.mechanic]
    if mechanics:
        showing = listed(mechanics)
        lines.append(Phrase("nails.text.mechanics_showing.ship", mechanics=showing)
                     if view.nail_word == "ship" else
                     Phrase("nails.text.mechanics_showing.nail", mechanics=showing))
    if view.last is not None:
        if view.fired:
            lines.append(Phrase("nails.text.last_firing", placement=view.last.notation,
                                fired=listed([mechanic_name(m) for m in view.fired])))
        else:
            lines.append(Phrase("nails.text.last_quiet", placement=view.last.notation))
    placements = {tile.number: placement for tile, placement in view.layers}
    tops = [placements[n].notation for n in view.top_tiles if n in placements]
    lines.append(Phrase("nails.text.top_tiles", tiles=", ".join(tops)) if tops
                 else Phrase("nails.text.top_tiles_none"))
    order = _zones_order(view) if zones_order else None
    if view.hand is not None:
        if not view.hand:
            lines.append(Phrase("nails.text.hand_empty"))
        elif order is not None:
            lines.append(Phrase("nails.text.hand_ordered", order=order))
        else:
            lines.append(Phrase("nails.text.hand"))
        lines += [Phrase("nails.text.listed", tile=tile_text(tile, view.nail_word,
                                                             view.hammer_word))
                  for tile in view.hand]
    if view.revealed is not None:
        if not view.revealed:
            lines.append(Phrase("nails.text.shown_empty"))
        elif order is not None:
            lines.append(Phrase("nails.text.shown_ordered", order=order))
        else:
            lines.append(Phrase("nails.text.shown"))
        lines += [Phrase("nails.text.listed", tile=tile_text(tile, view.nail_word,
                                                             view.hammer_word))
                  for tile in view.revealed]
    result = outcome_text(view, names) if verdict else None
    if result:
        lines.append(result)
    return lines


def _zones_order(view: NailsView) -> Phrase:
    if view.shape == "octagon":
        return Phrase("nails.text.order_octagon")
    return Phrase("nails.text.order_square")


def render_text(view: NailsView, names: Sequence[str]) -> Words:
    """The whole table as text, with this seat's hand if the view holds one: one line
    per :func:`view_lines` entry.

    >>> from rules.nails.state import NailsState
    >>> state = NailsState.position([[41], [42]], draw=[43])
    >>> render_text(state.observe(0), ["Ada", "Bo"]).key
    'nails.join.line'
    """
    return listed(view_lines(view, names), "line")


# -- options -----------------------------------------------------------------------------

def zones_summary(zones: Sequence[Zone], view: NailsView) -> Words:
    """``1 red nail, 1 hammer, 2 blanks``: zones counted by kind, nails by colour."""
    counts = Counter(z.colour if z.kind == "nail" else z.kind for z in zones)
    said: list[Words] = [pieces(view.nail_word, c, counts[c]) for c in COLOURS.values()
                         if counts[c]]
    if counts["hammer"]:
        said.append(kinds(view.hammer_word, counts["hammer"]))
    if counts["blank"]:
        said.append(kinds("blank", counts["blank"]))
    return listed(said)


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


def placement_text(view: NailsView, option: str) -> Words:
    """``tile 17 at C4, turned 90° — covers 1 red nail; fires Play Again``."""
    try:
        placement = Placement.parse(option)
    except MalformedChoice:
        return option
    where = placement.notation.split("@", 1)[1].split("/", 1)[0]
    text: Words = (Phrase("nails.option.at_turned", tile=placement.tile, cell=where,
                          turn=placement.rotation) if placement.rotation else
                   Phrase("nails.option.at", tile=placement.tile, cell=where))
    tile = next((t for t in view.hand or () if t.number == placement.tile), None)
    covered: list[Covered] | None = None
    if tile is not None:
        covered = _stack(view).check(tile, placement)
    if not covered:
        return text
    summary = zones_summary([c.under for c in covered], view)
    fired = fired_mechanics(covered)
    if fired:
        return Phrase("nails.option.covers_fires", place=text, zones=summary,
                      fired=listed([mechanic_name(m) for m in fired]))
    return Phrase("nails.option.covers", place=text, zones=summary)


def option_text(view: NailsView, decision: Decision, option: str,
                names: Sequence[str]) -> Words:
    """What choosing ``option`` does, in words (a menu clips them to 100 characters).

    >>> from rules.nails.state import NailsState
    >>> state = NailsState.position([[2, 5], [6, 7]])
    >>> decision = state.decision_for(0)
    >>> option_text(state.observe(0), decision, "2@-A2", ["Ada", "Bo"]).key
    'nails.option.covers'
    """
    kind_ = decision.kind
    word = view.nail_word

    def described(number: str, verb: str) -> Words:
        tile = known_tile(view, int(number)) if number.isdigit() else None
        shown: Words = (Phrase("nails.tile", tile=number) if tile is None
                        else tile_text(tile, view.nail_word, view.hammer_word))
        if verb == "take":
            return Phrase("nails.option.take", tile=shown)
        return Phrase("nails.option.discard", tile=shown)

    if kind_ in ("place", "cover"):
        if option == CANNOT:
            colour = view.obligation[0] if view.obligation else None
            return (Phrase("nails.option.cannot", nail=a_piece(word, colour)) if colour
                    else Phrase("nails.option.cannot_it"))
        return placement_text(view, option)
    if kind_ == "challenge":
        if option == CHALLENGE:
            return Phrase("nails.option.challenge", penalty=penalty(word, PENALTY))
        if option == ACCEPT:
            return Phrase("nails.option.accept")
    if kind_ in ("again", "draw2") and option in (YES, NO):
        if kind_ == "again":
            return Phrase("nails.option.again") if option == YES else Phrase(
                "nails.option.again_no")
        return Phrase("nails.option.draw2") if option == YES else Phrase("nails.option.draw2_no")
    if kind_ in ("remove", "tiebreak") and option.isdigit():
        stack = _stack(view)
        number = int(option)
        shown = [zone for tile, zone in stack.visible_zones().values() if tile == number]
        if shown:
            return Phrase("nails.option.remove_showing", tile=number,
                          zones=zones_summary(shown, view))
        return Phrase("nails.option.remove", tile=number)
    if kind_ == "search" and option.isdigit():
        return described(option, "take")
    if kind_ == "victim" and option[:1].upper() == "P" and option[1:].isdigit():
        seat = int(option[1:]) - 1
        if 0 <= seat < len(view.hand_sizes):
            return Phrase("nails.option.victim_tiles", who=_name(names, seat),
                          tiles=Phrase("nails.tiles", count=view.hand_sizes[seat]))
        return Phrase("nails.option.victim", who=_name(names, seat))
    if kind_ in ("discard", "trim", "stuck"):
        if option == KEEP:
            return Phrase("nails.option.keep")
        if option.isdigit():
            return described(option, "discard")
    return option
