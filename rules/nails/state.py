"""The state of a game of Hammer & Nails and its rules (``../shared/specs/nails.md``).

A turn: place a tile (``17@C4/90``); the mechanics it fires resolve — nail
mechanics first, then hammer ones — each a decision where there is one to
make; Play Again grants another placement; then the hand is drawn up to four
(or trimmed down to four). A player under "must cover a red/green nail" first
covers one or declares ``cannot``, and the player who fired it may
``challenge``.

Decisions and their words: ``place`` (placements), ``cover`` (covering
placements or ``cannot``), ``challenge`` (``challenge``/``accept``), ``again``
and ``draw2`` (``yes``/``no``), ``remove`` and ``tiebreak`` (a top tile's
number), ``search`` (a deck tile's number), ``victim`` (``P2``: player 2),
``discard`` (a hand tile or ``keep``), ``trim`` and ``stuck`` (a hand tile).
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Self

from rules.core import Decision, Event, GameState, Outcome, SeatSetup, legal_or_raise
from rules.errors import BadOptions, IllegalChoice, MalformedChoice
from rules.nails.decks import DECKS
from rules.nails.options import NailsOptions
from rules.nails.stack import PLACE_SEP, BuildStack, Covered, Placement
from rules.nails.tiles import Deck, Tile
from rules.nails.words import (
    a_piece,
    deck_name,
    listed,
    mechanic_words,
    no_piece,
    nouns,
    penalty,
)
from rules.phrases import Phrase, Seat, Words

HAND = 4
PENALTY = 2
MAX_TIE_ROUNDS = 6
CANNOT, CHALLENGE, ACCEPT, YES, NO, KEEP = "cannot", "challenge", "accept", "yes", "no", "keep"


@dataclass(frozen=True, slots=True)
class NailsView:
    """What one seat (``None``: the channel) may see."""

    seat: int | None
    seats: int
    deck: str
    shape: str
    nail_word: str
    hammer_word: str
    most_wins: bool
    colours: tuple[str, ...]
    """Each seat's nail colour (teammates share one)."""
    layers: tuple[tuple[Tile, Placement], ...]
    """Every tile on the stack with its placement, bottom first (all laid face up)."""
    top_tiles: tuple[int, ...]
    hand: tuple[Tile, ...] | None
    hand_sizes: tuple[int, ...]
    deck_size: int
    discard_size: int
    penalties: tuple[int, ...]
    showing: tuple[int, ...]
    """Each seat's count as everyone may see it: its colour showing on the stack (with
    cow bonuses) and penalties while play goes on, hands being secret; once the game is
    over, the final count, hands included (the outcome's scores). Both are
    :meth:`NailsState.totals`."""
    in_hand: int | None
    """While play goes on, what this seat's own hand adds to its count at the end (the
    nails of its colour in it; a teammate's hand is theirs); ``None`` for the channel
    and once the game is over."""
    turn: int
    dealer: int
    phase: str
    waiting: tuple[int, ...]
    obligation: tuple[str, int] | None
    """The colour the player to move must cover, and who fired it."""
    last: Placement | None
    fired: tuple[str, ...]
    """Mechanics the last placement fired."""
    revealed: tuple[Tile, ...] | None
    """A challenger's hand, shown to this seat alone after a failed challenge."""
    went_out: tuple[int, ...]
    final_round: bool
    outcome: Outcome | None
    step: int


