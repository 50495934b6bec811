"""A finished match stepped through as its channel saw it.

The stored log is replayed by the rules (as :meth:`bot.matches.commit.Committer._replay`
does after a restart). A step is each resolved step of the game (its ``step`` counter,
the number a Discord table's footer shows): a secret choice held inside a step is never a
step of its own, so nothing is shown while it is secret. Each step keeps only what a
spectator may know: the state's public observation (``observe(None)``, never a seat's)
and the public events that led to it. Building is pure rules work, for a worker thread.
A replay holds no words: events, places and the reason are said when a page is made,
in that page's language (so one replay serves every server's language).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.i18n import narrate, say
from bot.matches.levels import seat_named
from bot.matches.live import NARRATED, opening
from bot.matches.results import place_label, reason_said, verdict
from rules.core import Event
from rules.phrases import Words
from rules.registry import get_game
from storage.models import ChoiceRow, MatchRow


@dataclass(frozen=True, slots=True)
class Step:
    """The table after one resolved step: the public view and what was said on the way."""

    number: int
    observation: Any
    """The channel's observation of the state (a frozen snapshot)."""
    said: tuple[Event, ...]
    """The public events of this step, in order."""


@dataclass(frozen=True, slots=True)
class SeatLine:
    """One seat in the result: its name as tables say it, and how it finished."""

    seat: int
    name: str
    user_id: int | None
    """The person's (``None`` for a computer's seat, whose id is nobody's)."""
    computer: bool
    rank: int
    """Its place (1 for a winner; shared places share it)."""
    score: int | None


@dataclass(frozen=True, slots=True)
class TournamentGame:
    """The tournament a match was a game of, and where in it."""

    tournament_id: int
    name: str
    round: int
    table: int
    game_no: int


@dataclass(frozen=True)
class Replay:
    """Every step of one finished match, with its result."""

    match_id: int
    guild_id: int | None
    game: str
    title: str
    names: tuple[str, ...]
    steps: tuple[Step, ...]
    seats: tuple[SeatLine, ...]
    """Best first."""
    places: tuple[int, ...]
    """Each seat's place, by seat."""
    computers: frozenset[int]
    """The seats the computer played."""
    why: Words
    """Why the match ended (the outcome's reason)."""
    tournament: TournamentGame | None = None

    @property
    def last(self) -> int:
        """The number of the final step."""
        return len(self.steps) - 1

    @property
    def verdict(self) -> str:
        """Who won, in the locale spoken."""
        return verdict(self.names, self.places, self.computers)

    @property
    def reason(self) -> str:
        """Why the match ended, in the locale spoken."""
        return reason_said(self.why, self.names)

    def place(self, seat: SeatLine) -> str:
        """``seat``'s place as a ranking says it (``=2nd``), in the locale spoken."""
        return place_label(seat.rank, self.places)

    def narration(self, number: int) -> list[tuple[str, bool]]:
        """What the table narrated at step ``number``: its last :data:`NARRATED` public
        lines, oldest first, each with whether it was said in this very step, in the
        locale spoken."""
        lines: list[tuple[Event, bool]] = []
        for step in reversed(self.steps[:number + 1]):
            now = step.number == number
            for event in reversed(step.said):
                lines.append((event, now))
                if len(lines) == NARRATED:
                    break
            if len(lines) == NARRATED:
                break
        return [(narrate(event, self.names), now) for event, now in reversed(lines)]


def replay_match(row: MatchRow, log: Sequence[ChoiceRow]) -> Replay:
    """The steps of the finished match ``row`` from its choice ``log``; raises the
    rules' errors if the log does not replay (a bug, never a visitor's doing)."""
    info = get_game(row.game)
    names = tuple(seat.name for seat in row.seats)
    state = info.new(row.options, len(row.seats), row.seed, [s.setup for s in row.seats])
    steps = [Step(0, state.observe(None), (opening(info),))]
    said: list[Event] = []
    for choice in log:
        said += [e for e in state.apply(choice.seat, choice.choice) if e.public]
        if state.step != steps[-1].number:
            # A step resolves at once: every step number is one more than the last.
            steps.append(Step(len(steps), state.observe(None), tuple(said)))
            said = []
    outcome = state.outcome()
    if outcome is None:
        raise ValueError(f"match {row.id} is stored as finished but its log does not end it")
    places = outcome.places
    computers = {seat.seat for seat in row.seats if seat.computer_plays}
    seats = tuple(
        SeatLine(seat=seat.seat, name=seat_named(seat),
                 user_id=None if seat.is_bot else seat.user_id, computer=seat.computer_plays,
                 rank=places[seat.seat],
                 score=None if outcome.scores is None else outcome.scores[seat.seat])
        for seat in sorted(row.seats, key=lambda s: (places[s.seat], s.seat)))
    return Replay(match_id=row.id, guild_id=row.guild_id, game=info.name, title=info.title,
                  names=names, steps=tuple(steps), seats=seats, places=tuple(places),
                  computers=frozenset(computers), why=outcome.reason)


def described(replay: Replay, number: int) -> str | None:
    """Step ``number``'s public table in the game's own words (the terminal's text of
    the channel's view), for those who cannot see its picture, in the locale spoken;
    ``None`` if the game has no words for it."""
    text = get_game(replay.game).text
    if text is None:
        return None
    return say(text(replay.steps[number].observation, replay.names), names=replay.names)
