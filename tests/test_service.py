"""The match service with real SQLite, a recording transport and a fake clock."""

from __future__ import annotations

import asyncio
import random

import pytest

import tests.simgame  # noqa: F401  (registers the secret-choice test game)
from bot.clock import FakeClock
from bot.errors import (
    AlreadySeated,
    ChannelBusy,
    LobbyFull,
    NoMatchHere,
    NotAllowed,
    NotSeated,
    StaleChoice,
    WrongPhase,
)
from bot.i18n import say
from bot.matches.deadlines import run_deadlines
from bot.matches.live import Player
from bot.matches.service import MatchService, Timing
from rules.core import replay
from rules.errors import BadOptions, IllegalChoice, MalformedChoice, NotYourTurn
from tests.recording import RecordingTransport

pytestmark = pytest.mark.engines  # the tests that take a `store` run on both engines

ADA = Player(1, "Ada")
BO = Player(2, "Bo")
CY = Player(3, "Cy")
MOD = Player(9, "Mod", is_moderator=True)
CHANNEL = 500
SEAT_0_STARTS = 1
"""A match seed with which Flank draws seat 0 (Ada, the host) to play first."""


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def transport():
    return RecordingTransport()


@pytest.fixture
async def service(store, transport, clock):
    service = MatchService(store, transport, clock=clock,
                           timing=Timing(turn_seconds=120, warn_seconds=30))
    yield service
    await service.settle()


async def two_humans(service: MatchService, game: str = "flank"):
    # Classic 8×8 Flank (no stoppers): no pass can happen in the first moves.
    options = {"board": 8, "stoppers": 0} if game == "flank" else {}
    await service.open_lobby(ADA, guild_id=1, channel_id=CHANNEL, game=game, options=options,
                             seed=SEAT_0_STARTS)
    await service.join(BO, CHANNEL)
    match = await service.start(ADA, CHANNEL)
    await service.settle()
    return match


# -- lobby ----------------------------------------------------------------------
async def test_lobby_join_leave_start(service, store):
    match = await service.open_lobby(ADA, guild_id=1, channel_id=CHANNEL, game="flank")
    with pytest.raises(AlreadySeated):
        await service.join(ADA, CHANNEL)
    await service.join(BO, CHANNEL)
    with pytest.raises(LobbyFull):
        await service.join(CY, CHANNEL)
    await service.leave(BO, CHANNEL)
    assert [s.name for s in match.seats] == ["Ada"]
    with pytest.raises(WrongPhase, match="at least 2"):
        await service.start(ADA, CHANNEL)
    await service.join(CY, CHANNEL)
    with pytest.raises(NotAllowed):
        await service.start(CY, CHANNEL)
    await service.start(ADA, CHANNEL)
    row = await store.matches.get(match.id)
    assert row.status == "active"
    assert [(s.seat, s.user_id) for s in row.seats] == [(0, 1), (1, 3)]
    with pytest.raises(WrongPhase):
        await service.join(BO, CHANNEL)


async def test_one_live_match_per_channel_and_bad_options(service):
    await service.open_lobby(ADA, guild_id=1, channel_id=CHANNEL, game="flank")
    with pytest.raises(ChannelBusy):
        await service.open_lobby(BO, guild_id=1, channel_id=CHANNEL, game="flank")
    with pytest.raises(BadOptions) as refused:
        await service.open_lobby(BO, guild_id=1, channel_id=CHANNEL + 1, game="chess")
    assert say(refused.value.text, "en").startswith("there is no game 'chess'; the games are ")
    assert say(refused.value.text, "pt_BR").startswith("não existe o jogo 'chess'")
    with pytest.raises(BadOptions):
        await service.open_lobby(BO, guild_id=1, channel_id=CHANNEL + 1, game="flank",
                                 options={"board": 7})
    with pytest.raises(NoMatchHere):
        service.match_in(CHANNEL + 1)


