"""The state of a game of Flank and its rules.

The first player is drawn from the state's seeded RNG when the game starts;
they play black (X) and the other seat white (O). A turn lays one card so that
it outflanks, flips every outflanked run, and may put one of the player's
stoppers on the card just laid ("C4*"). A seat with no legal placement or no
cards passes; two passes in succession, or both supplies empty, end the game,
and the colour with more cards showing wins.

The ``stopper_zone`` option decides what a stoppered card does to the cells
around it: under ``none`` (the default) nothing, but no stopper may be placed
where it would leave the opponent, while they still hold cards, with no legal
placement; under ``orthogonal``/``ring`` no card may be laid on the 4/8 cells
around it, as the seed says, and any stopper may be placed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Self

from rules.cells import cell_name, parse_cell
from rules.core import Decision, Event, GameState, Outcome, SeatSetup
from rules.errors import GameOver, IllegalChoice, MalformedChoice, NotYourTurn, shown
from rules.flank.grid import (
    Grid,
    barred_cells,
    bits,
    board_grid,
    lay,
    legal_cells,
    outflanked,
    stranding_refused,
    strands,
    table_grid,
)
from rules.flank.options import FlankOptions
from rules.phrases import Phrase, Seat

MARKS = ("X", "O")
PASS = "pass"


def colour_word(colour: int) -> Phrase:
    """A colour as an adjective of a card ("a white card")."""
    return Phrase("flank.colour.black") if colour == 0 else Phrase("flank.colour.white")


def side_word(colour: int) -> Phrase:
    """A colour as the player who plays it ("would leave white with no move")."""
    return Phrase("flank.side.black") if colour == 0 else Phrase("flank.side.white")


def _not_a_move(choice: object) -> MalformedChoice:
    return MalformedChoice(Phrase("flank.error.not_a_move", choice=shown(choice)))

Cell = tuple[int, int]


@dataclass(frozen=True, slots=True)
class FlankView:
    """Everything anyone may see of a game of Flank (all of it is public).

    Fields per seat (``cards_left``, ``stoppers_left``, ``scores``) are indexed by
    seat; ``colours`` says which colour each seat plays.
    """

    board: int
    """The side of the N×N board, or 0 for the unbounded table."""
    cells: Mapping[Cell, tuple[int, bool]]
    """Each card on the table: ``(x, y) -> (colour showing, stoppered)``; colour 0 = black."""
    bounds: tuple[int, int, int, int]
    """``(x_min, y_min, x_max, y_max)`` inclusive: the part of the table to draw."""
    to_move: int | None
    """The seat to move, ``None`` once the game is over."""
    cards_left: tuple[int, int]
    stoppers_left: tuple[int, int]
    scores: tuple[int, int]
    last_move: Cell | None
    """The most recently laid card, kept through later passes."""
    last_stopper: bool
    """True when that card got a stopper."""
    flipped: frozenset[Cell]
    """The cards that the most recent placement flipped."""
    last_pass: int | None
    """The seat whose turn just ended in a pass, if the latest turn was a pass."""
    legal: frozenset[Cell]
    """Where the seat to move may lay a card."""
    outcome: Outcome | None
    stoppers: int = 5
    """The most stoppers a player starts with in this game, black's (0: stoppers are not
    used)."""
    step: int = 0
    colours: tuple[int, int] = (0, 1)
    """Each seat's colour (0 = black, X, who moved first; 1 = white, O)."""
    stopper_zone: str = "none"
    """The ``stopper_zone`` option: ``none``, ``orthogonal`` or ``ring``."""
    barred: frozenset[Cell] = frozenset()
    """Empty cells where no card may be laid because a stoppered card is beside them
    (only under ``orthogonal`` or ``ring``)."""

    @property
    def first(self) -> int:
        """The seat that moved first and plays black."""
        return self.colours.index(0)


def _opening(options: FlankOptions) -> tuple[Grid, int, int]:
    """The grid and the two colours' opening cards: X O over O X in the centre."""
    if options.bounded:
        grid = board_grid(options.board)
        c = options.board // 2 - 1
    else:
        grid = table_grid(3, 3, 4, 4)
        c = 3
    black = (1 << grid.index(c, c)) | (1 << grid.index(c + 1, c + 1))
    white = (1 << grid.index(c + 1, c)) | (1 << grid.index(c, c + 1))
    return grid, black, white


