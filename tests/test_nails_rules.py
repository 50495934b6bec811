"""Hammer & Nails' rules (spec: ../shared/specs/nails.md): covering, one zone per
tile, Ø, rotation, octagons and cows, the seed's FIG. 5 and FIG. 6, every
mechanic and their order, both challenge outcomes, the end and the tie-break."""

from __future__ import annotations

import pytest

from bot import i18n
from rules.errors import IllegalChoice, MalformedChoice, NotYourTurn
from rules.nails import DECKS, NailsOptions, NailsState, Placement, parse_deck
from rules.nails.stack import BuildStack
from rules.nails.state import fired_mechanics

FILLER = "\n".join(f"{n} _ _ _ _" for n in range(80, 99)) + "\n99 R G _ _"
OCTAGON_FILLER = "\n".join(f"{n} blank | _ _ _ _" for n in range(80, 100))


def lab(text: str, shape: str = "square", **how) -> object:
    """A small deck for one test, padded with blank tiles so a game can be dealt."""
    filler = OCTAGON_FILLER if shape == "octagon" else FILLER
    return parse_deck("lab", shape, text + "\n" + filler, **how)  # type: ignore[arg-type]


def stack_of(deck, *placements: str) -> BuildStack:
    """Tiles laid where said, without the placement rules (to set up a stack)."""
    stack = BuildStack(deck.shape)
    for text in placements:
        placement = Placement.parse(text)
        stack.place(deck.tile(placement.tile), placement, first=True)
    return stack


def census_ok(state: NailsState) -> bool:
    return state.census() == sorted(state.deck_def.numbers)


# -- geometry ---------------------------------------------------------------------------

@pytest.mark.parametrize(("under", "over", "legal"), [
    ("_", "R", True), ("_", "_", True), ("_", "H", False),      # blank ← nail or blank
    ("R", "H", True), ("R", "_", True), ("R", "G", False),      # nail ← hammer or blank
    ("H", "_", True), ("H", "R", False), ("H", "H", False),     # hammer ← blank only
])
def test_what_may_cover_what(under: str, over: str, legal: bool) -> None:
    deck = lab(f"1 {under} _ _ _\n2 _ _ {over} _")
    stack = stack_of(deck, "1@A1")
    # Tile 2's bottom-right zone lands on tile 1's top-left; the rest is empty table.
    assert (stack.check(deck.tile(2), Placement(2, -1, -1)) is not None) is legal


def test_each_covered_zone_is_on_a_different_tile() -> None:
    deck = lab("1 R R R R\n2 R R R R\n3 _ _ _ _")
    stack = stack_of(deck, "1@A1", "2@C1")           # side by side
    assert stack.check(deck.tile(3), Placement(3, 0, 0)) is None      # four zones of tile 1
    assert stack.check(deck.tile(3), Placement(3, 1, 0)) is None      # two of tile 2
    two = stack.check(deck.tile(3), Placement(3, 1, -1))              # one of each
    assert two is not None and {c.under_tile for c in two} == {1, 2}
    assert stack.check(deck.tile(3), Placement(3, 5, 5)) is None      # covers nothing


def test_a_null_zone_is_never_covered_and_empty_table_is_free() -> None:
    deck = lab("1 _:null R _ _\n2 _ _ _ _")
    stack = stack_of(deck, "1@A1")
    assert stack.check(deck.tile(2), Placement(2, -1, -1)) is None    # on the Ø zone
    assert stack.check(deck.tile(2), Placement(2, 0, -1)) is None     # Ø and the nail
    assert stack.check(deck.tile(2), Placement(2, 1, -1)) is not None  # the nail only


def test_rotation_turns_the_zones_clockwise() -> None:
    deck = lab("1 R _ _ _\n2 H _ _ _")
    stack = stack_of(deck, "1@A1")
    # Tile 2's hammer must land on tile 1's nail at A1 from the tile at -A-1: its
    # bottom-right place, which the hammer reaches after a half turn.
    legal = {p.rotation for p in stack.placements(deck.tile(2)) if (p.x, p.y) == (-1, -1)}
    assert 180 in legal
    assert stack.check(deck.tile(2), Placement(2, -1, -1, 180)) is not None
    zones = dict(stack.zones_of(deck.tile(2), Placement(2, -1, -1, 90)))
    assert zones[(0, -1)].kind == "hammer"          # a quarter turn: top-left → top-right


