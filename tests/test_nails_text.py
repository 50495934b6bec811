"""Hammer & Nails in words: tile lines, the table's text grid (its letters at known
cells and its coordinates), what each seat's text may show, and what every kind
of option means."""

from __future__ import annotations

import re

import pytest

from bot import i18n
from rules.cells import cell_name
from rules.core import Decision
from rules.errors import IllegalChoice
from rules.nails import DECKS, NailsOptions, NailsState, parse_deck
from rules.nails import GAME as NAILS
from rules.nails.state import NailsView
from rules.nails.text import grid_lines, replay
from rules.nails.text import option_text as option_words
from rules.nails.text import render_text as render_words
from rules.nails.text import tile_text as tile_words
from rules.nails.tiles import Tile
from rules.phrases import Words

NAMES = ["Ada", "Bo", "Cy", "Dee"]


def en(words: Words) -> str:
    """The words as an English reader reads them."""
    return i18n.say(words, "en")


def tile_text(tile: Tile, *words: str) -> str:
    """A tile's line in English."""
    return en(tile_words(tile, *words))


def render_text(view: NailsView, names: list[str]) -> str:
    """The whole table's text in English."""
    return en(render_words(view, names))


def option_text(view: NailsView, decision: Decision, option: str, names: list[str]) -> str:
    """What an option means, in English."""
    return en(option_words(view, decision, option, names))
FILLER = "\n".join(f"{n} _ _ _ _" for n in range(80, 99)) + "\n99 R G _ _"


def lab(text: str) -> object:
    """A small deck for one test, padded with blank tiles so a game can be dealt."""
    return parse_deck("lab", "square", text + "\n" + FILLER)


def cells(lines: list[str]) -> dict[str, str]:
    """The grid read back: each named cell's character and its mark, as ``"R*"``/``"R "``,
    by the column names of the header row and the row names down the left."""
    header, *rows = lines
    columns = [(m.group(), m.end() - 1) for m in re.finditer(r"\S+", header)]
    found = {}
    for line in rows:
        label = line.split()[0]
        padded = line.ljust(len(header) + 2)
        for name, at in columns:
            found[name + label] = padded[at:at + 2]
    return found


def play(state: NailsState, moves: int) -> NailsState:
    for _ in range(moves):
        if state.over:
            break
        decision = state.pending()[0]
        state.apply(decision.seat, decision.options[0])
    return state


def say(state: NailsState, option: str, seat: int | None = None) -> str:
    """What ``option`` of the pending decision means to the deciding seat."""
    decision = state.pending()[0]
    who = decision.seat if seat is None else seat
    return option_text(state.observe(who), decision, option, NAMES)


# -- tiles --------------------------------------------------------------------------------

def test_a_tile_in_one_line_clockwise_from_the_top_left() -> None:
    workshop = DECKS["workshop"]
    assert tile_text(workshop.tile(3)) == ("tile 3: red nail (Play Again) · hammer (Search the "
                                           "Deck) · blank · green nail")
    assert tile_text(workshop.tile(12)) == "tile 12: green nail · hammer (Ø) · green nail · hammer"
    assert tile_text(workshop.tile(45)).startswith("tile 45: green nail (Must Cover Red) · blank")


def test_space_tiles_show_their_centre_and_the_space_words() -> None:
    space = DECKS["space"]
    assert tile_text(space.tile(3), "ship", "laser") == (
        "tile 3 [cow]: red ship · red ship · blue ship (Opponent Discards) · laser")
    assert tile_text(space.tile(48), "ship", "laser") == "tile 48 [blank]: blank (Ø) · blank · " \
                                                         "blank · blank"


# -- the grid -------------------------------------------------------------------------------

