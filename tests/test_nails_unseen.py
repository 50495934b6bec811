"""Hammer & Nails' ``unseen``: what one seat cannot see (the other hands, the deck's
order, discards made face down, the state's random numbers) is dealt again; what it
saw stays where it saw it, and its observation does not change."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from functools import cache

from rules.core import thinking_rng
from rules.nails import GAME, NailsState, parse_deck
from rules.nails.state import CANNOT, CHALLENGE
from rules.nails.unseen import unseen

LAB = parse_deck("lab", "square", "1 R _ _ _\n2 H:cover-green _ _ _\n3 G _ _ _\n"
                 + "\n".join(f"{n} _ _ _ _" for n in range(10, 20))
                 + "\n" + "\n".join(f"{n} R R R R" for n in range(20, 30)))
"""A red nail to hammer with a "must cover a green nail" mechanic, a green nail, blank
tiles (they cover anything) and tiles of red nails only (they cover only blanks)."""


def walk(seed: int, seats: int = 2, options: dict[str, object] | None = None,
         ) -> Iterator[NailsState]:
    """Every state of a game of the ``normal`` computer against itself."""
    state = GAME.new(options or {}, seats, seed)
    while state.outcome() is None:
        yield state
        decision = state.pending()[0]
        choice = decision.forced or GAME.bot(
            state.copy(), decision.seat, thinking_rng(seed, state.step, decision.seat))
        state = state.copy()
        state.apply(decision.seat, choice)


def find(test: Callable[[NailsState], bool], seats: int = 2) -> NailsState:
    """The first state of the seeded games that passes ``test``."""
    for seed in range(20):
        for state in walk(seed, seats):
            if test(state):
                return state
    raise AssertionError("no such position in 20 games")


def challenged() -> NailsState:
    """Seat 1 must cover a green nail (seat 0 hammered a red one with the mechanic)
    and declares, truly, that it cannot: it holds only red nails. Seat 0 to challenge."""
    state = NailsState.position([[2, 10, 11, 12], [20, 21, 22, 23]], stack=("1@A1", "3@D1"),
                                draw=[*range(13, 20), *range(24, 30)], deck=LAB)
    state.apply(0, "2@-A-1/180")
    state.apply(1, CANNOT)
    assert state.phase == "challenge"
    return state


@cache
def sample(seats: int) -> tuple[NailsState, ...]:
    """States from three games, every few steps."""
    return tuple(state for seed in range(3) for n, state in enumerate(walk(seed, seats))
                 if n % 7 == 3)


def hidden(state: NailsState, seat: int) -> tuple[object, ...]:
    """What ``seat`` does not see."""
    return (tuple(tuple(sorted(h)) for s, h in enumerate(state.hands) if s != seat),
            tuple(state.draw), state.rng.getstate())


def test_the_seat_sees_the_same_and_the_rest_is_dealt_again() -> None:
    for seats in (2, 4):
        moved = 0
        for n, state in enumerate(sample(seats)):
            for seat in range(seats):
                dealt = unseen(state, seat, random.Random(n))
                assert dealt.observe(seat) == state.observe(seat)
                assert dealt.private_part(seat) == state.private_part(seat)
                assert dealt.census() == state.census() == sorted(state.deck_def.numbers)
                assert dealt.pending() == state.pending() or state.turn != seat
                moved += hidden(dealt, seat) != hidden(state, seat)
        assert moved == seats * len(sample(seats)), "something hidden stayed put"


def test_the_deal_does_not_depend_on_where_the_hidden_tiles_were() -> None:
    """Two states the seat cannot tell apart give it the same deal: dealing again
    shows nothing of the hidden state (the honest computers rely on it)."""
    for n, state in enumerate(sample(2)):
        seat = state.turn
        other = unseen(state, seat, random.Random(1000 + n))
        assert hidden(other, seat) != hidden(state, seat)
        first = unseen(state, seat, random.Random(n))
        second = unseen(other, seat, random.Random(n))
        assert hidden(first, seat) == hidden(second, seat)
        assert first.discard == second.discard


def test_the_state_itself_is_left_alone() -> None:
    state = sample(2)[4]
    before = state.notation(), hidden(state, 0), list(state.discard)
    unseen(state, 0, random.Random(3))
    assert (state.notation(), hidden(state, 0), list(state.discard)) == before


def test_tiles_seen_going_out_stay_out() -> None:
    """Tiles taken off the stack, and the seat's own discards, stay in the discard
    pile; the other seat's face-down discards may come back into play."""
    state = find(lambda s: None in s.discarded_by.values()
                 and {0, 1} <= set(s.discarded_by.values()))
    public = {n for n, by in state.discarded_by.items() if by is None}
    for seat in (0, 1):
        mine = {n for n, by in state.discarded_by.items() if by == seat}
        theirs = [n for n, by in state.discarded_by.items() if by == 1 - seat]
        returned = 0
        for deal in range(20):
            dealt = unseen(state, seat, random.Random(deal))
            assert public | mine <= set(dealt.discard)
            assert {n for n, by in dealt.discarded_by.items() if by is None} == public
            assert len([n for n, by in dealt.discarded_by.items() if by == 1 - seat]) == \
                len(theirs)
            returned += not set(theirs) <= set(dealt.discard)
        assert returned, "the other seat's discards never came back into the deal"


def test_a_searching_seat_keeps_the_deck_it_looks_through() -> None:
    state = find(lambda s: s.phase == "search")
    seat = state.turn
    for deal in range(5):
        dealt = unseen(state, seat, random.Random(deal))
        assert sorted(dealt.draw) == sorted(state.draw)
        assert dealt.pending() == state.pending()


def test_a_hand_shown_after_a_failed_challenge_goes_back_to_its_owner() -> None:
    state = challenged()
    state.apply(0, CHALLENGE)
    assert state.revealed == {1: tuple(sorted(state.hands[0]))} and state.turn == 1
    for deal in range(5):
        dealt = unseen(state, 1, random.Random(deal))
        assert sorted(dealt.hands[0]) == sorted(state.hands[0])
        assert dealt.observe(1) == state.observe(1)


def test_a_declarer_is_dealt_a_hand_whose_covers_say_whether_they_could() -> None:
    """Before a challenge, whether the declarer could cover is worked out again from
    the hand the deal gives them: seat 0 cannot know the declaration was true."""
    state = challenged()
    assert not state.could_cover
    could = set()
    for deal in range(20):
        dealt = unseen(state, 0, random.Random(deal))
        assert dealt.could_cover == bool(dealt._covering(1, "green"))
        could.add(dealt.could_cover)
    assert could == {False, True}


def test_the_state_draws_new_random_numbers() -> None:
    state = sample(2)[2]
    dealt = unseen(state, 0, random.Random(5))
    assert dealt.rng.random() != state.copy().rng.random()
