"""The contract every game of the rules core follows.

A game is a :class:`GameInfo` (name, seat range, how to make a new state, its
computer player, its rules text) and a :class:`GameState` subclass. A state
answers four questions at any moment:

* :meth:`GameState.pending` — which seats must decide now, each with its legal
  options. Several seats pending at once is a *simultaneous* step: their
  choices are held inside the state, unseen, and resolved together when the
  last one arrives.
* :meth:`GameState.apply` — one seat's choice, validated, returning
  :class:`Event` values that narrate what happened (some only for some seats).
* :meth:`GameState.observe` — what one seat (or a spectator) may see.
* :meth:`GameState.outcome` — who won, when it is over.

The RNG lives in the state, so ``(game, options, seats, seed, choices)`` (and
each seat's setup, in games whose seats bring something) replays a match
exactly; :func:`replay` does it. The games themselves are listed in
:mod:`rules.registry`, outside this module.

Choices travel as short strings in the game's own notation ("C4", "C4*",
"pass", "sun"), which is what storage keeps and what tests write.
"""

from __future__ import annotations

import copy
import random
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Self

from rules.errors import BadOptions, GameOver, IllegalChoice, MalformedChoice, NotYourTurn, shown
from rules.options import GameOptions
from rules.phrases import Phrase, Seat, Words

RESIGN = "resign"
"""The choice word a seat uses to leave the game; see :meth:`GameState.resign`."""
MAX_CHOICE = 200
"""The longest choice notation any game reads (longer input is refused unread)."""


