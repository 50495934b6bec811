"""An Arcane Duel in progress: the turn, priority windows, the stack and combat.

The engine follows ``../shared/specs/duel.md``. A turn runs untap, upkeep, draw,
main (with at most one attack), discard, end and heal. After every phase and
every announced action a **priority window** opens: the players, the active one
first, may play fast effects in turn; once both pass in succession the top of
the stack resolves (or, with an empty stack, the game moves on). Interrupts go
on the stack too, but while one is on top only interrupts may answer it, so it
resolves at once unless interrupted itself. A window where a player can play
nothing is passed for them (unless they turned automatic passing off).

Every choice is a short string; see :mod:`rules.duel.notation` for the forms
(``land Ashpeak``, ``cast Kindlewhip``, ``12``, ``p2``, ``7>12``, ``12=2,p2=1``).
Cards are numbered instances, so permanents and spells are named by number and
players by ``p1``, ``p2``.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.core import Decision, Event, Outcome
from rules.duel.ante import settled_event
from rules.duel.board import Permanent, StackItem
from rules.duel.cards import CardDef, Effect, card
from rules.duel.combat import Combat
from rules.duel.core import HAND_LIMIT, OPENING_HAND, Casting, Window
from rules.duel.effects import Effects
from rules.duel.options import DEFAULT_HEAD_START, HeadStart
from rules.duel.phrasing import card_named, phase
from rules.duel.plays import Plays
from rules.duel.position import render
from rules.errors import IllegalChoice, MalformedChoice
from rules.phrases import Phrase, Seat, Words


@dataclass
class DuelView:
    """What one seat (or a spectator) may see."""

    seat: int | None
    turn: int
    active: int
    phase: str
    asking: str | None
    deciding: int | None
    players: tuple[dict[str, Any], ...]
    battlefield: tuple[dict[str, Any], ...]
    stack: tuple[dict[str, Any], ...]
    combat: dict[str, Any] | None
    hand: tuple[str, ...] = ()
    names: dict[int, str] = field(default_factory=dict)
    """Card number → card name, for every card the seat may see."""
    ante: tuple[str | None, ...] = ()
    """The card each player set aside for ante, by seat (``None``: no ante). Seen
    by everyone: the ante lies face up."""
    ante_settled: bool = False
    """Whether the duel is over, so that the ante is won or goes back."""
    ante_winner: int | None = None
    """The seat that wins every card set aside (once settled; ``None``: each goes
    back, after a draw or a shared first place)."""


class DuelState(Plays, Effects, Combat):
    """A duel between two players (or a free-for-all of up to four), each with a
    deck of at least 40 cards.

    With ``ante``, each player's top card after the shuffle is set aside before
    the opening hand is drawn (:attr:`ante`); the rules never touch it again.
    Who keeps it is a matter of ownership, outside the rules.
    """

    game = "duel"

    def __init__(self, decks: Sequence[Sequence[str]], seed: int, *, life: int = 20,
                 auto_pass: Sequence[bool] | None = None, ante: bool = False,
                 head_start: HeadStart = DEFAULT_HEAD_START) -> None:
        super().__init__(len(decks), seed, life)
        for seat, deck in enumerate(decks):
            for name in deck:
                self.players[seat].library.append(self.new_card(name, seat))
            if auto_pass is not None:
                self.players[seat].auto_pass = auto_pass[seat]
        for seat, player in enumerate(self.players):
            self.rng.shuffle(player.library)
            if ante:  # takes no random number: a duel deals as it would without ante
                self._set_aside_ante(seat)
            for _ in range(OPENING_HAND):
                self._draw(seat, quiet=True)
        self.active = self.rng.randrange(self.seats)
        self._offset_head_start(head_start)
        self._begin_turn()
        self.advance()
        self._opening = tuple(self._events)
        self._events.clear()

    def _offset_head_start(self, head_start: HeadStart) -> None:
        """Offset the first player's head start as the option ``head_start`` says
        (after who starts is drawn; it takes no random number)."""
        self.skip_first_draw = head_start == "no-draw"
        for seat in self.others(self.active):
            if head_start == "card":
                self._draw(seat, quiet=True)
            elif head_start == "life":
                self.players[seat].life += 1

    def _set_aside_ante(self, seat: int) -> None:
        """The seat's top library card leaves the game for the ante."""
        player = self.players[seat]
        if not player.library:  # pragma: no cover - a deck has at least 40 cards
            return
        cid = player.library.pop(0)
        player.ante = cid
        name = self.cards[cid]
        self._say("ante", Phrase("duel.event.ante", who=Seat(seat), card=card_named(name)),
                  seat=seat, card=name)

    # -- small questions -----------------------------------------------------
    @property
    def ante(self) -> tuple[str | None, ...]:
        """The card each seat set aside for ante, by seat (``None``: no ante). The
        winner keeps them all; staking and paying the owned copies is the bot's.

        >>> from rules.duel.decks import starter
        >>> DuelState([starter("ember-and-grove")] * 2, 1).ante
        (None, None)
        >>> [name is not None for name in
        ...  DuelState([starter("ember-and-grove")] * 2, 1, ante=True).ante]
        [True, True]
        """
        return tuple(None if p.ante is None else self.cards[p.ante] for p in self.players)

    @property
    def opening_events(self) -> list[Event]:
        """What happened while the duel was set up (the ante set aside, the first
        turn begun): :meth:`apply` returns only what choices make happen."""
        return list(self._opening)

    def name_of(self, ref: str) -> Words | Seat:
        """A target reference in words for narration (a card's name or a player)."""
        if ref.startswith("p"):
            return Seat(int(ref[1:]) - 1)
        cid = int(ref)
        return card_named(self.cards[cid]) if cid in self.cards else ref

    def in_hand(self, seat: int, name: str) -> int | None:
        """The first copy of card ``name`` in the seat's hand."""
        for cid in self.players[seat].hand:
            if self.cards[cid] == name:
                return cid
        return None

    # -- turn structure -----------------------------------------------------------
    def _begin_turn(self) -> None:
        self.turn += 1
        seat = self.active
        self._say("turn", Phrase("duel.event.turn", turn=self.turn, who=Seat(seat)), seat=seat)
        self.players[seat].land_played = False
        self.attacked = False
        table = self.table
        for perm in self.battlefield.values():
            if perm.controller == seat:
                perm.sick = False
                if perm.tapped and not table.restricted(perm.id, "no_untap"):
                    perm.tapped = False
        self.phase = "upkeep"
        for perm in list(self.battlefield.values()):
            if perm.controller == seat and perm.id in self.battlefield and perm.card.upkeep:
                self._say("upkeep", Phrase("duel.event.upkeep", card=card_named(perm.name),
                                             who=Seat(seat)))
                self._run_effects(perm.card.upkeep, seat, perm.id, None, 0, perm.card.colour)
        self._open("fast")

    def _window_closed(self) -> None:
        """Every player passed with nothing on the stack: the phase moves on."""
        for player in self.players:
            player.pool.clear()
        if self.combat is not None:
            # Inside an attack, life is checked at its start and its end only.
            self._combat_window_closed()
            return
        if not self._check_life():  # "at the end of a phase"
            return
        phase = self.phase
        if phase == "upkeep":
            self.phase = "draw"
            turn = self.turn
            if turn == 1 and self.skip_first_draw:
                self._say("no-draw", Phrase("duel.event.no_draw", who=Seat(self.active)),
                          seat=self.active)
            else:
                self._draw(self.active)
            self._decide_outcome()
            if self.finished or self.turn != turn:
                return
            self._open("fast")
        elif phase == "draw":
            self.phase = "main"
            self._open("main")
        elif phase == "main":
            self.phase = "discard"
            excess = len(self.players[self.active].hand) - HAND_LIMIT
            if excess > 0:
                self.discarding = excess
                self.window = None
            else:
                self._open("fast")
        elif phase == "discard":
            self.phase = "end"
            self._say("end", Phrase("duel.event.end_turn", who=Seat(self.active)))
            self._open("fast")
        elif phase == "end":
            self.phase = "heal"
            for perm in self.battlefield.values():
                perm.heal()
            for player in self.players:
                player.prevent = 0
            self.active = self.others(self.active)[0]
            self._begin_turn()

    def advance(self) -> None:
        """Make every automatic move until someone must decide."""
        while not self.finished:
            if self.casting is not None or self.discarding:
                return
            if self.combat is not None and self._combat_decision() is not None:
                return
            window = self.window
            if window is None:
                if self.combat is not None:
                    self._combat_step()
                    continue
                return
            if window.passes >= len(self.players) - len(self.lost):
                if self.stack:
                    self._resolve_top()
                    window.passes = 0
                    window.priority = self.active
                    continue
                self.window = None
                self._window_closed()
                continue
            return

    # -- decisions ---------------------------------------------------------------
    def decisions(self) -> tuple[Decision, ...]:
        if self.finished:
            return ()
        return self._once_per_step(self._decide)

    def _decide(self) -> tuple[Decision, ...]:
        if self.casting is not None:
            return (self._casting_decision(),)
        if self.discarding:
            return (Decision(self.active, "discard",
                             Phrase("duel.prompt.discard", count=self.discarding,
                                    limit=HAND_LIMIT),
                             tuple(self.hand_labels(self.active)), pick="several",
                             least=self.discarding, most=self.discarding),)
        asked = self._combat_decision()
        if asked is not None:
            return (asked,)
        window = self.window
        if window is None:
            return ()
        seat = window.priority
        options = self._plays(seat)
        if self._main_turn(seat):
            extra = (["attack"] if self._may_attack() else []) + ["end"]
            return (Decision(seat, "main", Phrase("duel.prompt.main"), tuple(options + extra),
                             automatic=self.players[seat].auto_pass),)
        player = self.players[seat]
        return (Decision(seat, "priority", self._priority_prompt(), ("pass", *options),
                         automatic=player.auto_pass, default="pass", strike=False),)

    def _priority_prompt(self) -> Phrase:
        if self.stack:
            top = self.stack[-1]
            return Phrase("duel.prompt.respond", card=card_named(top.name))
        return Phrase("duel.prompt.before_phase_ends", phase=phase(self.phase))

    def _may_attack(self) -> bool:
        table = self.table
        return not self.attacked and any(table.can_attack(pid, self.active)
                                         for pid in self.battlefield)

    # -- the casting sub-decisions ----------------------------------------------------
    def _casting_decision(self) -> Decision:
        casting = self.casting
        assert casting is not None
        data, cost, effect = self.casting_parts(casting)
        if data.cost_parts.x and casting.card_id is not None and casting.x is None:
            top = self._max_x(casting.seat, cost, named=casting.named)
            return Decision(casting.seat, "x", Phrase("duel.prompt.x", card=card_named(data.name)),
                            (*(str(n) for n in range(top + 1)), "cancel"))
        return Decision(casting.seat, "target",
                        Phrase("duel.prompt.target", card=card_named(data.name)),
                        (*self._casting_targets(casting, data, effect), "cancel"))

    def casting_parts(self, casting: Casting) -> tuple[CardDef, str, Effect | None]:
        """What is being announced: the card (or the permanent's card, for an ability),
        the mana cost to pay and the effect that chooses a target, if any."""
        if casting.card_id is not None:
            data = card(self.cards[casting.card_id])
            return data, data.cost, data.target_effect()
        assert casting.source is not None and casting.ability is not None
        perm = self.battlefield[casting.source]
        ability = perm.card.abilities[casting.ability - 1]
        return (perm.card, ability.cost.removeprefix("T"),
                next((e for e in ability.effects if e.chooses_target), None))

    def _casting_targets(self, casting: Casting, data: CardDef,
                         effect: Effect | None) -> list[str]:
        if casting.card_id is not None and data.enchants is not None:
            return self.aura_targets(casting.seat, data)
        assert effect is not None
        return self.targets(casting.seat, effect, data.colour, source=casting.source)

    def _needs_more(self, casting: Casting) -> bool:
        data, _, effect = self.casting_parts(casting)
        if casting.card_id is not None and data.cost_parts.x and casting.x is None:
            return True
        needs_target = (data.enchants is not None if casting.card_id is not None
                        else False) or effect is not None
        return needs_target and casting.target is None

    # -- applying choices ----------------------------------------------------------------
    def validate(self, seat: int, choice: str) -> str:
        decision = self.decision_for(seat)
        if decision is None:
            return super().validate(seat, choice)
        if decision.kind in {"main", "priority", "x", "target"}:
            text = " ".join(choice.split())
            play, _, named = text.partition(" with ")
            for option in decision.options:
                if option.casefold() == play.casefold():
                    return self._with_named(seat, option, named) if named else option
            return decision.canonical(text)
        if decision.kind == "block":
            return self._canonical_blocks(decision, choice)
        if decision.kind == "band":
            return self._canonical_band(decision, choice)
        if decision.kind == "assign":
            return self._canonical_assignment(decision, choice)
        return decision.canonical(choice)

    def _with_named(self, seat: int, option: str, named: str) -> str:
        """``option`` paid with the mana sources the player named (``cast X with 3,5``)."""
        verb, _, rest = option.partition(" ")
        if verb not in {"cast", "use"}:
            raise IllegalChoice(Phrase("duel.error.not_paid_for", option=repr(option)))
        parts = [p.strip() for p in named.split(",")]
        if not all(p.isascii() and p.isdigit() and len(p) <= 6 for p in parts):
            raise MalformedChoice(Phrase("duel.error.not_land_numbers", named=repr(named[:40])))
        ids = tuple(sorted({int(p) for p in parts}))
        if verb == "cast":
            data = card(rest)
            cost, exclude = data.cost, None
        else:
            pid_text, _, index = rest.partition(".")
            ability = self.battlefield[int(pid_text)].card.abilities[int(index) - 1]
            cost = ability.cost.removeprefix("T")
            exclude = int(pid_text) if ability.taps else None
        usable = {s.id for s in self._sources(seat, exclude)}
        wrong = [i for i in ids if i not in usable]
        if wrong:
            raise IllegalChoice(Phrase("duel.error.not_a_source", source=wrong[0]))
        if self._payment(seat, cost, 0, exclude=exclude, named=ids) is None:
            raise IllegalChoice(Phrase("duel.error.does_not_pay", named=repr(named[:40]),
                                       play=card_named(rest)))
        return f"{option} with {','.join(map(str, ids))}"

    def _apply(self, seat: int, choice: str) -> list[Event]:
        self._events = []
        decision = self.decision_for(seat)
        assert decision is not None
        kind = decision.kind
        if kind == "discard":
            self._discard_chosen(seat, choice)
        elif kind in {"x", "target"}:
            self._casting_choice(seat, kind, choice)
        elif kind in {"defender", "attack", "band", "block", "assign"}:
            self._combat_choice(seat, kind, choice)
        else:
            self._play(seat, choice)
        self.advance()
        events, self._events = self._events, []
        return events

    def hand_labels(self, seat: int) -> dict[str, int]:
        """The seat's hand as options: each card by name, a second copy as
        ``Name 2`` and so on; label → card number.

        >>> from rules.duel.notation import parse
        >>> state = parse("1 p1 main // p1 20 | lib 1 | hand Ashpeak, Kindlewhip, Ashpeak | "
        ...               "gy - | play - // p2 20 | lib 1 | hand - | gy - | play -")
        >>> list(state.hand_labels(0))
        ['Ashpeak', 'Kindlewhip', 'Ashpeak 2']
        """
        labels: dict[str, int] = {}
        copies: dict[str, int] = {}
        for cid in self.players[seat].hand:
            name = self.cards[cid]
            copies[name] = copies.get(name, 0) + 1
            labels[name if copies[name] == 1 else f"{name} {copies[name]}"] = cid
        return labels

    def _discard_chosen(self, seat: int, choice: str) -> None:
        player = self.players[seat]
        labels = self.hand_labels(seat)
        for part in Decision.picks(choice):
            cid = labels[part]
            player.hand.remove(cid)
            player.graveyard.append(cid)
            self._say("discard", Phrase("duel.event.discards", who=Seat(seat),
                                        card=card_named(self.cards[cid])))
        self.discarding = 0
        self._open("fast")

    def _play(self, seat: int, choice: str) -> None:
        window = self.window
        assert window is not None
        choice, _, named_text = choice.partition(" with ")
        named = tuple(int(p) for p in named_text.split(",")) if named_text else None
        verb, _, rest = choice.partition(" ")
        if verb == "pass":
            window.passes += 1
            window.priority = self._next_priority(seat)
            return
        if verb == "end":
            self.window = None
            self._window_closed()
            return
        if verb == "attack":
            self._begin_attack()
            return
        if verb == "land":
            cid = self.in_hand(seat, rest)
            assert cid is not None
            self.players[seat].hand.remove(cid)
            self.players[seat].land_played = True
            self._enter(cid, seat)
            self._say("land", Phrase("duel.event.land", who=Seat(seat), card=card_named(rest)))
            self._answer(seat)
            return
        if verb == "boost":
            pid_text, _, colour = rest.partition(".")
            perm = self.battlefield[int(pid_text)]
            self._spend(seat, colour, 0)
            for enhance_colour, power, toughness in perm.card.enhance:
                if enhance_colour == colour:
                    perm.power_eot += power
                    perm.toughness_eot += toughness
            self._say("boost", Phrase("duel.event.boost", who=Seat(seat), mana=colour,
                                      card=card_named(perm.name)))
            return  # a boost needs no stack and opens no window
        if verb == "cast":
            cid = self.in_hand(seat, rest)
            assert cid is not None
            self.casting = Casting(seat, card_id=cid, named=named)
        elif verb == "use":
            pid_text, _, index_text = rest.partition(".")
            self.casting = Casting(seat, source=int(pid_text), ability=int(index_text),
                                   named=named)
        else:  # pragma: no cover - options are only these verbs
            raise MalformedChoice(Phrase("duel.error.not_a_play", choice=repr(choice)))
        self._announce_if_ready()

    def _next_priority(self, seat: int) -> int:
        return self.others(seat)[0]

    def _answer(self, seat: int) -> None:
        """An action was announced by ``seat``: the others may respond."""
        window = self.window
        if window is None:
            return
        window.passes = 0
        window.priority = self._next_priority(seat)

    def _casting_choice(self, seat: int, kind: str, choice: str) -> None:
        casting = self.casting
        assert casting is not None
        if choice == "cancel":
            self.casting = None
            return
        if kind == "x":
            casting.x = int(choice)
        else:
            casting.target = choice
        self._announce_if_ready()

    def _announce_if_ready(self) -> None:
        casting = self.casting
        assert casting is not None
        if self._needs_more(casting):
            return
        self.casting = None
        seat = casting.seat
        if casting.card_id is not None:
            self._cast(casting)
        else:
            self._activate(casting)
        self._answer(seat)

    def _cast(self, casting: Casting) -> None:
        seat, cid = casting.seat, casting.card_id
        assert cid is not None
        data = card(self.cards[cid])
        self._spend(seat, data.cost, casting.x or 0, casting.named)
        self.players[seat].hand.remove(cid)
        item = StackItem(cid, seat, data.name, (*data.spell, *data.enters), casting.target,
                         casting.x or 0, data.colour, data.type == "interrupt")
        self.stack.append(item)
        name = card_named(data.name)
        if data.cost_parts.x and casting.target:
            said = Phrase("duel.event.cast_x_on", who=Seat(seat), card=name, x=casting.x or 0,
                          target=self.name_of(casting.target))
        elif data.cost_parts.x:
            said = Phrase("duel.event.cast_x", who=Seat(seat), card=name, x=casting.x or 0)
        elif casting.target:
            said = Phrase("duel.event.cast_on", who=Seat(seat), card=name,
                          target=self.name_of(casting.target))
        else:
            said = Phrase("duel.event.cast", who=Seat(seat), card=name)
        self._say("cast", said, seat=seat, card=data.name)

    def _activate(self, casting: Casting) -> None:
        seat = casting.seat
        assert casting.source is not None and casting.ability is not None
        perm = self.battlefield[casting.source]
        ability = perm.card.abilities[casting.ability - 1]
        if ability.taps:
            perm.tapped = True
        self._spend(seat, ability.cost.removeprefix("T"), 0, casting.named)
        if ability.life:
            self.players[seat].life -= ability.life
        source: int | None = perm.id
        enchanted = perm.attached  # what an aura acts on, even once sacrificed
        if ability.sacrifice:
            self._leave(perm.id, "graveyard")
            source = None
        said = (Phrase("duel.event.use_on", who=Seat(seat), card=card_named(perm.name),
                       target=self.name_of(casting.target)) if casting.target else
                Phrase("duel.event.use", who=Seat(seat), card=card_named(perm.name)))
        self._say("use", said, seat=seat, card=perm.name)
        if ability.mana_only:
            self._run_effects(ability.effects, seat, source, casting.target, 0,
                              perm.card.colour, name=perm.name, enchanted=enchanted)
            return
        self.stack.append(StackItem(self.next_id, seat, perm.name, ability.effects,
                                    casting.target, 0, perm.card.colour, False, source,
                                    spell=False, enchanted=enchanted))
        self.next_id += 1

    def _spend(self, seat: int, cost: str, x: int,
               named: tuple[int, ...] | None = None) -> None:
        payment = self._payment(seat, cost, x, named=named)
        if payment is None:
            raise IllegalChoice(Phrase("duel.error.not_enough_mana"))
        player = self.players[seat]
        for colour, count in payment.from_pool.items():
            player.pool[colour] -= count
        for pid in payment.tapped:
            self.battlefield[pid].tapped = True
        for colour, count in payment.left.items():
            player.pool[colour] = player.pool.get(colour, 0) + count

    # -- resolving ----------------------------------------------------------------------
    def _resolve_top(self) -> None:
        item = self.stack.pop()
        data = item.card
        if item.spell and data.is_permanent:
            target = item.target
            if data.enchants is not None and (target is None or target not in
                                              self.aura_targets(item.controller, data)):
                self._to_graveyard(item.id)
                self._say("fizzle", Phrase("duel.event.nothing_to_enchant",
                                           card=card_named(data.name)))
                return
            perm = self._enter(item.id, item.controller)
            if data.enchants is not None and target is not None:
                perm.attached = int(target)
            self._say("resolve", Phrase("duel.event.comes_into_play", card=card_named(data.name)))
            if data.enters:
                self._run_effects(data.enters, item.controller, perm.id, item.target, item.x,
                                  item.colour)
        else:
            self._say("resolve", Phrase("duel.event.resolves", card=card_named(item.name))
                      if item.spell else
                      Phrase("duel.event.ability_resolves", card=card_named(item.name)))
            self._run_effects(item.effects, item.controller, item.source, item.target, item.x,
                              item.colour, spell=item if item.spell else None, name=item.name,
                              enchanted=item.enchanted)
            if item.spell:
                self._to_graveyard(item.id)
        self._state_checks()

    def _enter(self, cid: int, seat: int) -> Permanent:
        perm = Permanent(cid, self.cards[cid], self.owners[cid], seat)
        self.battlefield[cid] = perm
        return perm

    def _check_life(self) -> bool:
        """Players at 0 life or less lose; ``True`` if this turn goes on (the
        duel is not over and the active player is still in it)."""
        turn = self.turn
        for seat, player in enumerate(self.players):
            if player.life <= 0 and seat not in self.lost:
                self.lost.add(seat)
                self._say("lose", Phrase("duel.event.loses", who=Seat(seat), life=player.life))
        self._decide_outcome()
        return not self.finished and self.turn == turn

    def _decide_outcome(self) -> None:
        """Players who lost since the last look leave together; the last one
        standing wins (several leaving at once share their place)."""
        fresh = [s for s in sorted(self.lost) if s not in self.knocked]
        if not fresh or self.finished:
            return
        rank = max(self.knocked.values(), default=0) + 1
        for seat in fresh:
            self.knocked[seat] = rank
        alive = [s for s in range(self.seats) if s not in self.lost]
        if len(alive) > 1:
            self._eliminate(fresh)
            return
        last = max(self.knocked.values())

        def place(seat: int) -> int:
            rank = self.knocked.get(seat)
            if rank is None or (not alive and rank == last):
                return 1  # the winner, or the last ones out together
            return 1 + len(alive) + sum(1 for r in self.knocked.values() if r > rank)

        places = tuple(place(s) for s in range(self.seats))
        if not alive:
            reason = (Phrase("duel.outcome.draw") if self.seats == 2
                      else Phrase("duel.outcome.shared"))
        else:
            reason = Phrase("duel.outcome.last_standing", who=Seat(alive[0]))
        self.finished = Outcome(places=places, scores=tuple(p.life for p in self.players),
                                reason=reason)
        self._ante_settled()
        self.window = None
        self.casting = None
        self.combat = None

    def set_auto_pass(self, seat: int, on: bool) -> None:
        """Turn automatic passing on or off for ``seat`` from now on (a player may,
        mid-duel). A setting of the seat's, not a choice: every pass, made for the
        seat or by it, is in the log either way, so a replay never needs to know when
        it changed; the bot keeps the latest in the seat's setup (``auto_pass``)."""
        self.players[seat].auto_pass = on
        # This step's decisions say whether they are automatic: worked out afresh.
        self._decision_cache = None
        self._pending_cache = None

    def auto_passing(self, seat: int) -> bool:
        """Whether a window where ``seat`` can play nothing passes by itself."""
        return self.players[seat].auto_pass

    def ante_winner(self) -> int | None:
        """The seat that takes every card set aside for ante, once the duel is over:
        the sole winner (``None``: a draw or a shared first place; each goes back)."""
        winners = self.finished.winners if self.finished is not None else ()
        return winners[0] if len(winners) == 1 else None

    def _ante_settled(self) -> None:
        """Say who keeps the ante as the duel ends (nothing in a duel without ante)."""
        event = settled_event(self.ante, self.ante_winner())
        if event is not None:
            self._events.append(event)

    def _eliminate(self, seats: list[int]) -> None:
        """Free-for-all: losers leave with everything they control, and play goes on."""
        for seat in seats:
            self._say("out", Phrase("duel.event.out", who=Seat(seat)), seat=seat)
            for perm in [p for p in self.battlefield.values() if p.controller == seat]:
                self._leave(perm.id, "graveyard")
            for item in [i for i in self.stack if i.controller == seat]:
                self.stack.remove(item)
                if item.spell:
                    self._to_graveyard(item.id)
            if self.casting is not None and self.casting.seat == seat:
                self.casting = None
        combat = self.combat
        if combat is not None and (combat.defender in self.lost or self.active in self.lost):
            self.combat = None
            self.attacked = True
            self.window = Window("main", self.active)
        if self.active in self.lost:
            self.window = None
            self.discarding = 0
            for perm in self.battlefield.values():
                perm.heal()
            self.active = self.others(self.active)[0]
            self._begin_turn()
        elif self.window is not None and self.window.priority in self.lost:
            self.window.priority = self.others(self.window.priority)[0]

    def _outcome(self) -> Outcome | None:
        return self.finished

    def _resign(self, seat: int) -> list[Event]:
        self._events = []
        self.lost.add(seat)
        self._decide_outcome()
        # What the concession set off comes after it (the ante won, say).
        events, self._events = self._events, []
        return [Event("resign", Phrase("duel.event.concedes", who=Seat(seat)), data={"seat": seat}),
                *events]

    # -- what players see -----------------------------------------------------------------
    def observe(self, seat: int | None) -> DuelView:
        table = self.table
        names: dict[int, str] = {}
        players = []
        for index, player in enumerate(self.players):
            names.update({cid: self.cards[cid] for cid in (*player.graveyard,
                                                           *player.removed)})
            players.append({
                "life": player.life, "library": len(player.library),
                "hand": len(player.hand), "graveyard": tuple(self.cards[c]
                                                             for c in player.graveyard),
                "pool": dict(player.pool), "lost": index in self.lost,
            })
        battlefield = []
        for perm in self.battlefield.values():
            names[perm.id] = perm.name
            entry: dict[str, Any] = {
                "id": perm.id, "name": perm.name, "controller": perm.controller,
                "tapped": perm.tapped, "sick": perm.sick, "damage": perm.damage,
                "attached": perm.attached, "shields": perm.shields, "type": perm.card.type,
            }
            if perm.card.is_creature:
                entry.update(power=table.power(perm.id), toughness=table.toughness(perm.id),
                             keywords=table.keywords(perm.id))
            battlefield.append(entry)
        stack = []
        for item in self.stack:
            names[item.id] = item.name
            stack.append({"id": item.id, "name": item.name, "controller": item.controller,
                          "target": item.target, "x": item.x, "interrupt": item.interrupt})
        hand: tuple[str, ...] = ()
        if seat is not None:
            hand = tuple(self.cards[c] for c in self.players[seat].hand)
            names.update({c: self.cards[c] for c in self.players[seat].hand})
        pending = self.pending()
        return DuelView(seat, self.turn, self.active, self.phase,
                        pending[0].kind if pending else None,
                        pending[0].seat if pending else None, tuple(players),
                        tuple(battlefield), tuple(stack),
                        self.combat.view() if self.combat else None, hand, names, self.ante,
                        self.finished is not None, self.ante_winner())

    def private_part(self, seat: int) -> tuple[str, ...]:
        return tuple(self.cards[c] for c in self.players[seat].hand)

    def notation(self) -> str:
        return render(self)

    def copy(self) -> DuelState:
        new = self._shallow_copy()
        new.players = [p.copy() for p in self.players]
        new.battlefield = {pid: copy.copy(p) for pid, p in self.battlefield.items()}
        new.stack = list(self.stack)
        new.window = None if self.window is None else Window(
            self.window.kind, self.window.priority, self.window.passes)
        new.casting = None if self.casting is None else Casting(
            self.casting.seat, self.casting.card_id, self.casting.source,
            self.casting.ability, self.casting.x, self.casting.target, self.casting.named)
        new.combat = None if self.combat is None else self.combat.copy()
        new.lost = set(self.lost)
        new.seen_in_hand = set(self.seen_in_hand)
        new.knocked = dict(self.knocked)
        new._events = []
        new._decision_cache = None
        new._pending_cache = None
        return new
