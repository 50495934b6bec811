"""Hammer & Nails' computer levels: ``easy`` and ``hard`` make legal choices to the
end of a game, ``hard`` thinks by the clock (and so repeats itself exactly under a
counting one) and sees what the next player can do with a placement."""

from __future__ import annotations

import random

import pytest

from rules.core import LEVELS, thinking_rng
from rules.nails import GAME, NailsState, hard, parse_deck
from rules.nails.bot import placement_value
from rules.nails.stack import Placement
from rules.thinking import counting_clock

TICK = 0.05
"""The counting clock's step: ``hard`` then weighs its fewest worlds."""


def play(levels: tuple[str, str], seed: int, steps: int = 1000) -> list[str]:
    """The choices of a game (its first ``steps``) between two levels, each
    checked against the decision it answers."""
    state = GAME.new({}, 2, seed)
    made: list[str] = []
    with counting_clock(TICK):
        while state.outcome() is None and len(made) < steps:
            decision = state.pending()[0]
            choice = decision.forced or GAME.computer(levels[decision.seat])(
                state.copy(), decision.seat, thinking_rng(seed, state.step, decision.seat))
            assert choice in decision.options, (levels, decision.kind, choice)
            state.apply(decision.seat, choice)
            made.append(choice)
    return made


def test_every_level_is_registered() -> None:
    assert [GAME.computer(level) for level in LEVELS] == [
        GAME.levels["easy"], GAME.bot, GAME.levels["hard"]]


@pytest.mark.parametrize("levels", [("easy", "hard"), ("hard", "easy")])
def test_easy_and_hard_play_legal_choices_to_the_end(levels: tuple[str, str]) -> None:
    assert len(play(levels, 11)) > 20


def test_hard_repeats_itself_under_a_counting_clock() -> None:
    assert play(("hard", "hard"), 5, 30) == play(("hard", "hard"), 5, 30)


def test_hard_thinks_until_its_time_is_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """It weighs worlds until the clock says its time is spent: few on a slow
    clock, its most on a fast one; never a fixed count."""
    dealt = []
    real = hard.unseen

    def counted(*args: object) -> NailsState:
        dealt.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(hard, "unseen", counted)
    state = GAME.new({}, 2, 3)
    seat = state.pending()[0].seat
    worlds = []
    for tick in (1.0, hard.BUDGET / 4, hard.BUDGET / 1000):
        dealt.clear()
        with counting_clock(tick):
            hard.choose(state.copy(), seat, random.Random(0))
        worlds.append(len(dealt))
    fewest, most = hard.WORLDS
    assert worlds[0] == fewest and fewest < worlds[1] < most and worlds[2] == most


REPLY = parse_deck("reply", "square", "1 R _ _ _\n2 G:again _ _ _\n3 _ _ _ _\n"
                   + "\n".join(f"{n} H H H H" for n in range(10, 30)))
"""A red nail to start; a green nail with Play Again, a blank tile; tiles of hammers,
which go only on nails."""


def test_hard_sees_the_next_players_reply() -> None:
    """Red to play. Hiding the red nail under tile 2 also lays a green nail, the most
    a placement gains at once, but green's hammers can then cover that nail, and it
    plays again. ``hard`` keeps its green nail out of their reach: it lays it where no
    hammer can go, or holds it back."""
    state = NailsState.position([[2, 3], [10, 11, 12, 13]], stack=("1@A1",), deck=REPLY,
                                draw=list(range(14, 30)))
    options = state.pending()[0].options
    worth = {o: placement_value(state, 0, Placement.parse(o)) for o in options}
    greedy = {o for o in options if worth[o] == max(worth.values())}
    assert greedy and all(o.startswith("2@") for o in greedy)
    with counting_clock(TICK):
        choice = hard.choose(state.copy(), 0, random.Random(0))
    assert choice not in greedy
    state.apply(0, choice)
    while state.pending()[0].seat == 0:
        state.apply(0, state.pending()[0].options[0])
    assert not state._covering(1, "green"), "green can cover its nail"
