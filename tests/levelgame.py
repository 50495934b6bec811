"""A small game whose computer levels choose recognisably, for the tests of how a
computer seat's level is chosen, stored and used (not of how well a level plays).

"Picks": each seat in turn, the last seat first, picks 1, 2 or 3; after ``rounds``
picks each, the highest total wins. The ``easy`` computer always picks 1, ``normal``
2 and ``hard`` 3, so a pick names the level that made it. The players are module
functions: a thinker may run them in another process.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import ClassVar

from pydantic import Field

from rules.core import Decision, Event, GameInfo, GameState, Outcome, SeatSetup
from rules.options import GameOptions
from rules.registry import add_game, remove_game

NAME = "picks"
PICK = {"easy": "1", "normal": "2", "hard": "3"}
"""What each level picks, every time."""
LEVEL_OF = {pick: level for level, pick in PICK.items()}


class PicksState(GameState):
    """Seats pick in turn, the last seat first."""

    game = NAME

    def __init__(self, seats: int, seed: int, rounds: int) -> None:
        super().__init__(seats, seed)
        self.rounds = rounds
        self.picks: list[tuple[int, int]] = []

    def decisions(self) -> tuple[Decision, ...]:
        if len(self.picks) >= self.rounds * self.seats:
            return ()
        seat = self.seats - 1 - len(self.picks) % self.seats
        return (Decision(seat, "pick", "Pick 1, 2 or 3.", ("1", "2", "3")),)

    def _apply(self, seat: int, choice: str) -> list[Event]:
        self.picks.append((seat, int(choice)))
        return [Event("pick", f"{{s{seat}}} picks {choice}.")]

    def _resign(self, seat: int) -> list[Event]:
        self._resigned = Outcome.forfeited(self.seats, seat)
        return [Event("resign", f"{{s{seat}}} forfeits.")]

    def _outcome(self) -> Outcome | None:
        if len(self.picks) < self.rounds * self.seats:
            return None
        totals = [sum(value for s, value in self.picks if s == seat)
                  for seat in range(self.seats)]
        return Outcome.from_scores(totals, "the highest total")

    def observe(self, seat: int | None) -> tuple[tuple[int, int], ...]:
        return tuple(self.picks)

    def notation(self) -> str:
        return repr(self.picks)


class PicksOptions(GameOptions):
    """How many picks each."""

    title: ClassVar[str] = "Picks"
    rounds: int = Field(2, ge=1, le=9, description="picks each seat makes")


def _new(options: PicksOptions, seats: int, seed: int,
         setup: tuple[SeatSetup, ...]) -> PicksState:
    return PicksState(seats, seed, options.rounds)


def easy(state: GameState, seat: int, rng: random.Random) -> str:
    return PICK["easy"]


def normal(state: GameState, seat: int, rng: random.Random) -> str:
    return PICK["normal"]


def hard(state: GameState, seat: int, rng: random.Random) -> str:
    return PICK["hard"]


PICKS = GameInfo(
    name=NAME, title="Picks", min_seats=2, max_seats=3, new_state=_new,
    options=PicksOptions, bot=normal, levels={"easy": easy, "hard": hard},
    rules_text="Pick 1, 2 or 3 in turn; the highest total wins.", default_turn_seconds=120,
)


def registered() -> Iterator[GameInfo]:
    """The game registered while a test runs (a fixture's body)."""
    add_game(PICKS)
    try:
        yield PICKS
    finally:
        remove_game(NAME)


def levels_picked(choices: list[tuple[int, str]], seat: int) -> set[str]:
    """The levels whose picks ``seat`` made, from ``(seat, choice)`` pairs."""
    return {LEVEL_OF[choice] for s, choice in choices if s == seat}
