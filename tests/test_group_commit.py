"""The writer process and its group commit: concurrent writes share a
transaction, each still all-or-nothing, and the bot's process never commits."""

from __future__ import annotations

import asyncio
import os
import pickle
import signal
import sqlite3
import time
from functools import partial

import pytest

from storage import Store
from storage import matches as matches_module
from storage.connection import connect
from storage.errors import DuplicateInteraction, WriterStopped
from storage.models import ChoiceRow, SeatRow
from storage.writer import commit_group


# Writes run in the writer process, so they are module-level (they must pickle).
def _insert_or_fail(n: int, conn: sqlite3.Connection) -> int:
    conn.execute("INSERT INTO t VALUES (?)", (n,))
    if n == 2:
        raise ValueError("no twos")
    return n


def _orphan_checked_at_commit(conn: sqlite3.Connection) -> None:
    """Breaks a foreign key with the check deferred: the group's COMMIT fails."""
    conn.execute("PRAGMA defer_foreign_keys = ON")
    conn.execute("INSERT INTO match_choices (match_id, seq, seat, choice, source, step,"
                 " created_at) VALUES (999999, 0, 0, 'C4', 'player', 0, 'now')")


def _slow(conn: sqlite3.Connection) -> int:
    time.sleep(0.5)
    return os.getpid()


def _pid(conn: sqlite3.Connection) -> int:
    return os.getpid()


@pytest.fixture
async def store(tmp_path):
    store = await Store.open(tmp_path / "croupier.sqlite3")
    yield store
    await store.close()


async def lobbies(store: Store, count: int) -> list[int]:
    ids = []
    for n in range(count):
        seats = [SeatRow(0, 10 * n + 1, "a"), SeatRow(1, 10 * n + 2, "b")]
        match_id = await store.matches.create_lobby(
            game="flank", options={}, seed=n, guild_id=1, channel_id=100 + n,
            host_id=10 * n + 1, max_seats=2, seats=seats[:1])
        await store.matches.start(match_id, seats, 1_000.0)
        ids.append(match_id)
    return ids


async def test_a_failing_write_fails_alone(store):
    db = store.db
    await db.execute("CREATE TABLE t (n INTEGER PRIMARY KEY)")
    got = await asyncio.gather(*(db.write(partial(_insert_or_fail, n)) for n in range(1, 5)),
                               return_exceptions=True)
    assert got[0] == 1 and got[2] == 3 and got[3] == 4
    assert isinstance(got[1], ValueError) and str(got[1]) == "no twos"
    assert "In the database writer process" in got[1].__notes__[0]  # where, for the logs
    rows = await db.fetchall("SELECT n FROM t ORDER BY n")
    assert [r[0] for r in rows] == [1, 3, 4]


async def test_a_write_that_does_not_pickle_is_refused_in_its_caller(store):
    db = store.db
    await db.execute("CREATE TABLE t (n INTEGER PRIMARY KEY)")
    with pytest.raises((pickle.PicklingError, AttributeError, TypeError)):
        await db.write(lambda conn: conn.execute("INSERT INTO t VALUES (9)"))
    assert await db.write(partial(_insert_or_fail, 1)) == 1
    assert [r[0] for r in await db.fetchall("SELECT n FROM t")] == [1]


async def test_concurrent_moves_commit_together_and_a_repeat_is_refused_alone(store):
    ids = await lobbies(store, 3)
    await store.matches.record(ids[0], [ChoiceRow(0, 0, "C4", "player", 0, "i-0")],
                               deadline_at=2_000.0)
    moves = [
        store.matches.record(ids[0], [ChoiceRow(1, 1, "C3", "player", 1, "i-1")],
                             deadline_at=3_000.0),
        store.matches.record(ids[1], [ChoiceRow(0, 0, "C4", "player", 0, "i-0")],
                             deadline_at=3_000.0),  # the interaction is already logged
        store.matches.record(ids[2], [ChoiceRow(0, 0, "C4", "player", 0, "i-2")],
                             deadline_at=3_000.0),
    ]
    got = await asyncio.gather(*moves, return_exceptions=True)
    assert got[0] is None and got[2] is None
    assert isinstance(got[1], DuplicateInteraction)
    assert [c.choice for c in await store.matches.choices(ids[0])] == ["C4", "C3"]
    assert await store.matches.choices(ids[1]) == []
    assert [c.interaction_id for c in await store.matches.choices(ids[2])] == ["i-2"]
    assert (await store.matches.get(ids[1])).deadline_at == 1_000.0  # untouched
    assert (await store.matches.get(ids[2])).deadline_at == 3_000.0


async def test_a_failed_commit_stores_nothing_of_its_group(store):
    ids = await lobbies(store, 2)
    got = await asyncio.gather(
        *(store.matches.record(match_id, [ChoiceRow(0, 0, "C4", "player", 0, f"x{match_id}")],
                               deadline_at=2_000.0) for match_id in ids),
        store.db.write(_orphan_checked_at_commit), return_exceptions=True)
    assert all(isinstance(g, sqlite3.IntegrityError) for g in got), got
    for match_id in ids:
        assert await store.matches.choices(match_id) == []
        assert (await store.matches.get(match_id)).deadline_at == 1_000.0
    # The next group is committed as usual.
    await store.matches.record(ids[0], [ChoiceRow(0, 0, "C4", "player", 0, "y")],
                               deadline_at=2_000.0)
    assert len(await store.matches.choices(ids[0])) == 1


