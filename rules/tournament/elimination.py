"""Single and double elimination brackets (``../shared/specs/tournaments.md``).

A bracket is fixed by the seeds: :func:`bracket_order` places them (1 v N, 1 and 2 on
opposite halves), byes go to the top seeds when the field is not a power of two, and
every result moves its winner (and, in double elimination, its loser) to a known slot.
So a format here replays the results from the start every time it is asked, and answers
the next round, the standings and the bracket's picture (:class:`Bracket`) from that
one replay; nothing is stored between calls.

The decisions the spec leaves open are in ``docs/rules/tournaments.md`` ("Elimination"):

- A round is every match whose two slots are known once the previous round is complete.
  In single elimination that is one bracket column; in double elimination round r plays
  winners' round r and losers' round r - 1 together, then the grand final (and the reset).
- A slot nobody can fill (a seed beyond the field, a dropped player, a match nobody won)
  is a **bye**. A match with one player is a one-seat pairing the bot records as a bye
  like any other result; a match with nobody is void and takes no round.
- A drawn result advances the higher seed; "both lose" puts both players out.
- A dropped player forfeits the next match they would play (their opponent has a bye)
  and is never paired again, in either bracket.
- ``next_round`` answers the first round with no result yet, so asking twice (or after a
  restart) gives the same pairings; asked while a round has some results but not all, it
  raises :class:`BracketError`, as it does for a result that fits no match of its round.

>>> people = [Entrant(id=10 + seed, seed=seed) for seed in range(1, 7)]
>>> single = SingleEliminationFormat()
>>> plan = single.next_round(people, [], seed=0)
>>> plan.pairings
((11,), (14, 15), (12,), (13, 16))
>>> plan.labels[0]
Phrase(tournaments.label.quarter_final(index=1))
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Literal

from rules.errors import RulesError
from rules.phrases import Phrase, Words
from rules.tournament.model import DRAW, WIN, Entrant, FormatName, Result, RoundPlan, Standing

BYE: Literal["bye"] = "bye"
"""A slot nobody will fill: a seed beyond the field, a dropped player, nobody advancing."""

Slot = int | Literal["bye"] | None
"""Who sits in one side of a match: an entrant id, :data:`BYE`, or ``None`` (to be
decided by a match not yet played)."""

Section = Literal["main", "third_place", "winners", "losers", "grand_final"]
"""Where a match is drawn: ``main`` is single elimination's one bracket."""

Status = Literal["waiting", "ready", "done", "void"]
"""``waiting``: a slot is still to be decided; ``ready``: both known, to be played in
its round; ``done``: decided (its winner may be nobody); ``void``: never played (nobody
in it, or a bracket reset that was not needed)."""


class BracketError(RulesError):
    """A result that fits no match, or a round asked for before the last one finished."""


def bracket_size(players: int) -> int:
    """The smallest power of two that holds ``players`` (at least 2).

    >>> [bracket_size(n) for n in (1, 2, 3, 8, 9, 500)]
    [2, 2, 4, 8, 16, 512]
    """
    size = 2
    while size < players:
        size *= 2
    return size


def bracket_order(size: int) -> tuple[int, ...]:
    """The seeds from the top of a bracket of ``size`` to its bottom, two by two the
    first round's matches: seed s meets ``size + 1 - s``, and the top seeds are as far
    apart as they can be (1 and 2 can only meet in the final, 1–4 not before the
    semi-finals). Seeds beyond the field are byes, so the byes go to the top seeds.

    >>> bracket_order(8)
    (1, 8, 4, 5, 2, 7, 3, 6)
    >>> bracket_order(4)
    (1, 4, 2, 3)
    """
    if size < 1 or size & (size - 1):
        raise ValueError(f"a bracket holds a power of two, not {size}")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seat for seed in order for seat in (seed, total - seed)]
    return tuple(order)


