"""Eclipse's computer player: legal everywhere, and sensible where it matters."""

from __future__ import annotations

import random

from rules.eclipse import GAME as ECLIPSE
from rules.eclipse import EclipseOptions, EclipseState, choose


def bot(state: EclipseState, seat: int) -> str:
    return choose(state.copy(), seat, random.Random(0))


def test_the_defender_matches_the_likely_top() -> None:
    # Seat 0 has seen nearly every moon card (in front of the players), so the
    # attacker almost surely holds a sun: the defender answers with its sun card.
    moons = " ".join(f"M{n}m" for n in range(1, 16)) + " " + " ".join(
        f"M{n}f" for n in range(1, 14))
    groups = moons.split()
    subsets = " | ".join(" ".join(groups[i:i + 5]) for i in range(0, len(groups), 5))
    state = EclipseState.position(["S2f S9f", "M14f S5m"], subsets=["", subsets],
                                  options=EclipseOptions(counterattack=0), attacker=0)
    # Seat 1 defends; it knows the moons it sees; it plays the sun card.
    assert bot(state, 1) == "S5m"


def test_the_winner_fills_the_losers_fullest_subset() -> None:
    state = EclipseState.position(["S6m F F", "M3m"], subsets=["", "S1m S11m F | S2f"])
    state.apply(0, "S6m")
    state.apply(1, "M3m")
    assert bot(state, 0) == "1+2"               # six cards: the subset is complete


def test_the_loser_uses_the_safe_set_to_survive() -> None:
    state = EclipseState.position(["S6m", "M3m", "S1f"],
                                  subsets=["", "S1m S11m F F F", "M1f"])
    state.apply(0, "S6m")
    state.apply(1, "M3m")
    state.apply(0, "1")
    assert state.phase == "safe"
    choice = bot(state, 1)
    assert choice in ("S1m", "S11m", "S6m")     # out of the complete subset
    state.apply(1, choice)
    assert not state.out[1]


def test_the_computer_beats_random_play() -> None:
    wins = 0
    for seed in range(60):
        state = ECLIPSE.new({}, 2, seed)
        rng = random.Random(seed)
        while not state.over:
            decision = state.pending()[0]
            if decision.seat == seed % 2:
                choice = choose(state.copy(), decision.seat, random.Random(state.step))
                assert choice in decision.options
            else:
                choice = rng.choice(decision.options)
            state.apply(decision.seat, choice)
        wins += state.outcome().places[seed % 2] == 1
    # Eclipse has plenty of luck: about three games in four is the computer's usual share.
    assert wins >= 40, f"the computer won only {wins} of 60 against random play"
