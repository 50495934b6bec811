"""Hammer & Nails' computer player: legal, and it plays the game's point."""

from __future__ import annotations

import random

from rules.nails import GAME as NAILS
from rules.nails import NailsState, choose, parse_deck
from rules.nails.bot import placement_value
from rules.nails.stack import Placement

FILLER = "\n".join(f"{n} _ _ _ _" for n in range(80, 99)) + "\n99 R G _ _"


def test_it_covers_its_own_nail_and_leaves_the_others_showing() -> None:
    deck = parse_deck("lab", "square", "1 R _ _ G\n2 _ _ H _\n" + FILLER)
    state = NailsState.position([[2, 80, 81, 82], [83, 84, 85, 86]], deck=deck,
                                stack=("1@A1",))
    # Seat 0 is red: hammering its red nail (top-left) beats hammering green's.
    own = placement_value(state, 0, Placement(2, -1, -1))           # onto the red nail
    other = placement_value(state, 0, Placement(2, -1, 0))          # onto the green nail
    assert own > other
    choice = choose(state.copy(), 0, random.Random(1))
    covered = state.stack.check(state.tiles[Placement.parse(choice).tile],
                                Placement.parse(choice)) or []
    assert any(c.under.colour == "red" for c in covered)


def test_it_beats_random_play_with_both_decks() -> None:
    for deck in ("workshop", "space"):
        wins = 0
        for seed in range(20):
            state = NAILS.new({"deck": deck}, 2, seed)
            rng, me = random.Random(seed), seed % 2
            while not state.over:
                decision = state.pending()[0]
                if decision.seat == me:
                    choice = choose(state.copy(), me, random.Random(state.step))
                    assert choice in decision.options
                else:
                    choice = rng.choice(decision.options)
                state.apply(decision.seat, choice)
            wins += state.outcome().places[me] == 1
        assert wins >= 16, f"{deck}: the computer won only {wins} of 20 against random play"
