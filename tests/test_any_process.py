"""Any process serves any match (issue 31, docs/clusters.md), with two match services
over one PostgreSQL database standing for two processes: each has its own cache of
live matches, and only the store is shared. The cluster tests (tests/test_clusters_*)
play the same through real processes and the fake Discord; these pin each rule."""

from __future__ import annotations

import asyncio

import pytest

from bot.clock import FakeClock
from bot.errors import MovedOn, NoMatchHere, StaleChoice
from bot.matches.deadlines import OVERDUE, run_deadlines
from bot.matches.live import Player
from bot.matches.service import MatchService, Timing
from rules.errors import NotYourTurn
from storage import Store
from tests.recording import RecordingTransport

pytestmark = pytest.mark.engines("postgres")

ADA, BO = Player(1, "Ada"), Player(2, "Bo")
CHANNEL = 700
SEAT_0_STARTS = 1
"""A seed with which Flank draws seat 0 (Ada) to play first."""
FLANK = {"board": 8, "stoppers": 0}
REFUSED = (MovedOn, StaleChoice, NotYourTurn)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def services(store: Store, target: str, clock: FakeClock):
    """Two services ("processes"), each on a store of its own over one database."""
    other = await Store.open(target)
    made = [MatchService(s, RecordingTransport(), clock=clock,
                         timing=Timing(turn_seconds=120, warn_seconds=30))
            for s in (store, other)]
    try:
        yield made
    finally:
        for service in made:
            await service.settle()
        await other.close()


async def started(service: MatchService):
    await service.open_lobby(ADA, guild_id=1, channel_id=CHANNEL, game="flank",
                             options=FLANK, seed=SEAT_0_STARTS)
    await service.join(BO, CHANNEL)
    match = await service.start(ADA, CHANNEL)
    await service.settle()
    return match


def first_option(match, seat: int) -> str:
    return match.state.decision_for(seat).options[0]


async def test_a_click_for_a_match_never_seen_here_is_served_from_the_store(services, store):
    table, other = services
    match = await started(table)
    with pytest.raises(NoMatchHere):
        other.get(match.id)  # not in its cache
    ack = await other.submit(ADA.user_id, match.id, first_option(match, 0),
                             interaction_id="dm-1", step=match.state.step)
    assert not ack.duplicate
    served = other.get(match.id)
    assert served.state.step == match.state.step + 1
    stored = (await store.matches.get(match.id)).version
    assert served.row.version == match.row.version + 1 == stored
    # The table's process is behind: Bo's click there catches up first, and commits.
    step = served.state.step
    await table.submit(BO.user_id, match.id, first_option(served, 1), interaction_id="g-1",
                       step=step)
    assert match.state.step == step + 1
    stored = (await store.matches.get(match.id)).version
    assert match.row.version == served.row.version + 1 == stored
    rows = await store.matches.choices(match.id)
    assert [(r.seq, r.interaction_id) for r in rows] == [(0, "dm-1"), (1, "g-1")]


async def test_a_stale_cache_is_caught_up_even_without_the_clicks_step(services, store):
    table, other = services
    match = await started(table)
    await other.submit(ADA.user_id, match.id, first_option(match, 0), interaction_id="dm-1")
    behind = match.state.step
    # No step on the click: the cached state refuses (not Bo's turn there), and the
    # service catches up and tries again before it refuses anything.
    played = other.get(match.id)
    await table.submit(BO.user_id, match.id, first_option(played, 1), interaction_id="g-1")
    assert match.state.step == behind + 2
    assert len(await store.matches.choices(match.id)) == 2


async def test_two_clicks_at_once_from_two_processes_one_wins_the_other_is_told(services,
                                                                               store):
    table, other = services
    match = await started(table)
    await other.current(match.id)  # both have it cached, at the same version
    step, choice = match.state.step, first_option(match, 0)
    alternative = match.state.decision_for(0).options[-1]
    results = []
    for service, option, iid in ((table, choice, "a"), (other, alternative, "b")):
        try:
            results.append(await service.submit(ADA.user_id, match.id, option,
                                                interaction_id=iid, step=step))
        except REFUSED as refused:
            results.append(refused)
    won = [r for r in results if not isinstance(r, Exception)]
    told = [r for r in results if isinstance(r, Exception)]
    assert len(won) == 1 and len(told) == 1, results
    assert isinstance(told[0], StaleChoice)  # caught up, the click's step is gone
    rows = await store.matches.choices(match.id)
    assert [r.interaction_id for r in rows] == ["a"]


