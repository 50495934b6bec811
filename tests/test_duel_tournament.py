"""Arcane Duel in a tournament (the generic tournament service with the duel's match
hooks, on both engines, no Discord): a tournament's seats are dealt, bringing no deck of
their own, so its duels are never played for ante; without ante they open and play
like any tournament game, computer players included."""

from __future__ import annotations

import itertools

import pytest

from bot.clock import FakeClock
from bot.games import match_hooks
from bot.matches.service import MatchService, Timing
from bot.tournaments.model import Member, TournamentError
from bot.tournaments.service import TournamentService
from storage import Store

pytestmark = pytest.mark.engines  # the tests that take a `store` run on both engines

G = 1
ORG = Member(9, "Org", manages_server=True, guild_id=G)


@pytest.fixture
async def service(store: Store):
    clock = FakeClock()
    matches = MatchService(store, clock=clock, timing=Timing(turn_seconds=120),
                           hooks=match_hooks(store, clock))
    places = itertools.count(7000)

    async def starter(place: object) -> int:
        return next(places)

    tournaments = TournamentService(store, matches, clock, starter)
    yield tournaments
    await tournaments.settle()
    await matches.wind_down()


async def test_a_tournament_of_duels_for_ante_is_refused_when_created(service):
    await service.store.settings.update(G, ante=True)  # the server allows ante
    with pytest.raises(TournamentError, match="not played for ante"):
        await service.create(ORG, channel_id=300, game="duel", options={"ante": True},
                             settings={"seeding": "random"})
    assert await service.live(ORG) == []


async def test_a_tournament_of_duels_between_computers_plays_to_its_end(service):
    made = await service.create(ORG, channel_id=300, game="duel",
                                settings={"seeding": "random", "rounds": 1})
    await service.open(ORG, made.id)
    await service.add_computers(ORG, made.id, 2)
    view = await service.start(ORG, made.id)
    (pairing,) = view.pairings
    assert pairing.in_play
    await service.settle()
    finished = await service.get(ORG, made.id)
    assert finished.status == "finished"
    (game,) = await service.games(ORG, made.id)
    assert game.outcome == "counted"
