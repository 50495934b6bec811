"""A small game of secret simultaneous choices that lives only in the tests.

"Secret Numbers": two seats each hold the cards 1, 2 and 3. Each round both
pick a card at the same time, without seeing the other's; the higher card
scores a point; after three rounds the higher score wins. It exercises what
Flank cannot: hidden hands, held choices, private events and DM delivery.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from pydantic import Field

from rules.core import Decision, Event, GameInfo, GameState, Outcome, SeatSetup
from rules.errors import IllegalChoice, MalformedChoice
from rules.options import GameOptions
from rules.registry import add_game


@dataclass(frozen=True)
class SecretView:
    """What a seat sees: its own hand only, and everything revealed so far."""

    seat: int | None
    hand: tuple[int, ...] | None
    hand_sizes: tuple[int, ...]
    points: tuple[int, ...]
    revealed: tuple[tuple[int, int], ...]


class SecretState(GameState):
    """Three rounds of simultaneous secret picks."""

    game = "secret"

    def __init__(self, seats: int, seed: int, rounds: int = 3) -> None:
        super().__init__(seats, seed)
        self.hands = [list(range(1, rounds + 1)) for _ in range(seats)]
        self.points = [0] * seats
        self.revealed: list[tuple[int, int]] = []

    def decisions(self) -> tuple[Decision, ...]:
        if not self.hands[0]:
            return ()
        return tuple(
            Decision(seat, "card", "Pick a card secretly.",
                     tuple(str(c) for c in self.hands[seat]), simultaneous=True)
            for seat in range(self.seats)
        )

    def validate(self, seat: int, choice: str) -> str:
        text = choice.strip()
        if not text.isdigit():
            raise MalformedChoice(f"{choice!r} is not a card number")
        if int(text) not in self.hands[seat]:
            raise IllegalChoice(f"card {text} is not in your hand")
        return text

    def _apply(self, seat: int, choice: str) -> list[Event]:
        raise AssertionError("every step of this game is simultaneous")

    def _resolve(self, held: Mapping[int, str]) -> list[Event]:
        a, b = int(held[0]), int(held[1])
        self.hands[0].remove(a)
        self.hands[1].remove(b)
        self.revealed.append((a, b))
        if a != b:
            self.points[0 if a > b else 1] += 1
        winner = "nobody" if a == b else "{s0}" if a > b else "{s1}"
        return [
            Event("reveal", f"{{s0}} shows {a}, {{s1}} shows {b}: {winner} scores."),
            Event("hand", f"You have {self.hands[0]} left.", seats=frozenset({0})),
            Event("hand", f"You have {self.hands[1]} left.", seats=frozenset({1})),
        ]

    def _outcome(self) -> Outcome | None:
        if self.hands[0]:
            return None
        return Outcome.from_scores(self.points, "more rounds won")

    def observe(self, seat: int | None) -> SecretView:
        return SecretView(
            seat=seat,
            hand=None if seat is None else tuple(self.hands[seat]),
            hand_sizes=tuple(len(h) for h in self.hands),
            points=tuple(self.points),
            revealed=tuple(self.revealed),
        )

    def notation(self) -> str:
        return f"{self.hands}|{self.points}|{self.revealed}|{sorted(self._held.items())}"


class SecretOptions(GameOptions):
    """How many rounds."""

    title: ClassVar[str] = "Secret Numbers"
    rounds: int = Field(3, ge=1, le=9, description="rounds, each with a card 1… of its own")


def _new(options: SecretOptions, seats: int, seed: int,
         setup: tuple[SeatSetup, ...]) -> SecretState:
    return SecretState(seats, seed, options.rounds)


def _bot(state: GameState, seat: int, rng: random.Random) -> str:
    decision = state.decision_for(seat)
    assert decision is not None
    return rng.choice(decision.options)


SECRET = add_game(GameInfo(
    name="secret", title="Secret Numbers", min_seats=2, max_seats=2, new_state=_new,
    options=SecretOptions, bot=_bot, rules_text="Pick a card; higher card scores.",
    default_turn_seconds=120, has_secrets=True,
))