async def test_host_leaving_hands_over_and_last_leaving_closes(service, store):
    match = await service.open_lobby(ADA, guild_id=1, channel_id=CHANNEL, game="flank")
    await service.join(BO, CHANNEL)
    await service.leave(ADA, CHANNEL)
    assert match.row.host_id == BO.user_id
    await service.leave(BO, CHANNEL)
    await service.settle()
    assert (await store.matches.get(match.id)).status == "cancelled"
    with pytest.raises(NoMatchHere):
        service.match_in(CHANNEL)


async def test_cancel_needs_host_or_moderator(service, store):
    match = await two_humans(service)
    with pytest.raises(NotAllowed):
        await service.cancel(BO, CHANNEL)
    await service.cancel(MOD, CHANNEL)
    await service.settle()
    assert (await store.matches.get(match.id)).status == "cancelled"
    # The channel is free again.
    await service.open_lobby(BO, guild_id=1, channel_id=CHANNEL, game="flank")


async def test_kick_in_lobby_and_in_play(service, store):
    await service.open_lobby(ADA, guild_id=1, channel_id=CHANNEL, game="flank",
                             seed=SEAT_0_STARTS)
    await service.join(BO, CHANNEL)
    with pytest.raises(NotAllowed):
        await service.kick(BO, CHANNEL, ADA.user_id)
    await service.kick(ADA, CHANNEL, BO.user_id)
    match = service.match_in(CHANNEL)
    assert [s.user_id for s in match.seats] == [ADA.user_id]
    await service.join(BO, CHANNEL)
    await service.start(ADA, CHANNEL)
    await service.kick(MOD, CHANNEL, BO.user_id)
    await service.settle()
    # The computer took Bo's seat: play goes on with Ada to move again after its reply.
    assert match.seats[1].state == "kicked"
    state = match.state
    await service.submit(ADA.user_id, match.id, state.decision_for(0).options[0])
    await service.settle()
    assert match.state.decision_for(0) is not None or match.finished
    choices = await store.matches.choices(match.id)
    assert [c.source for c in choices[:2]] == ["player", "bot"]


# -- play -------------------------------------------------------------------------
async def test_vs_bot_starts_at_once_and_the_computer_answers(service, store):
    match = await service.open_lobby(ADA, guild_id=1, channel_id=CHANNEL, game="flank",
                                     vs_bot=True, seed=SEAT_0_STARTS)
    await service.settle()
    assert match.playing and match.seats[1].is_bot
    move = match.state.decision_for(0).options[0]
    ack = await service.submit(ADA.user_id, match.id, move, interaction_id="i-1")
    assert not ack.duplicate
    await service.settle()
    log = await store.matches.choices(match.id)
    assert [(c.seat, c.source) for c in log] == [(0, "player"), (1, "bot")]
    assert match.state.decision_for(0) is not None


async def test_wrong_seat_not_your_turn_stale_and_illegal_change_nothing(service, store):
    match = await two_humans(service)
    first = match.state.decision_for(0).options[0]
    before = match.state.notation()
    with pytest.raises(NotSeated):
        await service.submit(CY.user_id, match.id, first)
    with pytest.raises(NotYourTurn):
        await service.submit(BO.user_id, match.id, first)
    with pytest.raises(MalformedChoice):
        await service.submit(ADA.user_id, match.id, "Q")
    with pytest.raises(IllegalChoice):
        await service.submit(ADA.user_id, match.id, "A1")
    with pytest.raises(StaleChoice):
        await service.submit(ADA.user_id, match.id, first, step=match.state.step + 5)
    assert match.state.notation() == before
    assert await store.matches.choices(match.id) == []


async def test_duplicate_submission_is_acknowledged_once(service, store):
    match = await two_humans(service)
    first = match.state.decision_for(0).options[0]
    step = match.state.step
    ack = await service.submit(ADA.user_id, match.id, first, interaction_id="x1", step=step)
    again = await service.submit(ADA.user_id, match.id, first, interaction_id="x1", step=step)
    assert not ack.duplicate and again.duplicate
    assert len(await store.matches.choices(match.id)) == 1


