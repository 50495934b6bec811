"""What every part of a duel's rules stands on: the phases of a turn, the priority
window, the table's numbered cards, zones and counters (:class:`DuelCore`), and the
smallest moves each part makes (say what happened, open a window, draw a card).

A duel's rules come in parts that make one class, :class:`~rules.duel.state.DuelState`:
the turn and its choices (:mod:`rules.duel.state`), what may be played
(:mod:`rules.duel.plays`), what effects do (:mod:`rules.duel.effects`) and the attack
(:mod:`rules.duel.combat`). Each part is a :class:`DuelCore`; what one part asks of
another is declared here as an abstract method, so no part imports another.
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass
from typing import Any, Self

from rules.core import Event, GameState, Outcome
from rules.duel.attack import CombatState
from rules.duel.board import Permanent, Player, StackItem
from rules.duel.cards import Effect, card
from rules.duel.characteristics import Table
from rules.duel.mana import Source
from rules.duel.phrasing import card_named
from rules.phrases import Phrase, Seat, Words

HAND_LIMIT = 7
OPENING_HAND = 7
PHASES = ("untap", "upkeep", "draw", "main", "discard", "end", "heal")


@dataclass(slots=True)
class Casting:
    """A spell or ability being announced: its X and target are asked in turn."""

    seat: int
    card_id: int | None = None
    """The card cast from the hand (``None`` for an ability)."""
    source: int | None = None
    ability: int | None = None
    x: int | None = None
    target: str | None = None
    named: tuple[int, ...] | None = None
    """The mana sources the player named to pay with (``None``: chosen for them)."""


@dataclass(slots=True)
class Window:
    """A priority window: who may act now and how many passed in succession."""

    kind: str
    """``fast`` (instants, interrupts, abilities), ``prevent`` (the combat
    prevention window: prevention, regeneration and interrupts only) or ``main``
    (the active player's main phase: anything they may cast)."""
    priority: int
    passes: int = 0


class DuelCore(GameState):
    """A duel's table and turn, as every part of its rules sees them."""

    def __init__(self, seats: int, seed: int, life: int) -> None:
        """Every field of a table of ``seats`` players at ``life`` with no cards yet,
        before the first turn."""
        super().__init__(seats, seed)
        self.cards: dict[int, str] = {}
        self.owners: dict[int, int] = {}
        self.players = [Player(life=life) for _ in range(seats)]
        self.battlefield: dict[int, Permanent] = {}
        self.stack: list[StackItem] = []
        self.next_id = 1
        self.turn = 0
        self.active = 0
        self.phase = "untap"
        self.window: Window | None = None
        self.casting: Casting | None = None
        self.combat: CombatState | None = None
        self.attacked = False
        self.discarding = 0
        self.lost: set[int] = set()
        self.knocked: dict[int, int] = {}
        """Each player out of the game → the order they left in (1 first)."""
        self.finished: Outcome | None = None
        self._events: list[Event] = []
        self._opening: tuple[Event, ...] = ()
        self.seen_in_hand: set[int] = set()
        """Cards everyone saw go into a hand (returned from play): while such a card
        stays there, its owner's opponents know it (:mod:`rules.duel.unseen`)."""
        self.skip_first_draw = False
        """The first player skips the draw of the duel's first turn (``head_start``)."""
        self._mana_known: tuple[int, list[Source], tuple[str, ...]] | None = None

    @classmethod
    def empty(cls, seats: int, seed: int, life: int) -> Self:
        """A duel of ``seats`` players at ``life`` with no cards yet, before the first
        turn, its RNG seeded ``seed``: the scenario notation fills it
        (:func:`rules.duel.notation.parse`)."""
        state = cls.__new__(cls)
        DuelCore.__init__(state, seats, seed, life)
        return state

    def new_card(self, name: str, owner: int, cid: int | None = None) -> int:
        """A new card instance of ``name`` owned by ``owner``; its number.
        :class:`KeyError` for a card the set does not have."""
        card(name)
        if cid is None:
            cid = self.next_id
        self.cards[cid] = name
        self.owners[cid] = owner
        self.next_id = max(self.next_id, cid + 1)
        return cid

    # -- small questions -----------------------------------------------------
    @property
    def table(self) -> Table:
        """The battlefield's permanents with their characteristics."""
        return Table(self.battlefield)

    def others(self, seat: int) -> list[int]:
        """The other players still in the game, in turn order after ``seat``."""
        return [(seat + k) % self.seats for k in range(1, self.seats)
                if (seat + k) % self.seats not in self.lost]

    @staticmethod
    def player_ref(seat: int) -> str:
        """A player in notation: ``p1`` for seat 0."""
        return f"p{seat + 1}"

    def _main_turn(self, seat: int) -> bool:
        window = self.window
        return (window is not None and window.kind == "main" and seat == self.active
                and not self.stack and self.combat is None)

    # -- the smallest moves ------------------------------------------------------
    def _say(self, kind: str, text: Words, **data: Any) -> None:
        self._events.append(Event(kind, text, data=data))

    def _open(self, kind: str) -> None:
        self.window = Window(kind, self.active)

    def _to_graveyard(self, cid: int) -> None:
        self.players[self.owners[cid]].graveyard.append(cid)

    def _draw(self, seat: int, *, quiet: bool = False) -> None:
        player = self.players[seat]
        if not player.library:
            player.drew_from_empty = True
            self._say("deck-out", Phrase("duel.event.deck_out", who=Seat(seat)))
            self.lost.add(seat)  # the outcome waits: both may lose at once (a draw)
            return
        cid = player.library.pop(0)
        player.hand.append(cid)
        if not quiet:
            self._say("draw", Phrase("duel.event.draw", who=Seat(seat)))
            self._events.append(Event("drew", Phrase("duel.event.drew",
                                                     card=card_named(self.cards[cid])),
                                      seats=frozenset({seat}), data={"card": self.cards[cid]}))

    # -- what one part asks of another ---------------------------------------------
    @abstractmethod
    def targets(self, seat: int, effect: Effect, colour: str | None, *,
                source: int | None = None, exclude: int | None = None) -> list[str]:
        """Every legal target of ``effect`` (:mod:`rules.duel.plays`)."""

    @abstractmethod
    def _damage(self, ref: str, amount: int, colour: str | None, source_name: Words) -> None:
        """Deal damage to a player or a permanent (:mod:`rules.duel.effects`)."""

    @abstractmethod
    def _destroy_lethal(self) -> None:
        """Destroy the creatures with lethal damage (:mod:`rules.duel.effects`)."""

    @abstractmethod
    def _leave_combat(self, pid: int) -> None:
        """A permanent leaves the attack, if it is in one (:mod:`rules.duel.combat`)."""

    @abstractmethod
    def _check_life(self) -> bool:
        """Players at 0 life lose; whether this turn goes on (:mod:`rules.duel.state`)."""

    @abstractmethod
    def _decide_outcome(self) -> None:
        """Players who lost leave; the last one standing wins (:mod:`rules.duel.state`)."""
