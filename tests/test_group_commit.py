"""The writer process and its group commit: concurrent writes share a
transaction (the usual moves one statement), each still all-or-nothing, the
bot's process never commits, and a caller always learns whether its write is
stored, even when the writer dies."""

from __future__ import annotations

import asyncio
import os
import pickle
import signal
import sqlite3
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import pytest

from storage import Store
from storage import matches as matches_module
from storage.connection import connect
from storage.errors import DuplicateInteraction, WriterStopped
from storage.group_commit import commit_group
from storage.models import ChoiceRow, SeatRow


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


def _slow(started: str, conn: sqlite3.Connection) -> int:
    """Keeps the writer busy while a group gathers behind it, once it has said
    so by making the file ``started``."""
    Path(started).touch()
    time.sleep(0.3)
    return os.getpid()


async def busy_writer(store: Store, tmp_path: Path) -> asyncio.Future[int]:
    """The writer busy with a slow write: what is handed over meanwhile is
    committed as one group, after it."""
    started = tmp_path / "busy"
    started.unlink(missing_ok=True)
    busy = asyncio.ensure_future(store.db.write(partial(_slow, str(started))))
    while not started.exists():
        await asyncio.sleep(0.01)
    return busy


def _pid(conn: sqlite3.Connection) -> int:
    return os.getpid()


def _exit_now(match_id: int, conn: sqlite3.Connection) -> None:
    """The writer dies in the middle of a group's transaction."""
    conn.execute("UPDATE matches SET deadline_at = 1 WHERE id = ?", (match_id,))
    os._exit(3)


def _die_before_answering(conn: sqlite3.Connection) -> str:
    """The writer dies once this group is committed, before it answers."""
    import storage.group_commit

    def exit_instead(sock: object, answers: object) -> None:
        os._exit(4)

    storage.group_commit._send = exit_instead
    return "kept"


def _raise_systemexit(match_id: int, conn: sqlite3.Connection) -> None:
    conn.execute("UPDATE matches SET deadline_at = 1 WHERE id = ?", (match_id,))
    raise SystemExit("a write should never do this")


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


async def test_a_failing_write_fails_alone(store, tmp_path):
    db = store.db
    await db.execute("CREATE TABLE t (n INTEGER PRIMARY KEY)")
    busy = await busy_writer(store, tmp_path)  # the four below: one group after it
    got = await asyncio.gather(*(db.write(partial(_insert_or_fail, n)) for n in range(1, 5)),
                               return_exceptions=True)
    await busy
    assert got[0] == 1 and got[2] == 3 and got[3] == 4
    assert isinstance(got[1], ValueError) and str(got[1]) == "no twos"
    assert "In the database writer process" in got[1].__notes__[0]  # where, for the logs
    assert "_insert_or_fail" in got[1].__notes__[0]
    rows = await db.fetchall("SELECT n FROM t ORDER BY n")
    assert [r[0] for r in rows] == [1, 3, 4]


async def test_a_write_that_does_not_pickle_is_refused_in_its_caller(store):
    db = store.db
    await db.execute("CREATE TABLE t (n INTEGER PRIMARY KEY)")
    with pytest.raises((pickle.PicklingError, AttributeError, TypeError)):
        await db.write(lambda conn: conn.execute("INSERT INTO t VALUES (9)"))
    assert await db.write(partial(_insert_or_fail, 1)) == 1
    assert [r[0] for r in await db.fetchall("SELECT n FROM t")] == [1]


@pytest.mark.engines  # PostgreSQL commits its concurrent writes in groups too
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

    async def orphan() -> None:
        # Handed over when its task starts, like the records: all three in one group
        # (``write`` itself hands over at the call).
        await store.db.write(_orphan_checked_at_commit)

    got = await asyncio.gather(
        *(store.matches.record(match_id, [ChoiceRow(0, 0, "C4", "player", 0, f"x{match_id}")],
                               deadline_at=2_000.0) for match_id in ids),
        orphan(), return_exceptions=True)
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


@pytest.mark.engines  # PostgreSQL commits its concurrent writes in groups too
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
    """:func:`commit_group` as the writer runs it, here in this process: 150 moves
    are one statement, not one by one, and land where they belong; a repeated
    interaction among them fails alone."""
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
        # One statement in one transaction: no savepoint, no statement per move.
        assert counting.calls == ["BEGIN IMMEDIATE", "INSERT INTO moves", "COMMIT"]
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
    if sys.platform != "win32":
        os.kill(pid, signal.SIGINT)  # Ctrl-C reaches the whole process group
        await asyncio.sleep(0.1)
    assert await store.db.write(_pid) == pid