async def test_forced_choices_after_a_persons_are_stored_in_the_same_commit(service, store):
    """A forced choice that follows a person's (a single option) is made and stored
    in the person's commit, not in a commit of its own; the log still replays."""
    match = await two_humans(service, "eclipse")
    commits: list[list[str]] = []
    record = store.matches.record

    async def counting(match_id, rows, **how):
        commits.append([row.source for row in rows])
        return await record(match_id, rows, **how)

    store.matches.record = counting
    rng = random.Random(3)
    players = {0: ADA, 1: BO}
    while not match.finished and sum(map(len, commits)) < 400:
        decision = rng.choice(match.state.pending())
        await service.submit(players[decision.seat].user_id, match.id,
                             rng.choice(decision.options))
        await service.settle()
    followed = [c for c in commits if c[0] == "player" and "forced" in c]
    assert followed, "no forced choice came up"
    assert all(c[0] == "player" for c in commits), commits  # none stored on its own
    rows = await store.matches.choices(match.id)
    assert [r.seq for r in rows] == list(range(len(rows)))
    replayed = replay(match.info, match.row.options, len(match.seats), match.row.seed,
                      [(r.seat, r.choice) for r in rows])
    assert replayed.notation() == match.state.notation()


@pytest.mark.engines("sqlite")  # a shared store also wakes it to look for overdue matches
async def test_the_deadline_task_is_woken_only_for_an_earlier_due_time(service, clock):
    match = await two_humans(service)
    task = asyncio.create_task(run_deadlines(service))
    try:
        await asyncio.sleep(0)  # it looks, plans when to wake, and sleeps
        assert service.next_wake == service.next_due() == match.row.deadline_at - 30
        clock.advance(5)
        await service.submit(ADA.user_id, match.id, match.state.decision_for(0).options[0])
        assert not service.deadlines_changed.is_set()  # a later due time: it sleeps on
        service._due_at(service.next_wake - 1)
        assert service.deadlines_changed.is_set()
        for _ in range(20):  # it wakes, looks again and plans anew
            await asyncio.sleep(0)
            if service.next_wake == service.next_due():
                break
        assert service.next_wake == service.next_due() == match.row.deadline_at - 30
    finally:
        task.cancel()


async def test_a_finished_game_records_its_result(service, store):
    match = await service.open_lobby(ADA, guild_id=1, channel_id=CHANNEL, game="secret",
                                     vs_bot=True)
    await service.settle()
    while not match.finished:
        await service.submit(ADA.user_id, match.id, match.state.decision_for(0).options[0])
        await service.settle()
    row = await store.matches.get(match.id)
    assert row.status == "finished"
    reason, seats = await store.matches.result(match.id)
    assert reason == "more rounds won" and len(seats) == 2
    assert {s.place for s in seats} <= {1, 2}
    with pytest.raises(NoMatchHere):
        service.match_in(CHANNEL)


async def test_forfeit_ends_a_two_seat_game(service, store):
    match = await two_humans(service)
    await service.forfeit(BO, CHANNEL)
    await service.settle()
    _reason, seats = await store.matches.result(match.id)
    assert [s.place for s in seats] == [1, 2]
    assert (await store.matches.choices(match.id))[-1].source == "resign"


