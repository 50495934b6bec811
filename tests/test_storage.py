"""Storage: migrations, the append-only log, replay and restart recovery."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

import tests.simgame  # noqa: F401  (registers the secret-choice test game)
from bot.clock import FakeClock
from bot.errors import NotRecorded
from bot.matches.live import Player
from bot.matches.service import MatchService, Timing
from rules.core import replay
from rules.registry import get_game
from storage import ChoiceRow, DuplicateInteraction, SeatResult, SeatRow, Store
from storage.db import Database, Migration, shipped_migrations
from tests.pgstore import refused_by_schema
from tests.recording import RecordingTransport

pytestmark = pytest.mark.engines  # the tests that take a `store` run on both engines

ADA, BO = Player(1, "Ada"), Player(2, "Bo")


async def test_migrations_on_an_empty_file(tmp_path):
    db = await Database.open(tmp_path / "new.sqlite3")
    try:
        assert await db.schema_version() == len(shipped_migrations())
        mode = await db.fetchone("PRAGMA journal_mode")
        assert mode[0] == "wal"
        tables = {r[0] for r in await db.fetchall("SELECT name FROM sqlite_master")}
        assert {"matches", "match_seats", "match_choices", "results", "result_seats",
                "guild_settings", "players", "closed_dms"} <= tables
        # Opening again applies nothing new.
        assert await db.migrate(shipped_migrations()) == []
    finally:
        await db.close()


async def test_a_new_migration_applies_to_an_existing_file_and_keeps_its_data(tmp_path):
    path = tmp_path / "old.sqlite3"
    store = await Store.open(path)
    match_id = await store.matches.create_lobby(
        game="flank", options={"board": 8}, seed=7, guild_id=1, channel_id=10, host_id=1,
        max_seats=2, seats=[SeatRow(0, 1, "Ada")])
    await store.close()

    later = Migration(len(shipped_migrations()) + 1, "add_note",
                      "ALTER TABLE matches ADD COLUMN note TEXT DEFAULT 'kept';")
    db = await Database.open(path, [*shipped_migrations(), later])
    try:
        assert await db.schema_version() == later.version
        row = await db.fetchone("SELECT game, options, note FROM matches WHERE id = ?",
                                (match_id,))
        assert tuple(row) == ("flank", '{"board": 8}', "kept")
    finally:
        await db.close()


async def test_a_failing_migration_leaves_nothing_half_done(tmp_path):
    path = tmp_path / "x.sqlite3"
    broken = Migration(len(shipped_migrations()) + 1, "broken",
                       "CREATE TABLE half (x INTEGER); SELECT * FROM no_such_table;")
    with pytest.raises(sqlite3.OperationalError):
        await Database.open(path, [*shipped_migrations(), broken])
    db = await Database.open(path)
    try:
        assert await db.schema_version() == len(shipped_migrations())
        assert await db.fetchone("SELECT name FROM sqlite_master WHERE name = 'half'") is None
    finally:
        await db.close()


async def test_the_choice_log_is_append_only_and_interactions_unique(store):
    mid = await store.matches.create_lobby(
        game="flank", options={}, seed=1, guild_id=1, channel_id=10, host_id=1,
        max_seats=2, seats=[SeatRow(0, 1, "Ada"), SeatRow(1, 2, "Bo")])
    await store.matches.record(mid, [ChoiceRow(0, 0, "C4", "player", 0, "i1")],
                               deadline_at=None)
    with pytest.raises(DuplicateInteraction):
        await store.matches.record(mid, [ChoiceRow(1, 1, "C3", "player", 1, "i1")],
                                   deadline_at=None)
    assert len(await store.matches.choices(mid)) == 1
    for change in ("UPDATE match_choices SET choice = 'D3'", "DELETE FROM match_choices"):
        with pytest.raises(Exception, match="append-only") as refused:
            await store.db.execute(change)
        assert refused_by_schema(refused.value)
    assert await store.matches.interaction_logged("i1")


async def test_a_process_behind_reads_the_match_and_the_log_after_its_own_in_one_read(store):
    seats = [SeatRow(0, 1, "Ada", setup={"deck": "x"}), SeatRow(1, 2, "Bo"),
             SeatRow(2, None, "Cy", is_bot=True, level="hard")]
    mid = await store.matches.create_lobby(
        game="flank", options={}, seed=1, guild_id=1, channel_id=10, host_id=1,
        max_seats=3, seats=seats)
    other = await store.matches.create_lobby(
        game="flank", options={}, seed=1, guild_id=1, channel_id=11, host_id=1,
        max_seats=2, seats=seats[:2])
    log = [ChoiceRow(n, n % 2, f"C{n}", "player", n, f"i{n}") for n in range(5)]
    await store.matches.record(mid, log, deadline_at=None)
    await store.matches.record(other, [ChoiceRow(0, 0, "D1", "player", 0, "o0")],
                               deadline_at=None)
    for since in (0, 3, 5):
        read = await store.matches.caught_up(mid, since=since)
        assert read is not None
        row, after = read
        assert row == await store.matches.get(mid)
        assert after == await store.matches.choices(mid, since=since) == log[since:]
    assert await store.matches.caught_up(other + 1, since=0) is None


async def test_a_recorded_result_is_queued_to_be_shown_until_it_is(store):
    seats = [SeatRow(0, 1, "Ada"), SeatRow(1, 2, "Bo")]
    first, second = [await store.matches.create_lobby(
        game="flank", options={}, seed=1, guild_id=1, channel_id=10 + n, host_id=1,
        max_seats=2, seats=seats) for n in range(2)]
    for mid in (first, second):
        await store.matches.start(mid, seats, None)
        await store.matches.record(mid, [], deadline_at=None, result=("resign", [
            SeatResult(0, 1, False, 1, None), SeatResult(1, 2, False, 2, None)]))
    queued = await store.matches.results_to_show()
    assert [m.id for m in queued] == [first, second]
    assert [s.name for s in queued[0].seats] == ["Ada", "Bo"]
    assert queued[0].status == "finished"
    await store.matches.result_shown(first)
    assert [m.id for m in await store.matches.results_to_show()] == [second]


async def test_guild_settings_and_closed_dms(store):
    assert (await store.settings.get(5)).timings == ()
    await store.settings.update(5, ante=True, organiser_role_id=77)
    await store.settings.set_timing(5, "eclipse", turn_seconds=90, warn_seconds=None)
    got = await store.settings.get(5)
    assert (got.ante, got.organiser_role_id) == (True, 77)
    assert [(t.game, t.turn_seconds, t.warn_seconds) for t in got.timings] == [
        ("eclipse", 90, None)]
    assert (await store.settings.timing(5, "flank")).turn_seconds is None
    await store.settings.set_timing(5, "eclipse", turn_seconds=None, warn_seconds=None)
    assert (await store.settings.get(5)).timings == ()
    with pytest.raises(KeyError):
        await store.settings.update(5, colour="red")
    with pytest.raises(KeyError):
        await store.settings.update(5, locale="fr")  # nothing read it: it is gone
    await store.closed_dms.mark_closed(2, 123.0)
    assert await store.closed_dms.closed_since(2) == 123.0
    await store.closed_dms.mark_open(2)
    assert await store.closed_dms.closed_since(2) is None


async def _service(path, clock):
    store = await Store.open(path)
    transport = RecordingTransport()
    return MatchService(store, transport, clock=clock,
                        timing=Timing(turn_seconds=300, warn_seconds=60, restart_grace=45))


async def test_replay_of_the_log_equals_the_live_state(tmp_path):
    clock = FakeClock()
    service = await _service(tmp_path / "r.sqlite3", clock)
    match = await service.open_lobby(ADA, guild_id=1, channel_id=1, game="flank",
                                     options={"board": 8}, vs_bot=True, seed=42)
    await service.settle()
    for _ in range(8):
        if match.finished:
            break
        await service.submit(ADA.user_id, match.id, match.state.decision_for(0).options[-1])
        await service.settle()
    log = await service.store.matches.choices(match.id)
    rebuilt = replay(get_game("flank"), {"board": 8}, 2, 42, [(c.seat, c.choice) for c in log])
    assert rebuilt.notation() == match.state.notation()
    assert rebuilt.step == match.state.step
    await service.store.close()


async def test_restart_recovers_several_matches(tmp_path):
    path = tmp_path / "restart.sqlite3"
    clock = FakeClock()
    first = await _service(path, clock)
    # 1: Flank against the computer, a few moves in.
    # Seed 1: Flank draws seat 0 (Ada) to play first.
    vs_bot = await first.open_lobby(ADA, guild_id=1, channel_id=1, game="flank",
                                    options={"board": 8, "stoppers": 0}, vs_bot=True, seed=1)
    await first.settle()
    for _ in range(3):
        await first.submit(ADA.user_id, vs_bot.id, vs_bot.state.decision_for(0).options[0])
        await first.settle()
    # 2: two people at Flank on a bounded board, one move in.
    await first.open_lobby(ADA, guild_id=1, channel_id=2, game="flank", options={"board": 6},
                           seed=1)
    await first.join(BO, 2)
    humans = await first.start(ADA, 2)
    await first.submit(ADA.user_id, humans.id, humans.state.decision_for(0).options[0],
                       interaction_id="int-7")
    # 3: a secret step half chosen: Bo's card is held, unrevealed.
    await first.open_lobby(ADA, guild_id=1, channel_id=3, game="secret")
    await first.join(BO, 3)
    secret = await first.start(ADA, 3)
    await first.submit(BO.user_id, secret.id, "2")
    # 4: a lobby still waiting.
    await first.open_lobby(BO, guild_id=1, channel_id=4, game="flank")
    await first.settle()
    before = {m.id: (m.state.notation() if m.state else None, m.row.status)
              for m in first.live_matches()}
    deadlines = {m.id: m.row.deadline_at for m in first.live_matches()}
    await first.store.close()  # the process stops

    clock.advance(400)  # down longer than a turn: deadlines passed meanwhile
    second = await _service(path, clock)
    restored = await second.restore()
    await second.settle()
    after = {m.id: (m.state.notation() if m.state else None, m.row.status) for m in restored}
    assert after == before
    for match in restored:
        if match.row.status == "active":
            # Re-armed: a grace period from now, not an instant strike.
            assert match.row.deadline_at == clock.now() + 45
            assert match.row.deadline_at > deadlines[match.id]
    # Each continues where it was.
    again = second.match_in(3)
    assert again.state.has_chosen(1)
    await second.submit(ADA.user_id, again.id, "1")
    await second.settle()
    assert again.state.revealed == [(1, 2)]
    # The duplicate from before the restart is still recognised.
    ack = await second.submit(ADA.user_id, humans.id, "A1", interaction_id="int-7")
    assert ack.duplicate
    await second.join(ADA, 4)
    assert [s.name for s in second.match_in(4).seats] == ["Bo", "Ada"]
    await second.tick()
    assert all(s.strikes == 0 for m in second.live_matches() for s in m.seats)
    await second.store.close()


async def test_a_match_whose_log_cannot_replay_is_abandoned_not_fatal(tmp_path):
    path = tmp_path / "bad.sqlite3"
    clock = FakeClock()
    first = await _service(path, clock)
    match = await first.open_lobby(ADA, guild_id=1, channel_id=1, game="flank", vs_bot=True)
    await first.settle()
    await first.store.matches.record(match.id, [ChoiceRow(99, 0, "Z99", "player", 0)],
                                     deadline_at=None)
    await first.store.close()
    second = await _service(path, clock)
    assert await second.restore() == []
    assert (await second.store.matches.get(match.id)).status == "abandoned"
    await second.store.close()


async def test_a_failed_write_fails_its_submission_and_the_match_goes_on(tmp_path):
    """Another program holds the file's write lock when a move is written: that
    submission raises, nothing of it is stored or applied, and the next
    submission on the match (the same sequence number) is stored once the lock
    is gone."""
    path = tmp_path / "locked.sqlite3"
    service = await _service(path, FakeClock())
    store = service.store
    try:
        await service.open_lobby(ADA, guild_id=1, channel_id=1, game="flank",
                                 options={"board": 8}, seed=1)  # seat 0 starts
        await service.join(BO, 1)
        match = await service.start(ADA, 1)
        first = match.state.decision_for(0).options[0]
        await service.submit(ADA.user_id, match.id, first, interaction_id="a")
        await service.settle()
        before = (match.state.notation(), match.state.step, match.next_seq)
        logged = await store.matches.choices(match.id)

        await store.db.execute("PRAGMA busy_timeout = 100")  # (the writer's: 5 s else)
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        reply = match.state.decision_for(1).options[0]
        with pytest.raises(NotRecorded) as refused:
            await service.submit(BO.user_id, match.id, reply, interaction_id="b")
        assert "locked" in str(refused.value.__cause__)
        assert (match.state.notation(), match.state.step, match.next_seq) == before
        assert await store.matches.choices(match.id) == logged
        assert not await store.matches.interaction_logged("b")

        other.execute("ROLLBACK")
        other.close()
        ack = await service.submit(BO.user_id, match.id, reply, interaction_id="b")
        assert not ack.duplicate
        await service.settle()
        now = await store.matches.choices(match.id)
        assert now[:len(logged)] == logged
        assert now[len(logged)].seq == before[2] and now[len(logged)].interaction_id == "b"
        assert [c.seq for c in now] == list(range(len(now)))
        assert match.next_seq == len(now)
    finally:
        await store.close()


async def test_a_read_right_after_a_commit_sees_it_under_concurrency(store):
    """A single-row read must not reuse another read's open snapshot: each task
    reads back its own committed write at once, while other tasks' writes commit
    and their reads run (some did not, when fetchone kept its cursor open across
    an await)."""
    missed = 0

    async def flip_and_read(guild: int) -> None:
        nonlocal missed
        for n in range(6):
            await store.settings.update(guild, ante=n % 2 == 0)
            if (await store.settings.get(guild)).ante != (n % 2 == 0):
                missed += 1
            await asyncio.sleep((guild % 7) / 1000)  # commits and reads interleave

    await asyncio.gather(*(flip_and_read(g) for g in range(1, 161)))
    assert missed == 0, f"{missed} reads missed their own write"