@dataclass(frozen=True)
class BracketMatch:
    """One match of a bracket, as a picture draws it.

    ``column`` counts from 1 left to right within its ``section`` and ``index`` from 1
    top to bottom within its column. ``round`` is the tournament round it is (or was)
    played in, ``None`` until it is paired. ``winner_to``/``loser_to`` name the match and
    slot (0 top, 1 bottom) the winner/loser moves to; ``None`` means out of the event
    (or the title). A grand final's loser goes nowhere here: a reset, when needed, is
    match ``GF2`` with the same two players.
    """

    id: str
    section: Section
    column: int
    index: int
    label: Words
    slots: tuple[Slot, Slot]
    status: Status
    round: int | None = None
    winner: int | None = None
    loser: int | None = None
    winner_to: tuple[str, int] | None = None
    loser_to: tuple[str, int] | None = None
    result: Result | None = None
    note: Words = ""
    """Why the match went as it did where a result alone does not say (a bye, a draw the
    higher seed won, both losing, a walkover), as words; ``""`` when nothing needs
    saying."""


@dataclass(frozen=True)
class Bracket:
    """The whole bracket for a picture: every match, played or to be played.

    ``size`` is the power of two the seeds fill (byes make up the rest). Matches are in
    drawing order: section by section, column by column, top to bottom.
    """

    kind: Literal["single", "double"]
    size: int
    matches: tuple[BracketMatch, ...]
    champion: int | None = None

    def match(self, match_id: str) -> BracketMatch:
        """The match called ``match_id`` (``"R1-3"``, ``"W2-1"``, ``"L4-2"``, ``"GF"``)."""
        for match in self.matches:
            if match.id == match_id:
                return match
        raise KeyError(match_id)

    def section(self, name: Section) -> list[list[BracketMatch]]:
        """The matches of one section, column by column."""
        columns: dict[int, list[BracketMatch]] = defaultdict(list)
        for match in self.matches:
            if match.section == name:
                columns[match.column].append(match)
        return [columns[column] for column in sorted(columns)]


# -- The shape of a bracket -------------------------------------------------------------

@dataclass
class _Node:
    """A match of the bracket before anyone plays it."""

    id: str
    section: Section
    column: int
    index: int
    label: Words
    winner_to: tuple[str, int] | None = None
    loser_to: tuple[str, int] | None = None
    champion: bool = False
    """Its winner takes the title (the final; a grand final unless it is reset)."""
    loser_stage: int = 0
    """Orders those out in the same round: the final's loser (2) above the rest (0)."""
    winner_stage: int | None = None
    """A winner with nowhere to go who is not champion (third place) finishes with this."""


def _round_name(matches: int, index: int) -> Phrase:
    """Single elimination's names, by how many matches a column has."""
    if matches == 1:
        return Phrase("tournaments.label.final")
    if matches == 2:
        return Phrase("tournaments.label.semi_final", index=index)
    if matches == 4:
        return Phrase("tournaments.label.quarter_final", index=index)
    return Phrase("tournaments.label.round_of", size=2 * matches, index=index)


def _winners_name(matches: int, column: int, index: int) -> Phrase:
    if matches == 1:
        return Phrase("tournaments.label.winners_final")
    if matches == 2:
        return Phrase("tournaments.label.winners_semi_final", index=index)
    if matches == 4:
        return Phrase("tournaments.label.winners_quarter_final", index=index)
    return Phrase("tournaments.label.winners_round", column=column, index=index)


def _losers_name(matches: int, column: int, last: int, index: int) -> Phrase:
    if column == last:
        return Phrase("tournaments.label.losers_final")
    if column == last - 1:
        return Phrase("tournaments.label.losers_semi_final")
    if matches > 1:
        return Phrase("tournaments.label.losers_round_match", column=column, index=index)
    return Phrase("tournaments.label.losers_round", column=column)