def test_octagons_sit_on_even_centres_and_meet_at_their_zones() -> None:
    deck = lab("1 cow | R _ H _\n2 blank | _ H _ _\n3 blank | _ _ _ H", shape="octagon")
    stack = stack_of(deck, "1@A1")                  # centre (0, 0): zones (0,-1) (1,0) (0,1) (-1,0)
    assert stack.check(deck.tile(2), Placement(2, 1, 0)) is None      # odd centre
    assert stack.check(deck.tile(2), Placement(2, 0, 0)) is None      # shared centre
    # Centre (0, -2): its bottom zone is the cell (0, -1), tile 1's red ship.
    assert stack.check(deck.tile(3), Placement(3, 0, -2, 90)) is not None
    centres = {(p.x, p.y) for p in stack.placements(deck.tile(3))}
    assert centres <= {(0, -2), (2, 0), (0, 2), (-2, 0)}


def test_the_cow_bonus_counts_each_ship_next_to_a_cow() -> None:
    deck = lab("1 cow | _ B _ _\n2 cow | _ _ _ _\n3 blank | _ B _ _", shape="octagon")
    stack = stack_of(deck, "2@C1", "1@A1")          # cows at (2,0) and (0,0)
    # Tile 1's blue ship at (1, 0) sits between both cows: +2.
    assert stack.visible_nails("blue") == 1 and stack.cow_bonus("blue") == 2
    stack.place(deck.tile(3), Placement(3, 0, 2), first=True)        # ship at (1, 2): no cow
    assert stack.visible_nails("blue") == 2 and stack.cow_bonus("blue") == 2


# -- the seed's figures -------------------------------------------------------------------

def test_fig_5_and_fig_6_on_the_workshop_deck() -> None:
    deck = DECKS["workshop"]
    stack = stack_of(deck, "3@A1")
    fig5 = stack.place(deck.tile(2), Placement.parse("2@-A2"))        # FIG. 5
    assert [(c.under_tile, c.under.colour, c.over.kind) for c in fig5] == [(3, "green", "hammer")]
    assert fired_mechanics(fig5) == []
    fig6 = stack.place(deck.tile(1), Placement.parse("1@-A-1/180"))   # FIG. 6
    assert [(c.under_tile, c.under.mechanic, c.over.mechanic) for c in fig6] == [
        (3, "again", "again")]
    assert fired_mechanics(fig6) == ["again", "again"]


def test_fig_6_gives_two_optional_play_agains() -> None:
    state = NailsState.position([[1, 5, 6, 7], [8, 9, 10, 11]], stack=("3@A1", "2@-A2"))
    state.apply(0, "1@-A-1/180")
    assert state.phase == "again" and state.pending()[0].options == ("yes", "no")
    state.apply(0, "yes")
    assert state.phase == "again"                   # the second Play Again
    state.apply(0, "no")
    assert state.phase == "place" and state.turn == 0   # one more tile this turn
    assert census_ok(state)


# -- mechanics ----------------------------------------------------------------------------

def mechanic_game(mechanic: str, seats: int = 2, **kw) -> NailsState:
    """Seat 0 holds tile 2, whose hammer covers tile 1's nail carrying ``mechanic``."""
    deck = lab(f"1 R:{mechanic} _ _ _\n2 _ _ H _\n3 H _ _ _\n4 _ _ _ G\n5 R _ _ _\n6 G G _ _")
    hands = [[2, 3, 80, 81]] + [[82 + 4 * s, 83 + 4 * s, 84 + 4 * s, 85 + 4 * s]
                                for s in range(seats - 1)]
    return NailsState.position(hands, stack=("1@A1",), deck=deck, **kw)


def test_play_again_and_its_refusal() -> None:
    state = mechanic_game("again")
    state.apply(0, "2@-A-1")
    assert state.phase == "again"
    state.apply(0, "no")
    assert state.turn == 1 and len(state.hands[0]) == 4


def test_remove_one_top_tile_but_not_the_one_just_placed() -> None:
    deck = lab("1 R:remove _ _ _\n2 _ _ H _\n3 _ _ _ _")
    state = NailsState.position([[2, 80, 81, 82], [83, 84, 85, 86]],
                                stack=("1@A1", "3@C3"), deck=deck)   # 3 sits apart, on top
    state.apply(0, "2@-A-1")
    decision = state.pending()[0]
    assert decision.kind == "remove" and decision.options == ("3",)   # 1 is covered; 2 is new
    state.apply(0, "3")
    assert 3 in state.discard and state.stack.tiles == [1, 2] and census_ok(state)


def test_look_through_the_deck_and_take_one() -> None:
    state = mechanic_game("search")
    state.apply(0, "2@-A-1")
    decision = state.pending()[0]
    assert decision.kind == "search" and "90" in decision.options
    assert decision.options == tuple(sorted(decision.options, key=int))
    state.apply(0, "90")
    assert 90 in state.hands[0] and 90 not in state.draw and census_ok(state)