class FlankState(GameState):
    """A game of Flank in progress (or over).

    Per-seat lists (``discs``, ``supply``, ``stoppers``) are indexed by seat;
    :meth:`colour` gives a seat's colour.
    """

    game = "flank"

    def __init__(self, options: FlankOptions | Mapping[str, Any] | None = None,
                 seats: int = 2, seed: int = 0, *, first: int | None = None) -> None:
        """A new game. ``first`` is the seat that moves first and plays black; left
        out, it is drawn from the state's seeded RNG (as for every match)."""
        super().__init__(seats, seed)
        options = FlankOptions.parse(options)
        self.options = options
        if first is None:
            first = self.rng.randrange(2)
        elif first not in (0, 1):
            raise ValueError(f"first must be seat 0 or 1, not {first!r}")
        self.first = first
        """The seat that moves first and plays black (X)."""
        self.grid, black, white = _opening(options)
        self.discs = [black, white] if first == 0 else [white, black]
        """Each seat's cards showing, stoppered ones included, as bits of ``grid``."""
        self.stops = 0
        """The stoppered cards."""
        self.to_move = first
        self.supply = [options.card_count - 2, options.card_count - 2]
        """Cards left to lay, per seat."""
        self.stoppers = [options.stoppers, options.stoppers]
        """Stoppers left, per seat."""
        self.stoppers[first] = options.black_stoppers
        self.passes = 0
        """Passes in succession just before now."""
        self.last: tuple[Cell, bool, tuple[Cell, ...]] | None = None
        """The latest placement: cell, stopper, flipped cells."""
        self.last_pass: int | None = None
        self._legal: int | None = None
        self._decisions: tuple[Decision, ...] | None = None

    @classmethod
    def new(cls, options: FlankOptions | Mapping[str, Any] | None = None, seats: int = 2,
            seed: int = 0, setup: Sequence[SeatSetup] = ()) -> FlankState:
        """A new game (what :class:`~rules.core.GameInfo` calls; seats bring nothing)."""
        return cls(FlankOptions.parse(options), seats, seed)

    # -- the rules ----------------------------------------------------------
    def colour(self, seat: int) -> int:
        """The colour ``seat`` plays: 0 black (X, the first player), 1 white (O)."""
        return seat ^ self.first

    def barred_mask(self) -> int:
        """The cells (bits of :attr:`grid`) where the stopper zone forbids a card."""
        return barred_cells(self.grid, self.stops, self.options.stopper_zone)

    def legal_mask(self) -> int:
        """The cells (bits of :attr:`grid`) where the seat to move may lay a card."""
        if self._legal is None:
            seat = self.to_move
            self._legal = (
                legal_cells(self.grid, self.discs[seat], self.discs[1 - seat], self.stops,
                            self.barred_mask())
                if self.supply[seat] > 0 else 0
            )
        return self._legal

    def stopper_strands(self, seat: int, cell: int) -> bool:
        """Whether ``seat`` may not put a stopper on a card laid on bit ``cell`` (a
        legal placement) because the opponent, holding cards, would be left with no
        legal placement. Only ``stopper_zone=none`` has this rule."""
        if not stranding_refused(self.options.stopper_zone, self.supply[1 - seat]):
            return False
        after = lay(self.grid, cell, self.discs[seat], self.discs[1 - seat], self.stops, False)
        return strands(after)

    def _finished(self) -> str | None:
        """Why the game is over (``passed``, ``empty``), or ``None`` while it goes on."""
        if self.passes >= 2:
            return "passed"
        if self.supply[0] == 0 and self.supply[1] == 0:
            return "empty"
        return None

    def scores(self) -> tuple[int, int]:
        """Cards showing each colour."""
        return self.discs[0].bit_count(), self.discs[1].bit_count()

    def _outcome(self) -> Outcome | None:
        if self._finished() is None:
            return None
        scores = self.scores()
        return Outcome.from_scores(scores, Phrase(
            "flank.outcome.reason", why=self._why(), seat0=scores[0], seat1=scores[1]))

    def _why(self) -> Phrase:
        """Why the game is over, in words (asked once it is)."""
        return Phrase("flank.end.passed") if self._finished() == "passed" \
            else Phrase("flank.end.empty")

    def decisions(self) -> tuple[Decision, ...]:
        if self.outcome() is not None:
            return ()
        if self._decisions is None:
            seat = self.to_move
            legal = self.legal_mask()
            if not legal:
                prompt = Phrase("flank.prompt.pass_no_cards") if self.supply[seat] == 0 \
                    else Phrase("flank.prompt.pass_no_move")
                self._decisions = (Decision(seat, "place", prompt, (PASS,)),)
            else:
                name = self.grid.name
                left = self.stoppers[seat]
                options = tuple(
                    choice for i in bits(legal)
                    for choice in ((name(i),) if not left or self.stopper_strands(seat, i)
                                   else (name(i), name(i) + "*"))
                )
                if any(option.endswith("*") for option in options):
                    prompt = Phrase("flank.prompt.lay_or_stopper", count=left,
                                    example=options[0])
                else:
                    prompt = Phrase("flank.prompt.lay", example=options[0])
                self._decisions = (Decision(seat, "place", prompt, options),)
        return self._decisions

    def validate(self, seat: int, choice: str) -> str:
        if not isinstance(choice, str):
            raise _not_a_move(choice)
        if self.over:
            raise GameOver(Phrase("flank.error.over"))
        if seat != self.to_move:
            raise NotYourTurn(Phrase("flank.error.not_your_turn"))
        text = "".join(choice.split()).upper()
        legal = self.legal_mask()
        if text == "PASS":
            if legal:
                example = self.grid.name(next(bits(legal)))
                raise IllegalChoice(Phrase("flank.error.cannot_pass", example=example))
            return PASS
        stopper = text.endswith("*")
        cell_text = text[:-1] if stopper else text
        if not cell_text:
            raise _not_a_move(choice)
        try:
            x, y = parse_cell(cell_text)
        except MalformedChoice:
            raise MalformedChoice(Phrase("flank.error.not_a_cell", choice=shown(choice))) \
                from None
        n = self.options.board
        if n and not (0 <= x < n and 0 <= y < n):
            raise MalformedChoice(Phrase("flank.error.off_board", cell=cell_text, n=n,
                                         last=cell_name(n - 1, 0)[:-1]))
        name = cell_name(x, y)
        self._check_placement(seat, x, y, name, legal)
        if stopper:
            if self.options.black_stoppers == 0:
                raise IllegalChoice(Phrase("flank.error.no_stoppers_game", cell=name))
            if self.colour(seat) == 1 and self.options.stoppers == 0:
                raise IllegalChoice(Phrase("flank.error.no_stoppers_white", cell=name))
            if self.stoppers[seat] == 0:
                raise IllegalChoice(Phrase("flank.error.no_stoppers_left", cell=name))
            decision = self.decision_for(seat)
            # Offered without a stopper but not with one: it would strand the opponent.
            if decision is not None and name + "*" not in decision.options:
                raise IllegalChoice(Phrase("flank.error.stopper_strands", cell=name,
                                           other=side_word(self.colour(1 - seat))))
            return name + "*"
        return name

    def _check_placement(self, seat: int, x: int, y: int, name: str, legal: int) -> None:
        """Raise :class:`IllegalChoice` saying why a card may not go on ``name``."""
        if self.supply[seat] == 0:
            raise IllegalChoice(Phrase("flank.error.no_cards_left", cell=name))
        grid = self.grid
        i = grid.index(x, y)
        if i >= 0 and (legal >> i) & 1:
            return
        theirs = self.discs[1 - seat]
        other = colour_word(self.colour(1 - seat))
        if i >= 0:
            mine = self.discs[seat]
            if ((mine | theirs) >> i) & 1:
                taken = colour_word(self.colour(seat if (mine >> i) & 1 else 1 - seat))
                raise IllegalChoice(Phrase("flank.error.taken", cell=name, colour=taken))
            if (self.barred_mask() >> i) & 1:
                raise IllegalChoice(self._barred_reason(i, name))
            if outflanked(grid, i, mine, theirs, 0):
                raise IllegalChoice(Phrase("flank.error.blocked", cell=name, colour=other))
        raise IllegalChoice(Phrase("flank.error.no_outflank", cell=name, colour=other))

    def _barred_reason(self, i: int, name: str) -> Phrase:
        """Why the stopper zone bars bit ``i`` (called ``name``), naming the stopper."""
        zone = self.options.stopper_zone
        # The zone is symmetric: the stoppers barring a cell are in that cell's zone.
        near = self.grid.name(next(bits(barred_cells(self.grid, 1 << i, zone) & self.stops)))
        if zone == "ring":
            return Phrase("flank.error.barred_ring", cell=name, stopper=near)
        return Phrase("flank.error.barred_orthogonal", cell=name, stopper=near)

    def _apply(self, seat: int, choice: str) -> list[Event]:
        self._legal = None
        self._decisions = None
        if choice == PASS:
            out = self.supply[seat] == 0
            why = "no cards left" if out else "no legal placement"
            self.passes += 1
            self.last_pass = seat
            self.to_move = 1 - seat
            text = Phrase("flank.event.pass_no_cards", who=Seat(seat)) if out \
                else Phrase("flank.event.pass_no_move", who=Seat(seat))
            events = [Event("pass", text, data={"seat": seat, "reason": why})]
        else:
            events = [self._place(seat, choice)]
        outcome = self._outcome()
        if outcome is not None:
            events.append(self._end_event(outcome))
        return events

    def _place(self, seat: int, choice: str) -> Event:
        stopper = choice.endswith("*")
        name = choice[:-1] if stopper else choice
        x, y = parse_cell(name)
        grid = self.grid
        after = lay(grid, grid.index(x, y), self.discs[seat], self.discs[1 - seat], self.stops,
                    stopper)
        flipped = tuple(grid.xy(j) for j in bits(after.flips))
        flipped_names = [grid.name(j) for j in bits(after.flips)]
        self.grid = after.grid
        self.discs[seat], self.discs[1 - seat] = after.mine, after.theirs
        self.stops = after.stops
        self.supply[seat] -= 1
        if stopper:
            self.stoppers[seat] -= 1
        self.passes = 0
        self.last = ((x, y), stopper, flipped)
        self.last_pass = None
        self.to_move = 1 - seat
        n, cells = len(flipped_names), ", ".join(flipped_names)
        text = Phrase("flank.event.lays_stopper", count=n, who=Seat(seat), cell=name,
                      cells=cells) if stopper \
            else Phrase("flank.event.lays", count=n, who=Seat(seat), cell=name, cells=cells)
        return Event("place", text, data={
            "seat": seat, "cell": name, "flipped": flipped_names, "stopper": stopper,
        })

    def _end_event(self, outcome: Outcome) -> Event:
        scores = outcome.scores or (0, 0)
        black, white = self.first, 1 - self.first
        sides = {"why": self._why(), "black": Seat(black), "black_score": scores[black],
                 "white": Seat(white), "white_score": scores[white]}
        text = Phrase("flank.event.end_draw", **sides) if outcome.is_draw \
            else Phrase("flank.event.end_win", winner=Seat(outcome.winners[0]), **sides)
        return Event("end", text,
                     data={"scores": list(scores), "winners": list(outcome.winners)})

    # -- views ----------------------------------------------------------------
    def cells(self) -> dict[Cell, tuple[int, bool]]:
        """Every card on the table: ``(x, y) -> (colour, stoppered)``."""
        grid, stops = self.grid, self.stops
        out: dict[Cell, tuple[int, bool]] = {}
        for seat in (0, 1):
            colour = self.colour(seat)
            for i in bits(self.discs[seat]):
                out[grid.xy(i)] = (colour, bool((stops >> i) & 1))
        return out

    def extent(self) -> tuple[int, int, int, int]:
        """``(x_min, y_min, x_max, y_max)`` of the cards on the table."""
        grid = self.grid
        occupied = self.discs[0] | self.discs[1]
        row = (1 << grid.w) - 1
        xs: list[int] = []
        ys: list[int] = []
        for r in range(grid.h):
            line = (occupied >> (r * grid.stride)) & row
            if line:
                ys.append(grid.y0 + r)
                xs.append(grid.x0 + (line & -line).bit_length() - 1)
                xs.append(grid.x0 + line.bit_length() - 1)
        return min(xs), min(ys), max(xs), max(ys)

    def observe(self, seat: int | None) -> FlankView:
        outcome = self.outcome()
        n = self.options.board
        if n:
            bounds = (0, 0, n - 1, n - 1)
        else:
            x0, y0, x1, y1 = self.extent()
            bounds = (x0 - 1, y0 - 1, x1 + 1, y1 + 1)
        grid = self.grid
        legal = frozenset(grid.xy(i) for i in bits(self.legal_mask())) if outcome is None \
            else frozenset()
        barred = self.barred_mask() & ~(self.discs[0] | self.discs[1])
        last_cell, last_stopper, flipped = self.last or (None, False, ())
        return FlankView(
            board=n,
            cells=MappingProxyType(self.cells()),
            bounds=bounds,
            to_move=None if outcome is not None else self.to_move,
            cards_left=(self.supply[0], self.supply[1]),
            stoppers_left=(self.stoppers[0], self.stoppers[1]),
            scores=self.scores(),
            last_move=last_cell,
            last_stopper=last_stopper,
            flipped=frozenset(flipped),
            last_pass=self.last_pass,
            legal=legal,
            outcome=outcome,
            stoppers=self.options.black_stoppers,
            step=self.step,
            colours=(self.colour(0), self.colour(1)),
            stopper_zone=self.options.stopper_zone,
            barred=frozenset(grid.xy(i) for i in bits(barred)),
        )

    # -- notation ---------------------------------------------------------------
    def notation(self) -> str:
        """The whole state on one line; :meth:`from_notation` reads it back.

        Cards, the mover and the per-player counts are written by colour (X, then
        O); ``first`` is the seat that plays X.

        >>> FlankState({"board": 4}, first=0).notation()  # doctest: +NORMALIZE_WHITESPACE
        'board=4 stoppers=5 cards=8 stopper_zone=none extra_stoppers=0 first=0 at=A1
         rows=..../.XO./.OX./.... move=X left=6,6 stop=5,5 passes=0 step=0'
        >>> FlankState({"stopper_zone": "ring"}, first=1).notation()
        ... # doctest: +NORMALIZE_WHITESPACE
        'board=0 stoppers=5 cards=25 stopper_zone=ring extra_stoppers=1 first=1 at=D4
         rows=XO/OX move=X left=23,23 stop=6,5 passes=0 step=0'
        """
        o = self.options
        n = o.board
        x0, y0, x1, y1 = (0, 0, n - 1, n - 1) if n else self.extent()
        first = self.first
        grid, stops = self.grid, self.stops
        black, white = self.discs[first], self.discs[1 - first]
        rows = []
        for y in range(y0, y1 + 1):
            line = []
            for x in range(x0, x1 + 1):
                i = grid.index(x, y)
                if i < 0 or not ((black | white) >> i) & 1:
                    line.append(".")
                else:
                    mark = "X" if (black >> i) & 1 else "O"
                    line.append(mark.lower() if (stops >> i) & 1 else mark)
            rows.append("".join(line))
        parts = [
            f"board={n}", f"stoppers={o.stoppers}", f"cards={o.cards}",
            f"stopper_zone={o.stopper_zone}", f"extra_stoppers={o.extra_stoppers}",
            f"first={first}",
            f"at={cell_name(x0, y0)}", f"rows={'/'.join(rows)}",
            f"move={MARKS[self.colour(self.to_move)]}",
            f"left={self.supply[first]},{self.supply[1 - first]}",
            f"stop={self.stoppers[first]},{self.stoppers[1 - first]}",
            f"passes={self.passes}", f"step={self.step}",
        ]
        if self.last is not None:
            (lx, ly), star, flipped = self.last
            parts.append(f"last={cell_name(lx, ly)}{'*' if star else ''}:"
                         + ",".join(cell_name(fx, fy) for fx, fy in flipped))
        if self.last_pass is not None:
            parts.append(f"passed={MARKS[self.colour(self.last_pass)]}")
        if self._resigned is not None:
            parts.append(f"resigned={self._resigned.places.index(2)}")
        return " ".join(parts)

    @classmethod
    def from_notation(cls, text: str, seed: int = 0) -> FlankState:
        """Rebuild a state from :meth:`notation` text.

        Missing fields take their defaults, so tests can write positions short:
        ``board``/``stoppers``/``cards``/``stopper_zone`` as in the options,
        ``first`` (the seat playing X, default 0), ``at`` (the cell of the first
        row's first character, default A1), ``rows`` ('/' between rows; X/O
        cards, x/o stoppered cards, '.' empty), ``move`` (X or O, default X),
        ``left`` and ``stop`` (X's count, then O's), ``passes``, ``step``. Nothing
        is drawn from the RNG: who moves is always what the text says.

        >>> s = FlankState.from_notation("board=4 rows=XOO./..../..../.... stoppers=0")
        >>> s.decisions()[0].options, s.first, s.to_move
        (('D1',), 0, 0)
        >>> FlankState.from_notation(s.notation()).notation() == s.notation()
        True
        >>> t = FlankState.from_notation("board=4 rows=XOO. stoppers=0 first=1 move=O")
        >>> t.to_move, t.decisions()[0].seat
        (0, 0)
        """
        fields: dict[str, str] = {}
        for token in text.split():
            key, sep, value = token.partition("=")
            if not sep:
                raise ValueError(f"bad Flank notation token {token!r} (want key=value)")
            fields[key] = value
        options = FlankOptions.parse(
            {k: fields[k] for k in ("board", "stoppers", "cards", "stopper_zone", "extra_stoppers")
             if k in fields}
        )
        first = fields.get("first", "0")
        if first not in ("0", "1"):
            raise ValueError(f"bad Flank notation: first={first} (want 0 or 1)")
        state = cls(options, 2, seed, first=int(first))
        rows = fields.get("rows", "").split("/") if fields.get("rows") else []
        x0, y0 = parse_cell(fields.get("at", "A1"))
        cards: dict[Cell, str] = {}
        for dy, row in enumerate(rows):
            for dx, mark in enumerate(row):
                if mark in "XOxo":
                    cards[(x0 + dx, y0 + dy)] = mark
                elif mark != ".":
                    raise ValueError(f"bad Flank notation mark {mark!r} in rows")
        if "rows" in fields:
            state._set_cards(cards)
        if "move" in fields:
            if fields["move"].upper() not in MARKS:
                raise ValueError(f"bad Flank notation: move={fields['move']} (want X or O)")
            state.to_move = state.colour(MARKS.index(fields["move"].upper()))
        for key, attribute in (("left", "supply"), ("stop", "stoppers")):
            if key in fields:
                counts = [int(v) for v in fields[key].split(",")]
                if len(counts) != 2:
                    raise ValueError(f"bad Flank notation: {key}={fields[key]} (want X,O)")
                setattr(state, attribute, [counts[state.colour(seat)] for seat in (0, 1)])
        state.passes = int(fields.get("passes", 0))
        state.step = int(fields.get("step", 0))
        if fields.get("last"):
            cell, _, flipped = fields["last"].partition(":")
            star = cell.endswith("*")
            state.last = (
                parse_cell(cell.rstrip("*")), star,
                tuple(parse_cell(c) for c in flipped.split(",") if c),
            )
        if "passed" in fields:
            state.last_pass = state.colour(MARKS.index(fields["passed"].upper()))
        if "resigned" in fields:
            loser = int(fields["resigned"])
            state._resigned = Outcome.forfeited(2, loser)
        return state

    def _set_cards(self, cards: Mapping[Cell, str]) -> None:
        n = self.options.board
        if n:
            grid = board_grid(n)
            outside = [c for c in cards if grid.index(*c) < 0]
            if outside:
                raise ValueError(f"{cell_name(*outside[0])} is off the {n}×{n} board")
        else:
            if not cards:
                raise ValueError("bad Flank notation: the unbounded table needs a card on it")
            xs = [x for x, _ in cards]
            ys = [y for _, y in cards]
            grid = table_grid(min(xs), min(ys), max(xs), max(ys))
        discs = [0, 0]
        stops = 0
        for cell, mark in cards.items():
            bit = 1 << grid.index(*cell)
            discs[self.first if mark in "Xx" else 1 - self.first] |= bit
            if mark.islower():
                stops |= bit
        self.grid, self.discs, self.stops = grid, discs, stops
        self._legal = None
        self._decisions = None

    # -- copying and comparing ----------------------------------------------------
    def copy(self) -> Self:
        """An independent copy; cheap because grids and tuples are shared, not copied."""
        new = self._shallow_copy()
        new.discs = self.discs[:]
        new.supply = self.supply[:]
        new.stoppers = self.stoppers[:]
        return new

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FlankState):
            return NotImplemented
        return self.notation() == other.notation()

    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value
