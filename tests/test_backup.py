"""``croupier backup``: a copy of the SQLite store made while the bot writes to it."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.cli import main
from bot.matches.live import Player
from bot.matches.service import MatchService
from bot.matches.transport import NullTransport
from storage import Store
from storage.backup import BackupRefused, backup

HOST = Player(1, "Ada")


async def _lobbies(store: Store, first: int, count: int) -> None:
    service = MatchService(store, NullTransport())
    for channel in range(first, first + count):
        await service.open_lobby(HOST, guild_id=1, channel_id=channel, game="flank")


def _count(path: Path, table: str) -> int:
    with sqlite3.connect(path) as conn:
        return conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]


async def test_a_backup_taken_during_writes_is_the_store_at_one_moment(tmp_path: Path) -> None:
    source, copy = tmp_path / "croupier.sqlite3", tmp_path / "backups" / "copy.sqlite3"
    store = await Store.open(source)
    try:
        await _lobbies(store, 1, 20)
        writing = asyncio.create_task(_lobbies(store, 100, 200))
        await asyncio.sleep(0.05)
        made = await asyncio.to_thread(backup, source, copy)
        await writing
    finally:
        await store.close()
    # every lobby has its match and its host's seat, written together: a copy
    # that cut a write in half would count them apart
    assert 20 <= made.matches <= 220
    assert _count(copy, "match_seats") == made.matches == _count(copy, "matches")
    assert _count(source, "matches") == 220
    reopened = await Store.open(copy)
    try:
        assert await reopened.db.schema_version() == made.schema_version > 0
    finally:
        await reopened.close()
    assert not [p for p in copy.parent.iterdir() if p.name.endswith(".partial")]


async def test_backup_refuses_clearly_and_writes_nothing(tmp_path: Path) -> None:
    source = tmp_path / "croupier.sqlite3"
    with pytest.raises(BackupRefused, match="no database file"):
        backup(source, tmp_path / "copy.sqlite3")
    store = await Store.open(source)
    await store.close()
    existing = tmp_path / "existing.sqlite3"
    existing.write_bytes(b"keep me")
    with pytest.raises(BackupRefused, match="exists already"):
        backup(source, existing)
    assert existing.read_bytes() == b"keep me"
    with pytest.raises(BackupRefused, match="itself"):
        backup(source, source, replace=True)
    with pytest.raises(BackupRefused, match="folder"):
        backup(source, tmp_path)
    stranger = tmp_path / "notes.txt"
    stranger.write_text("not a database at all, just some words " * 20)
    with pytest.raises(BackupRefused, match="not a Croupier database"):
        backup(stranger, tmp_path / "copy.sqlite3")
    assert not (tmp_path / "copy.sqlite3").exists()
    with pytest.raises(BackupRefused, match="File name too long"):
        backup(source, tmp_path / ("{s0}名" + "x" * 300 + ".db"))
    with pytest.raises(BackupRefused, match="File name too long"):
        backup(tmp_path / ("y" * 300), tmp_path / "copy.sqlite3")
    backup(source, existing, replace=True)
    assert _count(existing, "matches") == 0


async def test_the_backup_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    source, copy = tmp_path / "croupier.sqlite3", tmp_path / "copy.sqlite3"
    store = await Store.open(source)
    try:
        await _lobbies(store, 1, 3)
    finally:
        await store.close()
    monkeypatch.setenv("CROUPIER_DATABASE", str(source))
    assert await asyncio.to_thread(main, ["backup", str(copy)]) == 0
    assert "3 matches" in capsys.readouterr().out
    assert await asyncio.to_thread(main, ["backup", str(copy)]) == 1
    assert "exists already" in capsys.readouterr().err
    assert await asyncio.to_thread(main, ["backup", "--force", str(copy)]) == 0
    monkeypatch.setenv("CROUPIER_DATABASE", "postgresql://croupier@127.0.0.1/croupier")
    assert await asyncio.to_thread(main, ["backup", str(tmp_path / "other.sqlite3")]) == 2
    assert "pg_dump" in capsys.readouterr().err
