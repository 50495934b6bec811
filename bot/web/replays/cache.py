"""Replayed matches and their step pictures, kept in memory while they are asked for.

A finished match never changes, so its replay and pictures can be kept as long as
there is room: the least recently asked for go first. Replaying and drawing are CPU
work (a long match replays in a few tens of milliseconds, a picture draws in about as
long); both run in a worker thread, off the event loop, and a match asked for by many
at once is replayed once."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import replace

from bot.i18n import current
from bot.web.replays.steps import Replay, TournamentGame, replay_match
from storage import Store

STEPS_KEPT = 4000
"""The most steps the kept replays hold together: ten long matches, or hundreds of short
ones. A step is one public observation, 2–8 KiB in memory (measured on the web tests'
matches: 7 KiB for the card game's, 3 for the longest), so at most some 30 MiB."""
PICTURES_KEPT = 48
"""The most step pictures kept (a table picture is tens to a few hundred kilobytes)."""


class Replays:
    """The replays of one store's finished matches, by match id."""

    def __init__(self, store: Store, *, steps_kept: int = STEPS_KEPT,
                 pictures_kept: int = PICTURES_KEPT) -> None:
        self._store = store
        self._steps_kept = steps_kept
        self._pictures_kept = pictures_kept
        self._replays: OrderedDict[int, Replay] = OrderedDict()
        self._loading: dict[int, asyncio.Task[Replay | None]] = {}
        self._pictures: OrderedDict[tuple[int, int, str], bytes | None] = OrderedDict()
        self.replayed = 0
        """How many times a match was replayed (the cache's misses, for tests)."""
        self.drawn = 0
        """How many step pictures were drawn (the picture cache's misses)."""

    async def replay(self, match_id: int) -> Replay | None:
        """The replay of match ``match_id`` if it is finished, else ``None`` (unknown,
        still played, or closed without a result)."""
        kept = self._replays.get(match_id)
        if kept is not None:
            self._replays.move_to_end(match_id)
            return kept
        task = self._loading.get(match_id)
        if task is None:
            task = asyncio.create_task(self._load(match_id))
            self._loading[match_id] = task
            task.add_done_callback(lambda _: self._loading.pop(match_id, None))
        # Shielded: a visitor who leaves must not cancel the others' replay.
        return await asyncio.shield(task)

    async def _load(self, match_id: int) -> Replay | None:
        row = await self._store.matches.get(match_id)
        if row is None or row.status != "finished":
            return None  # not kept: a match still played may finish later
        log = await self._store.matches.choices(match_id)
        replay = await asyncio.to_thread(replay_match, row, log)
        replay = replace(replay, tournament=await self._tournament_game(match_id))
        self.replayed += 1
        self._keep(replay)
        return replay

    async def _tournament_game(self, match_id: int) -> TournamentGame | None:
        link = await self._store.tournaments.game(match_id)
        tournament = None if link is None else await self._store.tournaments.get(
            link.tournament_id)
        if link is None or tournament is None:
            return None
        return TournamentGame(tournament_id=tournament.id, name=tournament.name,
                              round=link.round, table=link.table, game_no=link.game_no)

    def _keep(self, replay: Replay) -> None:
        self._replays[replay.match_id] = replay
        held = sum(len(kept.steps) for kept in self._replays.values())
        while held > self._steps_kept and len(self._replays) > 1:
            _, dropped = self._replays.popitem(last=False)
            held -= len(dropped.steps)

    async def picture(self, replay: Replay, number: int) -> bytes | None:
        """Step ``number``'s public table picture as PNG, as the Discord table showed it
        (``None`` for a game that draws none), in the locale spoken (kept by it: a
        picture's words are the locale's)."""
        key = (replay.match_id, number, current())
        if key in self._pictures:
            self._pictures.move_to_end(key)
            return self._pictures[key]
        picture = await asyncio.to_thread(step_png, replay, number)
        self.drawn += 1
        self._pictures[key] = picture
        while len(self._pictures) > self._pictures_kept:
            self._pictures.popitem(last=False)
        return picture


def step_png(replay: Replay, number: int) -> bytes | None:
    """Draw step ``number``'s public table with the game's presenter, from the channel's
    observation alone (:meth:`~bot.games.presenter.GamePresenter.table_png`)."""
    # Imported here: the presenters bring their Discord parts, needed only to draw.
    from bot.games import presenter_for

    return presenter_for(replay.game).table_png(replay.steps[number].observation,
                                                list(replay.names))


def draws_tables(game: str) -> bool:
    """Whether ``game``'s presenter draws a table picture (so that a page can link to its
    steps' pictures without drawing one first)."""
    from bot.games import presenter_for
    from bot.games.presenter import GamePresenter

    return type(presenter_for(game)).table_png is not GamePresenter.table_png