def test_draw_two_is_optional_and_a_big_hand_is_trimmed() -> None:
    state = mechanic_game("draw2")
    state.apply(0, "2@-A-1")
    state.apply(0, "yes")
    assert len(state.hands[0]) == 5 and state.phase == "trim"      # 3 left + 2 drawn
    state.apply(0, "80")
    assert len(state.hands[0]) == 4 and state.turn == 1


def test_one_opponent_discards_at_random_and_teammates_are_spared() -> None:
    state = mechanic_game("opp-discard", seats=4)
    assert state.colour_of == ("red", "green", "red", "green")
    state.apply(0, "2@-A-1")
    decision = state.pending()[0]
    assert decision.kind == "victim" and decision.options == ("P2", "P4")
    events = state.apply(0, "P4")
    assert len(state.hands[3]) == 3 and len(state.discard) == 1
    lost = [e for e in events if e.kind == "lost"]
    assert lost and lost[0].seats == frozenset({3})    # only the victim learns which


def test_discard_one_of_choice_is_optional() -> None:
    state = mechanic_game("discard")
    state.apply(0, "2@-A-1")
    decision = state.pending()[0]
    assert decision.kind == "discard" and decision.options[-1] == "keep"
    state.apply(0, "3")
    assert 3 in state.discard and state.turn == 1


def test_nail_mechanics_resolve_before_hammer_mechanics() -> None:
    deck = lab("1 R:discard _ _ _\n2 _ _ H:draw2 _")
    state = NailsState.position([[2, 80, 81, 82], [83, 84, 85, 86]], deck=deck,
                                stack=("1@A1",))
    state.apply(0, "2@-A-1")
    assert state.fired == ("discard", "draw2")
    assert state.phase == "discard"
    state.apply(0, "keep")
    assert state.phase == "draw2"


def test_mechanics_fire_only_when_a_hammer_meets_a_nail() -> None:
    deck = lab("1 R:again _:again _ _\n2 _ _ _ _\n3 _ _ _ R:again")
    stack = stack_of(deck, "1@A1")
    blank_on_nail = stack.check(deck.tile(2), Placement(2, -1, -1))
    assert blank_on_nail is not None and fired_mechanics(blank_on_nail) == []
    nail_on_blank = stack.check(deck.tile(3), Placement(3, 1, -1))
    assert nail_on_blank is not None and fired_mechanics(nail_on_blank) == []


# -- must cover, and challenges -----------------------------------------------------------

def challenge_game(can_cover: bool) -> NailsState:
    """Seat 0 fires "next player must cover a green nail"; seat 1 holds a hammer
    that can (or a nail that cannot) cover tile 6's green nail."""
    deck = lab("1 R:cover-green _ _ _\n2 _ _ H _\n6 G _ _ _\n7 _ H _ _\n8 R R R R\n"
               "9 R R R G\n10 R R G G\n11 R G G G")
    second = [7 if can_cover else 8, 9, 10, 11]     # nails alone never cover a nail
    state = NailsState.position([[2, 80, 81, 82], second], deck=deck,
                                stack=("1@A1", "6@E1"), draw=[90, 91, 92, 93])
    state.apply(0, "2@-A-1")
    assert state.turn == 1 and state.phase == "cover"
    return state


def test_the_next_player_covers_the_colour_or_declares_they_cannot() -> None:
    state = challenge_game(can_cover=True)
    decision = state.pending()[0]
    assert decision.options[-1] == "cannot" and len(decision.options) > 1
    assert not decision.automatic
    assert all(state.stack.covers_colour(Placement.parse(o), "green")
               for o in decision.options[:-1])
    with pytest.raises(IllegalChoice):
        state.apply(1, "9@K9")
    state.apply(1, decision.options[0])
    assert state.penalties == [0, 0] and state.turn == 0


def test_a_bluff_caught_costs_two_nails_and_the_cover_is_forced() -> None:
    state = challenge_game(can_cover=True)
    state.apply(1, "cannot")
    assert state.phase == "challenge" and state.pending()[0].seat == 0
    state.apply(0, "challenge")
    assert state.penalties == [0, 2]
    decision = state.pending()[0]
    assert decision.seat == 1 and "cannot" not in decision.options
    assert all(state.stack.covers_colour(Placement.parse(o), "green") for o in decision.options)
    state.apply(1, decision.options[0])
    assert census_ok(state)