class NailsState(GameState):
    """A game of Hammer & Nails: 2 players, or 4 (two teams, or four colours)."""

    game = "nails"

    def __init__(self, seats: int, seed: int, options: NailsOptions | None = None,
                 deck: Deck | None = None) -> None:
        super().__init__(seats, seed)
        self.options = options or NailsOptions()
        self.deck_def = deck or DECKS[self._deck_name(seats)]
        colours = self.deck_def.colours
        if seats == 2 or (seats == 4 and len(colours) == 2):
            self.colour_of = tuple(colours[s % 2] for s in range(seats))
        elif seats <= len(colours):
            self.colour_of = tuple(colours[:seats])
        else:
            raise BadOptions(Phrase("nails.error.deck_two_colours",
                                    deck=deck_name(self.deck_def.name))
                             if len(colours) == 2 else
                             Phrase("nails.error.deck_players", deck=deck_name(self.deck_def.name),
                                    most=len(colours)))
        self.most_wins = (self.deck_def.most_wins if self.options.most_wins is None
                          else self.options.most_wins)
        self.tiles = {tile.number: tile for tile in self.deck_def.tiles}
        self.draw = list(self.deck_def.numbers)
        self.rng.shuffle(self.draw)
        self.discard: list[int] = []
        self.discarded_by: dict[int, int | None] = {}
        """Who saw each discarded tile go: the seat it left (its hand's discards are
        face down) or ``None`` (taken off the stack, in view of all). Tiles a test
        position starts in the discard pile are nobody's."""
        self.shown_by: dict[int, int] = {}
        """For each seat in :attr:`revealed`, whose hand it was shown."""
        self.hands: list[list[int]] = [[] for _ in range(seats)]
        self.stack = BuildStack(self.deck_def.shape)
        self.penalties = [0] * seats
        self.queue: list[str] = []
        self.extra_plays = 0
        self.just_placed: int | None = None
        self.last: Placement | None = None
        self.fired: tuple[str, ...] = ()
        self.obligation: tuple[str, int] | None = None
        self.next_obligation: tuple[str, int] | None = None
        self.could_cover = False
        self.must_play: int | None = None
        self.revealed: dict[int, tuple[int, ...]] = {}
        self.went_out: list[int] = []
        self.final_round = False
        self.last_seat: int | None = None
        """Who plays the game's last turn, once the final round has begun."""
        self.tie_order: list[int] = []
        self.tie_rounds = 0
        self.ended: Outcome | None = None
        self._opening = self._deal()

    def _deck_name(self, seats: int) -> str:
        """The deck to use: four players without teams need four colours."""
        name = self.options.deck
        if seats == 4 and self.options.teams is False and len(DECKS[name].colours) < 4:
            if name != "workshop":
                raise BadOptions(Phrase("nails.error.deck_teams_only", deck=deck_name(name)))
            return "workshop4"
        if self.options.teams and len(DECKS[name].colours) > 2:
            raise BadOptions(Phrase("nails.error.deck_no_teams", deck=deck_name(name)))
        return name

    @classmethod
    def new(cls, options: NailsOptions | Mapping[str, Any] | None, seats: int, seed: int,
            setup: Sequence[SeatSetup] = ()) -> NailsState:
        """A new game (what :class:`~rules.core.GameInfo` calls)."""
        return cls(seats, seed, NailsOptions.parse(options))

    @classmethod
    def position(cls, hands: Sequence[Sequence[int]], *, stack: Sequence[str] = ("3@A1",),
                 draw: Sequence[int] | None = None, turn: int = 0, dealer: int | None = None,
                 deck: Deck | None = None, options: NailsOptions | None = None) -> Self:
        """A game set up by hand, for tests and examples: hands by tile number, the
        stack as placements, bottom first (laid as given, without the placement
        rules, so any stack can be set up), and the draw pile
        top first (default: every tile not named, by number). Tiles named nowhere
        else go to the discard pile when ``draw`` is given.

        >>> state = NailsState.position([[1, 2], [4, 5]], draw=[6, 7])
        >>> state.phase, state.turn, state.stack.tiles
        ('place', 0, [3])
        """
        state = cls(len(hands), 0, options, deck)
        state.hands = [list(hand) for hand in hands]
        state.stack = BuildStack(state.deck_def.shape)
        for text in stack:
            placement = Placement.parse(text)
            state.stack.place(state.tiles[placement.tile], placement, first=True)
        named = {n for hand in hands for n in hand} | set(state.stack.tiles)
        rest = [n for n in state.deck_def.numbers if n not in named]
        state.draw = list(draw) if draw is not None else rest
        state.discard = [n for n in rest if n not in state.draw]
        state.turn = turn
        state.dealer = (turn - 1) % len(hands) if dealer is None else dealer
        state._opening = state._start_turn()
        state._decision_cache = None
        return state

    @property
    def opening_events(self) -> list[Event]:
        """The choice of dealer, the deal and the starting tile."""
        return list(self._opening)

    def _deal(self) -> list[Event]:
        # Each player draws a tile; the lowest number deals; the tiles go back.
        drawn = self.draw[:self.seats]
        self.dealer = drawn.index(min(drawn))
        self.rng.shuffle(self.draw)
        for _ in range(HAND):
            for seat in range(self.seats):
                self.hands[seat].append(self.draw.pop(0))
        start = self.draw.pop(0)
        self.stack.place(self.tiles[start], Placement(start, 0, 0, 0), first=True)
        self.turn = (self.dealer + 1) % self.seats
        self.phase = "place"
        events = [Event("dealer", Phrase("nails.event.dealer", who=Seat(self.dealer),
                                         tile=min(drawn), start=start),
                        data={"dealer": self.dealer, "start": start})]
        return events + self._start_turn()

    # -- small helpers --------------------------------------------------------------
    def _next(self, seat: int) -> int:
        return (seat + 1) % self.seats

    def _teammates(self, seat: int) -> list[int]:
        return [s for s in range(self.seats) if self.colour_of[s] == self.colour_of[seat]]

    def _draw(self, seat: int, count: int) -> list[Event]:
        drawn = []
        for _ in range(count):
            if not self.draw:
                break
            drawn.append(self.draw.pop(0))
        self.hands[seat] += drawn
        if not drawn:
            return []
        return [Event("draw", Phrase("nails.event.draws", count=len(drawn), who=Seat(seat)),
                      data={"seat": seat, "count": len(drawn)}),
                Event("drawn", Phrase("nails.event.drawn", count=len(drawn),
                                      tiles=tile_list(drawn)),
                      seats=frozenset({seat}), data={"tiles": drawn})]

    def _discard(self, seat: int, number: int) -> None:
        self.hands[seat].remove(number)
        self.discard.append(number)
        self.discarded_by[number] = seat

    def _placements(self, seat: int, only: Sequence[int] | None = None) -> list[Placement]:
        tiles = self.hands[seat] if only is None else [n for n in only if n in self.hands[seat]]
        found: list[Placement] = []
        for number in sorted(tiles):
            found += self.stack.placements(self.tiles[number])
        return found

    def _notations(self, seat: int, only: Sequence[int] | None = None) -> tuple[str, ...]:
        """:meth:`_placements` in notation, made without making placements."""
        tiles = self.hands[seat] if only is None else [n for n in only if n in self.hands[seat]]
        found: list[str] = []
        for number in sorted(tiles):
            found += self.stack.notations(self.tiles[number])
        return tuple(found)

    def _can_place(self, seat: int, only: Sequence[int] | None = None) -> bool:
        tiles = self.hands[seat] if only is None else [n for n in only if n in self.hands[seat]]
        return any(self.stack.can_place(self.tiles[n]) for n in tiles)

    def _covering(self, seat: int, colour: str) -> list[Placement]:
        return [p for p in self._placements(seat) if self.stack.covers_colour(p, colour)]

    # -- the flow of a turn -----------------------------------------------------------
    def _start_turn(self) -> list[Event]:
        self.obligation, self.next_obligation = self.next_obligation, None
        self.extra_plays, self.must_play, self.just_placed = 0, None, None
        if self.obligation is not None:
            colour, _ = self.obligation
            self.could_cover = bool(self._covering(self.turn, colour))
            self.phase = "cover"
            return [Event("must-cover", Phrase("nails.event.must_cover", who=Seat(self.turn),
                                               nail=a_piece(self.deck_def.nail_word, colour)),
                          data={"seat": self.turn, "colour": colour})]
        return self._placement_phase()

    def _placement_phase(self) -> list[Event]:
        if self.must_play is not None and self._can_place(self.turn, [self.must_play]):
            self.phase = "place"
            return []
        self.must_play = None
        if self._can_place(self.turn):
            self.phase = "place"
            return []
        if self.hands[self.turn]:
            self.phase = "stuck"
            return [Event("stuck", Phrase("nails.event.stuck", who=Seat(self.turn)),
                          data={"seat": self.turn})]
        return self._end_turn()

    def _place(self, placement: Placement) -> list[Event]:
        seat = self.turn
        tile = self.tiles[placement.tile]
        covered = self.stack.place(tile, placement)
        self.hands[seat].remove(tile.number)
        self.last, self.just_placed, self.must_play = placement, tile.number, None
        self.obligation = None
        fired = fired_mechanics(covered)
        self.fired = tuple(fired)
        self.queue = list(fired)
        where = placement.notation.split(PLACE_SEP, 1)[1]
        text = (Phrase("nails.event.lays_firing", who=Seat(seat), tile=tile.number, cell=where,
                       fired=listed([mechanic_words(m, self.deck_def.nail_word)
                                     for m in fired]))
                if fired else
                Phrase("nails.event.lays", who=Seat(seat), tile=tile.number, cell=where))
        events = [Event("place", text,
                        data={"seat": seat, "placement": placement.notation,
                              "fired": list(fired)})]
        return events + self._resolve_queue()

    def _resolve_queue(self) -> list[Event]:
        seat = self.turn
        events: list[Event] = []
        while self.queue:
            mechanic = self.queue.pop(0)
            if mechanic == "again":
                if self.hands[seat]:
                    self.phase = "again"
                    return events
            elif mechanic == "draw2":
                if self.draw:
                    self.phase = "draw2"
                    return events
            elif mechanic == "remove":
                if self._removable():
                    self.phase = "remove"
                    return events
            elif mechanic == "search":
                if self.draw:
                    self.phase = "search"
                    return events
            elif mechanic == "discard":
                if self.hands[seat]:
                    self.phase = "discard"
                    return events
            elif mechanic == "opp-discard":
                if self._victims():
                    self.phase = "victim"
                    return events
            elif mechanic.startswith("cover-"):
                colour = mechanic.removeprefix("cover-")
                self.next_obligation = (colour, seat)
                events.append(Event("obligation", Phrase(
                    "nails.event.obligation", nail=a_piece(self.deck_def.nail_word, colour)),
                                    data={"colour": colour, "by": seat}))
        return events + self._after_mechanics()

    def _after_mechanics(self) -> list[Event]:
        while self.extra_plays > 0:
            self.extra_plays -= 1
            if self._can_place(self.turn):
                self.phase = "place"
                return [Event("again", Phrase("nails.event.again", who=Seat(self.turn)),
                              data={"seat": self.turn})]
        return self._end_turn()

    def _end_turn(self) -> list[Event]:
        seat = self.turn
        events = self._draw(seat, HAND - len(self.hands[seat]))
        if len(self.hands[seat]) > HAND:
            self.phase = "trim"
            return events
        return events + self._finish_turn()

    def _finish_turn(self) -> list[Event]:
        seat = self.turn
        events: list[Event] = []
        if not self.draw and not self.hands[seat] and seat not in self.went_out:
            self.went_out.append(seat)
            text = (Phrase("nails.event.out", who=Seat(seat)) if self.final_round
                    else Phrase("nails.event.out_final", who=Seat(seat)))
            events.append(Event("out", text,
                                data={"seat": seat}))
            if not self.final_round:
                self.final_round = True
                # "each": everyone else has one last turn, so the player before the one
                # who went out ends the game; "dealer": the round ends as every round does.
                self.last_seat = (self.dealer if self.options.final_round == "dealer"
                                  else (seat - 1) % self.seats)
        if self.final_round and seat == self.last_seat:
            return events + self._score()
        self.turn = self._next(seat)
        return events + self._start_turn()

    # -- mechanics -----------------------------------------------------------------------
    def _removable(self) -> list[int]:
        return [n for n in self.stack.top_tiles() if n != self.just_placed]

    def _victims(self) -> list[int]:
        mine = self.colour_of[self.turn]
        return [s for s in range(self.seats)
                if s != self.turn and self.colour_of[s] != mine and self.hands[s]]

    # -- the end -------------------------------------------------------------------------
    def totals(self, *, hands: Collection[int] | None = None) -> list[int]:
        """Each seat's count, summed over a team: its colour showing (with cow bonuses),
        its penalties and the nails of its colour in the hands of the seats in
        ``hands`` — every seat's by default, the final count; none (``()``) for what
        everyone may see during play."""
        totals = []
        for seat in range(self.seats):
            colour = self.colour_of[seat]
            team = self._teammates(seat)
            total = self.stack.visible_nails(colour) + self.stack.cow_bonus(colour)
            total += sum(self.penalties[s] for s in team)
            total += sum(self.hand_nails(s) for s in team if hands is None or s in hands)
            totals.append(total)
        return totals

    def hand_nails(self, seat: int) -> int:
        """The nails of ``seat``'s colour in its hand: what its hand adds to the count."""
        colour = self.colour_of[seat]
        return sum(self.tiles[n].nails(colour) for n in self.hands[seat])

    def _best(self, totals: Sequence[int]) -> list[int]:
        best = max(totals) if self.most_wins else min(totals)
        return [s for s in range(self.seats) if totals[s] == best]

    def _score(self) -> list[Event]:
        totals = self.totals()
        best = self._best(totals)
        events = [Event("count", Phrase("nails.event.count", counts=listed(
            [Phrase("nails.event.count_one", who=Seat(s), total=totals[s])
             for s in range(self.seats)])),
            data={"totals": totals})]
        if len({self.colour_of[s] for s in best}) == 1 or self.tie_rounds >= MAX_TIE_ROUNDS \
                or not self.stack.top_tiles():
            self.phase = "over"
            self.ended = Outcome.from_scores(totals, self._reason(best),
                                             most_wins=self.most_wins)
            return events
        self.tie_rounds += 1
        start = self.went_out[0] if self.went_out else self._next(self.dealer)
        self.tie_order = sorted(best, key=lambda s: (s - start) % self.seats)
        self.phase = "tiebreak"
        names = listed([Seat(s) for s in self.tie_order])
        return [*events, Event("tie", Phrase("nails.event.tie", round=self.tie_rounds,
                                             who=names),
                               data={"order": self.tie_order})]

    def _reason(self, best: list[int]) -> Phrase:
        nails = nouns(self.deck_def.nail_word)
        objective = (Phrase("nails.reason.most", nails=nails) if self.most_wins
                     else Phrase("nails.reason.fewest", nails=nails))
        if len({self.colour_of[s] for s in best}) > 1:
            return Phrase("nails.reason.still_tied", objective=objective)
        if self.tie_rounds:
            return Phrase("nails.reason.after_removals", count=self.tie_rounds,
                          objective=objective)
        return objective

    def _outcome(self) -> Outcome | None:
        return self.ended

    def _resign(self, seat: int) -> list[Event]:
        # The game ends: the resigning side is last, the others rank by their count.
        totals = self.totals()
        worst = (min(totals) - 1) if self.most_wins else (max(totals) + 1)
        ranked = [worst if self.colour_of[s] == self.colour_of[seat] else totals[s]
                  for s in range(self.seats)]
        reason = Phrase("nails.reason.resigned", who=Seat(seat))
        outcome = Outcome.from_scores(ranked, reason, most_wins=self.most_wins)
        self._resigned = Outcome(places=outcome.places, scores=tuple(totals), reason=reason)
        self.phase = "over"
        return [Event("resign", Phrase("nails.event.resigns", who=Seat(seat)),
                      data={"seat": seat})]

    # -- decisions -----------------------------------------------------------------------
    def decisions(self) -> tuple[Decision, ...]:
        return self._once_per_step(self._decisions_now)

    def _decisions_now(self) -> tuple[Decision, ...]:
        phase, seat = self.phase, self.turn
        word = self.deck_def.nail_word
        if phase == "over" or self.ended is not None:
            return ()
        if phase == "place":
            only = [self.must_play] if self.must_play is not None else None
            prompt = (Phrase("nails.prompt.play_drawn") if only
                      else Phrase("nails.prompt.place"))
            return (Decision(seat, "place", prompt, self._notations(seat, only)),)
        if phase == "cover":
            assert self.obligation is not None
            colour = self.obligation[0]
            options = (*(p.notation for p in self._covering(seat, colour)), CANNOT)
            # Never made by the engine: an instant "cannot" would tell everyone it is true.
            return (Decision(seat, "cover", Phrase("nails.prompt.cover",
                                                   nail=a_piece(word, colour)),
                             options, automatic=False),)
        if phase == "forced-cover":
            assert self.obligation is not None
            options = tuple(p.notation for p in self._covering(seat, self.obligation[0]))
            return (Decision(seat, "place", Phrase("nails.prompt.forced_cover",
                                                   nail=a_piece(word, self.obligation[0])),
                             options),)
        if phase == "challenge":
            assert self.obligation is not None
            return (Decision(self.obligation[1], "challenge",
                             Phrase("nails.prompt.challenge"), (CHALLENGE, ACCEPT)),)
        if phase in ("again", "draw2"):
            prompt = (Phrase("nails.prompt.again") if phase == "again"
                      else Phrase("nails.prompt.draw2"))
            return (Decision(seat, phase, prompt, (YES, NO)),)
        if phase == "remove":
            return (Decision(seat, "remove", Phrase("nails.prompt.remove"),
                             tuple(str(n) for n in self._removable())),)
        if phase == "search":
            return (Decision(seat, "search", Phrase("nails.prompt.search"),
                             tuple(str(n) for n in sorted(self.draw))),)
        if phase == "victim":
            return (Decision(seat, "victim", Phrase("nails.prompt.victim"),
                             tuple(f"P{s + 1}" for s in self._victims())),)
        if phase == "discard":
            return (Decision(seat, "discard", Phrase("nails.prompt.discard"),
                             (*(str(n) for n in sorted(self.hands[seat])), KEEP)),)
        if phase in ("trim", "stuck"):
            prompt = (Phrase("nails.prompt.trim") if phase == "trim"
                      else Phrase("nails.prompt.stuck"))
            return (Decision(seat, phase, prompt,
                             tuple(str(n) for n in sorted(self.hands[seat]))),)
        if phase == "tiebreak":
            return (Decision(self.tie_order[0], "tiebreak",
                             Phrase("nails.prompt.tiebreak"),
                             tuple(str(n) for n in self.stack.top_tiles())),)
        raise AssertionError(f"unknown phase {phase}")

    def validate(self, seat: int, choice: str) -> str:
        decision = self.decision_for(seat)
        assert decision is not None
        text = choice.strip()
        if decision.kind in ("place", "cover") and text.lower() != CANNOT:
            placement = Placement.parse(text)
            if placement.tile not in self.hands[seat]:
                raise MalformedChoice(Phrase("nails.error.not_in_hand", tile=placement.tile))
            if placement.notation not in decision.options:
                raise IllegalChoice(self._refusal(decision, placement))
            return placement.notation
        text = text.lower()
        if decision.kind == "victim" and text.isdigit():
            text = f"p{text}"
        return legal_or_raise(text.upper() if decision.kind == "victim" else text, decision,
                              decision.kind)

    def _refusal(self, decision: Decision, placement: Placement) -> Words:
        """Why a placement of a tile in hand is not among the decision's options:
        the zone the build stack refuses it for, or what the decision asks instead."""
        tile = self.tiles[placement.tile]
        word = self.deck_def.nail_word
        why = self.stack.refusal(tile, placement, word, self.deck_def.hammer_word)
        if why is not None:
            return why
        where = Phrase("nails.where", tile=tile.number,
                       cell=placement.notation.split(PLACE_SEP, 1)[1])
        if self.must_play is not None and placement.tile != self.must_play:
            return Phrase("nails.error.play_drawn", tile=self.must_play)
        if self.obligation is not None and decision.kind == "cover":
            return Phrase("nails.error.covers_none_cover", where=where,
                          nail=no_piece(word, self.obligation[0]), cannot=CANNOT)
        if self.obligation is not None:
            return Phrase("nails.error.covers_none_must", where=where,
                          nail=no_piece(word, self.obligation[0]))
        try:
            legal_or_raise(placement.notation, decision, "placement")
        except IllegalChoice as refusal:
            return refusal.text
        return Phrase("nails.error.not_legal_now", where=where)

    def _apply(self, seat: int, choice: str) -> list[Event]:
        phase = self.phase
        if phase in ("place", "forced-cover") or (phase == "cover" and choice != CANNOT):
            return self._place(Placement.parse(choice))
        if phase == "cover":
            self.phase = "challenge"
            colour = self.obligation[0] if self.obligation else ""
            return [Event("cannot", Phrase("nails.event.cannot", who=Seat(seat),
                                           nail=a_piece(self.deck_def.nail_word, colour)),
                          data={"seat": seat})]
        if phase == "challenge":
            return self._challenge(choice == CHALLENGE)
        if phase == "again":
            if choice == YES:
                self.extra_plays += 1
                return self._resolve_queue()
            return [Event("again-no", Phrase("nails.event.again_no", who=Seat(seat)),
                          data={"seat": seat}),
                    *self._resolve_queue()]
        if phase == "draw2":
            events = self._draw(seat, 2) if choice == YES else [
                Event("draw2-no", Phrase("nails.event.draw2_no", who=Seat(seat)),
                      data={"seat": seat})]
            return events + self._resolve_queue()
        if phase == "remove":
            tile = self.stack.remove(int(choice))
            self.discard.append(tile.number)
            self.discarded_by[tile.number] = None
            return [Event("remove", Phrase("nails.event.removes", who=Seat(seat),
                                           tile=tile.number),
                          data={"tile": tile.number}), *self._resolve_queue()]
        if phase == "search":
            number = int(choice)
            self.draw.remove(number)
            self.hands[seat].append(number)
            self.rng.shuffle(self.draw)
            return [Event("search", Phrase("nails.event.search", who=Seat(seat)),
                          data={"seat": seat}),
                    Event("searched", Phrase("nails.event.searched", tile=number),
                          seats=frozenset({seat})),
                    *self._resolve_queue()]
        if phase == "victim":
            victim = int(choice[1:]) - 1
            lost = self.rng.choice(self.hands[victim])
            self._discard(victim, lost)
            return [Event("victim", Phrase("nails.event.victim", who=Seat(victim)),
                          data={"seat": victim}),
                    Event("lost", Phrase("nails.event.lose", tile=lost),
                          seats=frozenset({victim})),
                    *self._resolve_queue()]
        if phase == "discard":
            if choice == KEEP:
                return [Event("keep", Phrase("nails.event.keep", who=Seat(seat)),
                              data={"seat": seat}), *self._resolve_queue()]
            self._discard(seat, int(choice))
            return [Event("discard", Phrase("nails.event.discard", who=Seat(seat)),
                          data={"seat": seat}),
                    *self._resolve_queue()]
        if phase == "trim":
            self._discard(seat, int(choice))
            events = [Event("trim", Phrase("nails.event.trim", count=HAND, who=Seat(seat)),
                            data={"seat": seat})]
            if len(self.hands[seat]) > HAND:
                return events
            return events + self._finish_turn()
        if phase == "stuck":
            self._discard(seat, int(choice))
            return self._draw(seat, 1) + self._finish_turn()
        if phase == "tiebreak":
            remover = self.tie_order.pop(0)
            tile = self.stack.remove(int(choice))
            self.discard.append(tile.number)
            self.discarded_by[tile.number] = None
            events = [Event("tiebreak", Phrase("nails.event.tiebreak", who=Seat(remover),
                                               tile=tile.number),
                            data={"seat": remover, "tile": tile.number})]
            if self.tie_order and self.stack.top_tiles():
                return events
            return events + self._score()
        raise AssertionError(f"no choice in phase {phase}")

    def _challenge(self, challenged: bool) -> list[Event]:
        assert self.obligation is not None
        colour, activator = self.obligation
        seat = self.turn
        if not challenged:
            self.obligation = None
            return [Event("accept", Phrase("nails.event.accept", who=Seat(activator))),
                    *self._placement_phase()]
        if self.could_cover:
            self.penalties[seat] += PENALTY
            self.phase = "forced-cover"
            return [Event("challenge", Phrase(
                "nails.event.challenge_right", who=Seat(activator), declarer=Seat(seat),
                nail=a_piece(self.deck_def.nail_word, colour),
                penalty=penalty(self.deck_def.nail_word, PENALTY)),
                data={"winner": activator})]
        self.penalties[activator] += PENALTY
        self.obligation = None
        hand = tuple(sorted(self.hands[activator]))
        self.revealed = {seat: hand}
        self.shown_by = {seat: activator}
        events = [Event("challenge", Phrase(
                      "nails.event.challenge_wrong", who=Seat(activator), declarer=Seat(seat),
                      penalty=penalty(self.deck_def.nail_word, PENALTY)),
                      data={"winner": seat}),
                  Event("reveal", Phrase("nails.event.reveal", who=Seat(activator),
                                         tiles=tile_list(hand)) if hand else
                        Phrase("nails.event.reveal_empty", who=Seat(activator)),
                        seats=frozenset({seat}), data={"tiles": list(hand)})]
        if self.hands[seat]:
            lost = self.rng.choice(self.hands[seat])
            self._discard(seat, lost)
            events.append(Event("lost", Phrase("nails.event.lost_random", tile=lost),
                                seats=frozenset({seat})))
        events += [Event("redraw", Phrase("nails.event.redraw", who=Seat(seat)))]
        before = set(self.hands[seat])
        events += self._draw(seat, 1)
        new = set(self.hands[seat]) - before
        self.must_play = new.pop() if new else None
        return events + self._placement_phase()

    # -- what players see ----------------------------------------------------------------
    def observe(self, seat: int | None) -> NailsView:
        mine = seat is not None and 0 <= seat < self.seats
        over = self.over
        showing = self.totals(hands=None if over else ())
        in_hand = self.hand_nails(seat) if seat is not None and mine and not over else None
        return NailsView(
            seat=seat, seats=self.seats, deck=self.deck_def.name, shape=self.deck_def.shape,
            nail_word=self.deck_def.nail_word, hammer_word=self.deck_def.hammer_word,
            most_wins=self.most_wins, colours=self.colour_of,
            layers=tuple((layer.tile, layer.placement) for layer in self.stack.layers),
            top_tiles=tuple(self.stack.top_tiles()),
            hand=tuple(self.tiles[n] for n in sorted(self.hands[seat])) if mine else None,
            hand_sizes=tuple(len(h) for h in self.hands), deck_size=len(self.draw),
            discard_size=len(self.discard), penalties=tuple(self.penalties),
            showing=tuple(showing),
            in_hand=in_hand,
            turn=self.turn, dealer=self.dealer, phase="over" if over else self.phase,
            waiting=tuple(d.seat for d in self.pending()),
            obligation=self.obligation or (self.next_obligation if self.phase != "cover"
                                           else None),
            last=self.last, fired=self.fired,
            revealed=(tuple(self.tiles[n] for n in self.revealed[seat])
                      if mine and seat in self.revealed else None),
            went_out=tuple(self.went_out), final_round=self.final_round,
            outcome=self.outcome(), step=self.step)

    def private_part(self, seat: int) -> Hashable:
        """The seat's hand and any hand revealed to it (what its view's ``hand`` and
        ``revealed`` show), without observing."""
        return (tuple(sorted(self.hands[seat])), self.revealed.get(seat))

    def notation(self) -> str:
        lines = [f"nails {self.deck_def.name} phase={self.phase} turn={self.turn + 1} "
                 f"dealer={self.dealer + 1} deck={len(self.draw)} discard={len(self.discard)}"]
        for seat in range(self.seats):
            lines.append(f"{seat + 1} {self.colour_of[seat]}: hand "
                         f"{' '.join(map(str, sorted(self.hands[seat]))) or '-'} "
                         f"penalties {self.penalties[seat]}")
        lines.append("stack " + " ".join(layer.placement.notation for layer in self.stack.layers))
        return "\n".join(lines)

    def census(self) -> list[int]:
        """Every tile number in every place (deck, discard, hands, stack), sorted;
        each tile of the deck should appear exactly once."""
        places = list(self.draw) + list(self.discard) + self.stack.tiles
        for hand in self.hands:
            places += hand
        return sorted(places)

    def copy(self) -> Self:
        new = self._shallow_copy()
        new.draw = list(self.draw)
        new.discard = list(self.discard)
        new.hands = [list(h) for h in self.hands]
        new.stack = self.stack.copy()
        new.penalties = list(self.penalties)
        new.queue = list(self.queue)
        new.revealed = dict(self.revealed)
        new.shown_by = dict(self.shown_by)
        new.discarded_by = dict(self.discarded_by)
        new.went_out = list(self.went_out)
        new.tie_order = list(self.tie_order)
        new._opening = list(self._opening)
        return new


def tile_list(numbers: Sequence[int]) -> Words:
    """``tile 3, tile 7`` as words."""
    return listed([Phrase("nails.tile", tile=n) for n in numbers])


def fired_mechanics(covered: Sequence[Covered]) -> list[str]:
    """Mechanics a placement fires, nail mechanics first: a nail's when a hammer
    covers it, a hammer's when it is laid on a nail. Ø never fires."""
    nails = [c.under.mechanic for c in covered
             if c.under.kind == "nail" and c.over.kind == "hammer" and c.under.mechanic]
    hammers = [c.over.mechanic for c in covered
               if c.over.kind == "hammer" and c.under.kind == "nail" and c.over.mechanic]
    return [m for m in nails + hammers if m is not None and m != "null"]