async def test_a_writer_killed_mid_group_stores_none_of_it_and_says_so(store, tmp_path):
    """The writer dies inside a group's transaction: every write of the group
    fails saying it is not stored, none is, and the same move (the same sequence
    number) is stored by the next writer."""
    ids = await lobbies(store, 2)
    first = store.db.writer_pid
    busy = await busy_writer(store, tmp_path)  # the two below: one group after it
    got = await asyncio.gather(
        store.matches.record(ids[0], [ChoiceRow(0, 0, "C4", "player", 0, "k0")],
                             deadline_at=2_000.0),
        store.db.write(partial(_exit_now, ids[1])), return_exceptions=True)
    assert await busy == first
    assert all(isinstance(g, WriterStopped) and "it is not stored" in str(g) for g in got), got
    assert await store.matches.choices(ids[0]) == []
    assert [(await store.matches.get(i)).deadline_at for i in ids] == [1_000.0, 1_000.0]
    await store.matches.record(ids[0], [ChoiceRow(0, 0, "C4", "player", 0, "k0")],
                               deadline_at=2_000.0)
    assert [c.interaction_id for c in await store.matches.choices(ids[0])] == ["k0"]
    assert store.db.writer_pid not in (None, first)


async def test_a_writer_that_dies_before_answering_still_tells_each_outcome(store, tmp_path):
    """The writer dies after committing a group, before answering it: each caller
    learns its write's true outcome (kept in the file with the group), so the
    match goes on at the next sequence number."""
    ids = await lobbies(store, 2)
    await store.matches.record(ids[1], [ChoiceRow(0, 0, "C4", "player", 0, "taken")],
                               deadline_at=1_500.0)
    first = store.db.writer_pid
    busy = await busy_writer(store, tmp_path)  # the three below: one group after it
    got = await asyncio.gather(
        store.matches.record(ids[0], [ChoiceRow(0, 0, "C4", "player", 0, "d0")],
                             deadline_at=2_000.0),
        store.matches.record(ids[1], [ChoiceRow(1, 1, "C3", "player", 1, "taken")],
                             deadline_at=2_500.0),  # a repeated interaction: fails alone
        store.db.write(_die_before_answering), return_exceptions=True)
    await busy
    assert got[0] is None and got[2] == "kept"
    assert isinstance(got[1], WriterStopped) and "and is not stored" in str(got[1])
    assert "UNIQUE constraint failed" in str(got[1])
    assert [c.interaction_id for c in await store.matches.choices(ids[0])] == ["d0"]
    assert len(await store.matches.choices(ids[1])) == 1
    # Both matches go on where their callers think they are.
    await store.matches.record(ids[0], [ChoiceRow(1, 1, "C3", "player", 1, "d1")],
                               deadline_at=3_000.0)
    await store.matches.record(ids[1], [ChoiceRow(1, 1, "C3", "player", 1, "d2")],
                               deadline_at=3_000.0)
    assert [c.seq for c in await store.matches.choices(ids[0])] == [0, 1]
    assert [c.seq for c in await store.matches.choices(ids[1])] == [0, 1]
    assert store.db.writer_pid not in (None, first)


@pytest.mark.skipif(sys.platform == "win32", reason="sends SIGKILL")
async def test_a_writer_killed_from_outside_fails_its_write_and_is_started_again(
        store, tmp_path):
    first = await store.db.write(_pid)
    slow = await busy_writer(store, tmp_path)
    os.kill(first, signal.SIGKILL)
    with pytest.raises(WriterStopped, match="it is not stored"):
        await slow
    ids = await lobbies(store, 1)  # the next write starts a new writer
    assert store.db.writer_pid not in (None, first)
    assert (await store.matches.get(ids[0])).status == "active"