PickKind = Literal["one", "several", "split", "order"]
"""How a decision is answered: one option; several distinct options (between
``least`` and ``most``); a number (``total``) split among the options; or every
option put in order."""
LIST_SEP = ","
AMOUNT_SEP = "="
NOTHING = "none"
"""A ``several`` choice of nothing at all, where ``least`` allows it: an empty
choice cannot be typed or sent by a button."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One seat's pending decision.

    ``options`` lists every legal choice in notation, in a stable order (for a
    ``pick`` other than ``"one"``, the things picked, split among or ordered).
    A ``simultaneous`` decision is made secretly: the state holds the choice and
    reveals nothing until every seat pending in the step has chosen.

    Choices of the other shapes are written in one line of notation, which
    :meth:`canonical` checks and puts in its one canonical form:

    >>> several = Decision(0, "discard", "Discard 1–2 cards", ("a", "b", "c"), pick="several",
    ...                    least=1, most=2)
    >>> several.canonical("c, a")
    'a,c'
    >>> split = Decision(0, "damage", "Split 3 damage", ("x", "y"), pick="split", total=3)
    >>> split.canonical("y=1,x=2")
    'x=2,y=1'
    >>> Decision(0, "order", "Order the cards", ("p", "q"), pick="order").canonical("q,p")
    'q,p'
    >>> Decision(0, "block", "Blockers?", ("3>7",), pick="several", least=0).canonical("none")
    ''
    """

    seat: int
    kind: str
    prompt: Words
    """What the seat is asked (a :class:`~rules.phrases.Phrase`; plain text is no words)."""
    options: tuple[str, ...]
    simultaneous: bool = False
    automatic: bool = True
    """Whether a decision with one possible choice may be made at once by the
    platform. ``False`` where even an instant forced choice would tell others
    something (a secret choice of a person's seat)."""
    pick: PickKind = "one"
    least: int = 1
    """``several``: the fewest options to pick."""
    most: int = 1
    """``several``: the most options to pick."""
    total: int = 0
    """``split``: the number split among the options."""
    default: str | None = None
    """The choice made for the seat when its deadline passes (``None``: the
    computer player chooses)."""
    strike: bool = True
    """Whether running out of time on this decision counts as a strike."""

    def __post_init__(self) -> None:
        if self.pick == "one":
            return
        if any(LIST_SEP in o or AMOUNT_SEP in o for o in self.options):
            raise ValueError(f"options of a {self.pick!r} decision may not contain "
                             f"{LIST_SEP!r} or {AMOUNT_SEP!r}")
        if self.pick == "several" and not 0 <= self.least <= self.most:
            raise ValueError("a 'several' decision needs 0 <= least <= most")

    @property
    def only_choice(self) -> str | None:
        """The one possible choice, when there is exactly one (else ``None``).

        >>> Decision(0, "pass", "", ("pass",)).only_choice
        'pass'
        >>> Decision(0, "all", "", ("a", "b"), pick="several", least=2, most=2).only_choice
        'a,b'
        """
        options = self.options
        if self.pick == "one" or self.pick == "order":
            return options[0] if len(options) == 1 else None
        if self.pick == "several":
            return LIST_SEP.join(options) if self.least == len(options) == min(
                self.most, len(options)) else None
        return f"{options[0]}{AMOUNT_SEP}{self.total}" if len(options) == 1 else None

    @property
    def takes_nothing(self) -> bool:
        """Whether :data:`NOTHING` (``none``) is a choice here that menus and
        suggestions should offer: a ``several`` pick that may be empty.

        >>> Decision(0, "block", "", ("3>7",), pick="several", least=0).takes_nothing
        True
        >>> Decision(0, "discard", "", ("a",), pick="several", least=1).takes_nothing
        False
        """
        return self.pick == "several" and self.least == 0 and NOTHING not in self.options

    @property
    def forced(self) -> str | None:
        """The choice the platform makes itself, at once: the only choice of an
        ``automatic`` decision (else ``None``: someone must choose).

        >>> Decision(0, "pass", "", ("pass",)).forced
        'pass'
        >>> Decision(0, "cover", "", ("cannot",), automatic=False).forced is None
        True
        """
        return self.only_choice if self.automatic else None

    def canonical(self, choice: str) -> str:
        """``choice`` checked against this decision, in canonical notation;
        :class:`~rules.errors.MalformedChoice` or :class:`IllegalChoice` names
        what is wrong."""
        if self.pick == "one":
            return legal_or_raise(choice.strip(), self, self.kind)
        if self.pick == "split":
            return self._canonical_split(choice)
        picked = [part.strip() for part in choice.split(LIST_SEP)] if choice.strip() else []
        if picked == [NOTHING] and NOTHING not in self.options:
            picked = []  # "none" is how a person types an empty pick (no blockers, say)
        for part in picked:
            if part not in self.options:
                legal_or_raise(part, self, "pick")
        if len(set(picked)) != len(picked):
            raise IllegalChoice(Phrase("core.error.named_twice", choice=shown(choice)))
        if self.pick == "order":
            if len(picked) != len(self.options):
                raise IllegalChoice(Phrase("core.error.order_all", all=len(self.options),
                                           picked=len(picked),
                                           options=LIST_SEP.join(self.options)))
            return LIST_SEP.join(picked)
        if not self.least <= len(picked) <= self.most:
            if self.least == self.most:
                raise IllegalChoice(Phrase("core.error.pick_exactly", least=self.least,
                                           picked=len(picked)))
            raise IllegalChoice(Phrase("core.error.pick_between", least=self.least,
                                       most=self.most, picked=len(picked)))
        return LIST_SEP.join(o for o in self.options if o in picked)

    def _canonical_split(self, choice: str) -> str:
        amounts: dict[str, int] = {}
        for part in choice.split(LIST_SEP):
            target, sep, number = part.partition(AMOUNT_SEP)
            target, number = target.strip(), number.strip()
            if not sep or not number.isascii() or not number.isdigit():
                raise MalformedChoice(Phrase("core.error.not_amount", part=shown(part.strip()),
                                             sep=AMOUNT_SEP))
            number = number.lstrip("0") or "0"
            if len(number) > len(str(self.total)):  # more than the whole, however long
                raise IllegalChoice(Phrase("core.error.amount_too_big",
                                           part=shown(part.strip()), total=self.total))
            if target not in self.options:
                legal_or_raise(target, self, "target")
            if target in amounts:
                raise IllegalChoice(Phrase("core.error.target_twice", target=shown(target)))
            amounts[target] = int(number)
        if sum(amounts.values()) != self.total:
            raise IllegalChoice(Phrase("core.error.amounts_total", total=self.total,
                                       given=sum(amounts.values())))
        return LIST_SEP.join(f"{o}{AMOUNT_SEP}{amounts[o]}" for o in self.options
                             if amounts.get(o))

    @staticmethod
    def picks(choice: str) -> tuple[str, ...]:
        """The options of a canonical ``several`` or ``order`` choice, in order.

        >>> Decision.picks("a,c")
        ('a', 'c')
        """
        return tuple(choice.split(LIST_SEP)) if choice else ()

    @staticmethod
    def amounts(choice: str) -> dict[str, int]:
        """The amounts of a canonical ``split`` choice.

        >>> Decision.amounts("x=2,y=1")
        {'x': 2, 'y': 1}
        """
        pairs = (part.split(AMOUNT_SEP) for part in choice.split(LIST_SEP) if part)
        return {target: int(number) for target, number in pairs}