# -- deadlines ----------------------------------------------------------------------
async def test_deadline_warns_then_auto_moves_with_strikes_then_forfeits(
        service, store, transport, clock):
    match = await two_humans(service)
    assert service.next_due() == pytest.approx(clock.now() + 90)
    clock.advance(89)
    await service.tick()
    assert not transport.notices
    clock.advance(1)
    await service.tick()
    assert "30 seconds left" in transport.notices[-1][1]
    assert transport.notices[-1][2] == (ADA.user_id,)

    strikes_seen = []
    for _ in range(6):
        if match.finished:
            break
        clock.advance(120)
        await service.tick()
        await service.settle()
        strikes_seen.append(tuple(s.strikes for s in match.seats))
    # Ada and Bo each time out in turn: strikes climb 1, 1, 2, 2, then Ada's third forfeits.
    assert strikes_seen[:5] == [(1, 0), (1, 1), (2, 1), (2, 2), (3, 2)]
    assert match.finished
    _reason, seats = await store.matches.result(match.id)
    assert [s.place for s in seats] == [2, 1]
    sources = [c.source for c in await store.matches.choices(match.id)]
    assert sources == ["auto", "auto", "auto", "auto", "resign"]
    stored = await store.matches.seats(match.id)
    assert [(s.strikes, s.state) for s in stored] == [(3, "forfeited"), (2, "playing")]
    assert any("strike 1 of 3" in text for _, text, _ in transport.notices)


async def test_a_third_strike_beside_another_late_seat_moves_both_on(
        service, store, transport, clock, caplog):
    # Eclipse at three seats: attacker and defender choose their cards at once.
    # Both run out of time; one of them at its third strike. Its forfeit moves
    # the hand on, so the other's choice is made first, on the step it was late
    # for (it once was worked out before the forfeit and refused after it, and
    # the deadline task failed).
    await service.open_lobby(ADA, guild_id=1, channel_id=CHANNEL, game="eclipse", seed=1)
    await service.join(BO, CHANNEL)
    await service.join(CY, CHANNEL)
    match = await service.start(ADA, CHANNEL)
    await service.settle()
    rng = random.Random(1)
    # Some way in, where a hand that goes on without its attacker can open with a
    # counterattack, which a card worked out before cannot answer.
    while match.state.step < 20 or len(pending := match.state.pending()) < 2:
        pending = match.state.pending()
        decision = pending[0]
        await service.submit(match.seats[decision.seat].user_id, match.id,
                             rng.choice(decision.options))
        await service.settle()
    forfeiting, other = (d.seat for d in pending)
    match.seats[forfeiting].strikes = 2
    before = len(await store.matches.choices(match.id))

    clock.advance(120)
    await service.tick()
    await service.settle()

    assert not [r for r in caplog.records if r.levelname == "ERROR"]
    made = (await store.matches.choices(match.id))[before:]
    assert [(c.seat, c.source) for c in made[:2]] == [(other, "auto"), (forfeiting, "resign")]
    stored = await store.matches.seats(match.id)
    assert (stored[forfeiting].state, stored[forfeiting].strikes) == ("forfeited", 3)
    assert (stored[other].state, stored[other].strikes) == ("playing", 1)
    assert not match.finished and match.row.deadline_at > clock.now()
    assert any("forfeits" in text for _, text, _ in transport.notices)


async def test_a_move_in_time_resets_the_clock(service, clock):
    match = await two_humans(service)
    clock.advance(100)
    await service.submit(ADA.user_id, match.id, match.state.decision_for(0).options[0])
    clock.advance(100)
    await service.tick()
    assert all(s.strikes == 0 for s in match.seats)


# -- secret simultaneous choices and private delivery ----------------------------------
async def test_simultaneous_choices_are_held_then_revealed_together(service, transport):
    match = await two_humans(service, game="secret")
    ack = await service.submit(BO.user_id, match.id, "3")
    assert ack.held
    await service.settle()
    public = " ".join(transport.public_texts(match.names))
    assert "3" not in public.replace("Secret Numbers", "")
    with pytest.raises(NotYourTurn, match="already made your choice"):
        await service.submit(BO.user_id, match.id, "2")
    await service.submit(ADA.user_id, match.id, "1")
    await service.settle()
    assert "Ada shows 1, Bo shows 3: Bo scores." in transport.public_texts(match.names)
    # Each player was sent only their own hand.
    for user_id, view in transport.private:
        seat = match.seat_of(user_id).seat
        assert view.seat == seat
        assert all(e.visible_to(seat) for e in view.events)


