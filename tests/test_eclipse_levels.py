"""Eclipse's computer levels and what they stand on.

* ``unseen`` deals again what a seat cannot see — other hands, the deck, the card
  a loser has drawn, another seat's held secret choice, the state's random
  numbers — and nothing that seat has seen: its observation is the same.
* ``easy`` and ``hard`` choose legal options and repeat themselves under a
  counting clock; ``hard`` mixes its secret choices (no deterministic tell).
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

from rules.core import thinking_rng
from rules.eclipse import GAME as ECLIPSE
from rules.eclipse import EclipseOptions, EclipseState, parse_deck, unseen


def check_census(state: EclipseState) -> None:
    census = state.census()
    assert sorted(census) == list(range(len(state.cards)))
    assert set(census.values()) == {1}


@cache
def midgame(seats: int, seed: int, choices: int) -> EclipseState:
    """A game of ``seats`` normal computers, ``choices`` choices in (or over)."""
    state = ECLIPSE.new({}, seats, seed)
    assert isinstance(state, EclipseState)
    made = 0
    while state.outcome() is None and made < choices:
        for decision in state.pending():
            choice = decision.forced or ECLIPSE.bot(
                state.copy(), decision.seat, thinking_rng(seed, state.step, decision.seat))
            state.apply(decision.seat, choice)
            made += 1
    return state


POSITIONS = [(2, 1, 40), (2, 2, 90), (3, 3, 60), (3, 4, 150), (4, 5, 120)]


def test_unseen_keeps_the_seats_view_and_deals_the_rest_again() -> None:
    moved = 0
    for seats, seed, choices in POSITIONS:
        state = midgame(seats, seed, choices)
        before = state.notation()
        for seat in range(seats):
            for deal in range(3):
                dealt = unseen(state, seat, random.Random(deal))
                assert dealt.observe(seat) == state.observe(seat)
                check_census(dealt)
                assert [len(h) for h in dealt.hands] == [len(h) for h in state.hands]
                assert dealt.hands[seat] == state.hands[seat]
                moved += any(sorted(dealt.hands[s]) != sorted(state.hands[s])
                             for s in range(seats) if s != seat)
        assert state.notation() == before, "unseen changed the state it was given"
    assert moved >= 20


def test_cards_seen_going_under_the_deck_stay_where_they_are() -> None:
    state = EclipseState.position(["S6m S2f", "M3m S4f"],
                                  options=EclipseOptions(counterattack=0))
    state.apply(0, "S6m")
    state.apply(1, "M3m")   # tops differ: the attacker wins, M3m goes under the deck
    lost = state.deck_def.card_by_code("M3m").id
    assert state.deck[-1] == lost
    view = state.observe(0)
    assert view.under == ((len(state.deck) - 1, state.cards[lost]),)
    for deal in range(5):
        dealt = unseen(state, 0, random.Random(deal))
        assert dealt.deck[-1] == lost
        assert dealt.observe(0) == view


def test_a_card_drawn_from_where_everyone_saw_it_is_known_in_that_hand() -> None:
    tiny = parse_deck("tiny", "S6m:bolt S2f:cog M3m:shield S4f:butterfly")
    state = EclipseState.position(["S6m S2f", "M3m S4f"], card_deck=tiny,
                                  options=EclipseOptions(counterattack=0))
    state.apply(0, "S6m")
    state.apply(1, "M3m")   # M3m goes under the empty deck, and seat 2 draws it back
    state.apply(0, "new")
    state.apply(1, "keep")
    m3m = tiny.card_by_code("M3m")
    assert state.observe(0).known[1] == (m3m,)
    for deal in range(5):
        assert m3m.id in unseen(state, 0, random.Random(deal)).hands[1]


def test_another_seats_held_choice_is_made_again_from_its_new_hand() -> None:
    state = EclipseState.position(["S6m S2f M4f", "M3m S4f"],
                                  options=EclipseOptions(counterattack=0))
    state.apply(0, "S6m")   # held, unrevealed
    held = Counter()
    for deal in range(20):
        dealt = unseen(state, 1, random.Random(deal))
        assert dealt.has_chosen(0) and dealt.observe(1) == state.observe(1)
        choice = dealt._held[0]
        assert choice in dealt.decisions()[0].options
        assert dealt.deck_def.card_by_code(choice).id in dealt.hands[0]
        held[choice] += 1
    assert len(held) > 3, "the held card was not dealt again"
    assert unseen(state, 0, random.Random(1))._held == {0: "S6m"}, "its own choice stays"


def test_a_player_about_to_play_still_holds_a_symbol_card() -> None:
    sparse = parse_deck("sparse", "S1m:bolt M2m:cog S3f:star Fx8")
    state = EclipseState.position(["S1m", "M2m F"], card_deck=sparse,
                                  options=EclipseOptions(counterattack=0))
    for deal in range(30):
        dealt = unseen(state, 0, random.Random(deal))
        assert any(not dealt.cards[c].follower for c in dealt.hands[1])
        check_census(dealt)


def test_the_states_random_numbers_come_from_the_rng_given() -> None:
    state = midgame(2, 1, 40)
    first = unseen(state, 0, random.Random(7)).rng.random()
    assert unseen(state, 0, random.Random(7)).rng.random() == first
    assert unseen(state, 0, random.Random(8)).rng.random() != first
    assert state.copy().rng.random() != first
