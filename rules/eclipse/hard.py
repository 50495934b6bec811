"""Eclipse's ``hard`` computer player.

It reads the game from its own seat only (its observation and the deck's list
of cards, :class:`~rules.eclipse.reading.Reading`) and plays every decision
with the tactics of the game in mind (:mod:`rules.eclipse.tactics`):

* **card** — draws hands the opponent may hold from the cards it has not seen,
  guesses what a sensible opponent plays from each (the card most likely to
  win against what it cannot see, not always), and weighs every card of its
  own by the chance to win and by what winning or losing would do: a deposit
  that puts the loser out, or one that puts it out. It then picks at random
  among the cards within a hair of the best, so the card it plays does not
  give its hand away;
* **number** — the solved numbers game (:func:`~rules.eclipse.reading.number_game`)
  against a mix of a well-mixing opponent and one who answers a random number
  best, at random among the near-best numbers;
* **deposit** — puts the loser out when it can, and otherwise keeps its
  followers for that and grows the loser's subset the safe set cannot save;
* **safe** — saves itself from a complete subset, completes the safe set only
  when the next loser is likely another, and thins its most exposed subset;
* **counterattack** — builds a subset in front of the defender that its own
  hand can then complete, or sheds its most exposed cards.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from rules.core import GameState
from rules.eclipse.cards import FOLLOWER, Card
from rules.eclipse.judge import judge, settle
from rules.eclipse.placement import COMPLETE
from rules.eclipse.reading import Reading, number_game, pair_values
from rules.eclipse.state import COUNTER, KEEP, NEW, SKIP, EclipseState
from rules.eclipse.tactics import Kind, Pile, Safe, card_kind, deposit_kills, out_after_loss
from rules.eclipse.view import EclipseView

SAMPLES = 24
"""Hands drawn for the opponent when choosing a card."""
KILL = 4.0
"""What putting the opponent out is worth, against 1 for an ordinary hand won."""
SENSIBLE = 0.75
"""How often the opponent is taken to play its best card rather than any card."""
SHARPNESS = 0.04
"""How sharply a sensible opponent prefers its best card (a softmax temperature)."""
NEAR = 0.04
"""Choices within this much of the best are near-best: one is picked at random."""
WELL_MIXED = 0.5
"""The share of a well-mixing opponent in the model of the numbers it presents."""


def choose(state: GameState, seat: int, rng: random.Random) -> str:
    """The hard computer's choice for ``seat`` (a legal option of its decision)."""
    assert isinstance(state, EclipseState)
    decision = state.decision_for(seat)
    assert decision is not None, "the computer was asked to move without a decision"
    options = decision.options
    if len(options) == 1:
        return options[0]
    view = state.observe(seat)
    table = Table(view, seat, Reading.of(view, state.deck_def))
    kind = decision.kind
    if kind == "card":
        return table.card(options, rng)
    if kind == "number":
        return table.number(options, rng)
    if kind == "deposit":
        return table.deposit(options)
    if kind == "safe":
        return table.safe(options)
    if kind == "counter":
        return table.counter(options)
    if kind == "counter-card":
        return table.counter_card(options)
    if kind == "counter-place":
        return table.counter_place(options)
    if kind == "give-card":
        return table.give_card(options)
    if kind == "give-place":
        return table.give_place(options)
    return rng.choice(options)


def _followers(cards: Sequence[Card]) -> int:
    return sum(card.follower for card in cards)


def _piles(view: EclipseView, seat: int) -> list[Pile]:
    return [Pile.of(subset) for subset in view.subsets[seat]]


def _near_best(scores: dict[str, float], rng: random.Random, near: float = NEAR) -> str:
    top = max(scores.values())
    return rng.choice([option for option, score in scores.items() if score >= top - near])


