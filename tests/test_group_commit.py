"""Group commit: concurrent writes share a transaction, each still all-or-nothing."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from storage import Store
from storage.errors import DuplicateInteraction
from storage.models import ChoiceRow, SeatRow


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

    def insert(n: int):
        def work(conn: sqlite3.Connection) -> int:
            conn.execute("INSERT INTO t VALUES (?)", (n,))
            if n == 2:
                raise ValueError("no twos")
            return n
        return work

    got = await asyncio.gather(*(db.write(insert(n)) for n in range(1, 5)),
                               return_exceptions=True)
    assert got[0] == 1 and got[2] == 3 and got[3] == 4
    assert isinstance(got[1], ValueError)
    rows = await db.fetchall("SELECT n FROM t ORDER BY n")
    assert [r[0] for r in rows] == [1, 3, 4]


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


async def test_a_failed_commit_stores_nothing_of_its_group(store, monkeypatch):
    ids = await lobbies(store, 2)
    from storage import db as db_module

    real = db_module._commit_group

    def failing(conn, group):
        if len(group) > 1:  # every write works, then the commit fails
            conn.execute("BEGIN IMMEDIATE")
            for work, _ in group:
                work(conn)
            conn.execute("ROLLBACK")
            raise sqlite3.OperationalError("disk I/O error")
        return real(conn, group)

    monkeypatch.setattr(db_module, "_commit_group", failing)
    got = await asyncio.gather(*(
        store.matches.record(match_id, [ChoiceRow(0, 0, "C4", "player", 0, f"x{match_id}")],
                             deadline_at=2_000.0) for match_id in ids), return_exceptions=True)
    assert all(isinstance(g, sqlite3.OperationalError) for g in got)
    monkeypatch.setattr(db_module, "_commit_group", real)
    for match_id in ids:
        assert await store.matches.choices(match_id) == []


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


async def test_many_concurrent_moves_are_written_in_bulk(store, monkeypatch):
    """More moves than one bulk statement takes: every row and every new deadline
    lands where it belongs, written by the bulk statements, not one by one."""
    from storage import matches as matches_module

    ids = await lobbies(store, 150)
    bulks: list[int] = []
    real = matches_module._Move.bulk

    def counting(conn, moves):
        bulks.append(len(moves))
        real(conn, moves)

    monkeypatch.setattr(matches_module._Move, "bulk", staticmethod(counting))
    await asyncio.gather(*(
        store.matches.record(match_id, [ChoiceRow(0, 0, "C4", "player", 0, f"b{match_id}"),
                                        ChoiceRow(1, 1, "D5", "forced", 1)],
                             deadline_at=5_000.0 + match_id, warned=match_id % 2 == 0)
        for match_id in ids))
    assert sum(bulks) >= 100  # (the first move may be committed alone)
    for match_id in ids:
        rows = await store.matches.choices(match_id)
        assert [(r.seq, r.choice, r.source, r.interaction_id) for r in rows] == [
            (0, "C4", "player", f"b{match_id}"), (1, "D5", "forced", None)]
        row = await store.matches.get(match_id)
        assert (row.deadline_at, row.warned) == (5_000.0 + match_id, match_id % 2 == 0)
