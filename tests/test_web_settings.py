"""The web companion's settings (issue 32): a server's pages are off by default, come on
under an unguessable slug that rotating replaces, go off again; a player hides their
history; the web's read-only store refuses every write and every migration. On both
engines."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.errors import NotAllowed
from bot.settings.service import Manager, ServerConfig
from bot.settings.web import SLUG_BYTES, WebSites, web_link
from bot.stats.service import StatsService
from bot.web.site import SLUG
from storage import Store
from storage.db import Database, shipped_migrations
from storage.errors import ReadOnlyStore
from tests.e2e import make_bot
from tests.fakediscord.harness.slash import CommandNotAvailable
from tests.fakediscord.model.constants import MANAGE_GUILD

pytestmark = pytest.mark.engines

MOD = Manager(1, "mod", manages_server=True)
PLAYER = Manager(2, "player")
GUILD = 500


async def test_pages_are_off_until_turned_on(store: Store) -> None:
    config, sites = ServerConfig(store), WebSites(store)
    assert await sites.site(GUILD) is None
    assert await sites.link(GUILD, "https://web.example") is None
    site = await config.set_web(MOD, GUILD, True)
    assert site.enabled and SLUG.fullmatch(site.slug) and len(site.slug) >= SLUG_BYTES
    assert await store.web.guild_of_slug(site.slug) == GUILD
    assert await sites.link(GUILD, "https://web.example/", "players", 2) == \
        f"https://web.example/s/{site.slug}/players/2"
    assert await sites.link(GUILD, None) is None
    # Another server's pages have a slug of their own.
    other = await config.set_web(MOD, GUILD + 1, True)
    assert other.slug != site.slug


async def test_off_hides_and_on_again_keeps_the_address(store: Store) -> None:
    config, sites = ServerConfig(store), WebSites(store)
    site = await config.set_web(MOD, GUILD, True)
    off = await config.set_web(MOD, GUILD, False)
    assert not off.enabled and off.slug == site.slug
    assert await store.web.guild_of_slug(site.slug) is None
    assert await sites.link(GUILD, "https://web.example") is None
    again = await config.set_web(MOD, GUILD, True)
    assert again.slug == site.slug and await store.web.guild_of_slug(site.slug) == GUILD


async def test_rotate_replaces_the_slug(store: Store) -> None:
    config = ServerConfig(store)
    old = await config.set_web(MOD, GUILD, True)
    new = await config.rotate_web(MOD, GUILD)
    assert new.enabled and new.slug != old.slug
    assert await store.web.guild_of_slug(old.slug) is None
    assert await store.web.guild_of_slug(new.slug) == GUILD


async def test_only_managers_change_the_pages(store: Store) -> None:
    config = ServerConfig(store)
    with pytest.raises(NotAllowed):
        await config.set_web(PLAYER, GUILD, True)
    with pytest.raises(NotAllowed):
        await config.rotate_web(PLAYER, GUILD)
    with pytest.raises(NotAllowed):  # the address is the pages' only key
        await config.web(PLAYER, GUILD)
    assert await WebSites(store).site(GUILD) is None


async def test_a_player_hides_and_shows_their_history(store: Store) -> None:
    stats = StatsService(store)
    assert not await stats.history_hidden(7)
    await stats.hide_history(7, True)
    await stats.hide_history(7, True)  # twice is once
    assert await stats.history_hidden(7) and not await stats.history_hidden(8)
    assert await store.web.hidden_among([7, 8, 9]) == {7}
    await stats.hide_history(7, False)
    assert not await stats.history_hidden(7)
    assert await store.web.hidden_among(range(1200)) == frozenset()


async def test_the_read_only_store_reads_and_refuses_writes(
        target: Path | str, store: Store) -> None:
    site = await ServerConfig(store).set_web(MOD, GUILD, True)
    reader = await Store.open(target, read_only=True)
    try:
        assert await reader.web.guild_of_slug(site.slug) == GUILD
        with pytest.raises(ReadOnlyStore):
            await reader.web.set_hidden(3, True)
        with pytest.raises(ReadOnlyStore):
            await ServerConfig(reader).rotate_web(MOD, GUILD)
        # The bot's writes are seen by the reader.
        await store.web.set_hidden(3, True)
        assert await reader.web.is_hidden(3)
    finally:
        await reader.close()
    assert await store.web.guild_of_slug(site.slug) == GUILD


@pytest.mark.engines("sqlite")
async def test_the_read_only_sqlite_connection_itself_refuses(store: Store) -> None:
    # Past the Python guard too: the connection is mode=ro and query_only.
    reader = await Store.open(store.db.path, read_only=True)
    try:
        with pytest.raises(sqlite3.OperationalError):
            await reader.db._reading().execute("DELETE FROM web_sites")
    finally:
        await reader.close()


@pytest.mark.engines("sqlite")
async def test_a_read_only_store_is_never_made_nor_migrated(tmp_path: Path) -> None:
    missing = tmp_path / "none.sqlite3"
    with pytest.raises(ReadOnlyStore):
        await Store.open(missing, read_only=True)
    assert not missing.exists()
    behind = tmp_path / "behind.sqlite3"
    db = await Database.open(behind, shipped_migrations()[:-1])
    await db.close()
    with pytest.raises(ReadOnlyStore, match="schema"):
        await Store.open(behind, read_only=True)
    check = await Database.open(behind, shipped_migrations()[:-1])
    try:
        assert await check.schema_version() == shipped_migrations()[-2].version
    finally:
        await check.close()


@pytest.mark.engines("postgres")
async def test_a_read_only_postgres_transaction_is_read_only(target: str, store: Store) -> None:
    reader = await Store.open(target, read_only=True)
    try:
        row = await reader.db.fetchone("SHOW default_transaction_read_only")
        assert row[0] == "on"
        # Past the Python guard too: the server refuses the write.
        async with reader.db.driver_connection() as conn:
            with pytest.raises(Exception, match="read-only transaction"):
                await conn.execute("DELETE FROM web_sites")
    finally:
        await reader.close()


async def test_a_read_only_postgres_database_is_never_migrated(pg_server) -> None:
    name = pg_server.unique_name("web_ro")
    empty = await pg_server.database(name)
    try:
        with pytest.raises(ReadOnlyStore, match="schema 0"):
            await Store.open(empty, read_only=True)
    finally:
        await pg_server.drop(name)


def test_web_link_quotes_each_part() -> None:
    assert web_link("https://w.example", "slug-slug", "cards", "a/b c") == \
        "https://w.example/s/slug-slug/cards/a%2Fb%20c"


# -- through the fake Discord ---------------------------------------------------------------
async def test_config_web_turns_the_pages_on_rotates_and_off(fake_discord, discord_errors,
                                                             tmp_path: Path) -> None:
    guild = fake_discord.add_guild("Casino")
    channel = guild.add_text_channel("t")
    boss = guild.add_user("Boss", roles=(guild.add_role("Managers", MANAGE_GUILD),))
    ada = guild.add_user("Ada")
    bot = make_bot(tmp_path / "w.sqlite3")
    bot.settings.web_url = "https://cards.example/"
    async with fake_discord.running(bot):
        shown = await fake_discord.slash(boss, channel, "config web")
        assert shown.ephemeral and "off" in shown.content
        on = await fake_discord.slash(boss, channel, "config web", action="on")
        site = await bot.store.web.site(guild.id)
        assert site is not None and site.enabled
        assert on.ephemeral and f"<https://cards.example/s/{site.slug}/>" in on.content
        rotated = await fake_discord.slash(boss, channel, "config web", action="rotate")
        new = await bot.store.web.site(guild.id)
        assert new is not None and new.slug != site.slug and new.enabled
        assert new.slug in rotated.content and site.slug not in rotated.content
        # Discord offers /config to managers alone (the service checks again: above).
        for action in ({"action": "off"}, {}):
            with pytest.raises(CommandNotAvailable):
                await fake_discord.slash(ada, channel, "config web", **action)
        assert (await bot.store.web.site(guild.id)) == new
        off = await fake_discord.slash(boss, channel, "config web", action="off")
        assert "off" in off.content and new.slug not in off.content
        assert await bot.store.web.guild_of_slug(new.slug) is None
        # Without the public address, the path alone, and why.
        bot.settings.web_url = None
        await fake_discord.slash(boss, channel, "config web", action="on")
        bare = await fake_discord.slash(boss, channel, "config web")
        assert f"`/s/{new.slug}/`" in bare.content and "CROUPIER_WEB_URL" in bare.content


async def test_privacy_hides_and_shows_ones_own_history(fake_discord, discord_errors,
                                                        tmp_path: Path) -> None:
    guild = fake_discord.add_guild("Casino")
    channel = guild.add_text_channel("t")
    ada = guild.add_user("Ada")
    bob = guild.add_user("Bob")
    bot = make_bot(tmp_path / "p.sqlite3")
    async with fake_discord.running(bot):
        seen = await fake_discord.slash(ada, channel, "privacy")
        assert seen.ephemeral and "**shows**" in seen.content
        hidden = await fake_discord.slash(ada, channel, "privacy", history="hide")
        assert hidden.ephemeral and "**hidden**" in hidden.content
        assert await bot.store.web.is_hidden(ada.id)
        assert not await bot.store.web.is_hidden(bob.id)
        again = await fake_discord.slash(ada, channel, "privacy")
        assert "**hidden**" in again.content
        shown = await fake_discord.slash(ada, channel, "privacy", history="show")
        assert "**shows**" in shown.content and not await bot.store.web.is_hidden(ada.id)