class Table:
    """One decision's reading of the table from ``seat``."""

    def __init__(self, view: EclipseView, seat: int, reading: Reading) -> None:
        self.view, self.seat, self.reading = view, seat, reading
        self.deck = reading.deck
        self.safe_now = Safe.of(view.safe_set)
        self.hand = list(view.hand or ())

    # -- cards ----------------------------------------------------------------------
    def opponent(self) -> int:
        view = self.view
        return view.defender if self.seat == view.attacker else view.attacker

    def card(self, options: Sequence[str], rng: random.Random) -> str:
        """A card to play, mixed among the near-best."""
        view, deck = self.view, self.deck
        attacking = self.seat == view.attacker
        other = self.opponent()
        values = pair_values(deck)
        mine = [deck.card_by_code(code) for code in options]
        safe = self.safe_now
        my_piles, their_piles = _piles(view, self.seat), _piles(view, other)
        my_followers = _followers(self.hand)
        wins = [KILL if deposit_kills(card, my_followers, their_piles, safe) else 1.0
                for card in mine]
        strength = self._strengths(not attacking)
        scores = [0.0] * len(mine)
        losses: dict[tuple[int, int], float] = {}
        weight = 0.0
        for _ in range(SAMPLES):
            hand = self.reading.deal(other, rng)
            symbols = [card for card in hand if not card.follower]
            if not symbols:
                continue
            followers = len(hand) - len(symbols)
            for theirs, chance in self._likely(symbols, strength):
                key = (theirs.id, followers)
                loss = losses.get(key)
                if loss is None:
                    loss = losses[key] = (KILL if deposit_kills(theirs, followers, my_piles, safe)
                                          else 1.0)
                for index, card in enumerate(mine):
                    p = (values[card.id][theirs.id] if attacking
                         else 1.0 - values[theirs.id][card.id])
                    scores[index] += chance * (p * wins[index] - (1.0 - p) * loss)
            weight += 1.0
        if not weight:
            return rng.choice(list(options))
        return _near_best({code: score / weight for code, score in zip(options, scores,
                                                                       strict=True)}, rng)

    def _strengths(self, they_attack: bool) -> dict[int, float]:
        """How good each card the opponent may hold looks to it, against a card it
        cannot see (all the symbol cards off the table)."""
        values = pair_values(self.deck)
        view = self.view
        table = {card.id for subsets in view.subsets for s in subsets for card in s.cards}
        if view.safe_set:
            table.update(card.id for card in view.safe_set.cards)
        unseen = [c.id for c in self.deck.cards if not c.follower and c.id not in table]
        strengths = {}
        for card in self.reading.pool + tuple(view.known[self.opponent()] if view.known else ()):
            if card.follower:
                continue
            others = [u for u in unseen if u != card.id]
            if they_attack:
                total = sum(values[card.id][u] for u in others)
            else:
                total = sum(1.0 - values[u][card.id] for u in others)
            strengths[card.id] = total / max(1, len(others))
        return strengths

    @staticmethod
    def _likely(symbols: Sequence[Card], strength: dict[int, float]) -> list[tuple[Card, float]]:
        """The opponent's card from ``symbols``: a sensible pick, mostly."""
        best = max(strength.get(card.id, 0.5) for card in symbols)
        weights = [math.exp((strength.get(card.id, 0.5) - best) / SHARPNESS) for card in symbols]
        total = sum(weights)
        uniform = (1.0 - SENSIBLE) / len(symbols)
        return [(card, SENSIBLE * w / total + uniform) for card, w in zip(symbols, weights,
                                                                         strict=True)]

    # -- numbers --------------------------------------------------------------------
    def number(self, options: Sequence[str], rng: random.Random) -> str:
        """A number against a mix of a well-mixing and a one-step opponent."""
        reveal = self.view.reveal
        assert reveal is not None and reveal.attacker_card and reveal.defender_card
        a_card, d_card = reveal.attacker_card, reveal.defender_card
        attacking = self.seat == self.view.attacker
        game = number_game(a_card, d_card)
        ranges = judge(a_card, d_card).numbers
        assert game is not None and ranges is not None
        mine, theirs = (ranges[0], ranges[1]) if attacking else (ranges[1], ranges[0])
        solved = game.defender if attacking else game.attacker

        def won(me: int, them: int) -> bool:
            a, d = (me, them) if attacking else (them, me)
            return settle(a_card, d_card, a, d).attacker_wins == attacking

        # The one-step opponent answers a number of ours drawn at random as well as it can.
        answer = {t: sum(not won(m, t) for m in mine) / len(mine) for t in theirs}
        top = max(answer.values())
        best = [t for t, s in answer.items() if s >= top - 0.15]
        model = {t: WELL_MIXED * float(solved.get(t, 0))
                 + (1 - WELL_MIXED) * (t in best) / len(best) for t in theirs}
        scores = {o: sum(p * won(int(o), t) for t, p in model.items()) for o in options}
        return _near_best(scores, rng, 0.02)

    # -- deposit --------------------------------------------------------------------
    def deposit(self, options: Sequence[str]) -> str:
        """Put the loser out if any deposit can; else keep the followers."""
        view = self.view
        loser = view.attacker if view.reveal and view.reveal.winner == view.defender \
            else view.defender
        piles = _piles(view, loser)
        reveal = view.reveal
        assert reveal is not None
        card = reveal.attacker_card if loser == view.defender else reveal.defender_card
        assert card is not None
        kind = card_kind(card)
        safe = self.safe_now

        def after(option: str) -> tuple[list[Pile], int]:
            where, _, extra = option.partition("+")
            followers = int(extra) if extra else 0
            grown = list(piles)
            if where == NEW:
                grown.append(Pile(kind, 1 + followers, followers))
            else:
                old = grown[int(where) - 1]
                grown[int(where) - 1] = Pile(kind, old.size + 1 + followers,
                                             old.followers + followers)
            return grown, followers

        killing = [(after(o)[1], o) for o in options if out_after_loss(after(o)[0], safe)]
        if killing:
            return min(killing)[1]

        def worth(option: str) -> tuple[int, int, int]:
            grown, followers = after(option)
            where = option.partition("+")[0]
            pile = grown[-1] if where == NEW else grown[int(where) - 1]
            return (-followers, int(not safe.saves(pile)), pile.size)

        return max(options, key=worth)

    # -- the safe set ---------------------------------------------------------------
    def safe(self, options: Sequence[str]) -> str:
        """Survive a complete subset; complete the safe set only to put another out."""
        view, seat = self.view, self.seat
        codes = [o for o in options if o != KEEP]
        mine = view.subsets[seat]
        for subset in mine:
            if subset.size >= COMPLETE:
                for card in subset.cards:
                    if card.code in codes:
                        return card.code
        size = self.safe_now.size
        if size + 1 >= COMPLETE:
            # The next loser goes out, and the next hand is this hand's defender
            # attacking the seat after it: complete the set unless that seat is this one.
            return self._most_exposed(codes) if codes and self._next_defender() != seat else KEEP
        if size + 1 == COMPLETE - 1 or not codes:
            return KEEP  # one card short, the set would hand the next loser that choice
        return self._most_exposed(codes)

    def _next_defender(self) -> int:
        view = self.view
        for step in range(1, view.seats + 1):
            seat = (view.defender + step) % view.seats
            if not view.out[seat]:
                return seat
        return view.defender

    def _most_exposed(self, codes: Sequence[str]) -> str:
        """Of ``codes`` (cards in this seat's subsets), one from its most exposed subset."""
        ranked = sorted(range(len(self.view.subsets[self.seat])), key=lambda i: -self._danger(i))
        for index in ranked:
            for card in self.view.subsets[self.seat][index].cards:
                if card.code in codes:
                    return card.code
        return codes[0]

    # -- counterattacks ---------------------------------------------------------------
    def counter(self, options: Sequence[str]) -> str:
        """Counterattack whenever it may."""
        return COUNTER if COUNTER in options else SKIP

    def _target(self) -> tuple[Kind, int | None] | None:
        """The defender's subset (kind, number; ``None``: a new one) the counterattack
        should build so that a card of this hand completes it past saving."""
        view = self.view
        other = view.defender
        safe = self.safe_now
        hand_kinds = {card_kind(c) for c in self.hand if not c.follower}
        followers = _followers(self.hand)
        mine = _piles(view, self.seat)
        spare = sum(p.followers for p in mine)
        symbols: dict[Kind, int] = {}
        for pile in mine:
            symbols[pile.kind] = symbols.get(pile.kind, 0) + pile.size - pile.followers
        left = view.counter_left
        best: tuple[int, Kind, int | None] | None = None
        for number, pile in enumerate(_piles(view, other), start=1):
            if safe.saves(pile):
                continue
            moved = min(left, spare + symbols.get(pile.kind, 0), COMPLETE - pile.size)
            reach = pile.size + moved + (1 + followers if pile.kind in hand_kinds else 0)
            if reach >= COMPLETE and (best is None or reach > best[0]):
                best = (reach, pile.kind, number)
        if best is None:
            return None
        return best[1], best[2]

    def _danger(self, subset_index: int) -> float:
        subset = self.view.subsets[self.seat][subset_index]
        pile = Pile.of(subset)
        return pile.size + 2 * (not self.safe_now.saves(pile))

    def counter_card(self, options: Sequence[str]) -> str:
        """A card to move: toward the target subset, or from the most exposed one."""
        view = self.view
        target = self._target()
        mine = view.subsets[self.seat]

        def source(option: str) -> int:
            if option.startswith(FOLLOWER + "@"):
                return int(option[2:]) - 1
            return next(i for i, s in enumerate(mine) if any(c.code == option for c in s.cards))

        def worth(option: str) -> tuple[int, float, int]:
            follower = option.startswith(FOLLOWER + "@")
            fits = 0
            if target is not None:
                kind = target[0]
                fits = int(follower or card_kind(self.deck.card_by_code(option)) == kind)
            return (fits, self._danger(source(option)), int(not follower))

        return max(options, key=worth)

    def counter_place(self, options: Sequence[str]) -> str:
        """Where the moving card goes: the target, else the defender's most exposed fit."""
        view = self.view
        target = self._target()
        moving = view.moving
        assert moving is not None
        other_seat = view.defender + 1
        if target is not None and target[1] is not None:
            wanted = f"{other_seat}:{target[1]}"
            if wanted in options:
                return wanted
        safe = self.safe_now
        hand_kinds = {card_kind(c) for c in self.hand if not c.follower}

        def worth(option: str) -> tuple[int, int, int]:
            seat_text, _, where = option.partition(":")
            if where == NEW:
                return (0, 0, 0)
            pile = Pile.of(view.subsets[int(seat_text) - 1][int(where) - 1])
            return (int(not safe.saves(pile)), int(pile.kind in hand_kinds), pile.size)

        return max(options, key=worth)

    def give_card(self, options: Sequence[str]) -> str:
        """The card a host gives back: from its most exposed subset."""
        mine = self.view.subsets[self.seat]

        def worth(option: str) -> tuple[float, int]:
            if option.startswith(FOLLOWER + "@"):
                return (self._danger(int(option[2:]) - 1), 0)
            index = next(i for i, s in enumerate(mine) if any(c.code == option for c in s.cards))
            return (self._danger(index), 1)

        return max(options, key=worth)

    def give_place(self, options: Sequence[str]) -> str:
        """Where the given card goes in front of the attacker: its most exposed fit."""
        subsets = self.view.subsets[self.view.attacker]
        safe = self.safe_now

        def worth(option: str) -> tuple[int, int]:
            if option == NEW:
                return (0, 0)
            pile = Pile.of(subsets[int(option) - 1])
            return (int(not safe.saves(pile)), pile.size)

        return max(options, key=worth)


__all__ = ["choose"]
