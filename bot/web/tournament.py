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
import gc
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.i18n import say, tr
from bot.pictures.tournament import note_marks, standing_cells
from bot.tournaments.formats import Progress, read_progress
from bot.tournaments.model import TournamentSettings, is_person, names_of
from bot.tournaments.terms import (
    STANDING_HEADS,
    format_words,
    label_said,
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

T = TypeVar("T")

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
    label: str
    """``Game 2``, in the page's language."""


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
    people: Mapping[int, Player]
    """Everyone the page names, by user id (one :class:`Player` each)."""

    @property
    def live(self) -> bool:
        """Whether it can still change (then the page polls)."""
        return self.tournament.live

    def by_player(self, make: Callable[..., T], *args: Any) -> dict[int, T]:
        """``make(player, *args)`` for everyone the page names, by user id: the template
        makes each player's link once (its macro) and looks it up in every table, as
        a 500-player Swiss names each player in every round and the standings."""
        return {user_id: make(player, *args) for user_id, player in self.people.items()}


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
    people = _People(entrants)
    started = tournament.status not in ("created", "open", "checkin")
    standings = progress.standings() if started else []
    marks = note_marks(standings)
    figures = FIGURES.get(tournament.format, STANDING_HEADS[2:])
    shown = [(head, STANDING_HEADS.index(head)) for head in figures]
    rank = STANDING_HEADS.index("#")
    rows = []
    for line in standings:
        cells = standing_cells(line, marks)
        rows.append(StandingRow(cells[rank], people.of(line.entrant),
                                {head: cells[at] for head, at in shown}, line.dropped))
    rounds = _rounds(progress.pairings, people, games)
    current = next((r for r in rounds if r.number == tournament.round), None)
    earlier = tuple(r for r in reversed(rounds) if r.number != tournament.round)
    bracket = progress.bracket() if started else None
    drawing = None if bracket is None else layout(bracket, names_of(entrants),
                                                  _seeds(tournament, entrants))
    waiting = () if started else tuple(people.of(e.user_id) for e in entrants)
    return TournamentView(
        tournament=tournament, version=version, game=get_game(tournament.game).title,
        format=format_words(tournament.format), status=status_words(tournament.status),
        settings=progress.settings, entrants=len(entrants), figures=figures,
        standings=tuple(rows),
        notes=tuple((mark, say(note)) for note, mark in marks.items()),
        current=current, earlier=earlier, bracket=drawing, waiting=waiting,
        people=people.named)


class _People:
    """One :class:`Player` per user id, made when first named (a name not among the
    entrants shows as ``?``)."""

    def __init__(self, entrants: Sequence[EntrantRow]) -> None:
        self.names = names_of(entrants)
        self.named: dict[int, Player] = {}

    def of(self, user_id: int) -> Player:
        """``user_id``'s player."""
        found = self.named.get(user_id)
        if found is None:
            found = self.named[user_id] = Player(user_id, self.names.get(user_id, "?"),
                                                 is_person(user_id))
        return found


def _seeds(tournament: TournamentRow, entrants: Sequence[EntrantRow]) -> dict[int, int | None]:
    """Each entrant's seed in the bracket drawn: the top cut's once it began."""
    if tournament.cut_after is not None:
        return {e.user_id: e.cut_seed for e in entrants}
    return {e.user_id: e.seed for e in entrants}


def _rounds(pairings: Sequence[PairingRow], people: _People,
            games: Sequence[GameLink]) -> list[Round]:
    by_pairing: dict[tuple[int, int], list[Game]] = {}
    # Said once per game number and outcome, not once per game: a 500-player Swiss
    # names thousands of games.
    labels: dict[int, str] = {}
    outcomes: dict[str | None, str] = {}
    for game in games:
        label = labels.get(game.game_no)
        if label is None:
            label = labels[game.game_no] = tr("web.tournament.game_no", game=game.game_no)
        outcome = outcomes.get(game.outcome)
        if outcome is None:
            outcome = outcomes[game.outcome] = outcome_words(game.outcome)
        by_pairing.setdefault((game.round, game.table), []).append(Game(
            game.match_id, game.game_no, outcome, game.outcome in FINISHED_OUTCOMES, label))
    rounds: dict[int, list[Pairing]] = {}
    cut: dict[int, bool] = {}
    for p in pairings:
        seated = tuple([people.of(user) for user in p.seats])
        rounds.setdefault(p.round, []).append(Pairing(
            p.table, label_said(p.label), seated, pairing_result(p, [s.name for s in seated]),
            p.is_bye, p.done, tuple(by_pairing.get((p.round, p.table), ()))))
        cut[p.round] = p.stage == "cut"
    return [Round(number, cut[number], tuple(sorted(found, key=_is_bye)))
            for number, found in sorted(rounds.items())]


def _is_bye(pairing: Pairing) -> bool:
    return pairing.bye


class _CollectAfter:
    """While any page is being worked out, Python's cyclic garbage collector waits.

    Working out a 500-player Swiss's page makes some 50,000 small objects (rows,
    results, lines, pairings) that live until the page is rendered and hold no cycles:
    reference counting frees them all when it is done. Left to run, the collector
    would traverse them (and promote them, so its full collections walk the whole
    process) dozens of times per page: about a third of a fresh page's time, measured.
    Deferred, it runs after, when they are gone. Counted, since pages may be worked out
    at once (in worker threads); a collector someone else turned off stays off."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._working = 0
        self._paused = False

    @contextmanager
    def __call__(self) -> Iterator[None]:
        with self._lock:
            self._working += 1
            if self._working == 1 and gc.isenabled():
                gc.disable()
                self._paused = True
        try:
            yield
        finally:
            with self._lock:
                self._working -= 1
                if self._working == 0 and self._paused:
                    self._paused = False
                    gc.enable()


collecting_after = _CollectAfter()
"""``with collecting_after():`` the cyclic collector waits until the block ends
(:class:`_CollectAfter`)."""


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