async def test_a_write_raising_systemexit_fails_its_group_and_the_writer_goes_on(
        store, tmp_path):
    ids = await lobbies(store, 2)
    first = store.db.writer_pid
    busy = await busy_writer(store, tmp_path)
    got = await asyncio.gather(
        store.matches.record(ids[0], [ChoiceRow(0, 0, "C4", "player", 0, "s0")],
                             deadline_at=2_000.0),
        store.db.write(partial(_raise_systemexit, ids[1])), return_exceptions=True)
    await busy
    assert all(isinstance(g, WriterStopped) for g in got), got  # one group: all fail
    assert "SystemExit" in str(got[1])
    assert await store.matches.choices(ids[0]) == []
    assert [(await store.matches.get(i)).deadline_at for i in ids] == [1_000.0, 1_000.0]
    await store.matches.record(ids[0], [ChoiceRow(0, 0, "C4", "player", 0, "s0")],
                               deadline_at=2_000.0)
    assert [c.interaction_id for c in await store.matches.choices(ids[0])] == ["s0"]
    assert store.db.writer_pid == first


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
    """A process writing moves as fast as it can is interrupted by Ctrl-C, which
    reaches its whole process group, writer and all: every write it was told is
    committed is in the file, and the log has no gap."""
    path = tmp_path / "interrupted.sqlite3"
    root = Path(__file__).resolve().parent.parent
    child = subprocess.Popen([sys.executable, "-c", _INTERRUPTED, str(path)], cwd=root,
                             stdout=subprocess.PIPE, text=True, start_new_session=True)
    assert child.stdout is not None
    acknowledged = []
    for line in child.stdout:
        acknowledged.append(int(line))
        if len(acknowledged) == 50:
            break
    os.killpg(child.pid, signal.SIGINT)
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


@pytest.mark.engines("postgres")
async def test_postgres_commits_concurrent_moves_as_one_group(store, monkeypatch):
    """On PostgreSQL, the writes asked for while a group commits go together as the
    next group: one transaction and one statement for the usual moves, not one a
    write; a write that fails there fails alone, the group written again."""
    ids = await lobbies(store, 41)
    await store.matches.record(ids[-1], [ChoiceRow(0, 0, "C4", "player", 0, "taken")],
                               deadline_at=1.0)
    bulks: list[int] = []
    real = matches_module._Move.bulk

    def counting(conn, moves):
        bulks.append(len(moves))
        real(conn, moves)

    monkeypatch.setattr(matches_module._Move, "bulk", staticmethod(counting))
    got = await asyncio.gather(*(
        store.matches.record(match_id, [ChoiceRow(0, 0, "C4", "player", 0, f"g{match_id}")],
                             deadline_at=5_000.0 + match_id)
        for match_id in ids[:-1]))
    assert got == [None] * 40
    assert len(bulks) <= 2 and sum(bulks) == 40  # the first alone, the rest as one group
    bulks.clear()
    repeat = store.matches.record(ids[-1], [ChoiceRow(1, 1, "C3", "player", 1, "g1")],
                                  deadline_at=9.0)
    more = [store.matches.record(match_id, [ChoiceRow(1, 1, "C3", "player", 1, None)],
                                 deadline_at=6_000.0) for match_id in ids[1:-1]]
    got = await asyncio.gather(repeat, *more, return_exceptions=True)
    assert isinstance(got[0], DuplicateInteraction) and got[1:] == [None] * 39
    for match_id in ids[1:-1]:
        assert [r.choice for r in await store.matches.choices(match_id)] == ["C4", "C3"]
    assert [r.interaction_id for r in await store.matches.choices(ids[-1])] == ["taken"]


class _Isolation:
    """A write that says which isolation its transaction runs in."""

    def __init__(self, self_serialised: bool) -> None:
        self.self_serialised = self_serialised

    def __call__(self, conn) -> str:
        return conn.execute("SHOW transaction_isolation").fetchone()[0]


@pytest.mark.engines("postgres")
async def test_postgres_commits_self_serialised_writes_in_read_committed(store):
    """Moves serialise themselves (their match's version, the log's keys): PostgreSQL
    commits them in READ COMMITTED, apart from the others (SERIALIZABLE), so two
    processes' groups of moves do not abort each other; the connection goes back to
    the pool SERIALIZABLE."""
    assert matches_module._Move.self_serialised
    got = await asyncio.gather(*(store.db.write(_Isolation(n % 2 == 0)) for n in range(6)))
    assert got == ["read committed", "serializable"] * 3
    assert await store.db.write(_Isolation(False)) == "serializable"
