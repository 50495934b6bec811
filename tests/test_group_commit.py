"""The writer and its group commit: concurrent writes share a transaction (the
usual moves one statement), each still all-or-nothing, and a caller always
learns whether its write is stored."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import traceback
from functools import partial
from pathlib import Path

import pytest

from storage import Store
from storage import matches as matches_module
from storage import writer as writer_module
from storage.connection import connect
from storage.errors import DuplicateInteraction, WriterStopped
from storage.models import ChoiceRow, SeatRow
from storage.writer import commit_group


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


def _slow(conn: sqlite3.Connection) -> None:
    """Keeps the writer busy while a group gathers behind it."""
    time.sleep(0.3)


class Counting:
    """A connection that notes each statement it is asked to run."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.calls: list[str] = []

    def execute(self, sql: str, *args):
        self.calls.append(sql.split(" VALUES")[0])
        return self.conn.execute(sql, *args)

    def executemany(self, sql: str, *args):
        self.calls.append(sql.split(" VALUES")[0])
        return self.conn.executemany(sql, *args)

    def __getattr__(self, name: str):
        return getattr(self.conn, name)


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
    busy = asyncio.ensure_future(db.write(_slow))
    await asyncio.sleep(0.05)  # the four below wait for the writer: one group
    got = await asyncio.gather(*(db.write(partial(_insert_or_fail, n)) for n in range(1, 5)),
                               return_exceptions=True)
    await busy
    assert got[0] == 1 and got[2] == 3 and got[3] == 4
    assert isinstance(got[1], ValueError) and str(got[1]) == "no twos"
    where = [frame.name for frame in traceback.extract_tb(got[1].__traceback__)]
    assert "_insert_or_fail" in where  # where it failed, for the logs
    rows = await db.fetchall("SELECT n FROM t ORDER BY n")
    assert [r[0] for r in rows] == [1, 3, 4]


async def test_any_callable_is_a_write_and_runs_on_a_thread_of_this_process(store):
    """Nothing is pickled: a closure will do, and it runs on the writer's thread."""
    db = store.db
    await db.execute("CREATE TABLE t (n INTEGER PRIMARY KEY)")
    seen = []

    def insert(conn: sqlite3.Connection) -> int:
        seen.append(threading.current_thread())
        return conn.execute("INSERT INTO t VALUES (9)").lastrowid

    assert await db.write(insert) == 9
    assert seen == [db.writer_thread] and seen[0] is not threading.current_thread()
    # It waits for the GIL at most this long after each call into SQLite.
    assert sys.getswitchinterval() <= writer_module.SWITCH_INTERVAL
    assert [r[0] for r in await db.fetchall("SELECT n FROM t")] == [9]


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