def test_the_grid_shows_the_visible_zones_at_their_cells() -> None:
    # Workshop tile 3 is R:again H:search _ G: at A1 its zones fall on A1 B1 B2 A2.
    view = NailsState.position([[1, 2], [4, 5]], stack=("3@A1",)).observe(None)
    grid = cells(grid_lines(view))
    assert grid["A1"][0] == "r"          # a red nail with a mechanic: lowercase
    assert grid["B1"][0] == "H"          # its hammer's mechanic is spent: a plain H
    assert grid["B2"][0] == "."
    assert grid["A2"][0] == "G"
    assert grid["C3"][0] == " " and grid["-A-1"][0] == " "   # empty table


def test_the_header_names_every_column_and_each_row_its_row() -> None:
    view = NailsState.position([[1, 2], [4, 5]], stack=("3@A1", "41@C3")).observe(None)
    lines = grid_lines(view)
    # One cell of margin all round: columns -A … E, rows -1 … 5.
    assert lines[0].split() == ["-A", "A", "B", "C", "D", "E"]
    assert [line.split()[0] for line in lines[1:]] == ["-1", "1", "2", "3", "4", "5"]
    grid = cells(lines)
    assert grid["C3"][0] == "R" and grid["D3"][0] == "." and grid["D4"][0] == "."


def test_the_grid_follows_the_top_zone_and_marks_the_last_tile() -> None:
    state = NailsState.position([[2, 5], [6, 7]], stack=("3@A1",))
    state.apply(0, "2@-A-1")             # tile 2 (R:again H H _): its hammer on A1's red nail
    assert state.phase == "again"
    grid = cells(grid_lines(state.observe(None)))
    assert grid["A1"] == "H*"            # covered: now tile 2's hammer, laid last
    assert grid["-A-1"] == "r*" and grid["A-1"] == "H*" and grid["-A1"] == ".*"
    assert grid["B1"] == "H "            # tile 3 still shows there, unmarked
    text = render_text(state.observe(None), NAMES)
    assert "Last laid: 2@-A-1, firing Play Again" in text


def test_null_zones_and_octagon_centres_have_their_own_characters() -> None:
    view = NailsState.position([[1, 2], [4, 5]], stack=("48@A1",)).observe(None)
    assert cells(grid_lines(view))["A1"][0] == "#"
    space = NailsState.position([[1, 2], [4, 5]], stack=("3@A1", "48@E1"),
                                options=NailsOptions(deck="space"))
    grid = cells(grid_lines(space.observe(None)))
    # Space tile 3 is cow | R R B:opp-discard H around the centre A1; 48 a blank centre.
    assert grid["A1"][0] == "c" and grid["E1"][0] == "o"
    assert grid["A-1"][0] == "R" and grid["B1"][0] == "R"
    assert grid["A2"][0] == "b" and grid["-A1"][0] == "H"
    assert grid["E-1"][0] == "#"         # 48's Ø zone, its top
    assert grid["B2"][0] == " "          # between octagons: never a zone


def test_the_grid_agrees_with_the_stack_in_a_real_game() -> None:
    state = play(NAILS.new({"deck": "workshop"}, 2, seed=3), 15)
    view = state.observe(None)
    grid = cells(grid_lines(view))
    stack = replay(view)
    assert stack.visible_zones() == state.stack.visible_zones()
    for (x, y), (_, zone) in stack.visible_zones().items():
        letter = grid[cell_name(x, y)][0]
        if zone.kind == "nail":
            assert letter.upper() == zone.colour[0].upper()
        elif not zone.null:
            assert letter == ("H" if zone.kind == "hammer" else ".")


# -- the whole table ---------------------------------------------------------------------

def test_the_channel_never_sees_a_hand_and_a_seat_sees_its_own() -> None:
    state = play(NAILS.new({"deck": "workshop"}, 2, seed=3), 6)
    channel = render_text(state.observe(None), NAMES)
    assert "Your hand" not in channel and "(you)" not in channel
    for hand in state.hands:
        assert not any(f"tile {n}:" in channel for n in hand)
    mine = render_text(state.observe(0), NAMES)
    assert "Your hand:" in mine and "1. Ada (you)" in mine
    for n in state.hands[0]:
        assert tile_text(state.tiles[n]) in mine
    assert not any(f"tile {n}:" in mine for n in state.hands[1])


