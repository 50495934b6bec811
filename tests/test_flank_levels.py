"""Flank's computer levels: ``easy`` and ``hard`` are registered, always choose a
legal option, and ``hard`` searches (it finds the one winning line of an
endgame, takes the corner that wins) and repeats itself exactly under a
counting clock. How strong each level is, is measured in bench/levels_flank.py,
not here.

``hard`` thinks by the clock; here a counting clock (:func:`counting_clock`)
moves on quickly, so each search stops after a few hundred positions.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from rules.core import LEVELS, thinking_rng
from rules.flank import GAME as FLANK
from rules.flank import FlankState, easy, hard
from rules.thinking import counting_clock

QUICK = 0.1
"""Seconds a counting clock moves on per reading: ``hard`` stops after a few readings."""
TABLES: tuple[dict[str, object], ...] = (
    {},
    {"board": 8, "stoppers": 0},
    {"board": 6, "stoppers": 2},
    {"stopper_zone": "ring"},
    {"stopper_zone": "orthogonal", "cards": 12},
    {"extra_stoppers": 0, "stoppers": 1},
)
"""Tables the levels must play legally on: the default, Othello, a small board with
stoppers, both barring stopper zones, few cards, one stopper each."""


@cache
def positions() -> tuple[FlankState, ...]:
    """Positions with a real choice from random games on every table in
    :data:`TABLES`, from the opening to the last cards."""
    found = []
    for n, options in enumerate(TABLES):
        rng = random.Random(n)
        state = FLANK.new(options, 2, n)
        assert isinstance(state, FlankState)
        while state.outcome() is None:
            (decision,) = state.pending()
            if len(decision.options) > 1 and rng.random() < 0.25:
                found.append(state.copy())
            state.apply(decision.seat, rng.choice(decision.options))
    return tuple(found)


def test_every_level_is_registered() -> None:
    assert FLANK.computer("easy") is easy.choose
    assert FLANK.computer("hard") is hard.choose
    assert FLANK.unseen is None  # nothing is hidden in Flank
    assert set(LEVELS) == {"easy", "normal", "hard"}


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_every_level_chooses_a_legal_option_and_leaves_the_game_alone(level: str) -> None:
    player = FLANK.computer(level)
    assert len(positions()) > 40
    for state in positions():
        (decision,) = state.pending()
        before = state.notation()
        with counting_clock(QUICK):
            choice = player(state, decision.seat, thinking_rng(7, state.step, decision.seat))
        assert choice in decision.options, (level, state.notation(), choice)
        assert state.notation() == before


def test_hard_finds_the_one_winning_endgame_line() -> None:
    # O to move with 7 cards left between them: F1 wins by 12; the greedy A6 (it
    # flips most) loses by 3, A2 and B6 lose too.
    state = FlankState.from_notation(
        "board=6 stoppers=0 rows=.OXXX./.OXOOO/OXXXOO/XXXOOO/XXOO../..XXXX first=1 move=O "
        "left=3,4")
    thought = hard.think(state, 0, random.Random(1))
    assert thought.choice == "F1" and thought.exact
    assert easy.choose(state, 0, random.Random(1)) in state.pending()[0].options


def test_hard_takes_the_corner_that_wins() -> None:
    # Only A8 wins (by 2); the greedy A3 loses by 5.
    state = FlankState.from_notation(
        "board=8 stoppers=0 rows=.OOO.XXO/X.X.OOOO/.XXOOOO./OXOXXXOO/OOXXXXOX/OOOOXXOX/"
        "XXXXOOXX/.OXXXXXX move=O left=3,4")
    with counting_clock(QUICK):
        assert hard.choose(state, 1, random.Random(2)) == "A8"


def test_hard_takes_the_winning_last_card_on_the_table() -> None:
    # Black lays its last card: G4 flips two and wins 4–3, D6 or F6 flip one and lose.
    state = FlankState.from_notation("stoppers=0 at=C3 rows=..../.XOO/.OOO left=1,0")
    with counting_clock(QUICK):
        assert hard.choose(state, 0, random.Random(3)) == "G4"


def test_hard_repeats_itself_exactly_under_a_counting_clock() -> None:
    for state in positions()[::9]:
        seat = state.pending()[0].seat
        with counting_clock(0.02):
            first = hard.think(state, seat, thinking_rng(5, state.step, seat))
        with counting_clock(0.02):
            again = hard.think(state, seat, thinking_rng(5, state.step, seat))
        assert first == again and first.nodes > 0


def test_hard_stops_when_its_clock_runs_out() -> None:
    state = FLANK.new({}, 2, 4)
    assert isinstance(state, FlankState)
    seat = state.pending()[0].seat
    # The clock is read as the search starts and every CHECK positions after.
    with counting_clock(hard.TIME / 4):
        quick = hard.think(state, seat, random.Random(4))
    with counting_clock(hard.TIME / 40):
        longer = hard.think(state, seat, random.Random(4))
    assert quick.nodes <= 4 * hard.CHECK
    assert quick.nodes < longer.nodes <= 40 * hard.CHECK
    assert quick.depth < longer.depth


def test_hard_tells_equal_options_apart_by_its_rng() -> None:
    # The four opening placements are mirror images of each other.
    state = FlankState({"board": 8, "stoppers": 0}, first=0)
    with counting_clock(QUICK):
        picks = {hard.choose(state, 0, random.Random(n)) for n in range(12)}
    assert picks == {"C5", "D6", "E3", "F4"}


def test_easy_is_fallible_but_not_random() -> None:
    # Two ways beginners miss: it sometimes passes the winning corner by, and it
    # likes the option that flips most (A3 flips 6 cards; random would pick each
    # of 5 options a fifth of the time).
    state = FlankState.from_notation(
        "board=8 stoppers=0 rows=.OOO.XXO/X.X.OOOO/.XXOOOO./OXOXXXOO/OOXXXXOX/OOOOXXOX/"
        "XXXXOOXX/.OXXXXXX move=O left=3,4")
    picks = [easy.choose(state, 1, random.Random(n)) for n in range(60)]
    assert 0 < picks.count("A8") < 50
    assert picks.count("A3") > 12


def _signature(seed: int) -> tuple[tuple[int, bool], ...]:
    """The first choices of hard against itself from ``seed``, as what survives a
    mirror image of the table: the cards each flipped and whether it was stoppered."""
    state = FLANK.new({}, 2, seed)
    marks = []
    with counting_clock(0.05):
        for _ in range(10):
            (decision,) = state.pending()
            choice = hard.choose(state, decision.seat,
                                 thinking_rng(seed, state.step, decision.seat))
            (event, *_) = state.apply(decision.seat, choice)
            marks.append((len(event.data.get("flipped", ())), bool(event.data.get("stopper"))))
    return tuple(marks)


def test_hard_against_itself_plays_different_games() -> None:
    assert len({_signature(seed) for seed in range(4)}) > 1
