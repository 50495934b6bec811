"""The state of a game of Eclipse and its rules (``../shared/specs/eclipse.md``).

A hand runs through phases, each a pending decision of one seat (or, for the
secret steps, of two seats at once):

``counter`` (may the attacker counterattack?) → ``counter-card`` /
``counter-place`` (one card at a time) → ``play`` (attacker and defender pick a
card, secretly and simultaneously) → ``numbers`` (when the judging calls for a
maneuver or the ♀ parity; also simultaneous) → ``deposit`` (the winner places
the winning card, with followers if they wish) → ``safe`` (the loser may move a
card into the safe set) → ``give-card`` / ``give-place`` (after a failed
counterattack, each host gives the attacker a card) → the next hand.

Choices are short words: cards as ``S13f``; a follower in subset 2 as ``F@2``;
places as ``new`` or a subset number; in front of another player as
``3:new`` or ``3:2`` (player 3's subset 2; players count from 1); deposits
as ``new+2`` (a new subset and two followers) or ``1`` (subset 1, no
followers); the safe set step as a card or ``keep``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Self

from rules.core import Decision, Event, GameState, Outcome, SeatSetup
from rules.eclipse.cards import FOLLOWER, Card, Deck, normalise_code
from rules.eclipse.judge import Verdict, judge, settle
from rules.eclipse.options import EclipseOptions
from rules.eclipse.placement import (
    COMPLETE,
    can_move,
    fits_safe_set,
    fits_subset,
    subset_kind,
)
from rules.eclipse.terms import listed
from rules.eclipse.view import EclipseView, Reveal, SubsetView
from rules.errors import IllegalChoice, MalformedChoice, shown
from rules.phrases import Phrase, Seat

HAND_SIZE = 6
COUNTER, SKIP, KEEP, NEW = "counter", "skip", "keep", "new"
NEXT = "next"
"""The phase between hands, never seen outside :meth:`EclipseState._advance`."""
LAST_STANDING = Phrase("eclipse.reason.last_standing")
"""Why a game won by eliminating everyone else ended."""
PHASES = ("counter", "counter-card", "counter-place", "play", "numbers", "deposit", "safe",
          "give-card", "give-place", "over")


ATTACK, DEFEND = Phrase("eclipse.prompt.attack"), Phrase("eclipse.prompt.defend")
MANEUVER, PARITY = Phrase("eclipse.prompt.maneuver"), Phrase("eclipse.prompt.parity")
SAFE, GIVE_CARD = Phrase("eclipse.prompt.safe"), Phrase("eclipse.prompt.give_card")
"""The prompts that take no arguments, made once (phrases are values)."""

VIEW_MEMO = 64
"""Subset views a game (with its copies) remembers."""


@dataclass(slots=True)
class Subset:
    """A regular subset in front of a player. ``uid`` stays with it for the
    whole game, so counterattack cards can find their way home."""

    uid: int
    cards: list[int]


class EclipseState(GameState):
    """A game of Eclipse for 2–6 seats."""

    game = "eclipse"

    def __init__(self, seats: int, seed: int, options: EclipseOptions | None = None,
                 deck: Deck | None = None) -> None:
        super().__init__(seats, seed)
        self._views: dict[tuple[int, tuple[int, ...], bool], SubsetView] = {}
        self.options = options or EclipseOptions()
        self.deck_def = deck or self.options.cards
        self.cards = self.deck_def.cards
        self._is_follower = tuple(card.follower for card in self.cards)
        self.deck: list[int] = [card.id for card in self.cards]
        self.rng.shuffle(self.deck)
        self.hands: list[list[int]] = [[] for _ in range(seats)]
        self.subsets: list[list[Subset]] = [[] for _ in range(seats)]
        self.safe: list[int] = []
        self.out: list[bool] = [False] * seats
        self.out_cards: list[list[int]] = [[] for _ in range(seats)]
        self.eliminated: list[int] = []
        """Seats in the order they went out (eliminated or resigned)."""
        self.in_front_when_out: list[int] = [0] * seats
        """Cards that lay in front of each seat when it went out: its score if the
        game ends at the hand cap."""
        self.next_uid = 1
        self.hands_played = 0
        self.phase = "play"
        self.attacker = self.rng.randrange(seats)
        self.defender = self._next_live(self.attacker)
        self.played: dict[int, int] = {}
        """Cards revealed this hand and not yet placed: seat → card id."""
        self.verdict: Verdict | None = None
        self.winner: int | None = None
        self.loser: int | None = None
        self.last_reveal: Reveal | None = None
        self.counter: list[tuple[int, int, int]] = []
        """This hand's counterattack: (card, host seat, uid of the subset it left)."""
        self.counter_left = 0
        self.moving: tuple[int, int] | None = None
        """(card, uid of its subset) being placed in a counter-place or give-place step."""
        self.givers: list[int] = []
        self.open: set[int] = set()
        """Cards whose whereabouts everyone knows though they lie out of sight: seen
        going under the deck (a lost hand's card, followers sent back), drawn from
        there, or taken out with a player. Every other card in a hand, the deck or
        out of the game is hidden, and :func:`~rules.eclipse.unseen.unseen` may deal
        it again."""
        self.drawing: int | None = None
        """The card the loser of this hand draws (spec step 4), off the deck but not yet
        in their hand: it joins the hand once the loser is sure to stay in, and goes
        out with them otherwise, so that no one is told they draw as they go out."""
        self.ended: Outcome | None = None
        self._opening: list[Event] = []
        for _ in range(HAND_SIZE):
            for seat in range(seats):
                self._draw_into(seat)
        for seat in range(seats):
            self._opening += self._repair(seat)
        self._opening += self._begin_hand() + self._advance()

    @classmethod
    def new(cls, options: EclipseOptions | Mapping[str, Any] | None, seats: int, seed: int,
            setup: Sequence[SeatSetup] = ()) -> EclipseState:
        """A new game (what :class:`~rules.core.GameInfo` calls)."""
        return cls(seats, seed, EclipseOptions.parse(options))

    @classmethod
    def position(cls, hands: Sequence[str], *, subsets: Sequence[str] = (), safe: str = "",
                 deck: str = "", attacker: int = 0, options: EclipseOptions | None = None,
                 card_deck: Deck | None = None) -> Self:
        """A game set up from notation, for tests and examples: each player's hand
        and subsets (subsets split by ``|``), the safe set, and the top of the
        deck; every card not named goes under them in the deck. The hand starts
        with ``attacker`` attacking the next seat.

        >>> state = EclipseState.position(["S13m S2f", "S10f F"], subsets=["S1m F", ""])
        >>> state.phase, state.attacker, state.defender
        ('play', 0, 1)
        >>> print(state.notation())
        eclipse phase=play attacker=1 defender=2 hand=0
        1: hand [S13m S2f] subsets [S1m F]
        2: hand [S10f F] subsets [-]
        safe [-] deck 66
        """
        state = cls(len(hands), 0, options, card_deck)
        # The deal above may have played on (a small deck can run hands nobody can
        # play up to the hand cap): start the game's progress afresh.
        seats = len(hands)
        state.out, state.out_cards = [False] * seats, [[] for _ in hands]
        state.eliminated, state.in_front_when_out = [], [0] * seats
        state.hands_played, state.ended, state.last_reveal = 0, None, None
        state.open = set()
        free_followers = [c.id for c in state.cards if c.follower]

        def ids(text: str) -> list[int]:
            out = []
            for word in text.split():
                if word.upper() == FOLLOWER:
                    out.append(free_followers.pop(0))
                else:
                    out.append(state.deck_def.card_by_code(word).id)
            return out

        state.hands = [ids(hand) for hand in hands]
        state.subsets = [[] for _ in hands]
        for seat, text in enumerate(subsets):
            for group in text.split("|"):
                if group.strip():
                    state._new_subset(seat, ids(group))
        state.safe = ids(safe)
        top = ids(deck)
        named = set(top) | set(state.safe)
        for seat in range(state.seats):
            named |= set(state.hands[seat])
            named |= {c for s in state.subsets[seat] for c in s.cards}
        state.deck = top + [c.id for c in state.cards if c.id not in named]
        state.attacker = attacker
        state.defender = state._next_live(attacker)
        state.phase = "play"
        state._opening = state._begin_hand() + state._advance()
        state._decision_cache = state._pending_cache = None
        return state

    @property
    def opening_events(self) -> list[Event]:
        """What happened while dealing (repairs, the first attack)."""
        return list(self._opening)

    # -- cards and places ---------------------------------------------------------
    def card(self, card_id: int) -> Card:
        """A card by id."""
        return self.cards[card_id]

    def _symbols(self, ids: Iterable[int]) -> list[int]:
        follower = self._is_follower
        return [i for i in ids if not follower[i]]

    def _subset_cards(self, subset: Subset) -> list[Card]:
        return [self.cards[i] for i in subset.cards]

    def _live(self) -> list[int]:
        return [seat for seat in range(self.seats) if not self.out[seat]]

    def _next_live(self, seat: int) -> int:
        for step in range(1, self.seats + 1):
            other = (seat + step) % self.seats
            if not self.out[other]:
                return other
        return seat

    def _draw_into(self, seat: int) -> int | None:
        if not self.deck:
            return None
        card = self.deck.pop(0)
        self.hands[seat].append(card)
        return card

    def _draw(self, seat: int, count: int) -> list[Event]:
        drawn = [c for c in (self._draw_into(seat) for _ in range(count)) if c is not None]
        if not drawn:
            return self._cannot_draw(seat) if count else []
        return self._drawn(seat, drawn)

    @staticmethod
    def _cannot_draw(seat: int) -> list[Event]:
        return [Event("draw", Phrase("eclipse.event.cannot_draw", who=Seat(seat)),
                      data={"seat": seat, "count": 0})]

    def _drawn(self, seat: int, drawn: list[int]) -> list[Event]:
        return [
            Event("draw", Phrase("eclipse.event.draws", count=len(drawn), who=Seat(seat)),
                  data={"seat": seat, "count": len(drawn)}),
            self._you_draw(seat, drawn),
        ]

    def _you_draw(self, seat: int, drawn: list[int]) -> Event:
        return Event("drawn", Phrase("eclipse.event.you_draw",
                                     cards=listed([self.cards[c].shown for c in drawn])),
                     seats=frozenset({seat}), data={"cards": [self.cards[c].code for c in drawn]})

    def _repair(self, seat: int) -> list[Event]:
        """A hand without a symbol card returns followers and draws until it
        holds one, while the deck can still supply one."""
        hand = self.hands[seat]
        if self._symbols(hand) or not self._symbols(self.deck):
            return []
        drawn = []
        returned = 0
        while not self._symbols(hand):
            if any(self.cards[c].follower for c in hand):
                follower = next(c for c in hand if self.cards[c].follower)
                hand.remove(follower)
                self.deck.append(follower)
                self.open.add(follower)
                returned += 1
            card = self._draw_into(seat)
            assert card is not None
            drawn.append(card)
        return [
            Event("repair", Phrase("eclipse.event.repair", count=returned, who=Seat(seat),
                                   drawn=len(drawn)),
                  data={"seat": seat, "returned": returned, "drawn": len(drawn)}),
            self._you_draw(seat, drawn),
        ]

    def _find(self, seat: int, number: int) -> Subset:
        return self.subsets[seat][number - 1]

    def _subset_of(self, seat: int, card: int) -> Subset | None:
        for subset in self.subsets[seat]:
            if card in subset.cards:
                return subset
        return None

    def _take_from_subset(self, seat: int, subset: Subset, card: int) -> list[Event]:
        """Take ``card`` out of ``subset``. Followers left without a symbol card go to
        the bottom of the deck; an empty subset disappears."""
        subset.cards.remove(card)
        events = []
        if not self._symbols(subset.cards) and subset.cards:
            orphans = list(subset.cards)
            subset.cards.clear()
            self.deck.extend(orphans)
            self.open.update(orphans)
            events.append(Event(
                "orphans", Phrase("eclipse.event.orphans", count=len(orphans), who=Seat(seat)),
                data={"seat": seat, "count": len(orphans)}))
        if not subset.cards:
            self.subsets[seat].remove(subset)
        return events

    def _new_subset(self, seat: int, cards: list[int]) -> Subset:
        subset = Subset(self.next_uid, cards)
        self.next_uid += 1
        self.subsets[seat].append(subset)
        return subset

    def _place_name(self, seat: int, subset: Subset | None) -> Phrase:
        if subset is None:
            return Phrase("eclipse.place.new_in_front", who=Seat(seat))
        number = self.subsets[seat].index(subset) + 1
        return Phrase("eclipse.place.subset_of", who=Seat(seat), number=number)

    # -- the flow of a hand ---------------------------------------------------------
    def _advance(self) -> list[Event]:
        """Start hands until one waits for a decision (or the game ends). A loop,
        not recursion: hands where nobody can play resolve by themselves."""
        events: list[Event] = []
        while self.phase == NEXT:
            events += self._begin_hand()
        return events

    def _begin_hand(self) -> list[Event]:
        self.played, self.verdict, self.winner, self.loser = {}, None, None, None
        self.counter, self.counter_left, self.moving, self.givers = [], 0, None, []
        if self.hands_played >= self.options.hand_cap:
            return self._end_by_cap()
        events = [Event("attack", Phrase("eclipse.event.attack", hand=self.hands_played + 1,
                                         attacker=Seat(self.attacker),
                                         defender=Seat(self.defender)),
                        data={"attacker": self.attacker, "defender": self.defender})]
        if self._may_counterattack():
            self.phase = "counter"
            return events
        return events + self._begin_play()

    def _begin_play(self) -> list[Event]:
        events = self._repair(self.attacker) + self._repair(self.defender)
        unable = [s for s in (self.attacker, self.defender) if not self._symbols(self.hands[s])]
        if unable:
            # The deck cannot supply a symbol card: that player loses the hand
            # (both unable: the tie goes to the defender).
            loser = unable[0]
            winner = self.defender if loser == self.attacker else self.attacker
            events.append(Event("no-card", Phrase("eclipse.event.no_card", who=Seat(loser)),
                                data={"seat": loser}))
            self.last_reveal = Reveal(self.attacker, self.defender, None, None, None, winner,
                                      (Phrase("eclipse.judge.no_card"),))
            return events + self._hand_won(winner)
        self.phase = "play"
        return events

    def _reveal(self, numbers: tuple[int, int] | None) -> Reveal:
        assert self.verdict is not None
        winner = None
        if self.verdict.winner is not None:
            winner = self.attacker if self.verdict.attacker_wins else self.defender
        return Reveal(self.attacker, self.defender, self.cards[self.played[self.attacker]],
                      self.cards[self.played[self.defender]], numbers, winner, self.verdict.path)

    def _resolve(self, held: Mapping[int, str]) -> list[Event]:
        return self._resolve_step(held) + self._advance()

    def _resolve_step(self, held: Mapping[int, str]) -> list[Event]:
        if self.phase == "play":
            a_card = self.deck_def.card_by_code(held[self.attacker]).id
            d_card = self.deck_def.card_by_code(held[self.defender]).id
            self.hands[self.attacker].remove(a_card)
            self.hands[self.defender].remove(d_card)
            self.played = {self.attacker: a_card, self.defender: d_card}
            self.open.update((a_card, d_card))
            self.verdict = judge(self.cards[a_card], self.cards[d_card])
            self.last_reveal = self._reveal(None)
            events = [Event("reveal", Phrase("eclipse.event.reveal",
                                             attacker=Seat(self.attacker),
                                             attacker_card=self.cards[a_card].label,
                                             defender=Seat(self.defender),
                                             defender_card=self.cards[d_card].label,
                                             judging=self.verdict.text),
                            data={"attacker": self.cards[a_card].code,
                                  "defender": self.cards[d_card].code})]
            if self.verdict.winner is None:
                self.phase = "numbers"
                return events
        else:
            a_number, d_number = int(held[self.attacker]), int(held[self.defender])
            self.verdict = settle(self.cards[self.played[self.attacker]],
                                  self.cards[self.played[self.defender]], a_number, d_number)
            self.last_reveal = self._reveal((a_number, d_number))
            events = [Event("numbers", Phrase("eclipse.event.numbers",
                                              attacker=Seat(self.attacker), a=a_number,
                                              defender=Seat(self.defender), d=d_number,
                                              judging=self.verdict.path[-1]),
                            data={"attacker": a_number, "defender": d_number})]
        winner = self.attacker if self.verdict.attacker_wins else self.defender
        return events + self._hand_won(winner)

    def _hand_won(self, winner: int) -> list[Event]:
        loser = self.defender if winner == self.attacker else self.attacker
        self.winner, self.loser = winner, loser
        events = [Event("wins", Phrase("eclipse.event.wins", who=Seat(winner)),
                        data={"winner": winner, "loser": loser})]
        lost_card = self.played.pop(loser, None)
        if lost_card is not None:
            self.deck.append(lost_card)
        # The card drawn is the one on top now, whatever goes under the deck before the
        # loser is known to stay in: the game is as if it joined the hand at once.
        self.drawing = self.deck.pop(0) if self.deck else None
        if winner in self.played:
            self.phase = "deposit"
            return events
        return events + self._safe_step()

    def _safe_step(self) -> list[Event]:
        assert self.loser is not None
        if len(self.safe) >= COMPLETE:
            return self._eliminate(self.loser, Phrase("eclipse.out.safe_complete"))
        if self._safe_options():
            self.phase = "safe"
            return []
        return self._complete_check()

    def _complete_check(self) -> list[Event]:
        assert self.loser is not None
        if any(len(s.cards) >= COMPLETE for s in self.subsets[self.loser]):
            return self._eliminate(self.loser, Phrase("eclipse.out.subset_complete"))
        return self._loser_draws() + self._counter_return()

    def _loser_draws(self) -> list[Event]:
        """The loser, sure to stay in, takes the card they drew (or hears the deck was
        empty)."""
        assert self.loser is not None
        card, self.drawing = self.drawing, None
        if card is None:  # the deck was empty when they lost (whatever went under since)
            return self._cannot_draw(self.loser)
        self.hands[self.loser].append(card)
        return self._drawn(self.loser, [card])

    def _counter_return(self) -> list[Event]:
        if not self.counter or self.loser != self.attacker:
            return self._finish_hand()
        events: list[Event] = []
        cards = sorted(self.counter, key=lambda entry: self.cards[entry[0]].follower,
                       reverse=True)
        for card, host, _ in cards:  # followers leave first, so no symbol card strands them
            subset = self._subset_of(host, card)
            if subset is not None:
                events += self._take_from_subset(host, subset, card)
        homes: dict[int, Subset] = {}
        returned = []
        for card, _, origin in sorted(self.counter, key=lambda e: self.cards[e[0]].follower):
            home = homes.get(origin) or next(
                (s for s in self.subsets[self.attacker] if s.uid == origin), None)
            if home is not None and fits_subset(self.cards[card], self._subset_cards(home)):
                home.cards.append(card)
            elif not self.cards[card].follower:
                home = next((s for s in self.subsets[self.attacker]
                             if fits_subset(self.cards[card], self._subset_cards(s))), None)
                if home is None:
                    home = self._new_subset(self.attacker, [card])
                else:
                    home.cards.append(card)
            else:
                home = next((s for s in self.subsets[self.attacker]
                             if fits_subset(self.cards[card], self._subset_cards(s))), None)
                if home is None:
                    self.deck.append(card)
                    self.open.add(card)
                    continue
                home.cards.append(card)
            homes[origin] = home
            returned.append(card)
        hosts = sorted({host for _, host, _ in self.counter if not self.out[host]},
                       key=lambda s: (s - self.attacker) % self.seats)
        events.append(Event("counter-failed", Phrase("eclipse.event.counter_failed",
                                                     count=len(returned),
                                                     who=Seat(self.attacker)),
                            data={"returned": len(returned), "hosts": hosts}))
        self.counter = []
        self.givers = hosts
        return events + self._next_giver()

    def _next_giver(self) -> list[Event]:
        events: list[Event] = []
        while self.givers:
            host = self.givers[0]
            if self._give_card_options(host):
                self.phase = "give-card"
                return events
            self.givers.pop(0)
            events.append(Event("give", Phrase("eclipse.event.cannot_give", who=Seat(host),
                                               attacker=Seat(self.attacker)),
                                data={"host": host}))
        return events + self._finish_hand()

    def _finish_hand(self) -> list[Event]:
        assert self.winner is not None
        events = []
        if not self.hands[self.winner]:
            events += self._draw(self.winner, HAND_SIZE)
        self.hands_played += 1
        self.attacker = self.defender
        self.defender = self._next_live(self.attacker)
        self.phase = NEXT
        return events

    def _eliminate(self, seat: int, why: Phrase) -> list[Event]:
        events = [self._remove_seat(seat, why, take_safe_set=True)]
        if len(self._live()) <= 1:
            self.phase = "over"
            self.ended = self._ranking(LAST_STANDING)
            return events
        winner = self.winner if self.winner is not None and not self.out[self.winner] else None
        if winner is not None and not self.hands[winner]:
            events += self._draw(winner, HAND_SIZE)
        self.hands_played += 1
        base = winner if winner is not None else seat
        self.attacker = self._next_live(base)
        self.defender = self._next_live(self.attacker)
        self.phase = NEXT
        return events

    def _remove_seat(self, seat: int, why: Phrase, *, take_safe_set: bool) -> Event:
        if seat == self.loser and self.drawing is not None:
            self.hands[seat].append(self.drawing)  # drawn, and out with the rest
            self.drawing = None
        self.in_front_when_out[seat] = self._in_front(seat)
        taken = [c for s in self.subsets[seat] for c in s.cards]
        took_safe = take_safe_set and len(self.safe) >= COMPLETE
        if took_safe:
            taken += self.safe
            self.safe = []
        self.open.update(taken)  # everyone saw them on the table
        taken += self.hands[seat]
        self.out_cards[seat] += taken
        self.subsets[seat], self.hands[seat] = [], []
        self.out[seat] = True
        self.eliminated.append(seat)
        said = Phrase("eclipse.event.out_with_safe_set", who=Seat(seat), why=why) if took_safe \
            else Phrase("eclipse.event.out", who=Seat(seat), why=why)
        return Event("out", said,
                     data={"seat": seat, "safe_set": took_safe})

    def _end_by_cap(self) -> list[Event]:
        self.phase = "over"
        counts = [self._in_front(seat) for seat in self._live()]
        reason = Phrase("eclipse.reason.cap_ties", count=self.hands_played) \
            if len(set(counts)) < len(counts) else \
            Phrase("eclipse.reason.cap", count=self.hands_played)
        self.ended = self._ranking(reason)
        return [Event("cap", Phrase("eclipse.event.cap", count=self.hands_played))]

    def _in_front(self, seat: int) -> int:
        """The cards in ``seat``'s regular subsets."""
        return sum(len(subset.cards) for subset in self.subsets[seat])

    def _ranking(self, reason: Phrase) -> Outcome:
        """Places: the seats still in by fewest cards in front, then seat order from
        the attacker (who would attack next); then the seats that are out, the last
        one out first. The rules tell every two seats apart, so no place is shared.
        Scores (only when several seats are still in, at the hand cap) are the cards
        in front: at the end, or when the seat went out."""
        live = sorted(self._live(), key=lambda s: (self._in_front(s),
                                                   (s - self.attacker) % self.seats))
        order = live + list(reversed(self.eliminated))
        places = [0] * self.seats
        for place, seat in enumerate(order, start=1):
            places[seat] = place
        scores = tuple(self.in_front_when_out[s] if self.out[s] else self._in_front(s)
                       for s in range(self.seats))
        return Outcome(places=tuple(places), scores=scores if len(live) > 1 else None,
                       reason=reason)

    # -- counterattacks ---------------------------------------------------------
    def _room_elsewhere(self) -> int:
        """Free places in other players' subsets (each holds a symbol card)."""
        return sum(COMPLETE - len(s.cards) for seat in self._live() if seat != self.attacker
                   for s in self.subsets[seat])

    def _may_counterattack(self) -> bool:
        need = self.options.counterattack
        if need <= 0:
            return False
        in_front = sum(len(s.cards) for s in self.subsets[self.attacker])
        return in_front >= need and can_move(tuple(sorted(self._counts(self.attacker))),
                                             self._room_elsewhere(), need)

    def _counts(self, seat: int) -> list[tuple[int, int]]:
        """``(symbol cards, followers)`` of each of ``seat``'s subsets."""
        follower = self._is_follower
        counts = []
        for subset in self.subsets[seat]:
            followers = sum(follower[c] for c in subset.cards)
            counts.append((len(subset.cards) - followers, followers))
        return counts

    @staticmethod
    def _shape_without(counts: list[tuple[int, int]], index: int,
                       follower: bool) -> tuple[tuple[int, int], ...]:
        """The counting shape once a card has left subset ``index`` (its followers
        going too if it was the last symbol card)."""
        symbols, followers = counts[index]
        if follower:
            followers -= 1
        else:
            symbols -= 1
            followers = followers if symbols else 0
        rest = counts[:index] + counts[index + 1:]
        if symbols or followers:
            rest.append((symbols, followers))
        return tuple(sorted(rest))

    def _counter_card_options(self) -> tuple[str, ...]:
        options = []
        left = self.counter_left - 1
        room = self._room_elsewhere()
        counts = self._counts(self.attacker)
        for index, subset in enumerate(self.subsets[self.attacker]):
            symbols, followers = counts[index]
            if followers and room >= 1 and can_move(
                    self._shape_without(counts, index, True), room - 1, left):
                options.append(f"{FOLLOWER}@{index + 1}")
            # Every symbol card of a subset leaves the same shape behind.
            if symbols and can_move(self._shape_without(counts, index, False),
                                    room + COMPLETE - 1, left):
                options += [self.cards[c].code for c in subset.cards
                            if not self._is_follower[c]]
        return tuple(options)

    def _counter_place_options(self) -> tuple[str, ...]:
        assert self.moving is not None
        card_id, origin_uid = self.moving
        card = self.cards[card_id]
        index = next(i for i, s in enumerate(self.subsets[self.attacker]) if s.uid == origin_uid)
        shape = self._shape_without(self._counts(self.attacker), index, card.follower)
        room = self._room_elsewhere()
        left = self.counter_left - 1
        options = []
        for seat in self._live():
            if seat == self.attacker:
                continue
            for number, subset in enumerate(self.subsets[seat], start=1):
                if fits_subset(card, self._subset_cards(subset)) and can_move(shape, room - 1,
                                                                              left):
                    options.append(f"{seat + 1}:{number}")
            if not card.follower and can_move(shape, room + COMPLETE - 1, left):
                options.append(f"{seat + 1}:{NEW}")
        return tuple(options)

    def _card_token(self, seat: int, token: str) -> tuple[int, Subset]:
        """A card in ``seat``'s subsets from its notation (``S3m`` or ``F@2``)."""
        if token.upper().startswith(FOLLOWER + "@"):
            number = int(token[2:])
            subset = self._find(seat, number)
            card = next(c for c in subset.cards if self.cards[c].follower)
            return card, subset
        card = self.deck_def.card_by_code(token).id
        subset = self._subset_of(seat, card)
        assert subset is not None
        return card, subset

    # -- options of the other phases ------------------------------------------------
    def _play_options(self, seat: int) -> tuple[str, ...]:
        return tuple(sorted((self.cards[c].code for c in self._symbols(self.hands[seat])),
                            key=lambda code: sort_key(self.deck_def.card_by_code(code))))

    def _number_options(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        assert self.verdict is not None and self.verdict.numbers is not None
        a, d = self.verdict.numbers
        return tuple(map(str, a)), tuple(map(str, d))

    def _deposit_options(self) -> tuple[str, ...]:
        assert self.winner is not None and self.loser is not None
        card = self.cards[self.played[self.winner]]
        followers = sum(self.cards[c].follower for c in self.hands[self.winner])
        options = []
        targets: list[tuple[str, int]] = [
            (str(n), COMPLETE - len(s.cards))
            for n, s in enumerate(self.subsets[self.loser], start=1)
            if fits_subset(card, self._subset_cards(s))]
        targets.append((NEW, COMPLETE))
        for name, room in targets:
            for extra in range(min(followers, room - 1) + 1):
                options.append(name if extra == 0 else f"{name}+{extra}")
        return tuple(options)

    def _safe_options(self) -> tuple[str, ...]:
        assert self.loser is not None
        safe = [self.cards[c] for c in self.safe]
        codes = [self.cards[c].code for s in self.subsets[self.loser] for c in s.cards
                 if fits_safe_set(self.cards[c], safe)]
        return (*codes, KEEP) if codes else ()

    def _give_card_options(self, host: int) -> tuple[str, ...]:
        room = any(not self.cards[c].follower for s in self.subsets[self.attacker]
                   for c in s.cards) and any(len(s.cards) < COMPLETE
                                             for s in self.subsets[self.attacker])
        options = []
        for number, subset in enumerate(self.subsets[host], start=1):
            if room and any(self.cards[c].follower for c in subset.cards):
                options.append(f"{FOLLOWER}@{number}")
            options += [self.cards[c].code for c in self._symbols(subset.cards)]
        return tuple(options)

    def _give_place_options(self) -> tuple[str, ...]:
        assert self.moving is not None
        card = self.cards[self.moving[0]]
        options = [str(n) for n, s in enumerate(self.subsets[self.attacker], start=1)
                   if fits_subset(card, self._subset_cards(s))]
        if not card.follower:
            options.append(NEW)
        return tuple(options)

    # -- the GameState contract ------------------------------------------------------
    def decisions(self) -> tuple[Decision, ...]:
        return self._once_per_step(self._decisions_now)

    def _decisions_now(self) -> tuple[Decision, ...]:
        phase = self.phase
        if phase == "over" or self.ended is not None:
            return ()
        if phase == "counter":
            return (Decision(self.attacker, "counter",
                             Phrase("eclipse.prompt.counter", count=self.options.counterattack),
                             (COUNTER, SKIP)),)
        if phase == "counter-card":
            return (Decision(self.attacker, "counter-card",
                             Phrase("eclipse.prompt.counter_card", count=self.counter_left),
                             self._counter_card_options()),)
        if phase == "counter-place":
            assert self.moving is not None
            return (Decision(self.attacker, "counter-place",
                             Phrase("eclipse.prompt.counter_place",
                                    card=self.cards[self.moving[0]].shown),
                             self._counter_place_options()),)
        if phase == "play":
            # Never made by the platform, even with one card to choose: an instant
            # "has chosen" would tell the table that the rest of that hand is followers.
            return (
                Decision(self.attacker, "card", ATTACK,
                         self._play_options(self.attacker), simultaneous=True,
                         automatic=False),
                Decision(self.defender, "card", DEFEND,
                         self._play_options(self.defender), simultaneous=True,
                         automatic=False),
            )
        if phase == "numbers":
            # The ranges follow from the two cards on the table, so a single number
            # made at once tells nobody anything they cannot work out.
            a, d = self._number_options()
            assert self.verdict is not None
            prompt = MANEUVER if self.verdict.branch == "male" else PARITY
            return (
                Decision(self.attacker, "number", prompt, a, simultaneous=True),
                Decision(self.defender, "number", prompt, d, simultaneous=True),
            )
        if phase == "deposit":
            assert self.winner is not None
            # The options count the followers in the winner's hand: a deposit made at
            # once would tell the table there are none, unless the hand is empty.
            return (Decision(self.winner, "deposit",
                             Phrase("eclipse.prompt.deposit",
                                    card=self.cards[self.played[self.winner]].label),
                             self._deposit_options(),
                             automatic=not self.hands[self.winner]),)
        if phase == "safe":
            assert self.loser is not None
            return (Decision(self.loser, "safe",
                             SAFE, self._safe_options()),)
        if phase == "give-card":
            host = self.givers[0]
            return (Decision(host, "give-card",
                             GIVE_CARD, self._give_card_options(host)),)
        if phase == "give-place":
            assert self.moving is not None
            return (Decision(self.givers[0], "give-place",
                             Phrase("eclipse.prompt.give_place",
                                    card=self.cards[self.moving[0]].shown),
                             self._give_place_options()),)
        raise AssertionError(f"unknown phase {phase}")

    def validate(self, seat: int, choice: str) -> str:
        decision = self.decision_for(seat)
        assert decision is not None
        text = choice.strip()
        kind = decision.kind
        if kind in ("card", "safe") or (kind in ("counter-card", "give-card")
                                        and "@" not in text):
            if kind == "safe" and text.lower() == KEEP:
                return KEEP
            code = normalise_code(text)
            card = self.deck_def.card_by_code(code)
            if kind == "card" and card.id not in self.hands[seat]:
                raise MalformedChoice(Phrase("eclipse.error.not_in_hand", card=card.label,
                                             code=card.code))
            return _legal(card.code, decision)
        if kind in ("counter-card", "give-card"):
            return _legal(FOLLOWER + "@" + text.split("@", 1)[1].strip(), decision)
        lowered = text.lower().replace(" ", "")
        if kind == "counter":
            lowered = {"yes": COUNTER, "no": SKIP, "y": COUNTER, "n": SKIP}.get(lowered, lowered)
            return _legal(lowered, decision)
        if kind == "number":
            if not (lowered.isascii() and lowered.isdigit()):
                raise MalformedChoice(Phrase("eclipse.error.not_a_number", choice=shown(choice)))
            # However long, a number is judged against the range, which says what to give.
            return _legal(lowered.lstrip("0") or "0", decision)
        return _legal(lowered, decision)

    def _apply(self, seat: int, choice: str) -> list[Event]:
        return self._apply_step(seat, choice) + self._advance()

    def _apply_step(self, seat: int, choice: str) -> list[Event]:
        phase = self.phase
        if phase == "counter":
            if choice == SKIP:
                return self._begin_play()
            self.phase, self.counter_left = "counter-card", self.options.counterattack
            return [Event("counter", Phrase("eclipse.event.counter", count=self.counter_left,
                                            who=Seat(seat)),
                          data={"seat": seat})]
        if phase in ("counter-card", "give-card"):
            card, subset = self._card_token(seat, choice)
            self.moving = (card, subset.uid)
            self.phase = "counter-place" if phase == "counter-card" else "give-place"
            return []
        if phase == "counter-place":
            return self._move_counter_card(choice)
        if phase == "deposit":
            return self._deposit(choice)
        if phase == "safe":
            return self._move_to_safe(choice)
        if phase == "give-place":
            return self._give(choice)
        raise AssertionError(f"no turn-based choice in phase {phase}")

    def _move_counter_card(self, choice: str) -> list[Event]:
        assert self.moving is not None
        card, origin_uid = self.moving
        seat_text, _, where = choice.partition(":")
        host = int(seat_text) - 1
        origin = next(s for s in self.subsets[self.attacker] if s.uid == origin_uid)
        events = self._take_from_subset(self.attacker, origin, card)
        target = None if where == NEW else self._find(host, int(where))
        name = self._place_name(host, target)
        if target is None:
            self._new_subset(host, [card])
        else:
            target.cards.append(card)
        self.counter.append((card, host, origin_uid))
        self.counter_left -= 1
        self.moving = None
        events.insert(0, Event("counter-move", Phrase("eclipse.event.counter_move",
                                                      who=Seat(self.attacker),
                                                      card=self.cards[card].shown, place=name),
                               data={"card": self.cards[card].code, "host": host}))
        if self.counter_left > 0:
            self.phase = "counter-card"
            return events
        return events + self._begin_play()

    def _deposit(self, choice: str) -> list[Event]:
        assert self.winner is not None and self.loser is not None
        where, _, extra = choice.partition("+")
        followers = int(extra) if extra else 0
        card = self.played.pop(self.winner)
        moved = [card]
        for _ in range(followers):
            follower = next(c for c in self.hands[self.winner] if self.cards[c].follower)
            self.hands[self.winner].remove(follower)
            moved.append(follower)
        target = None if where == NEW else self._find(self.loser, int(where))
        name = self._place_name(self.loser, target)
        if target is None:
            self._new_subset(self.loser, moved)
        else:
            target.cards.extend(moved)
        label = self.cards[card].label
        said = Phrase("eclipse.event.deposit_followers", count=followers, who=Seat(self.winner),
                      card=label, place=name) if followers else \
            Phrase("eclipse.event.deposit", who=Seat(self.winner), card=label, place=name)
        events = [Event("deposit", said,
                        data={"card": self.cards[card].code, "followers": followers})]
        return events + self._safe_step()

    def _move_to_safe(self, choice: str) -> list[Event]:
        assert self.loser is not None
        if choice == KEEP:
            return self._complete_check()
        card = self.deck_def.card_by_code(choice).id
        subset = self._subset_of(self.loser, card)
        assert subset is not None
        events = [Event("safe", Phrase("eclipse.event.safe", who=Seat(self.loser),
                                       card=self.cards[card].label, size=len(self.safe) + 1,
                                       complete=COMPLETE),
                        data={"card": self.cards[card].code})]
        events += self._take_from_subset(self.loser, subset, card)
        self.safe.append(card)
        return events + self._complete_check()

    def _give(self, choice: str) -> list[Event]:
        assert self.moving is not None
        host = self.givers.pop(0)
        card, origin_uid = self.moving
        self.moving = None
        origin = next(s for s in self.subsets[host] if s.uid == origin_uid)
        events = self._take_from_subset(host, origin, card)
        target = None if choice == NEW else self._find(self.attacker, int(choice))
        name = self._place_name(self.attacker, target)
        if target is None:
            self._new_subset(self.attacker, [card])
        else:
            target.cards.append(card)
        events.insert(0, Event("give", Phrase("eclipse.event.give", who=Seat(host),
                                              card=self.cards[card].shown, place=name),
                               data={"host": host, "card": self.cards[card].code}))
        return events + self._next_giver()

    def _outcome(self) -> Outcome | None:
        return self.ended

    def _resign(self, seat: int) -> list[Event]:
        if self.out[seat]:
            raise MalformedChoice(Phrase("eclipse.error.already_out"))
        involved = seat in (self.attacker, self.defender) or (
            self.phase in ("give-card", "give-place") and self.givers[:1] == [seat])
        # A resignation cuts the hand short for the players in it: cards in play
        # go back to their owners' hands, the resigning player's go out with them.
        played = dict(self.played) if involved else {}
        if involved:
            self._held.clear()
            for owner, card in played.items():
                self.hands[owner].append(card)
            self.played = {}
        events = [self._remove_seat(seat, Phrase("eclipse.out.resigned"), take_safe_set=False)]
        if seat in self.givers:
            self.givers.remove(seat)
        if self.drawing is not None and (involved or len(self._live()) <= 1):
            events += self._loser_draws()  # the hand is cut short with the loser still in
        if len(self._live()) <= 1:
            self.phase = "over"
            self.ended = self._ranking(Phrase("eclipse.reason.left", who=Seat(seat)))
            return events
        if not involved:
            return events
        if self.winner is not None:
            self.hands_played += 1
        base = self.attacker if not self.out[self.attacker] else self._next_live(self.attacker)
        self.attacker = base
        self.defender = self._next_live(base)
        self.phase = NEXT
        return events + self._advance()

    # -- what players see ---------------------------------------------------------
    def _subset_view(self, number: int, cards: Sequence[int], safe: bool = False) -> SubsetView:
        # Views are remembered by what they show, in a small memo every copy of the
        # game shares: most subsets stay as they are from one observation to the next.
        memo_key = (number, tuple(cards), safe)
        view = self._views.get(memo_key)
        if view is None:
            shown = tuple(self.cards[c] for c in cards)
            kind = subset_kind(shown)
            assert kind is not None
            top, bottom, key = kind
            view = SubsetView(number, bottom, None if safe else top, key, shown)
            if len(self._views) >= VIEW_MEMO:
                self._views.clear()
            self._views[memo_key] = view
        return view

    def observe(self, seat: int | None) -> EclipseView:
        hand = None
        if seat is not None and 0 <= seat < self.seats:
            hand = tuple(sorted((self.cards[c] for c in self.hands[seat]), key=sort_key))
        subsets = tuple(
            tuple(self._subset_view(n, s.cards) for n, s in enumerate(self.subsets[p], start=1))
            for p in range(self.seats))
        counter_left = self.counter_left if self.phase.startswith("counter") else 0
        reveal = self.last_reveal
        return EclipseView(
            seat=seat, seats=self.seats, hand=hand,
            hand_sizes=tuple(len(h) for h in self.hands), deck_size=len(self.deck),
            subsets=subsets,
            safe_set=self._subset_view(0, self.safe, safe=True) if self.safe else None,
            out=tuple(self.out), attacker=self.attacker, defender=self.defender,
            phase="over" if self.over else self.phase,
            waiting=tuple(d.seat for d in self.pending()),
            chosen=tuple(sorted(self._held)), reveal=reveal,
            counterattack=tuple((self.cards[c], host) for c, host, _ in self.counter),
            counter_left=counter_left,
            moving=self.cards[self.moving[0]] if self.moving else None,
            hands_played=self.hands_played, hand_cap=self.options.hand_cap,
            outcome=self.outcome(), step=self.step,
            under=tuple((place, self.cards[c]) for place, c in enumerate(self.deck)
                        if c in self.open),
            known=tuple(tuple(sorted((self.cards[c] for c in hand if c in self.open),
                                     key=sort_key)) for hand in self.hands),
            taken_out=tuple(self.cards[c] for cards in self.out_cards for c in cards
                            if c in self.open))

    def private_part(self, seat: int) -> Hashable:
        """The seat's hand (what its view's ``hand`` shows), without observing."""
        return tuple(sorted(self.hands[seat]))

    def notation(self) -> str:
        def cards(ids: Iterable[int]) -> str:
            return " ".join(self.cards[c].code for c in ids) or "-"

        parts = [f"eclipse phase={self.phase} attacker={self.attacker + 1} "
                 f"defender={self.defender + 1} hand={self.hands_played}"]
        for seat in range(self.seats):
            if self.out[seat]:
                parts.append(f"{seat + 1}: out")
                continue
            subsets = " | ".join(cards(s.cards) for s in self.subsets[seat]) or "-"
            parts.append(f"{seat + 1}: hand [{cards(self.hands[seat])}] subsets [{subsets}]")
        parts.append(f"safe [{cards(self.safe)}] deck {len(self.deck)}")
        return "\n".join(parts)

    # -- bookkeeping -------------------------------------------------------------
    def census(self) -> Counter[int]:
        """How many times each card id appears across every place of the game:
        deck, hands, subsets, safe set, cards in play, cards taken out. Every
        card should appear exactly once."""
        places: list[int] = list(self.deck) + list(self.safe) + list(self.played.values())
        places += [] if self.drawing is None else [self.drawing]
        for seat in range(self.seats):
            places += self.hands[seat]
            places += [c for s in self.subsets[seat] for c in s.cards]
            places += self.out_cards[seat]
        return Counter(places)

    def copy(self) -> Self:
        new = self._shallow_copy()
        new.deck = list(self.deck)
        new.hands = [list(h) for h in self.hands]
        new.subsets = [[Subset(s.uid, list(s.cards)) for s in seat] for seat in self.subsets]
        new.safe = list(self.safe)
        new.out = list(self.out)
        new.out_cards = [list(c) for c in self.out_cards]
        new.eliminated = list(self.eliminated)
        new.in_front_when_out = list(self.in_front_when_out)
        new.played = dict(self.played)
        new.counter = list(self.counter)
        new.givers = list(self.givers)
        new.open = set(self.open)
        new._opening = list(self._opening)
        return new




def _legal(choice: str, decision: Decision) -> str:
    """``choice`` if it is one of the decision's options, else refused naming what the
    decision takes and the options (the first dozen)."""
    if choice in decision.options:
        return choice
    legal = ", ".join(decision.options[:12]) + (" …" if len(decision.options) > 12 else "")
    refused = {
        "card": Phrase("eclipse.error.illegal_card", choice=shown(choice), legal=legal),
        "counter-card": Phrase("eclipse.error.illegal_card", choice=shown(choice), legal=legal),
        "give-card": Phrase("eclipse.error.illegal_card", choice=shown(choice), legal=legal),
        "safe": Phrase("eclipse.error.illegal_card", choice=shown(choice), legal=legal),
        "counter": Phrase("eclipse.error.illegal_answer", choice=shown(choice), legal=legal),
        "number": Phrase("eclipse.error.illegal_number", choice=shown(choice), legal=legal),
        "counter-place": Phrase("eclipse.error.illegal_counter_place", choice=shown(choice),
                                legal=legal),
        "deposit": Phrase("eclipse.error.illegal_deposit", choice=shown(choice), legal=legal),
        "give-place": Phrase("eclipse.error.illegal_give_place", choice=shown(choice),
                             legal=legal),
    }[decision.kind]
    raise IllegalChoice(refused)


def sort_key(card: Card) -> tuple[int, str, str, int]:
    """Hand order: symbol cards by top, bottom and number; followers last."""
    if card.follower:
        return (1, "", "", 0)
    return (0, card.top or "", card.bottom or "", card.number)