def test_the_header_and_player_lines() -> None:
    state = NailsState.position([[1, 2], [4, 5, 6]], stack=("3@A1",), draw=[7, 8, 9])
    state.penalties = [0, 2]
    lines = render_text(state.observe(1), NAMES).split("\n")
    assert lines[0].startswith("Hammer & Nails — workshop deck · 3 tiles to draw")
    assert "fewest nails win" in lines[0] and "Ada to place a tile" in lines[0]
    assert lines[1].startswith("1. Ada — red · hand 2 · count 1")
    assert lines[2].startswith("2. Bo (you) — green · hand 3 · count 3")   # 1 showing + 2
    assert "2 penalty nails" in lines[2] and "dealer" in lines[2]
    assert "Top tiles: 3@A1" in lines


def challenge_game(can_cover: bool) -> NailsState:
    """Seat 0 fires "next player must cover a green nail"; seat 1 can (or cannot) cover it."""
    deck = lab("1 R:cover-green _ _ _\n2 _ _ H _\n6 G _ _ _\n7 _ H _ _\n8 R R R R\n"
               "9 R R R G\n10 R R G G\n11 R G G G")
    second = [7 if can_cover else 8, 9, 10, 11]
    state = NailsState.position([[2, 80, 81, 82], second], deck=deck,
                                stack=("1@A1", "6@E1"), draw=[90, 91, 92, 93])
    state.apply(0, "2@-A-1")
    return state


def test_the_obligation_shows_in_the_header() -> None:
    state = challenge_game(can_cover=True)
    header = render_text(state.observe(None), NAMES).split("\n")[0]
    assert "Bo to cover the nail or declare they cannot" in header
    assert "Bo must cover a green nail (Ada fired it)" in header


def test_a_shown_hand_is_listed_for_its_one_viewer() -> None:
    state = challenge_game(can_cover=False)
    state.apply(1, "cannot")
    state.apply(0, "challenge")
    shown = render_text(state.observe(1), NAMES)
    assert "Shown to you" in shown
    for n in state.hands[0]:
        assert tile_text(state.tiles[n]) in shown
    assert "Shown to you" not in render_text(state.observe(0), NAMES)
    assert "Shown to you" not in render_text(state.observe(None), NAMES)


def test_the_result_line_at_the_end() -> None:
    state = play(NAILS.new({"deck": "workshop"}, 2, seed=3), 5000)
    assert state.over
    text = render_text(state.observe(None), NAMES)
    last = text.split("\n")[-1]
    assert last.startswith("Game over: ")
    assert "tiles to draw" in text.split("\n")[0] and "game over" in text.split("\n")[0]


def test_the_space_deck_speaks_of_ships_and_lasers() -> None:
    state = play(NAILS.new({"deck": "space"}, 2, seed=3), 8)
    seat = state.pending()[0].seat
    text = render_text(state.observe(seat), NAMES)
    rest = text.replace("Hammer & Nails", "").lower()
    assert "nail" not in rest and "hammer" not in rest
    assert "ships" in rest and "laser" in rest and "c cow" in rest
    placements = [o for o in state.pending()[0].options if "@" in o]
    said = say(state, placements[0])
    assert "nail" not in said and ("ship" in said or "laser" in said or "blank" in said)


# -- options --------------------------------------------------------------------------------

def test_placements_say_what_they_cover_and_fire() -> None:
    state = NailsState.position([[2, 5], [6, 7]], stack=("3@A1",))
    assert say(state, "2@-A-1/90") == ("tile 2 at -A-1, turned 90° — covers 1 red nail; "
                                       "fires Play Again")
    assert say(state, "2@-A-1") == "tile 2 at -A-1 — covers 1 red nail; fires Play Again"
    assert say(state, "2@B2") == "tile 2 at B2 — covers 1 blank"
    # A tile the seat does not hold: only where it would go.
    decision = state.pending()[0]
    assert option_text(state.observe(None), decision, "2@-A-1/90", NAMES) == \
        "tile 2 at -A-1, turned 90°"