def _single_nodes(size: int, third_place: bool) -> list[_Node]:
    columns = size.bit_length() - 1
    nodes: list[_Node] = []
    for column in range(1, columns + 1):
        matches = size >> column
        for index in range(1, matches + 1):
            node = _Node(f"R{column}-{index}", "main", column, index,
                         _round_name(matches, index))
            if column < columns:
                node.winner_to = (f"R{column + 1}-{(index + 1) // 2}", (index - 1) % 2)
            else:
                node.champion, node.loser_stage = True, 2
            nodes.append(node)
    if third_place and columns >= 2:
        for node in nodes:
            if node.column == columns - 1:
                node.loser_to = ("3P", node.index - 1)
        nodes.append(_Node("3P", "third_place", 1, 1, Phrase("tournaments.label.third_place"),
                           winner_stage=1))
    return nodes


def _drop_order(winners_round: int, matches: int, index: int) -> int:
    """Which match of the losers' bracket the loser of winners' match ``index`` (from 1)
    of ``winners_round`` drops into: reversed from even rounds, halves swapped from odd
    ones. The crossing keeps a dropped player away from those they beat on the way (they
    came from the same part of the bracket) for as long as the bracket allows: none of
    them can be met straight after the first drop (from winners' round 2, in brackets of
    8 or more), and in random 128-player brackets a
    losers' bracket rematch happens about 0.7 times per event (simulated), against 3.4
    when always reversed and 7 when neighbours always swap."""
    if matches == 1:
        return 1
    if winners_round % 2 == 0:
        return matches + 1 - index
    return (index - 1 + matches // 2) % matches + 1


def _double_nodes(size: int, bracket_reset: bool) -> list[_Node]:
    columns = size.bit_length() - 1
    winners: list[_Node] = []
    for column in range(1, columns + 1):
        matches = size >> column
        for index in range(1, matches + 1):
            node = _Node(f"W{column}-{index}", "winners", column, index,
                         _winners_name(matches, column, index))
            node.winner_to = ((f"W{column + 1}-{(index + 1) // 2}", (index - 1) % 2)
                              if column < columns else ("GF", 0))
            winners.append(node)
    by_id = {node.id: node for node in winners}
    losers: list[_Node] = []
    if columns == 1:
        by_id["W1-1"].loser_to = ("GF", 1)  # two players: the loser is the losers' side
    else:
        last = 2 * columns - 2

        def add(column: int, matches: int) -> None:
            for index in range(1, matches + 1):
                losers.append(_Node(f"L{column}-{index}", "losers", column, index,
                                    _losers_name(matches, column, last, index)))

        add(1, size >> 2)
        for index in range(1, (size >> 1) + 1):
            by_id[f"W1-{index}"].loser_to = (f"L1-{(index + 1) // 2}", (index - 1) % 2)
        for round_no in range(2, columns + 1):
            drop, matches = 2 * round_no - 2, size >> round_no
            add(drop, matches)
            for index in range(1, matches + 1):
                # The losers' side keeps slot 0 and its place; the dropped player crosses.
                target = _drop_order(round_no, matches, index)
                by_id[f"W{round_no}-{index}"].loser_to = (f"L{drop}-{target}", 1)
            if round_no < columns:
                add(drop + 1, matches // 2)
        losers_by_id = {node.id: node for node in losers}
        for node in losers:
            if node.id == f"L{last}-1":
                node.winner_to = ("GF", 1)
            elif node.column % 2 == 1:  # into the next drop round, same place
                node.winner_to = (f"L{node.column + 1}-{node.index}", 0)
            else:  # two drop-round winners meet
                node.winner_to = (f"L{node.column + 1}-{(node.index + 1) // 2}",
                                  (node.index - 1) % 2)
            assert node.winner_to[0] in losers_by_id or node.winner_to[0] == "GF"
    final = _Node("GF", "grand_final", 1, 1, Phrase("tournaments.label.grand_final"),
                  champion=True, loser_stage=2)
    nodes = [*winners, *losers, final]
    if bracket_reset:
        reset = Phrase("tournaments.label.grand_final_reset")
        nodes.append(_Node("GF2", "grand_final", 2, 1, reset, champion=True, loser_stage=2))
    return nodes


# -- Replaying the results ----------------------------------------------------------------

_Occupant = int | Literal["bye"] | None


class _Replay:
    """The bracket after the results so far, built by playing them in order."""

    def __init__(self, kind: Literal["single", "double"], entrants: Sequence[Entrant],
                 results: Sequence[Result], first_round: int, third_place: bool,
                 bracket_reset: bool) -> None:
        self.kind = kind
        self.entrants = {entrant.id: entrant for entrant in entrants}
        # The field: whoever is still in when the bracket starts, best seed first.
        self.field = sorted((e for e in entrants if e.active_in(first_round)),
                            key=lambda e: (e.seed, e.id))
        self.rank = {entrant.id: place for place, entrant in enumerate(self.field)}
        self.size = bracket_size(len(self.field))
        self.reset = bracket_reset and kind == "double"
        self.nodes = (_single_nodes(self.size, third_place) if kind == "single"
                      else _double_nodes(self.size, bracket_reset))
        if len(self.field) < 2:
            self.nodes = []
        self.by_id = {node.id: node for node in self.nodes}
        self.order = {node.id: place for place, node in enumerate(self.nodes)}
        self.slots: dict[str, list[_Occupant]] = {node.id: [None, None] for node in self.nodes}
        self.status: dict[str, Status] = {node.id: "waiting" for node in self.nodes}
        self.seats: dict[str, tuple[int, ...]] = {}
        self.round_of: dict[str, int] = {}
        self.winner: dict[str, int | None] = {}
        self.loser: dict[str, int | None] = {}
        self.result_of: dict[str, Result] = {}
        self.notes: dict[str, Words] = {}
        self.exits: dict[int, tuple[int, int]] = {}
        """Entrant → (round, stage) of the match that put them out (or finished them)."""
        self.losses: Counter[int] = Counter()
        self.champion: int | None = None
        self.played: list[RoundPlan] = []
        self.upcoming: RoundPlan | None = None
        self.unfinished: tuple[RoundPlan, list[Words]] | None = None
        self.fresh: list[str] = []
        """Matches whose two slots just became known: paired at the next round."""
        self.scope = [result for result in results if result.round >= first_round]
        if len(self.field) == 1:
            self.champion = self.field[0].id
        if self.nodes:
            first = "R" if kind == "single" else "W"
            for place, seed in enumerate(bracket_order(self.size)):
                who: _Occupant = self.field[seed - 1].id if seed <= len(self.field) else BYE
                self._place(who, (f"{first}1-{place // 2 + 1}", place % 2))
        self._run(first_round)

    # Moving players along the bracket.

    def _place(self, who: _Occupant, target: tuple[str, int] | None) -> None:
        if target is None:
            return
        match_id, slot = target
        self.slots[match_id][slot] = who
        if None not in self.slots[match_id]:
            self.fresh.append(match_id)

    def _out(self, who: int, round_no: int, stage: int = 0) -> None:
        self.exits.setdefault(who, (round_no, stage))

    def _decide(self, match_id: str, round_no: int, winner: _Occupant, loser: _Occupant,
                note: Words = "") -> None:
        node = self.by_id[match_id]
        self.status[match_id] = "done"
        self.winner[match_id] = winner if isinstance(winner, int) else None
        self.loser[match_id] = loser if isinstance(loser, int) else None
        if note:
            self.notes[match_id] = note
        if match_id == "GF" and self.reset:
            favourite, challenger = self.slots["GF"]
            if len(self.seats.get("GF", ())) == 2 and winner == challenger:
                # The losers' champion has beaten the unbeaten player once: both have
                # lost once, so the final is played again.
                self.losses[favourite] += 1  # type: ignore[index]
                self._place(favourite, ("GF2", 0))
                self._place(challenger, ("GF2", 1))
                return
            self.status["GF2"] = "void"
        if isinstance(winner, int):
            if node.winner_to:
                self._place(winner, node.winner_to)
            elif node.champion:
                self.champion = winner
            else:
                self._out(winner, round_no, node.winner_stage or 0)
        else:
            self._place(BYE, node.winner_to)
        if isinstance(loser, int):
            self.losses[loser] += 1
            if node.loser_to:
                self._place(loser, node.loser_to)
            else:
                self._out(loser, round_no, node.loser_stage)
        else:
            self._place(BYE, node.loser_to)

    # Rounds.

    def _pair(self, round_no: int) -> list[str]:
        """Every match ready for ``round_no``: dropped players forfeit, empty matches are
        settled at once (which may make more matches ready)."""
        ready: list[str] = []
        while self.fresh:
            match_id = self.fresh.pop()
            seats: list[int] = []
            for who in self.slots[match_id]:
                if not isinstance(who, int):
                    continue
                if self.entrants[who].active_in(round_no):
                    seats.append(who)
                else:  # dropped: forfeits this match and is never paired again
                    self.losses[who] += 1
                    self._out(who, round_no)
                    self.notes[match_id] = Phrase("tournaments.note.walkover", who=who)
            if seats:
                self.seats[match_id] = tuple(seats)
                self.round_of[match_id] = round_no
                self.status[match_id] = "ready"
                ready.append(match_id)
            else:
                empty = all(who == BYE for who in self.slots[match_id])
                self._decide(match_id, round_no, BYE, BYE)
                if empty:
                    self.status[match_id] = "void"
        return sorted(ready, key=self.order.__getitem__)

    def _better_seed(self, first: int, second: int) -> int:
        return first if self.rank[first] < self.rank[second] else second

    def _apply(self, round_no: int, ready: list[str], results: list[Result]) -> None:
        by_seats = {frozenset(self.seats[match_id]): match_id for match_id in ready}
        for result in results:
            match_id = by_seats.get(frozenset(result.seats))
            if match_id is None or len(set(result.seats)) != len(result.seats):
                raise BracketError(Phrase("tournaments.bracket.no_match", round=round_no,
                                          seats=" v ".join(map(str, result.seats))))
            label = self.by_id[match_id].label
            if match_id in self.result_of:
                raise BracketError(Phrase("tournaments.bracket.two_results", match=label,
                                          round=round_no))
            if len(result.places) != len(result.seats):
                raise BracketError(Phrase("tournaments.bracket.places_for_seats", match=label,
                                          places=len(result.places), seats=len(result.seats)))
            self.result_of[match_id] = result
            seats = self.seats[match_id]
            if result.both_lose:
                for who in seats:
                    self.losses[who] += 1
                    self._out(who, round_no)
                self._decide(match_id, round_no, BYE, BYE, Phrase("tournaments.note.both_lose"))
            elif len(seats) == 1:
                self._decide(match_id, round_no, seats[0], BYE,
                             self.notes.get(match_id, Phrase("tournaments.note.bye")))
            else:
                first, second = seats
                if result.place_of(first) == result.place_of(second):
                    winner = self._better_seed(first, second)
                    note: Words = Phrase("tournaments.note.drawn_higher_seed")
                else:
                    winner = first if result.place_of(first) < result.place_of(second) \
                        else second
                    note = ""
                self._decide(match_id, round_no, winner,
                             second if winner == first else first, note)

    def _run(self, round_no: int) -> None:
        by_round: dict[int, list[Result]] = defaultdict(list)
        for result in self.scope:
            by_round[result.round].append(result)
        while True:
            ready = self._pair(round_no)
            plan = RoundPlan(round_no, tuple(self.seats[m] for m in ready),
                             tuple(self.by_id[m].label for m in ready))
            results = by_round.pop(round_no, [])
            if ready and results:
                self._apply(round_no, ready, results)
            elif results:
                raise BracketError(Phrase("tournaments.bracket.no_round", round=round_no))
            missing = [self.by_id[m].label for m in ready if self.status[m] != "done"]
            if ready and not results:
                self.upcoming = plan
            elif missing:
                self.unfinished = (plan, missing)
            if missing or not ready:
                if by_round:
                    raise BracketError(Phrase("tournaments.bracket.too_early",
                                              later=min(by_round), round=round_no))
                return
            self.played.append(plan)
            round_no += 1

    # Answers.

    def next_plan(self) -> RoundPlan | None:
        if self.unfinished:
            plan, missing = self.unfinished
            if len(missing) == 1:
                raise BracketError(Phrase("tournaments.bracket.unfinished", round=plan.round,
                                          match=missing[0]))
            raise BracketError(Phrase("tournaments.bracket.unfinished_many", round=plan.round,
                                      match=missing[0], count=len(missing) - 1))
        return self.upcoming

    def over(self) -> bool:
        return self.unfinished is None and self.upcoming is None

    def picture(self) -> Bracket:
        matches = []
        for node in self.nodes:
            left, right = self.slots[node.id]
            matches.append(BracketMatch(
                id=node.id, section=node.section, column=node.column, index=node.index,
                label=node.label, slots=(left, right), status=self.status[node.id],
                round=self.round_of.get(node.id), winner=self.winner.get(node.id),
                loser=self._loser(node.id),
                winner_to=node.winner_to, loser_to=node.loser_to,
                result=self.result_of.get(node.id), note=self.notes.get(node.id, "")))
        return Bracket(self.kind, self.size, tuple(matches), self.champion)

    def _loser(self, match_id: str) -> int | None:
        """Who lost the match: its loser, or the dropped player of a walkover."""
        if self.loser.get(match_id) is not None:
            return self.loser[match_id]
        if self.status[match_id] != "done" or self.winner.get(match_id) is None:
            return None
        dropped = [who for who in self.slots[match_id]
                   if isinstance(who, int) and who not in self.seats.get(match_id, ())]
        return dropped[0] if dropped else None

    def standings(self) -> list[Standing]:
        """Champion; then who is still in (fewest losses first); then everyone out, the
        later the better (the final's loser above the third-place match); ties by seed."""
        record: dict[int, Counter[int]] = defaultdict(Counter)
        for result in self.scope:
            for who in result.seats:
                record[who][result.points_of(who)] += 1

        def key(entrant: Entrant) -> tuple[int, int, int]:
            if entrant.id == self.champion:
                return (3, 0, 0)
            if entrant.id not in self.rank:  # dropped before the bracket began
                return (0, 0, 0)
            if entrant.id in self.exits:
                round_no, stage = self.exits[entrant.id]
                return (1, round_no, stage)
            return (2, -self.losses[entrant.id], 0)

        people = sorted(self.entrants.values(),
                        key=lambda e: (tuple(-k for k in key(e)), e.seed, e.id))
        keys = [key(entrant) for entrant in people]
        lines: list[Standing] = []
        rank = 0
        for place, entrant in enumerate(people):
            tied = place > 0 and keys[place] == keys[place - 1]
            if not tied:
                rank = place + 1
            wins, draws = record[entrant.id][WIN], record[entrant.id][DRAW]
            played = sum(record[entrant.id].values())
            note: Words = ""
            if tied:
                note = (Phrase("tournaments.tie.still_in") if keys[place][0] == 2
                        else Phrase("tournaments.tie.out_same_round"))
            lines.append(Standing(
                rank=rank, entrant=entrant.id, points=3 * wins + draws, wins=wins,
                losses=played - wins - draws, draws=draws,
                dropped=entrant.dropped_after is not None, note=note))
        return lines


class _Elimination:
    """What both elimination formats share: one replay answers every question."""

    kind: ClassVar[Literal["single", "double"]]
    first_round: int
    third_place: bool = False
    bracket_reset: bool = False

    def _replay(self, entrants: Sequence[Entrant], results: Sequence[Result]) -> _Replay:
        return _Replay(self.kind, entrants, results, self.first_round, self.third_place,
                       self.bracket_reset)

    def next_round(self, entrants: Sequence[Entrant], results: Sequence[Result],
                   seed: int = 0) -> RoundPlan | None:
        """Every match ready to play: the first round with no result yet (the same plan
        however often it is asked), or ``None`` when the bracket is complete. ``seed`` is
        not used: a bracket draws nothing at random (the seeds do that).

        :class:`BracketError` if a round has some results but not all, or a result fits
        no match of its round."""
        return self._replay(entrants, results).next_plan()

    def finished(self, entrants: Sequence[Entrant], results: Sequence[Result]) -> bool:
        """Whether every match of the bracket has been decided."""
        return self._replay(entrants, results).over()

    def standings(self, entrants: Sequence[Entrant], results: Sequence[Result],
                  seed: int = 0) -> list[Standing]:
        """By how far each got: champion, finalist, then the rest by the round they went
        out in (those out in the same round share a rank, listed by seed). Players still
        in rank above everyone out. Points and record count the results (a bye is a win,
        a draw a draw); percentages are not used (left at 0)."""
        return self._replay(entrants, results).standings()

    def bracket(self, entrants: Sequence[Entrant], results: Sequence[Result]) -> Bracket:
        """The bracket as it stands, for a picture."""
        return self._replay(entrants, results).picture()


@dataclass(frozen=True)
class SingleEliminationFormat(_Elimination):
    """Single elimination: lose once and you are out.

    ``third_place`` adds a match between the semi-finals' losers, played with the final.
    ``first_round`` is the tournament round the bracket starts in (a Swiss top cut starts
    after the Swiss rounds); results of earlier rounds are not the bracket's.

    >>> people = [Entrant(id=seed, seed=seed) for seed in range(1, 9)]
    >>> single = SingleEliminationFormat()
    >>> single.rounds(people)
    3
    >>> single.next_round(people, [], seed=0).pairings
    ((1, 8), (4, 5), (2, 7), (3, 6))
    """

    third_place: bool = False
    first_round: int = 1
    name: FormatName = field(default="single", init=False)
    kind: ClassVar[Literal["single", "double"]] = "single"

    def rounds(self, entrants: Sequence[Entrant]) -> int:
        """One per bracket column (the third-place match shares the final's round)."""
        players = sum(1 for entrant in entrants if entrant.active_in(self.first_round))
        return 0 if players < 2 else bracket_size(players).bit_length() - 1


@dataclass(frozen=True)
class DoubleEliminationFormat(_Elimination):
    """Double elimination: a winners' bracket, a losers' bracket fed by its losers, and a
    grand final between their champions; out after two losses.

    With ``bracket_reset``, a grand final won by the losers' champion (the other
    player's first loss) is played again. Round r plays winners' round r and losers'
    round r - 1, whichever matches are ready; players wait while the other bracket
    catches up.

    >>> people = [Entrant(id=seed, seed=seed) for seed in range(1, 5)]
    >>> double = DoubleEliminationFormat()
    >>> [label.key for label in double.next_round(people, [], seed=0).labels]
    ['tournaments.label.winners_semi_final', 'tournaments.label.winners_semi_final']
    >>> done = [Result(1, (1, 4), (1, 2)), Result(1, (2, 3), (2, 1))]
    >>> plan = double.next_round(people, done, seed=0)
    >>> plan.pairings, [label.key for label in plan.labels]
    (((1, 3), (4, 2)), ['tournaments.label.winners_final', 'tournaments.label.losers_semi_final'])
    """

    bracket_reset: bool = True
    first_round: int = 1
    name: FormatName = field(default="double", init=False)
    kind: ClassVar[Literal["single", "double"]] = "double"

    def rounds(self, entrants: Sequence[Entrant]) -> int | None:
        """Twice the winners' bracket's columns, with the grand final; ``None`` with a
        bracket reset (one more round if the losers' champion wins the grand final)."""
        players = sum(1 for entrant in entrants if entrant.active_in(self.first_round))
        if players < 2:
            return 0
        return None if self.bracket_reset else 2 * (bracket_size(players).bit_length() - 1)