_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{s([0-9]{1,2})\}")


def fill_names(text: str, names: Sequence[str]) -> str:
    """``text`` with its seats (``{s0}``, ``{s1}`` …) named, in one pass, so that a
    name is never read as a place-holder; ``{{`` and ``}}`` are literal braces.
    Event texts and outcome reasons name seats so; a seat without a name (never
    the case at a table) is said by its number.

    >>> fill_names("{s1} forfeited", ["Ada", "{s0}"])
    '{s0} forfeited'
    """
    def fill(found: re.Match[str]) -> str:
        seat = found.group(1)
        if seat is None:
            return found.group(0)[0]
        index = int(seat)
        return names[index] if index < len(names) else f"seat {index + 1}"

    return _PLACEHOLDER.sub(fill, text)


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, for narration.

    ``text`` may name seats as ``{s0}``, ``{s1}`` …; :meth:`render` fills in
    names. Names are data, never templates: whatever a name holds (``{boss}``,
    ``{0}``, ``{s1}``) shows as it is. Other text that comes from people goes
    in through :meth:`escape`. ``seats`` is ``None`` for a public event, or the
    seats allowed to see it (a drawn card, say).

    >>> Event("place", "{s0} lays C4.").render(["Ada", "Bo"])
    'Ada lays C4.'
    >>> Event("place", "{s0} lays C4 after {s1}.").render(["{s1}", "{0}"])
    '{s1} lays C4 after {0}.'
    >>> Event("closed", Event.escape("{boss} cancelled the game.")).render([])
    '{boss} cancelled the game.'
    >>> Event("draw", "You draw the 7.", seats=frozenset({1})).visible_to(0)
    False
    """

    kind: str
    text: Words
    """What happened: a :class:`~rules.phrases.Phrase` (its seats as
    :class:`~rules.phrases.Seat`), made in each reader's language by ``bot.i18n.narrate``;
    or text naming seats as ``{s0}`` (filled by :meth:`render`)."""
    seats: frozenset[int] | None = None
    data: Mapping[str, Any] = field(default_factory=dict)

    @property
    def public(self) -> bool:
        """True when every seat and every spectator may see this event."""
        return self.seats is None

    def visible_to(self, seat: int | None) -> bool:
        """May ``seat`` (``None`` = a spectator in the channel) see this event?"""
        return self.seats is None or (seat is not None and seat in self.seats)

    def render(self, names: Sequence[str]) -> str:
        """The text with seat names filled in (see :func:`fill_names`); an event told in
        a :class:`~rules.phrases.Phrase` is made in words by ``bot.i18n.narrate``."""
        if not isinstance(self.text, str):
            raise TypeError(f"{self.kind}: a phrase is narrated by bot.i18n.narrate")
        return fill_names(self.text, names)

    @staticmethod
    def escape(text: str) -> str:
        """``text`` (a name, a note with a name in it) as literal event text."""
        return text.replace("{", "{{").replace("}", "}}")


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended.

    ``places[seat]`` is the seat's finishing place, 1 being best; equal places
    are ties. ``scores`` holds the game's own count where it has one. ``reason``
    names seats as event texts do (a :class:`~rules.phrases.Seat`), never by number:
    :meth:`said` fills in their names where it is shown, and storage keeps it so.

    >>> Outcome(places=(1, 2), scores=(40, 24), reason="more cards").winners
    (0,)
    >>> Outcome(places=(1, 1), scores=(32, 32), reason="equal counts").is_draw
    True
    """

    places: tuple[int, ...]
    scores: tuple[int, ...] | None
    reason: Words
    """Why it ended: a :class:`~rules.phrases.Phrase` (its seats as
    :class:`~rules.phrases.Seat`), made in a reader's language by ``bot``
    (``bot.matches.results.reason_said``); or text naming seats as ``{s0}``."""

    def said(self, names: Sequence[str]) -> Words:
        """The reason with the seats' names where it is text; a phrase as it is (its
        seats are named where its words are made: ``bot.i18n.say(…, names=names)``).

        >>> Outcome.last_standing(2, 0, "{s0} forfeited").said(["Ada", "Bo"])
        'Ada forfeited'
        """
        if not isinstance(self.reason, str):
            return self.reason
        return fill_names(self.reason, names)

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats in first place."""
        return tuple(seat for seat, place in enumerate(self.places) if place == 1)

    @property
    def is_draw(self) -> bool:
        """True when every seat shares first place."""
        return len(self.places) > 1 and all(place == 1 for place in self.places)

    @classmethod
    def from_scores(cls, scores: Sequence[int], reason: Words, *,
                    most_wins: bool = True) -> Outcome:
        """Places from scores, ties sharing a place (competition ranking).

        >>> Outcome.from_scores([3, 7, 7], "count").places
        (3, 1, 1)
        """
        key = [(-s if most_wins else s) for s in scores]
        places = tuple(1 + sum(1 for other in key if other < mine) for mine in key)
        return cls(places=places, scores=tuple(scores), reason=reason)

    @classmethod
    def forfeited(cls, seats: int, loser: int) -> Outcome:
        """A two-seat game that ``loser`` gave up.

        >>> str(Outcome.forfeited(2, 0).reason)
        'core.reason.forfeited(who=Seat(seat=0))'
        """
        return cls.last_standing(seats, loser, Phrase("core.reason.forfeited", who=Seat(loser)))

    @classmethod
    def last_standing(cls, seats: int, loser: int, reason: Words) -> Outcome:
        """A two-seat game lost by ``loser`` (forfeit, resignation).

        >>> Outcome.last_standing(2, 0, "forfeit").places
        (2, 1)
        """
        return cls(
            places=tuple(2 if seat == loser else 1 for seat in range(seats)),
            scores=None,
            reason=reason,
        )


class GameState(ABC):
    """A game in progress. Subclasses implement the game; this class keeps the
    parts every game shares: turn checks, held simultaneous choices, the step
    counter, resignation and copying.

    ``step`` counts resolved steps. A button or menu made for step *n* is stale
    once ``step`` has moved on, which is how the bot refuses old clicks.
    """

    game: ClassVar[str]

    def __init__(self, seats: int, seed: int) -> None:
        self.seats = seats
        self.seed = seed
        self._rng = random.Random(seed)
        self._rng_shared = False
        self.step = 0
        self._held: dict[int, str] = {}
        self._resigned: Outcome | None = None
        self._decision_cache: tuple[int, tuple[Decision, ...]] | None = None
        self._pending_cache: tuple[tuple[int, int], tuple[Decision, ...]] | None = None

    @property
    def rng(self) -> random.Random:
        """The game's random numbers: part of the state, so a copy draws what the
        original would have drawn.

        A copy shares its RNG with the state it came from until either of them
        draws: most steps draw nothing, and copying an RNG's state costs more
        than the rest of a copy.
        """
        if self._rng_shared:
            rng = type(self._rng).__new__(type(self._rng))
            rng.setstate(self._rng.getstate())
            self._rng, self._rng_shared = rng, False
        return self._rng

    @rng.setter
    def rng(self, rng: random.Random) -> None:
        self._rng, self._rng_shared = rng, False

    # -- what a game implements -------------------------------------------
    @abstractmethod
    def decisions(self) -> tuple[Decision, ...]:
        """Every decision of the current step, chosen or not (empty when over)."""

    def validate(self, seat: int, choice: str) -> str:
        """Check ``choice`` for ``seat`` now and return it in canonical form.

        Raises :class:`~rules.errors.MalformedChoice` or
        :class:`~rules.errors.IllegalChoice` with a message naming the input.
        By default the choice must be one of the pending decision's options
        (in the notation of its ``pick``); games with notation of their own
        (other spellings, cases) override this.
        """
        decision = self.decision_for(seat)
        if decision is None:
            raise NotYourTurn(Phrase("core.error.not_your_turn"))
        return decision.canonical(choice)

    @abstractmethod
    def _apply(self, seat: int, choice: str) -> list[Event]:
        """Apply a validated, canonical choice of a turn-based step."""

    def _resolve(self, held: Mapping[int, str]) -> list[Event]:
        """Resolve a simultaneous step once every seat's choice is in."""
        raise NotImplementedError(f"{type(self).__name__} has no simultaneous steps")

    @abstractmethod
    def _outcome(self) -> Outcome | None:
        """The outcome by the rules, or ``None`` while play goes on."""

    @abstractmethod
    def observe(self, seat: int | None) -> Any:
        """What ``seat`` may see (``None``: a spectator). Never another seat's secrets."""

    def private_part(self, seat: int) -> Hashable:
        """What ``seat`` holds in secret (its hand), as a value that changes when
        that does. The bot redraws a seat's direct message only when this, the
        seat's decision or whether it has chosen changes. Games with secrets
        override it with something cheaper than this, which observes the seat.
        """
        observation = self.observe(seat)
        return repr(getattr(observation, "hand", observation))

    @abstractmethod
    def notation(self) -> str:
        """The whole state as compact text (for tests and debugging, never for
        channels: it includes hidden information in games that have it)."""

    def _resign(self, seat: int) -> list[Event]:
        """A seat leaves. Default: in a two-seat game the other seat wins."""
        if self.seats != 2:
            raise NotImplementedError(f"{type(self).__name__} must say how a seat resigns")
        self._resigned = Outcome.forfeited(2, seat)
        return [Event("resign", Phrase("core.event.forfeits", who=Seat(seat)),
                      data={"seat": seat})]

    # -- what every game shares -------------------------------------------
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""
        return self._resigned or self._outcome()

    @property
    def over(self) -> bool:
        """True once the game has an outcome."""
        return self.outcome() is not None

    def pending(self) -> tuple[Decision, ...]:
        """The decisions still awaited: those of the step not yet chosen."""
        # Asked several times per choice (by the platform and the rules), and it
        # can change only when the step moves on or a secret choice is held.
        key = (self.step, len(self._held))
        cached = self._pending_cache
        if cached is not None and cached[0] == key:
            return cached[1]
        pending = () if self.over else tuple(
            d for d in self.decisions() if d.seat not in self._held)
        self._pending_cache = (key, pending)
        return pending

    def decision_for(self, seat: int) -> Decision | None:
        """``seat``'s pending decision, if it has one."""
        for decision in self.pending():
            if decision.seat == seat:
                return decision
        return None

    def has_chosen(self, seat: int) -> bool:
        """True when ``seat`` has made its secret choice of the current step."""
        return seat in self._held

    def canonical(self, seat: int, choice: str) -> str:
        """``seat``'s ``choice`` checked against the rules now, in canonical
        form; nothing changes. Raises what :meth:`apply` would."""
        if not isinstance(choice, str) or len(choice) > MAX_CHOICE:
            raise MalformedChoice(Phrase("core.error.too_long", choice=shown(choice),
                                         most=MAX_CHOICE))
        if self.over:
            raise GameOver(Phrase("core.error.game_over"))
        if not 0 <= seat < self.seats:
            raise NotYourTurn(Phrase("core.error.no_seat", seat=seat))
        if self.decision_for(seat) is None:
            if seat in self._held:
                raise NotYourTurn(Phrase("core.error.already_chosen"))
            raise NotYourTurn(Phrase("core.error.not_your_turn"))
        return self.validate(seat, choice)

    def apply(self, seat: int, choice: str, *, checked: bool = False) -> list[Event]:
        """Apply ``seat``'s choice and return what happened.

        The state is unchanged when this raises. A choice in a simultaneous
        step is held; the step resolves when the last pending seat chooses.

        ``checked`` says that ``choice`` is what :meth:`canonical` gave for this
        seat on this state (or an equal copy of it), or a decision's
        :attr:`~Decision.forced` choice: it is not checked again.

        >>> from rules.flank.state import FlankState
        >>> state = FlankState(first=0)
        >>> move = state.canonical(0, "f4")
        >>> [e.kind for e in state.copy().apply(0, move, checked=True)] == [
        ...     e.kind for e in state.apply(0, "f4")]
        True
        """
        if choice == RESIGN:
            return self.resign(seat)
        canonical = choice if checked else self.canonical(seat, choice)
        decision = self.decision_for(seat)
        if decision is None:
            raise NotYourTurn(Phrase("core.error.not_your_turn"))
        if not decision.simultaneous:
            events = self._apply(seat, canonical)
            self.step += 1
            return events
        self._held[seat] = canonical
        events = [Event("chosen", Phrase("core.event.chosen", who=Seat(seat)),
                        data={"seat": seat})]
        if any(d.seat not in self._held for d in self.decisions()):
            return events
        held, self._held = self._held, {}
        events += self._resolve(held)
        self.step += 1
        return events

    def resign(self, seat: int) -> list[Event]:
        """``seat`` leaves the game (forfeit, three strikes)."""
        if self.over:
            raise GameOver(Phrase("core.error.game_over"))
        if not 0 <= seat < self.seats:
            raise NotYourTurn(Phrase("core.error.no_seat", seat=seat))
        self._held.pop(seat, None)
        events = self._resign(seat)
        self.step += 1
        return events

    def _once_per_step(self, work: Callable[[], tuple[Decision, ...]]) -> tuple[Decision, ...]:
        """``work()``'s decisions, worked out once a step: every change of state moves
        ``step`` on, so a step's decisions never change (games with costly option
        lists call this from :meth:`decisions`)."""
        cached = self._decision_cache
        if cached is not None and cached[0] == self.step:
            return cached[1]
        decisions = work()
        self._decision_cache = (self.step, decisions)
        return decisions

    def copy(self) -> Self:
        """An independent copy (RNG included), for look-ahead and validate-then-commit.

        Games with a faster copy of their own should start from
        :meth:`_shallow_copy`, which already copes with every field kept here.
        """
        return copy.deepcopy(self)

    def _shallow_copy(self) -> Self:
        """A copy sharing every attribute but the mutable ones this base class
        keeps (RNG, held choices); the game then copies its own mutable parts."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        # Both hold the one RNG until either draws (see ``rng``); it is never
        # changed while shared.
        self._rng_shared = new._rng_shared = True
        new._held = dict(self._held)
        return new


BotPlayer = Callable[[GameState, int, random.Random], str]
"""A computer player: ``(state, seat, rng) -> choice``. Its ``rng`` is its own,
never the state's, so thinking does not change the game. It plays honestly: its
choice depends on what ``seat`` may see (its observation, the public log) and on
``rng``, never on the hidden parts of ``state`` (other hands, the order of a
library, the state's own RNG). :attr:`GameInfo.unseen` deals those again at
random; a test checks that doing so never changes a computer's choice."""

Level = Literal["easy", "normal", "hard"]
"""How strongly a computer player plays."""
LEVELS: tuple[Level, ...] = ("easy", "normal", "hard")
"""The computer levels every game has, weakest first; ``normal`` is the default."""
DEFAULT_LEVEL: Level = "normal"

Unseen = Callable[[GameState, int, random.Random], GameState]
"""``(state, seat, rng) -> state``: a copy of ``state`` in which everything
``seat`` may not see is dealt again at random, consistently with what it has
seen (other hands drawn from the cards it has not seen, libraries reshuffled,
the state's RNG reseeded from ``rng``). ``state`` itself is left alone."""


def thinking_rng(seed: int, step: int, seat: int) -> random.Random:
    """The computer player's own random numbers for ``seat`` at ``step`` of the
    match seeded ``seed``: the same on every run, so a match replays alike.

    >>> thinking_rng(7, 3, 1).random() == thinking_rng(7, 3, 1).random()
    True
    """
    return random.Random(f"{seed}:{step}:{seat}")


SeatSetup = Mapping[str, Any] | None
"""One seat's setup data (its deck, say), or ``None``."""
RulesText = Words | Sequence[Words] | Callable[[Any, int | None], Words | Sequence[Words]]
"""A game's rules in words: ``(options, seats) -> text``, or one fixed text (see
:attr:`GameInfo.rules_text`)."""


@dataclass(frozen=True)
class GameInfo:
    """What the platform needs to know about one game. Each game's package
    exposes one as ``GAME``; :mod:`rules.registry` lists the packages."""

    name: str
    title: str
    min_seats: int
    max_seats: int
    new_state: Callable[[Any, int, int, tuple[SeatSetup, ...]], GameState]
    """``(options, seats, seed, setup) -> state``, the options already parsed
    by :attr:`options` and ``setup`` one entry per seat; raises BadOptions."""
    options: type[GameOptions]
    """The game's options, declared once (see :mod:`rules.options`)."""
    bot: BotPlayer
    """The ``normal`` computer player (see :meth:`computer` for every level)."""
    rules_text: RulesText
    """The rules as players read them: ``(options, seats) -> text``, written from the
    options chosen and the table's size (``None``: any size the game takes), so that
    every number and variant they state is the game's own; or a fixed text, for a
    game whose rules no option changes (a test's small game). Ask :meth:`rules_for`."""
    default_seats: int = 2
    default_turn_seconds: int = 300
    has_secrets: bool = False
    text: Callable[[Any, Sequence[str]], Words] | None = None
    """``(observation, names) -> words``: a seat's view in words (the terminal), a
    phrase made in the reader's language by ``bot.i18n.say``."""
    option_text: Callable[[Any, Decision, str, Sequence[str]], Words] | None = None
    """``(observation, decision, option, names) -> words``: what an option means, for
    menus; without it the option's notation is shown."""
    option_group: Callable[[Decision, str], str | None] | None = None
    """``(decision, option) -> group``: for decisions with many options, the
    group an option belongs to (a placement's tile, say), so that menus can ask
    for the group first; ``None`` for an option that stands alone."""
    setup: Words | None = None
    """What each seat brings to a match (its deck, say), in words; ``None`` for
    games whose seats bring nothing."""
    decks: tuple[str, ...] = ()
    """The named decks a seat may bring as its setup (``{"deck": name}``), which
    ``/play`` and ``/join`` offer."""
    notation_help: Words | None = None
    """What a person types to choose, in one sentence with an example (the
    terminal's help); ``None``: the options themselves, as ``legal`` lists them."""
    perft: Callable[[GameOptions, int], int] | None = None
    """``(options, depth) -> leaves``: the number of move sequences of ``depth``
    moves from a new game (``croupier perft``), for games that count them."""
    levels: Mapping[str, BotPlayer] = field(default_factory=dict)
    """The computer players of the levels other than ``normal`` (``easy``,
    ``hard``), by level; ``normal`` is :attr:`bot`. Ask :meth:`computer`."""
    unseen: Unseen | None = None
    """How to deal again what one seat may not see (see :data:`Unseen`); ``None``
    for a game of perfect information whose state holds no random numbers still
    to be drawn."""
    catalogue: Callable[[str], list[str]] | None = None
    """``(search) -> entries``: every piece of the game whose name holds
    ``search`` (any case; ``""`` for all), each in words (``croupier cards``),
    for games with many different pieces."""

    def rules_for(self, options: Mapping[str, Any] | GameOptions | None = None,
                  seats: int | None = None) -> Words | Sequence[Words]:
        """The rules of a game played with ``options`` at a table of ``seats``
        (``None``: any size the game takes), as the game writes them: words, or
        paragraphs of words (``bot`` makes them in a reader's language);
        :class:`BadOptions` names bad ones.

        >>> from rules.registry import get_game
        >>> written = get_game("eclipse").rules_for({"hand_cap": 30}, 3)
        >>> isinstance(written, str | Phrase | list | tuple)
        True
        """
        parsed = self.options.parse(options)
        if seats is not None:
            self.check_seats(seats)
        written = self.rules_text
        return written(parsed, seats) if callable(written) else written

    def computer(self, level: str = DEFAULT_LEVEL) -> BotPlayer:
        """The computer player of ``level`` (one of :data:`LEVELS`);
        :class:`BadOptions` names an unknown level.

        >>> from rules.registry import get_game
        >>> get_game("flank").computer() is get_game("flank").bot
        True
        """
        if level == DEFAULT_LEVEL:
            return self.bot
        player = self.levels.get(level) if level in LEVELS else None
        if player is None:
            raise BadOptions(Phrase("core.error.level", levels=", ".join(LEVELS),
                                    level=shown(level)))
        return player

    def seat_range(self) -> str:
        """The seat counts the game takes, in English (the local table and the command
        line until they speak :meth:`seat_words`).

        >>> from rules.registry import get_game
        >>> get_game("eclipse").seat_range()
        '2–6 players'
        """
        if self.min_seats == self.max_seats:
            return f"{self.min_seats} players"
        return f"{self.min_seats}–{self.max_seats} players"

    def seat_words(self) -> Phrase:
        """The seat counts the game takes, as words (``2–6 players``).

        >>> from rules.registry import get_game
        >>> str(get_game("eclipse").seat_words())
        'core.seats.range(least=2, most=6)'
        """
        if self.min_seats == self.max_seats:
            return Phrase("core.seats.exactly", count=self.min_seats)
        return Phrase("core.seats.range", least=self.min_seats, most=self.max_seats)

    def check_seats(self, seats: int) -> int:
        """``seats`` if the game takes that many players; :class:`BadOptions` otherwise."""
        if isinstance(seats, bool) or not isinstance(seats, int) or not (
                self.min_seats <= seats <= self.max_seats):
            raise BadOptions(Phrase("core.error.seats", game=self.title,
                                    seats=self.seat_words(), given=shown(seats)))
        return seats

    def new(self, options: Mapping[str, Any] | GameOptions | None = None,
            seats: int | None = None, seed: int = 0,
            setup: Sequence[SeatSetup] | None = None) -> GameState:
        """A new game; checks the seat count, the options and the seats' setup."""
        seats = self.check_seats(self.default_seats if seats is None else seats)
        parsed = self.options.parse(options)
        setups = tuple(setup) if setup is not None else (None,) * seats
        if len(setups) != seats:
            raise BadOptions(Phrase("core.error.setups", setups=len(setups), seats=seats))
        if self.setup is None and any(s for s in setups):
            raise BadOptions(Phrase("core.error.no_setup", game=self.title))
        return self.new_state(parsed, seats, seed, setups)


def replay(info: GameInfo, options: Mapping[str, Any] | GameOptions, seats: int, seed: int,
           choices: Iterable[tuple[int, str]],
           setup: Sequence[SeatSetup] | None = None) -> GameState:
    """Rebuild a state from its log of ``(seat, choice)`` pairs."""
    state = info.new(options, seats, seed, setup)
    for seat, choice in choices:
        state.apply(seat, choice)
    return state


def legal_or_raise(choice: str, decision: Decision, what: str) -> str:
    """Return ``choice`` if it is one of the decision's options, else raise
    :class:`IllegalChoice` naming it and ``what`` was expected."""
    if choice in decision.options:
        return choice
    legal = ", ".join(decision.options[:12]) + (" …" if len(decision.options) > 12 else "")
    raise IllegalChoice(Phrase("core.error.not_legal", choice=shown(choice), what=what,
                               legal=legal))