def test_cannot_challenge_and_accept() -> None:
    state = challenge_game(can_cover=True)
    assert say(state, "cannot") == "Declare you cannot cover a green nail"
    assert "covers 1 green nail" in say(state, state.pending()[0].options[0])
    state.apply(1, "cannot")
    assert state.pending()[0].kind == "challenge"
    assert say(state, "challenge").startswith("Challenge: say they could cover it")
    assert say(state, "accept") == "Accept: they place any tile instead"


def mechanic_game(mechanic: str, seats: int = 2) -> NailsState:
    """Seat 0 holds tile 2, whose hammer covers tile 1's nail carrying ``mechanic``."""
    deck = lab(f"1 R:{mechanic} _ _ _\n2 _ _ H _\n3 H _ _ _\n4 _ _ _ G\n5 R _ _ _\n6 G G _ _")
    hands = [[2, 3, 80, 81]] + [[82 + 4 * s, 83 + 4 * s, 84 + 4 * s, 85 + 4 * s]
                                for s in range(seats - 1)]
    state = NailsState.position(hands, stack=("1@A1",), deck=deck)
    state.apply(0, "2@-A-1")
    return state


def test_yes_and_no() -> None:
    again = mechanic_game("again")
    assert again.pending()[0].kind == "again"
    assert (say(again, "yes"), say(again, "no")) == ("Play again", "Don't play again")
    draw2 = mechanic_game("draw2")
    assert draw2.pending()[0].kind == "draw2"
    assert (say(draw2, "yes"), say(draw2, "no")) == ("Draw two tiles", "Don't draw")


def test_remove_and_tiebreak_say_what_the_tile_shows() -> None:
    deck = lab("1 R:remove _ _ _\n2 _ _ H _\n3 R H _ G")
    state = NailsState.position([[2, 80, 81, 82], [83, 84, 85, 86]],
                                stack=("1@A1", "3@C3"), deck=deck)
    state.apply(0, "2@-A-1")
    assert state.pending()[0].kind == "remove"
    assert say(state, "3") == "Remove tile 3 (shows 1 red nail, 1 green nail, 1 hammer, 1 blank)"
    tie = NailsState.position([[], []], deck=lab("1 R _ _ G\n3 G _ _ _\n4 R _ _ _"),
                              stack=("1@A1", "3@E1", "4@E5"), draw=[], dealer=1)
    assert tie.pending()[0].kind == "tiebreak"
    assert say(tie, "3") == "Remove tile 3 (shows 1 green nail, 3 blanks)"


def test_search_names_the_deck_tile() -> None:
    # Workshop tile 8 is G:search G R H; tile 43's hammer (bottom-right) covers its search nail.
    state = NailsState.position([[43, 1], [4, 5]], stack=("8@A1",))
    state.apply(0, "43@-A-1")
    assert state.pending()[0].kind == "search"
    assert say(state, "41") == "Take tile 41: red nail · blank · blank · blank"
    lab_game = mechanic_game("search")             # a deck the text does not know by name
    assert say(lab_game, "90") == "Take tile 90"


def test_victim_names_the_player() -> None:
    state = mechanic_game("opp-discard", seats=4)
    assert state.pending()[0].options == ("P2", "P4")
    assert say(state, "P2") == "Bo (4 tiles) discards at random"
    assert say(state, "P4") == "Dee (4 tiles) discards at random"