async def test_a_click_logged_by_one_process_is_acknowledged_again_by_the_other(services,
                                                                               store):
    """The same interaction (Discord delivering it again, to another process) is a
    repeat: the process that is behind learns it from the log it catches up on."""
    table, other = services
    match = await started(table)
    await other.current(match.id)  # cached at the version before the click
    step, choice = match.state.step, first_option(match, 0)
    await table.submit(ADA.user_id, match.id, choice, interaction_id="same", step=step)
    again = await other.submit(ADA.user_id, match.id, choice, interaction_id="same", step=step)
    assert again.duplicate
    assert [r.interaction_id for r in await store.matches.choices(match.id)] == ["same"]


async def test_concurrent_clicks_commit_exactly_one(services, store):
    table, other = services
    match = await started(table)
    await other.current(match.id)
    step = match.state.step
    options = match.state.decision_for(0).options
    outcomes = await asyncio.gather(
        table.submit(ADA.user_id, match.id, options[0], interaction_id="x", step=step),
        other.submit(ADA.user_id, match.id, options[-1], interaction_id="y", step=step),
        return_exceptions=True)
    refused = [o for o in outcomes if isinstance(o, Exception)]
    assert len(refused) == 1 and isinstance(refused[0], REFUSED), outcomes
    assert len(await store.matches.choices(match.id)) == 1


async def test_an_overdue_match_is_expired_once_by_whoever_takes_it_up(services, store,
                                                                       clock):
    table, other = services
    match = await started(table)
    assert other.live_matches() == []
    clock.advance(120 + OVERDUE + 1)
    # The table's process is frozen: the other takes the match up and expires it.
    assert await other.adopt_overdue() == 1
    await other.tick()
    await other.settle()
    rows = await store.matches.choices(match.id)
    assert [r.source for r in rows] == ["auto"]
    # Resumed, the frozen process finds the deadline it knew already served: it
    # catches up and stores nothing more.
    await table.tick()
    await table.settle()
    assert len(await store.matches.choices(match.id)) == 1
    assert match.state.step == other.get(match.id).state.step
    assert (await store.matches.get(match.id)).seats[0].strikes == 1


async def test_on_a_shared_store_the_deadline_task_looks_for_overdue_matches(services,
                                                                            clock):
    table, other = services
    match = await started(table)
    clock.advance(120 + OVERDUE + 1)
    task = asyncio.create_task(run_deadlines(other))
    try:
        for _ in range(200):
            await asyncio.sleep(0.01)
            if other.live_matches() and other.get(match.id).next_seq:
                break
        assert other.get(match.id).next_seq == 1  # taken up and expired
    finally:
        task.cancel()


async def test_a_forged_match_id_is_no_match_on_a_shared_store(services):
    _, other = services
    for forged in (0, 999_999, 2**63 - 1):  # the largest id a custom id may carry
        with pytest.raises(NoMatchHere):
            await other.submit(ADA.user_id, forged, "C4", interaction_id="f", step=0)
        with pytest.raises(NoMatchHere):
            await other.current(forged)
    assert other.live_matches() == []


async def test_a_copy_not_known_current_is_not_shown_once_another_process_moved_it(
        services):
    from bot.matches.delivery import FRESH_FOR

    table, other = services
    match = await started(table)
    await other.submit(ADA.user_id, match.id, first_option(match, 0), interaction_id="dm-1")
    await other.settle()
    shown = len(table.transport.published)
    # The table's process was frozen a while: its copy is old, and behind.
    match.known_at -= FRESH_FOR + 1
    assert await table._show(match)
    assert len(table.transport.published) == shown  # nothing old shown
    # Current again (here by a write of its own), it shows as usual.
    await table.submit(BO.user_id, match.id, first_option(other.get(match.id), 1),
                       interaction_id="g-1")
    await table.settle()
    assert len(table.transport.published) > shown
