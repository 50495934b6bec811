"""A tournament as its page shows it (:class:`TournamentView`), read from the store in
one go: where it stands, the current round's pairings, the standings, the bracket and
every round's history, each game linked to its replay once finished.

The standings and the bracket are the tournament service's own: the same
:class:`~bot.tournaments.formats.Progress` over the same rows
(:func:`~bot.tournaments.formats.read_progress`), so the page and Discord can never
rank two players differently; each line's figures are written as the Discord picture
writes them (:func:`bot.pictures.tournament.standing_cells`).

Reading and ranking a 500-player Swiss takes longer than a page should (the issue's
target is 50 ms of server time), and people reload a running tournament's page far
more often than it changes: so each page is kept, rendered, under the tournament's
:meth:`~storage.tournaments.TournamentRepository.version` (:class:`PageCache`), and
a request reads that version first — one query of counts — and works the page out
again only when it moved.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass

from bot.pictures.tournament import note_marks, standing_cells
from bot.tournaments.formats import Progress, read_progress
from bot.tournaments.model import TournamentSettings, is_person, names_of
from bot.tournaments.terms import (
    STANDING_HEADS,
    format_words,
    outcome_words,
    pairing_result,
    status_words,
)
from bot.web.bracket_svg import Drawing, layout
from rules.registry import get_game
from storage import Store
from storage.tournaments import EntrantRow, GameLink, PairingRow, TournamentRow

FIGURES: Mapping[str, tuple[str, ...]] = {
    "swiss": ("Pts", "W-L-D", "OMW%", "GW%", "OGW%"),
    "round_robin": ("Pts", "W-L-D", "OMW%", "GW%", "OGW%"),
    "pods": ("Pts", "W-L-D", "OMW%"),
    "single": ("Pts", "W-L-D"),
    "double": ("Pts", "W-L-D"),
}
"""The standings' figures each format ranks by (the rest it leaves at 0: a bracket
ranks by how far each got, pods by points and opponents' points)."""

FINISHED_OUTCOMES = frozenset({"counted", "ignored"})
"""A game's outcomes once it was played to its end: it has a replay."""


@dataclass(frozen=True)
class Player:
    """A name on the page, and whether it is a person (who has a player page)."""

    user_id: int
    name: str
    person: bool


@dataclass(frozen=True)
class Game:
    """One game of a pairing: its match, its number and outcome (words), and whether
    it is over (then it links to its replay)."""

    match_id: int
    number: int
    outcome: str
    finished: bool


@dataclass(frozen=True)
class Pairing:
    """One table of a round."""

    table: int
    label: str
    players: tuple[Player, ...]
    result: str
    bye: bool
    done: bool
    games: tuple[Game, ...]


@dataclass(frozen=True)
class Round:
    """A round's pairings, tables first, byes last."""

    number: int
    cut: bool
    pairings: tuple[Pairing, ...]


@dataclass(frozen=True)
class StandingRow:
    """A line of the standings as shown: rank (with its tie mark), the player, each
    figure's text by its header, and whether they dropped."""

    rank: str
    player: Player
    figures: Mapping[str, str]
    dropped: bool


@dataclass(frozen=True)
class TournamentView:
    """Everything the tournament page shows."""

    tournament: TournamentRow
    version: str
    game: str
    format: str
    status: str
    settings: TournamentSettings
    entrants: int
    figures: tuple[str, ...]
    standings: tuple[StandingRow, ...]
    notes: tuple[tuple[str, str], ...]
    """``(mark, note)`` for each kind of tie no figure broke."""
    current: Round | None
    earlier: tuple[Round, ...]
    """The rounds before the current one, newest first."""
    bracket: Drawing | None
    waiting: tuple[Player, ...]
    """Before the start: who entered."""

    @property
    def live(self) -> bool:
        """Whether it can still change (then the page polls)."""
        return self.tournament.live


async def read_view(store: Store, tournament: TournamentRow, version: str) -> TournamentView:
    """The page of ``tournament`` (at ``version``), read and worked out afresh."""
    progress, games = await read_parts(store, tournament)
    return build_view(progress, games, version)


async def read_parts(store: Store, tournament: TournamentRow
                     ) -> tuple[Progress, list[GameLink]]:
    """What the page is worked out from: the tournament as its format sees it, and
    every game of it."""
    return (await read_progress(store, tournament),
            await store.tournaments.games(tournament.id))