def test_discard_trim_stuck_and_keep() -> None:
    state = mechanic_game("discard")
    assert state.pending()[0].kind == "discard"
    assert say(state, "3") == "Discard tile 3: hammer · blank · blank · blank"
    assert say(state, "keep") == "Keep all your tiles"
    trim = mechanic_game("draw2")
    trim.apply(0, "yes")
    assert trim.pending()[0].kind == "trim"
    assert say(trim, "80") == "Discard tile 80: blank · blank · blank · blank"
    stuck = NailsState.position([[2], [80]], deck=lab("1 H H H H\n2 R R R R"), stack=("1@A1",),
                                draw=[81, 82])
    assert stuck.pending()[0].kind == "stuck"
    assert say(stuck, "2") == "Discard tile 2: red nail · red nail · red nail · red nail"


def test_every_option_of_whole_games_fits_a_menu() -> None:
    for deck in ("workshop", "space"):
        state = NAILS.new({"deck": deck}, 2, seed=3)
        for _ in range(400):
            if state.over:
                break
            decision = state.pending()[0]
            view = state.observe(decision.seat)
            for option in decision.options:
                words = option_words(view, decision, option, NAMES)
                for locale in ("en", "pt_BR"):
                    text = i18n.say(words, locale)
                    assert 0 < len(text) <= 100, text
            state.apply(decision.seat, decision.options[0])


# -- refusals say why -----------------------------------------------------------------------

def refusal(state: NailsState, seat: int, choice: str) -> str:
    """The message a choice is refused with (what Discord and the terminal show)."""
    try:
        state.apply(seat, choice)
    except IllegalChoice as error:
        return en(error.text)
    raise AssertionError(f"{choice} was accepted")


def test_an_illegal_placement_names_the_zone_at_fault() -> None:
    # Workshop tile 3 (R:again H:search _ G) at A1; tile 2 is R:again H H _.
    state = NailsState.position([[2, 5], [6, 7]], stack=("3@A1",))
    assert refusal(state, 0, "2@B1") == ("tile 2 at B1 would lay a nail on a hammer at B1 "
                                         "(tile 3); a hammer takes only a blank")
    assert refusal(state, 0, "2@A1") == ("tile 2 at A1 would lay a nail on a nail at A1 "
                                         "(tile 3); a nail takes only a hammer or a blank")
    assert refusal(state, 0, "2@J10") == ("tile 2 at J10 would cover nothing; a tile must "
                                          "cover at least one zone of the stack")
    blanks = lab("1 _ _ _ _\n2 _ _ _ _")
    two = NailsState.position([[2, 80], [81, 82]], stack=("1@A1",), deck=blanks)
    assert refusal(two, 0, "2@A1") == ("tile 2 at A1 would cover two zones of tile 1 "
                                       "(A1 and B1); a tile covers at most one zone of each tile")
    null = NailsState.position([[1, 2], [4, 5]], stack=("48@A1",))
    assert refusal(null, 0, "1@-A-1/180").startswith(
        "tile 1 at -A-1/180 would cover a Ø zone at A1 (tile 48)")


def test_the_space_deck_refuses_in_its_own_words_and_octagon_places() -> None:
    state = NailsState.position([[1, 2], [4, 5]], stack=("3@A1",),
                                options=NailsOptions(deck="space"))
    assert refusal(state, 0, "1@B1") == ("tile 1 at B1: an octagon's centre goes on every other "
                                         "column and row (A1, C1, A3 …), not B1")
    assert refusal(state, 0, "1@A1") == "tile 1 at A1 would sit on tile 3's centre"
    said = [refusal(state, 0, f"1@{cell}/{turn}") for cell in ("C1", "A3", "-B1", "A-3")
            for turn in (0, 90, 180, 270) if f"1@{cell}/{turn}".replace("/0", "")
            not in state.pending()[0].options]
    assert said and all("nail" not in text and "hammer" not in text for text in said)
    assert any("ship" in text or "laser" in text for text in said)


def test_a_placement_legal_on_the_stack_but_not_now_says_what_is_asked() -> None:
    state = challenge_game(can_cover=True)
    stack_only = next(p.notation for number in state.hands[1]
                      for p in state.stack.placements(state.tiles[number])
                      if not state.stack.covers_colour(p, "green"))
    assert refusal(state, 1, stack_only).endswith(
        "covers no green nail: cover one, or declare you cannot")