async def test_closed_dms_fall_back_to_the_hand_view(service, transport, store):
    transport.closed.add(BO.user_id)
    match = await two_humans(service, game="secret")
    notices = [text for _, text, _ in transport.notices]
    assert any("can't send Bo a direct message" in t and "/hand" in t for t in notices)
    assert not any(str(match.state.hands[1]) in t for t in notices)
    assert await store.closed_dms.closed_since(BO.user_id) is not None
    assert all(user != BO.user_id for user, _ in transport.private)
    view = service.private_view(BO, CHANNEL)
    assert view.observation.hand == (1, 2, 3)
    assert view.decision.options == ("1", "2", "3")
    # Only one notice per match, however many steps follow.
    await service.submit(ADA.user_id, match.id, "1")
    await service.submit(BO.user_id, match.id, "2")
    await service.settle()
    assert sum("can't send Bo" in text for _, text, _ in transport.notices) == 1
    with pytest.raises(NotSeated):
        service.private_view(CY, CHANNEL)


async def test_a_server_deadline_setting_wins_over_the_default(service, store, clock):
    await store.settings.set_timing(1, "*", turn_seconds=40, warn_seconds=10)
    match = await two_humans(service)
    assert match.row.deadline_at == pytest.approx(clock.now() + 40)
    assert service.next_due() == pytest.approx(clock.now() + 30)


async def test_a_game_s_own_deadline_setting_wins_over_the_every_game_one(service, store,
                                                                          clock):
    await store.settings.set_timing(1, "*", turn_seconds=40, warn_seconds=10)
    await store.settings.set_timing(1, "flank", turn_seconds=90, warn_seconds=None)
    match = await two_humans(service)
    assert match.row.deadline_at == pytest.approx(clock.now() + 90)
    assert service.next_due() == pytest.approx(clock.now() + 80)


@pytest.mark.parametrize(("options", "deck", "colours"), [
    ({"teams": False}, "workshop4", ("red", "green", "blue", "yellow")),
    ({"deck": "space"}, "space", ("red", "blue", "red", "blue")),
])
async def test_four_player_hammer_and_nails_against_the_computer(service, store, options,
                                                                 deck, colours):
    """A person and three computer players, in teams or four colours, to the result."""
    match = await service.open_lobby(ADA, guild_id=1, channel_id=CHANNEL, game="nails",
                                     options=options, seats=4, vs_bot=True)
    assert match.state.deck_def.name == deck and match.state.colour_of == colours
    while not match.finished:
        await service.settle()
        decision = match.state.decision_for(0) if not match.finished else None
        if decision is not None:
            await service.submit(ADA.user_id, match.id, decision.options[0])
    await service.settle()
    result = await store.matches.result(match.id)
    assert result is not None
    places = match.state.outcome().places
    if colours[0] == colours[2]:                  # teammates share a place
        assert places[0] == places[2] and places[1] == places[3]


async def test_a_three_player_two_colour_nails_game_is_refused(service):
    with pytest.raises(BadOptions) as refused:
        await service.open_lobby(ADA, guild_id=1, channel_id=CHANNEL, game="nails", seats=3)
    assert "2 players or 4" in say(refused.value.text, "en")


def test_the_start_up_collection_is_made_once_a_process(monkeypatch) -> None:
    """Each bot started sets the collector's thresholds; the full collection from a
    clean heap is made by the first alone (a test worker starts hundreds of bots)."""
    import gc

    from bot.matches import service

    collected: list[int] = []
    monkeypatch.setattr(service, "_COLLECTED", False)
    monkeypatch.setattr(gc, "collect", lambda *a: collected.append(1) or 0)
    before = gc.get_threshold()
    try:
        for _ in range(3):
            service.tune_gc()
        assert collected == [1] and gc.get_threshold() == service.GC_THRESHOLDS
    finally:
        gc.set_threshold(*before)
