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

import pytest

from rules.arena import play
from rules.core import thinking_rng
from rules.eclipse import GAME as ECLIPSE
from rules.eclipse import EclipseOptions, EclipseState, easy, hard, parse_deck, unseen
from rules.eclipse.cards import EMBLEMS, Card, standard_deck
from rules.eclipse.judge import judge, settle
from rules.eclipse.reading import number_game
from rules.thinking import counting_clock


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


def test_the_card_a_loser_has_drawn_and_not_yet_taken_is_dealt_again_even_for_it() -> None:
    state = EclipseState.position(["S6m S9f", "M3m S2m"], options=EclipseOptions(counterattack=0))
    state.apply(0, "S6m")
    state.apply(1, "M3m")
    assert state.phase == "deposit" and state.drawing is not None
    drawn = set()
    for deal in range(10):
        dealt = unseen(state, 1, random.Random(deal))
        assert dealt.observe(1) == state.observe(1)
        check_census(dealt)
        drawn.add(dealt.drawing)
    assert len(drawn) > 5


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


# -- the numbers game ------------------------------------------------------------------

def test_every_numbers_step_is_solved_exactly() -> None:
    """Against the other side's mix, no number does better for either side than the value."""
    deck = standard_deck()
    symbols = [card for card in deck.cards if not card.follower]
    solved = 0
    for a in symbols:
        for d in symbols:
            game = number_game(a, d) if a is not d else None
            if game is None:
                continue
            solved += 1
            a_range, d_range = judge(a, d).numbers

            def wins(x: int, y: int, a: Card = a, d: Card = d) -> bool:
                return settle(a, d, x, y).attacker_wins

            best_attack = max(sum(p * wins(x, y) for y, p in game.defender.items())
                              for x in a_range)
            best_defence = min(sum(p * wins(x, y) for x, p in game.attacker.items())
                               for y in d_range)
            assert best_attack == game.value == best_defence, (a.code, d.code)
    assert solved > 800


# -- the levels ------------------------------------------------------------------------

def test_the_levels_are_registered() -> None:
    assert ECLIPSE.computer("easy") is easy.choose
    assert ECLIPSE.computer("normal") is ECLIPSE.bot
    assert ECLIPSE.computer("hard") is hard.choose


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_a_level_plays_whole_games_legally_at_every_table(level: str) -> None:
    """``play`` applies every choice unchecked by the caller: an illegal one raises."""
    player = ECLIPSE.computer(level)
    for seed, (seats, options) in enumerate(((2, {}), (3, {}), (4, {"hand_cap": 40}),
                                             (3, {"counterattack": 0}),
                                             (2, {"counterattack": 5}))):
        game = play(ECLIPSE, options, seed, [player] * (seats - 1) + [ECLIPSE.bot])
        assert sorted(game.outcome.places) == list(range(1, seats + 1))


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_a_level_repeats_itself_under_a_counting_clock(level: str) -> None:
    player = ECLIPSE.computer(level)
    for seats, seed, choices in POSITIONS:
        state = midgame(seats, seed, choices)
        for decision in state.pending():
            picks = set()
            for _ in range(2):
                with counting_clock(0.01):
                    picks.add(player(state.copy(), decision.seat, random.Random(5)))
            assert len(picks) == 1
            assert picks <= set(decision.options)


TWIN_DECK = parse_deck("twins", " ".join(
    f"S{n}{b}:{e} M{n}{b}:{e}" for n, e in zip(range(1, 11), EMBLEMS * 2, strict=True)
    for b in "mf") + " Fx6")
"""Every card has a twin of the other top: a hand of twins holds two equal cards."""


def test_hard_mixes_a_secret_choice_between_cards_worth_the_same() -> None:
    state = EclipseState.position(["S5m M5m", "S2f M7m S9m"], card_deck=TWIN_DECK,
                                  options=EclipseOptions(counterattack=0))
    picked = Counter(hard.choose(state.copy(), 0, random.Random(k)) for k in range(40))
    assert set(picked) == {"S5m", "M5m"}
    assert min(picked.values()) >= 10, picked


def card_positions(seats: int, seed: int, wanted: int) -> list[tuple[EclipseState, int]]:
    """Positions of a game of normal computers where a seat picks among 3+ cards."""
    state = ECLIPSE.new({}, seats, seed)
    assert isinstance(state, EclipseState)
    found: list[tuple[EclipseState, int]] = []
    while state.outcome() is None and len(found) < wanted:
        for decision in state.pending():
            if decision.kind == "card" and len(decision.options) >= 3:
                found.append((state.copy(), decision.seat))
            choice = decision.forced or ECLIPSE.bot(
                state.copy(), decision.seat, thinking_rng(seed, state.step, decision.seat))
            state.apply(decision.seat, choice)
    return found


def test_hard_does_not_always_pick_the_same_card_where_several_are_near_best() -> None:
    positions = card_positions(2, 11, 8) + card_positions(3, 12, 8)
    varied = sum(len({hard.choose(state.copy(), seat, random.Random(k)) for k in range(6)}) > 1
                 for state, seat in positions)
    assert len(positions) >= 12 and varied >= len(positions) // 3, (varied, len(positions))


# -- hard's tactics --------------------------------------------------------------------

def won_by_the_attacker(subsets: str) -> EclipseState:
    """Seat 1 attacks with S6m (sun ♂ bolt) and wins against M3m; seat 2 has
    ``subsets`` and the safe set (♀ even) cannot take a bolt."""
    state = EclipseState.position(["S6m S9f F F F", "M3m S2m"], subsets=["", subsets],
                                  safe="S2f", options=EclipseOptions(counterattack=0))
    state.apply(0, "S6m")
    state.apply(1, "M3m")
    assert state.phase == "deposit"
    return state


def test_hard_puts_the_loser_out_with_the_fewest_followers_that_do_it() -> None:
    state = won_by_the_attacker("S1m S11m")   # 2 + the card + 3 followers = 6
    assert hard.choose(state.copy(), 0, random.Random(1)) == "1+3"


def test_hard_keeps_its_followers_when_no_deposit_puts_the_loser_out() -> None:
    state = won_by_the_attacker("S1m")        # 1 + 1 + 3 = 5: not yet
    assert hard.choose(state.copy(), 0, random.Random(1)) == "1"
    assert ECLIPSE.bot(state.copy(), 0, random.Random(1)) == "1+3"  # normal spends them


def lost_with_the_safe_set_one_short(defender_wins: bool) -> EclipseState:
    """The safe set holds five ♀ even cards; either loser has one more to put in."""
    state = EclipseState.position(["S6m S7m", "M3m S5m"], subsets=["M4f", "M2f"],
                                  safe="S2f S4f S6f S8f S10f",
                                  options=EclipseOptions(counterattack=0))
    state.apply(0, "S6m")
    state.apply(1, "S5m" if defender_wins else "M3m")  # S5m: a shield beats the bolt
    state.apply(1 if defender_wins else 0, "new")
    assert state.phase == "safe"
    return state


def test_hard_completes_the_safe_set_when_it_attacks_the_next_loser() -> None:
    state = lost_with_the_safe_set_one_short(defender_wins=False)   # seat 2 lost defending
    assert hard.choose(state.copy(), 1, random.Random(1)) == "M2f"
    assert ECLIPSE.bot(state.copy(), 1, random.Random(1)) == "keep"


def test_hard_leaves_the_safe_set_one_short_when_it_would_defend_next() -> None:
    state = lost_with_the_safe_set_one_short(defender_wins=True)    # seat 1 lost attacking
    assert hard.choose(state.copy(), 0, random.Random(1)) == "keep"