def build_view(progress: Progress, games: Sequence[GameLink], version: str) -> TournamentView:
    """The page worked out from what :func:`read_parts` read (no I/O: it may run in a
    worker thread)."""
    tournament = progress.tournament
    entrants = progress.entrants
    names = names_of(entrants)
    started = tournament.status not in ("created", "open", "checkin")
    standings = progress.standings() if started else []
    marks = note_marks(standings)
    figures = FIGURES.get(tournament.format, STANDING_HEADS[2:])
    rows = []
    for line in standings:
        cells = dict(zip(STANDING_HEADS, standing_cells(line, marks), strict=True))
        rows.append(StandingRow(cells["#"], _player(line.entrant, names),
                                {head: cells[head] for head in figures}, line.dropped))
    rounds = _rounds(progress.pairings, names, games)
    current = next((r for r in rounds if r.number == tournament.round), None)
    earlier = tuple(r for r in reversed(rounds) if r.number != tournament.round)
    bracket = progress.bracket() if started else None
    drawing = None if bracket is None else layout(bracket, names, _seeds(tournament,
                                                                           entrants))
    return TournamentView(
        tournament=tournament, version=version, game=get_game(tournament.game).title,
        format=format_words(tournament.format), status=status_words(tournament.status),
        settings=progress.settings, entrants=len(entrants), figures=figures,
        standings=tuple(rows), notes=tuple((mark, note) for note, mark in marks.items()),
        current=current, earlier=earlier, bracket=drawing,
        waiting=() if started else tuple(_player(e.user_id, names) for e in entrants))


def _player(user_id: int, names: Mapping[int, str]) -> Player:
    return Player(user_id, names.get(user_id, "?"), is_person(user_id))


def _seeds(tournament: TournamentRow, entrants: Sequence[EntrantRow]) -> dict[int, int | None]:
    """Each entrant's seed in the bracket drawn: the top cut's once it began."""
    if tournament.cut_after is not None:
        return {e.user_id: e.cut_seed for e in entrants}
    return {e.user_id: e.seed for e in entrants}


def _rounds(pairings: Sequence[PairingRow], names: Mapping[int, str],
            games: Sequence[GameLink]) -> list[Round]:
    by_pairing: dict[tuple[int, int], list[Game]] = {}
    for game in games:
        by_pairing.setdefault((game.round, game.table), []).append(Game(
            game.match_id, game.game_no, outcome_words(game.outcome),
            game.outcome in FINISHED_OUTCOMES))
    rounds: dict[int, list[Pairing]] = {}
    cut: dict[int, bool] = {}
    for p in pairings:
        seated = tuple(_player(user, names) for user in p.seats)
        rounds.setdefault(p.round, []).append(Pairing(
            p.table, p.label, seated, pairing_result(p, [s.name for s in seated]),
            p.is_bye, p.done, tuple(by_pairing.get((p.round, p.table), ()))))
        cut[p.round] = p.stage == "cut"
    return [Round(number, cut[number], tuple(sorted(found, key=lambda p: p.bye)))
            for number, found in sorted(rounds.items())]


class PageCache:
    """Rendered pages kept by ``(key, version)``, the :data:`MOST` most recently used
    (a 500-player Swiss's page is about 800 KB). A page being made is made once: when
    a change lands, every open page polls, sees it and asks at once, and all of them
    wait for the one rendering rather than each ranking 500 players again."""

    MOST = 8

    def __init__(self) -> None:
        self._pages: OrderedDict[object, tuple[str, str]] = OrderedDict()
        self._making: dict[tuple[object, str], asyncio.Future[str]] = {}

    def get(self, key: object, version: str) -> str | None:
        """The page kept for ``key`` if it was rendered at ``version``."""
        found = self._pages.get(key)
        if found is None or found[0] != version:
            return None
        self._pages.move_to_end(key)
        return found[1]

    async def page(self, key: object, version: str,
                   make: Callable[[], Awaitable[str]]) -> str:
        """``key``'s page at ``version``: kept, being made (then waited for), or made
        now by ``make`` and kept. ``make``'s failure is every waiter's."""
        kept = self.get(key, version)
        if kept is not None:
            return kept
        making = self._making.get((key, version))
        if making is None:
            making = asyncio.ensure_future(make())
            self._making[(key, version)] = making
            making.add_done_callback(lambda done: self._made(key, version, done))
        # Shielded: a reader who goes away does not cancel the others' page.
        return await asyncio.shield(making)

    def _made(self, key: object, version: str, done: asyncio.Future[str]) -> None:
        self._making.pop((key, version), None)
        if not done.cancelled() and done.exception() is None:
            self.put(key, version, done.result())

    def clear(self) -> None:
        """Forget every page (the next request of each renders it afresh)."""
        self._pages.clear()

    def put(self, key: object, version: str, text: str) -> None:
        """Keep ``text`` as ``key``'s page at ``version`` (one version a key)."""
        self._pages[key] = (version, text)
        self._pages.move_to_end(key)
        while len(self._pages) > self.MOST:
            self._pages.popitem(last=False)
