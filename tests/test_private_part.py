"""A seat's direct message is redrawn only when ``GameState.private_part`` (or its
decision) changes, so each game's quick ``private_part`` must change exactly when
what the seat's view shows in secret changes: the default, which observes."""

from __future__ import annotations

import random

import pytest

from rules.core import GameState
from rules.errors import BadOptions
from rules.registry import games


def observed_part(state: GameState, seat: int) -> str:
    """What the base class's ``private_part`` gives: the view's secret parts."""
    view = state.observe(seat)
    return repr((getattr(view, "hand", view), getattr(view, "revealed", None)))


@pytest.mark.parametrize("name", ["eclipse", "nails"])
def test_the_quick_private_part_changes_exactly_when_the_view_does(name: str) -> None:
    info = games()[name]
    assert info.has_secrets
    changes = 0
    for seed in range(12):
        seats = info.min_seats + seed % (info.max_seats - info.min_seats + 1)
        try:
            state = info.new({}, seats, seed)
        except BadOptions:  # a seat count the game does not take (Nails: 3)
            continue
        rng = random.Random(seed)
        quick = [state.private_part(s) for s in range(seats)]
        seen = [observed_part(state, s) for s in range(seats)]
        for _ in range(400):
            if state.over:
                break
            decision = rng.choice(state.pending())
            state.apply(decision.seat, rng.choice(decision.options))
            for seat in range(seats):
                now_quick, now_seen = state.private_part(seat), observed_part(state, seat)
                assert (now_quick == quick[seat]) == (now_seen == seen[seat]), (
                    f"{name} seed {seed} step {state.step} seat {seat}")
                changes += now_quick != quick[seat]
                quick[seat], seen[seat] = now_quick, now_seen
    assert changes > 100
