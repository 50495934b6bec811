"""``croupier migrate``: a whole community copied from SQLite to PostgreSQL, every
table compared and the books audited on both sides."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from bench import collections as bench_collections
from bot.cli import main
from bot.clock import FakeClock
from bot.duel.collections import CollectionService
from storage import Store
from storage.transfer import SKIPPED, TransferRefused, copy_store, in_reference_order
from tests.test_tournament_service import ORG, Bot, G, play_out, tournament

TINY_RUNS = {"rare": 1, "uncommon": 2, "common": 3}
GUILDS = (bench_collections.PACK_GUILD, bench_collections.TRADE_GUILD,
          bench_collections.ANTE_GUILD)


async def _community(path: Path) -> int:
    """A SQLite file filled through the services: packs, trades and antes (copies
    with serials, the ledger), then a swiss tournament played out (matches with
    their logs, results, ratings, standings) and a server's settings. Returns
    the tournament's id."""
    await bench_collections.measure_in(path, packs=12, openers=4, run_sizes=TINY_RUNS,
                                       trades=20, trade_concurrency=4, antes=10,
                                       ante_concurrency=4, people=6)
    bot = await Bot(path).start()
    try:
        tid = await tournament(bot, 4, seeding="random")
        await bot.service.start(ORG, tid)
        await play_out(bot, tid)
        await bot.store.settings.update(77, organiser_role_id=55, daily_pack=True)
        await bot.store.settings.set_timing(77, "flank", turn_seconds=120, warn_seconds=30)
    finally:
        await bot.stop()
    return tid


def _tables(path: Path) -> dict[str, int]:
    with sqlite3.connect(path) as conn:
        names = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'"
            " AND name NOT LIKE 'sqlite_%'")]
        return {n: conn.execute(f'SELECT COUNT(*) FROM "{n}"').fetchone()[0] for n in names}


async def _audits(target: str | Path, tid: int) -> tuple:
    store = await Store.open(target)
    try:
        books = CollectionService(store, FakeClock())
        return (tuple([await books.audit(g) for g in GUILDS]),
                await store.tournaments.audit(tid),
                await store.stats.leaderboard(G, "secret"))
    finally:
        await store.close()


async def test_a_community_copies_across_whole(tmp_path: Path, pg_server) -> None:
    source = tmp_path / "croupier.sqlite3"
    tid = await _community(source)
    counts = _tables(source)
    filled = {t for t, n in counts.items() if n}
    # what the issue lists: matches and their logs, results, ratings, settings,
    # collections with serials and ledger, trades, tournaments
    assert {"matches", "match_choices", "results", "result_seats", "ratings",
            "guild_settings", "copies", "ledger", "trades", "tournaments"} <= filled
    url = await pg_server.database()

    made = await copy_store(source, url)

    assert made.rows == {t: n for t, n in counts.items() if t not in SKIPPED}
    conn = await asyncpg.connect(url)
    try:
        for table, count in made.rows.items():
            assert await conn.fetchval(f'SELECT COUNT(*) FROM "{table}"') == count, table
    finally:
        await conn.close()
    before, after = await _audits(source, tid), await _audits(url, tid)
    assert before == after
    assert before[0] == ([], [], [])  # the books balance on both sides

    # new rows never take a copied id
    store = await Store.open(url)
    try:
        copied_max = (await store.db.fetchone("SELECT MAX(id) FROM matches"))[0]
        new = await store.matches.create_lobby(
            game="secret", options={}, seed=1, guild_id=1, channel_id=999_999, host_id=1,
            max_seats=2, seats=[])
        assert new > copied_max > 0
    finally:
        await store.close()


async def test_a_target_that_holds_data_is_refused_and_left_alone(tmp_path: Path,
                                                                  pg_server) -> None:
    source = tmp_path / "croupier.sqlite3"
    store = await Store.open(source)
    await store.settings.update(5, ante=True)
    await store.close()
    url = await pg_server.database()
    await copy_store(source, url)
    with pytest.raises(TransferRefused, match="already holds data"):
        await copy_store(source, url)
    conn = await asyncpg.connect(url)
    try:
        assert await conn.fetchval("SELECT COUNT(*) FROM guild_settings") == 1
    finally:
        await conn.close()
    with pytest.raises(TransferRefused, match="no database file"):
        await copy_store(tmp_path / "missing.sqlite3", url)
    with pytest.raises(TransferRefused, match="File name too long"):
        await copy_store(tmp_path / ("{s0}" + "y" * 300), url)
    words = tmp_path / "words.txt"
    words.write_text("not a database " * 50)
    with pytest.raises(TransferRefused, match="not a Croupier database"):
        await copy_store(words, url)


def test_tables_come_after_those_they_refer_to() -> None:
    assert in_reference_order(["b", "a", "c"], [("c", "b"), ("b", "a"), ("a", "a")]) == [
        "a", "b", "c"]
    with pytest.raises(TransferRefused, match="circle"):
        in_reference_order(["a", "b"], [("a", "b"), ("b", "a")])



async def test_the_migrate_command(tmp_path: Path, pg_server,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "croupier.sqlite3"
    store = await Store.open(source)
    await store.settings.update(5, ante=True)
    await store.close()
    url = await pg_server.database()
    run = ["migrate", "--from", str(source), "--to", url]
    assert await asyncio.to_thread(main, run) == 0
    assert "each table checked" in capsys.readouterr().out
    assert await asyncio.to_thread(main, run) == 1
    assert "already holds data" in capsys.readouterr().err
    assert await asyncio.to_thread(main, ["migrate", "--from", str(source), "--to",
                                          str(tmp_path / "b.sqlite3")]) == 2
    assert "postgresql:// URL" in capsys.readouterr().err
    unreachable = "postgresql://postgres@127.0.0.1:1/nowhere"
    assert await asyncio.to_thread(main, ["migrate", "--from", str(source), "--to",
                                          unreachable]) == 1
    assert "could not reach" in capsys.readouterr().err
    missing = url.rsplit("/", 1)[0] + "/no_such_database"
    assert await asyncio.to_thread(main, ["migrate", "--from", str(source), "--to",
                                          missing]) == 1
    assert "no_such_database" in capsys.readouterr().err