def test_a_wrong_challenge_costs_the_challenger_and_shows_their_hand_to_one_player() -> None:
    state = challenge_game(can_cover=False)
    next_tile = state.draw[0]
    state.apply(1, "cannot")
    events = state.apply(0, "challenge")
    assert state.penalties == [2, 0]
    reveal = [e for e in events if e.kind == "reveal"]
    assert reveal and reveal[0].seats == frozenset({1})
    shown = i18n.narrate(reveal[0], ["Ada", "Bo"], "en")
    assert all(f"tile {n}" in shown for n in state.hands[0])
    assert state.observe(1).revealed == tuple(state.tiles[n] for n in sorted(state.hands[0]))
    assert state.observe(0).revealed is None and state.observe(None).revealed is None
    # The declarer lost a tile at random and drew one, which they must play if able.
    assert next_tile in state.hands[1] and len(state.hands[1]) == 4
    if state.must_play is not None:
        assert {Placement.parse(o).tile for o in state.pending()[0].options} == {next_tile}
    assert census_ok(state)


def test_an_accepted_declaration_lets_them_play_anything() -> None:
    state = challenge_game(can_cover=True)
    state.apply(1, "cannot")
    state.apply(0, "accept")
    assert state.penalties == [0, 0] and state.phase == "place" and state.turn == 1


# -- turns, the end and scoring -----------------------------------------------------------

def test_with_no_legal_placement_a_tile_is_discarded_and_one_drawn() -> None:
    deck = lab("1 H H H H\n2 R R R R")
    state = NailsState.position([[2], [80]], deck=deck, stack=("1@A1",), draw=[81, 82])
    assert state.phase == "stuck" and state.pending()[0].options == ("2",)


def test_the_final_round_ends_after_the_dealer_and_fewest_wins() -> None:
    deck = lab("1 _ _ _ _\n2 R _ _ _\n3 G G _ _")
    # Seat 1 deals; seat 0 goes out first with its last tile and an empty deck.
    state = NailsState.position([[2], [3, 80]], deck=deck, stack=("1@A1",), draw=[],
                                dealer=1)
    state.apply(0, state.pending()[0].options[0])
    assert state.went_out == [0] and state.final_round and state.turn == 1
    assert not state.over                            # the dealer still plays
    while not state.over:
        decision = state.pending()[0]
        state.apply(decision.seat, decision.options[0])
    outcome = state.outcome()
    totals = state.totals()
    assert outcome is not None and outcome.scores == tuple(totals)
    assert outcome.winners == (min(range(2), key=lambda s: totals[s]),)


def test_scores_count_showing_nails_hand_nails_and_penalties() -> None:
    deck = lab("1 R R _ _\n2 G _ _ _")
    state = NailsState.position([[80], [2]], deck=deck, stack=("1@A1",))
    state.penalties = [2, 0]
    assert state.totals() == [2 + 0 + 2, 0 + 1 + 0]          # red: 2 showing + penalties
    assert state.totals(hands=()) == [4, 0] and state.totals(hands=(1,)) == [4, 1]
    most = NailsState.position([[80], [2]], deck=deck, stack=("1@A1",),
                               options=NailsOptions(objective="most"))
    assert most.most_wins


def test_a_tie_is_broken_by_rounds_of_removals() -> None:
    deck = lab("1 R _ _ G\n3 G _ _ _\n4 R _ _ _")
    # Two red and two green nails show; nobody holds a tile and the deck is empty,
    # so seat 0 goes out first, then seat 1, the dealer: the count ties 2–2.
    state = NailsState.position([[], []], deck=deck, stack=("1@A1", "3@E1", "4@E5"),
                                draw=[], dealer=1)
    assert state.phase == "tiebreak" and state.went_out == [0, 1]
    assert state.totals() == [2, 2]
    decision = state.pending()[0]
    assert decision.seat == 0 and set(decision.options) == {"1", "3", "4"}
    state.apply(0, "3")                           # a green nail goes: red 2, green 1
    assert state.pending()[0].seat == 1
    state.apply(1, "1")                           # a red and a green go: red 1, green 0
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (1,) and outcome.scores == (1, 0)
    assert "after 1 removal round" in i18n.say(outcome.reason, "en")  # type: ignore[arg-type]


def test_placements_are_read_in_any_case_and_refused_clearly() -> None:
    state = mechanic_game("again")
    with pytest.raises(MalformedChoice) as refused:
        state.apply(0, "5@A1")
    assert i18n.say(refused.value.text, "en") == "tile 5 is not in your hand"
    assert i18n.say(refused.value.text, "pt_BR") == "a peça 5 não está na sua mão"
    with pytest.raises(MalformedChoice):
        state.apply(0, "two at home")
    with pytest.raises(NotYourTurn):
        state.apply(1, "82@A1")
    assert state.apply(0, "2 -a-1 0")[0].kind == "place"


def test_hands_stay_private() -> None:
    state = mechanic_game("search")
    assert state.observe(None).hand is None
    assert {t.number for t in state.observe(0).hand} == set(state.hands[0])
    assert "80" not in repr(state.observe(1).hand)
