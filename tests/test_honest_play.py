"""Honest play: a computer player of every game and level chooses from what its
seat may see, never from the hidden state.

Positions come from seeded games of the ``normal`` computer. At each, the seat
to decide is asked twice as many times: on the state as it is, and on copies
whose hidden parts (other hands, libraries' order, the state's RNG) were dealt
again by the game's :attr:`~rules.core.GameInfo.unseen`. The choice must not
change. Searches think by a counting clock, so that a clock-bound ``hard``
player stops after the same positions every time and a difference can only
come from what it looked at.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from rules.core import LEVELS, GameInfo, GameState, thinking_rng
from rules.registry import shipped_games
from rules.thinking import counting_clock

GAMES = shipped_games()
POSITIONS = 6
"""Positions per game, spread over a few games."""
DEALS = 3
"""Hidden parts dealt again per position."""
TICK = 0.02
"""Seconds the counting clock moves on each reading."""


def _setup(info: GameInfo, seats: int) -> tuple[dict[str, str] | None, ...]:
    if not info.decks:
        return (None,) * seats
    return tuple({"deck": info.decks[seat % len(info.decks)]} for seat in range(seats))


@cache
def positions(name: str) -> tuple[tuple[GameState, int], ...]:
    """``(state, seat)`` pairs where ``seat`` has a real choice to make, from
    several points of a few seeded games (made when a test first asks)."""
    info = GAMES[name]
    found: list[tuple[GameState, int]] = []
    for seed in range(40):
        if len(found) >= POSITIONS:
            break
        seats = info.default_seats
        state = info.new({}, seats, seed, _setup(info, seats))
        picker = random.Random(seed)
        stops = sorted(picker.sample(range(5, 120), 2))
        choices = 0
        while state.outcome() is None and stops:
            decisions = state.pending()
            open_ = [d for d in decisions if d.forced is None and len(d.options) > 1]
            if open_ and choices >= stops[0]:
                stops.pop(0)
                found.append((state.copy(), open_[0].seat))
            for decision in decisions:
                choice = decision.forced or info.bot(
                    state.copy(), decision.seat, thinking_rng(seed, state.step, decision.seat))
                state.apply(decision.seat, choice)
                choices += 1
    assert len(found) >= 3, f"{name}: too few positions with a real choice"
    return tuple(found[:POSITIONS])


def _choose(info: GameInfo, level: str, state: GameState, seat: int) -> str:
    with counting_clock(TICK):
        return info.computer(level)(state.copy(), seat, thinking_rng(state.seed, state.step, seat))


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_computer_chooses_from_what_its_seat_sees(name: str, level: str) -> None:
    info = GAMES[name]
    for state, seat in positions(name):
        honest = _choose(info, level, state, seat)
        assert _choose(info, level, state, seat) == honest, "the same position, another choice"
        if info.unseen is None:
            assert not info.has_secrets, f"{name} hides things but cannot deal them again"
            continue
        for deal in range(DEALS):
            dealt = info.unseen(state, seat, random.Random(deal))
            assert dealt.observe(seat) == state.observe(seat), "the seat's view changed"
            assert _choose(info, level, dealt, seat) == honest, (
                f"{name} {level}: seat {seat}'s choice at step {state.step} changed when "
                f"what it cannot see was dealt again")


@pytest.mark.parametrize("name", sorted(name for name, info in GAMES.items() if info.has_secrets))
def test_dealing_again_changes_what_is_hidden(name: str) -> None:
    """The check above has teeth: dealing again really moves hidden things."""
    info = GAMES[name]
    assert info.unseen is not None
    moved = 0
    for state, seat in positions(name):
        others = [s for s in range(state.seats) if s != seat]
        before = [state.observe(s) for s in others]
        dealt = info.unseen(state, seat, random.Random(99))
        moved += any(dealt.observe(s) != view for s, view in zip(others, before, strict=True))
    assert moved, f"{name}: dealing again never changed what another seat holds"