# -- every choice is narrated ---------------------------------------------------------------

def narrated(state: NailsState, choice: str) -> list[str]:
    seat = state.pending()[0].seat
    return [i18n.narrate(event, NAMES, "en") for event in state.apply(seat, choice)
            if event.public]


def test_declining_keeping_and_trimming_are_narrated() -> None:
    assert "Ada does not play again." in narrated(mechanic_game("again"), "no")
    assert "Ada does not draw two." in narrated(mechanic_game("draw2"), "no")
    assert "Ada keeps all their tiles." in narrated(mechanic_game("discard"), "keep")
    trim = mechanic_game("draw2")
    trim.apply(0, "yes")
    assert trim.pending()[0].kind == "trim"
    assert narrated(trim, "80")[0] == "Ada discards a tile (at most 4 in hand)."


# -- in Portuguese --------------------------------------------------------------------------

def test_events_refusals_and_options_read_in_portuguese() -> None:
    state = challenge_game(can_cover=True)
    asked = state.pending()
    assert i18n.say(asked[0].prompt, "pt_BR") == "Cubra um prego verde, ou declare que não pode."
    said = [i18n.narrate(e, NAMES, "pt_BR") for e in state.apply(1, "cannot")]
    assert said == ["Bo declara que não pode cobrir um prego verde."]
    assert i18n.say(option_words(state.observe(0), state.pending()[0], "accept", NAMES),
                    "pt_BR") == "Aceitar: a pessoa põe qualquer peça"
    challenged = state.apply(0, "challenge")
    assert i18n.narrate(challenged[0], NAMES, "pt_BR").startswith(
        "Ada desafia: Bo podia cobrir um prego verde, leva 2 pregos de penalidade")
    plain = NailsState.position([[2, 5], [6, 7]], stack=("3@A1",))
    with pytest.raises(IllegalChoice) as refused:
        plain.apply(0, "2@B1")
    assert i18n.say(refused.value.text, "pt_BR") == (
        "a peça 2 em B1 poria um prego sobre um martelo em B1 (peça 3); sobre um martelo só "
        "vai um vazio")
    assert i18n.say(refused.value.text, "en").startswith("tile 2 at B1 would lay a nail")
    assert i18n.say(option_words(plain.observe(0), plain.pending()[0], "2@-A-1/90", NAMES),
                    "pt_BR") == ("peça 2 em -A-1, girada 90° — cobre 1 prego vermelho; ativa "
                                 "Jogue de Novo")


def test_ships_agree_in_portuguese() -> None:
    space = NailsState.position([[1, 2], [4, 5]], stack=("3@A1",),
                                options=NailsOptions(deck="space"))
    text = i18n.say(render_words(space.observe(0), NAMES), "pt_BR")
    assert "naves" in text and "prego" not in text and "martelo" not in text
    assert "vence quem tiver mais naves" in text and "baralho Espaço" in text
    rules = [i18n.say(part, "pt_BR") for part in NAILS.rules_for({"deck": "space"}, 2)]
    assert "uma nave vermelha ou azul" in rules[1]


@pytest.mark.parametrize("locale", ["en", "pt_BR"])
def test_the_rules_fit_an_embed_in_every_language(locale: str) -> None:
    for options, seats in (({}, None), ({}, 2), ({}, 4), ({"teams": False}, 4),
                           ({"deck": "space"}, None), ({"deck": "workshop4"}, 3),
                           ({"deck": "workshop4"}, None), ({"final_round": "dealer"}, 2)):
        paragraphs = NAILS.rules_for(options, seats)
        assert isinstance(paragraphs, list)
        text = "\n\n".join(i18n.say(part, locale) for part in paragraphs)
        assert 1500 < len(text) < 4000, (options, seats, len(text))