async def test_a_group_of_moves_is_written_by_one_statement(store, monkeypatch):
    """:func:`commit_group` as the writer runs it, here on the test's thread: 150
    moves are one statement, not one by one, and land where they belong; a
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
        counting = Counting(conn)
        assert commit_group(counting, more) == [(True, None)] * 150
        assert bulks == [150]
        # One call into SQLite, committed by itself: no BEGIN, SAVEPOINT or COMMIT
        # around it (each would be one more wait for the GIL).
        assert counting.calls == ["INSERT INTO moves"]
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


async def test_a_write_that_raises_systemexit_fails_its_group_and_the_writer_goes_on(store):
    ids = await lobbies(store, 2)

    def fatal(conn: sqlite3.Connection) -> None:
        conn.execute("UPDATE matches SET deadline_at = 1 WHERE id = ?", (ids[1],))
        raise SystemExit("a write should never do this")

    busy = asyncio.ensure_future(store.db.write(_slow))
    await asyncio.sleep(0.05)
    got = await asyncio.gather(
        store.matches.record(ids[0], [ChoiceRow(0, 0, "C4", "player", 0, "s0")],
                             deadline_at=2_000.0),
        store.db.write(fatal), return_exceptions=True)
    await busy
    assert all(isinstance(g, WriterStopped) for g in got), got  # one group: all fail
    assert isinstance(got[1].__cause__, SystemExit)
    assert await store.matches.choices(ids[0]) == []
    assert [(await store.matches.get(i)).deadline_at for i in ids] == [1_000.0, 1_000.0]
    # The writer goes on; the same move, the same sequence number, is stored now.
    await store.matches.record(ids[0], [ChoiceRow(0, 0, "C4", "player", 0, "s0")],
                               deadline_at=2_000.0)
    assert [c.interaction_id for c in await store.matches.choices(ids[0])] == ["s0"]


async def test_a_write_that_breaks_the_connection_fails_and_the_next_is_stored(store):
    """A write that closes the writer's connection mid-transaction: its group
    fails, nothing of it is stored, and the writer opens a new connection."""
    ids = await lobbies(store, 1)

    def close_it(conn: sqlite3.Connection) -> None:
        conn.execute("UPDATE matches SET deadline_at = 1 WHERE id = ?", (ids[0],))
        conn.close()

    with pytest.raises(sqlite3.ProgrammingError):
        await store.db.write(close_it)
    assert (await store.matches.get(ids[0])).deadline_at == 1_000.0
    await store.matches.record(ids[0], [ChoiceRow(0, 0, "C4", "player", 0, "c0")],
                               deadline_at=2_000.0)
    assert len(await store.matches.choices(ids[0])) == 1


async def test_a_writer_that_cannot_start_fails_its_writes_and_is_started_again(
        store, monkeypatch):
    real = writer_module.connect
    failures = iter([sqlite3.OperationalError("unable to open database file")])
    handed_over = threading.Event()

    def flaky(*args, **kwargs):
        for failure in failures:
            handed_over.wait(5)
            raise failure
        return real(*args, **kwargs)

    monkeypatch.setattr(writer_module, "connect", flaky)
    pending = [asyncio.ensure_future(store.matches.create_lobby(
        game="flank", options={}, seed=n, guild_id=1, channel_id=100 + n, host_id=1,
        max_seats=2, seats=[SeatRow(0, 1, "a")])) for n in range(3)]
    await asyncio.sleep(0.05)
    handed_over.set()
    got = await asyncio.gather(*pending, return_exceptions=True)
    assert all(isinstance(g, WriterStopped) for g in got), got
    assert "unable to open database file" in str(got[0])
    assert isinstance(got[0].__cause__, sqlite3.OperationalError)
    assert store.db.writer_thread is None
    assert (await store.db.fetchone("SELECT COUNT(*) FROM matches"))[0] == 0
    ids = await lobbies(store, 1)  # the next write starts a new writer
    assert store.db.writer_thread is not None
    assert (await store.matches.get(ids[0])).status == "active"


_INTERRUPTED = """
import asyncio, sys
from storage import Store
from storage.models import ChoiceRow, SeatRow

async def main(path):
    store = await Store.open(path)
    try:
        seats = [SeatRow(0, 1, "a"), SeatRow(1, 2, "b")]
        match_id = await store.matches.create_lobby(
            game="flank", options={}, seed=1, guild_id=1, channel_id=1, host_id=1,
            max_seats=2, seats=seats[:1])
        await store.matches.start(match_id, seats, 1_000.0)
        seq = 0
        while True:
            await store.matches.record(match_id, [ChoiceRow(seq, seq % 2, "C4", "player",
                                                            seq, f"i{seq}")],
                                       deadline_at=1_000.0 + seq)
            print(seq, flush=True)
            seq += 1
    finally:
        await store.close()

try:
    asyncio.run(main(sys.argv[1]))
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="sends SIGINT")
async def test_ctrl_c_keeps_every_acknowledged_write(tmp_path):
    """A process writing moves as fast as it can is interrupted (Ctrl-C): every
    write it was told is committed is in the file, and the log has no gap."""
    path = tmp_path / "interrupted.sqlite3"
    root = Path(__file__).resolve().parent.parent
    child = subprocess.Popen([sys.executable, "-c", _INTERRUPTED, str(path)], cwd=root,
                             stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    acknowledged = []
    for line in child.stdout:
        acknowledged.append(int(line))
        if len(acknowledged) == 50:
            break
    child.send_signal(signal.SIGINT)
    rest = child.stdout.read().split()
    assert child.wait(timeout=30) == 0
    assert rest[-1] == "interrupted"
    acknowledged += [int(seq) for seq in rest[:-1]]
    store = await Store.open(path)
    try:
        logged = [c.seq for c in await store.matches.choices(1)]
    finally:
        await store.close()
    assert logged == list(range(len(logged)))
    assert len(logged) >= len(acknowledged) == acknowledged[-1] + 1