async def test_close_waits_for_the_writes_asked_for(tmp_path):
    store = await Store.open(tmp_path / "c.sqlite3")
    ids = await lobbies(store, 5)
    pending = [asyncio.ensure_future(store.matches.record(
        match_id, [ChoiceRow(0, 0, "C4", "player", 0, f"c{match_id}")], deadline_at=2_000.0))
        for match_id in ids]
    await asyncio.sleep(0)
    await store.close()
    await asyncio.gather(*pending)
    store = await Store.open(tmp_path / "c.sqlite3")
    try:
        for match_id in ids:
            assert len(await store.matches.choices(match_id)) == 1
    finally:
        await store.close()


async def test_many_concurrent_moves_land_where_they_belong(store):
    """More moves than one bulk statement takes: every row and every new deadline
    lands where it belongs."""
    ids = await lobbies(store, 150)
    await asyncio.gather(*(
        store.matches.record(match_id, [ChoiceRow(0, 0, "C4", "player", 0, f"b{match_id}"),
                                        ChoiceRow(1, 1, "D5", "forced", 1)],
                             deadline_at=5_000.0 + match_id, warned=match_id % 2 == 0)
        for match_id in ids))
    for match_id in ids:
        rows = await store.matches.choices(match_id)
        assert [(r.seq, r.choice, r.source, r.interaction_id) for r in rows] == [
            (0, "C4", "player", f"b{match_id}"), (1, "D5", "forced", None)]
        row = await store.matches.get(match_id)
        assert (row.deadline_at, row.warned) == (5_000.0 + match_id, match_id % 2 == 0)


async def test_a_group_of_moves_is_written_by_the_bulk_statements(store, monkeypatch):
    """:func:`commit_group` as the writer runs it, here in this process: 150 moves
    go through the bulk statements, not one by one, and land where they belong; a
    repeated interaction among them fails alone."""
    ids = await lobbies(store, 151)
    await store.matches.record(ids[-1], [ChoiceRow(0, 0, "C4", "player", 0, "taken")],
                               deadline_at=1.0)
    await store.close()
    bulks: list[int] = []
    real = matches_module._Move.bulk

    def counting(conn, moves):
        bulks.append(len(moves))
        real(conn, moves)

    monkeypatch.setattr(matches_module._Move, "bulk", staticmethod(counting))
    moves = [matches_module._Move(match_id, [
        (match_id, 0, 0, "C4", "player", 0, f"b{match_id}", "now"),
        (match_id, 1, 1, "D5", "forced", 1, None, "now")], 5_000.0 + match_id, match_id % 2)
        for match_id in ids[:-1]]
    repeat = matches_module._Move(ids[-1], [(ids[-1], 1, 0, "C4", "player", 1, "b1", "now")],
                                  9.0, 0)
    conn = connect(store.db.path)
    try:
        outcomes = commit_group(conn, [*moves, repeat])
        assert bulks == [151]  # tried together once, then each alone
        assert outcomes[:-1] == [(True, None)] * 150
        assert not outcomes[-1][0] and isinstance(outcomes[-1][1], sqlite3.IntegrityError)
        bulks.clear()
        more = [matches_module._Move(m.match_id, [(m.match_id, 2, 0, "E6", "player", 2,
                                                   None, "now")], 6_000.0, 0) for m in moves]
        assert commit_group(conn, more) == [(True, None)] * 150
        assert bulks == [150]
        for match_id in ids[:-1]:
            rows = conn.execute("SELECT seq, choice FROM match_choices WHERE match_id = ?"
                                " ORDER BY seq", (match_id,)).fetchall()
            assert [tuple(r) for r in rows] == [(0, "C4"), (1, "D5"), (2, "E6")]
            assert conn.execute("SELECT deadline_at FROM matches WHERE id = ?",
                                (match_id,)).fetchone()[0] == 6_000.0
        assert conn.execute("SELECT COUNT(*) FROM match_choices WHERE match_id = ?",
                            (ids[-1],)).fetchone()[0] == 1
    finally:
        conn.close()


async def test_the_writer_is_another_process_and_ignores_ctrl_c(store):
    pid = await store.db.write(_pid)
    assert pid != os.getpid() and store.db.writer_pid == pid
    os.kill(pid, signal.SIGINT)  # Ctrl-C reaches the whole process group
    await asyncio.sleep(0.1)
    assert await store.db.write(_pid) == pid


async def test_a_writer_that_dies_fails_its_writes_and_is_started_again(store):
    first = await store.db.write(_pid)
    slow = asyncio.ensure_future(store.db.write(_slow))
    await asyncio.sleep(0.2)
    os.kill(first, signal.SIGKILL)
    with pytest.raises(WriterStopped):
        await slow
    ids = await lobbies(store, 1)  # the next write starts a new writer
    assert store.db.writer_pid not in (None, first)
    assert (await store.matches.get(ids[0])).status == "active"
