"""End to end through the real discord.py client and the fake Discord: duels played
with decks people own (checked when they sit down and again at the start), duels
played for ante (staked as the duel starts, paid out with the result, returned
when it is cancelled), packs for rated wins, and ``/config collections``."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.discord_side.client import CroupierBot
from bot.duel.collections import CollectionService
from bot.errors import NotAllowed
from bot.settings.service import Manager, ServerConfig
from rules.duel.decklists import is_free
from rules.duel.decks import starter
from storage import Store
from storage.collections import CollectionRefusal
from storage.models import Ante, SeatRow
from tests.e2e import make_bot, table_message
from tests.fakediscord import FakeDiscord

MANAGE_GUILD = 1 << 5


def ante_rows(database: Path) -> tuple[list[tuple], list[tuple]]:
    """The ante ledger rows and the ante locks, read from the file as they are."""
    with sqlite3.connect(database) as conn:
        ledger = conn.execute("SELECT copy_id, from_owner, to_owner, ref FROM ledger"
                              " WHERE why = 'ante' ORDER BY id").fetchall()
        locks = conn.execute("SELECT copy_id, ref FROM copy_locks WHERE kind = 'ante'"
                             ).fetchall()
    return ledger, locks


def owner_of(database: Path, copy_ids: list[int]) -> list[int]:
    """Who owns each copy now."""
    with sqlite3.connect(database) as conn:
        return [conn.execute("SELECT owner_id FROM copies WHERE id = ?", (c,)).fetchone()[0]
                for c in copy_ids]


async def collections(bot: CroupierBot) -> CollectionService:
    """A collections service on the bot's store (what the /starter and /deck commands
    use), to give people cards and decks without going through those commands."""
    return CollectionService(bot.store, bot.service.clock)


async def test_own_decks_are_checked_when_seated_and_again_at_the_start(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    guild = fake_discord.add_guild("Arcana")
    channel = guild.add_text_channel("duels")
    ada, bo = guild.add_user("Ada"), guild.add_user("Bo")
    bot = make_bot(tmp_path / "own.sqlite3")
    async with fake_discord.running(bot):
        cards = await collections(bot)
        await cards.claim_starter(guild.id, ada.id, "ember-and-grove")
        await cards.claim_starter(guild.id, bo.id, "tide-and-night")
        red = "\n".join(f"1 {name}" for name in starter("ember-and-grove"))
        await cards.save_deck(guild.id, ada.id, "Red Wall", red)
        await cards.save_deck(guild.id, bo.id, "Greedy", "40 Kindlewhip")

        offered = await fake_discord.autocomplete(ada, channel, "play duel", option="deck",
                                                  value="")
        assert [o["value"] for o in offered][:2] == ["Red Wall", "ember-and-grove"]
        await fake_discord.slash(ada, channel, "play duel", deck="Red Wall")
        match = bot.service.match_in(channel.id)
        assert match.seats[0].setup["saved"] == "Red Wall"
        assert sorted(match.seats[0].setup["deck"]) == sorted(starter("ember-and-grove"))

        short = await fake_discord.slash(bo, channel, "join", deck="Greedy")
        assert short.ephemeral and "short of: 40 Kindlewhip" in short.content
        assert len(match.seats) == 1  # the refused seat changed nothing
        await fake_discord.slash(bo, channel, "join", deck="tide-and-night")
        assert match.seats[1].setup["saved"] == "tide-and-night"  # his own starter copies

        # Between sitting down and the start, Bo offers away two cards of his deck:
        # the start is refused, naming them, and nothing starts.
        gift = [name for name in sorted(set(starter("tide-and-night")))
                if not is_free(name)][:2]
        trade = await cards.offer(guild.id, bo.id, ada.id, ", ".join(gift), "")
        refused = await fake_discord.slash(ada, channel, "start")
        assert refused.ephemeral and "Bo's deck can't be played now" in refused.content
        assert f"1 {gift[0]}, 1 {gift[1]}" in refused.content
        assert "locked in a trade" in refused.content
        assert match.row.status == "lobby"
        await cards.cancel(trade.id, bo.id)
        started = await fake_discord.slash(ada, channel, "start")
        assert not started.ephemeral
        await bot.service.settle()
        assert match.row.status == "active"
        await fake_discord.slash(ada, channel, "cancel")


async def test_an_ante_duel_stakes_at_the_start_and_pays_the_winner(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    guild = fake_discord.add_guild("Arcana")
    channel = guild.add_text_channel("duels")
    boss = guild.add_user("Boss", roles=(guild.add_role("Managers", MANAGE_GUILD),))
    ada, bo = guild.add_user("Ada"), guild.add_user("Bo")
    database = tmp_path / "ante.sqlite3"
    bot = make_bot(database)
    async with fake_discord.running(bot):
        cards = await collections(bot)
        await cards.claim_starter(guild.id, ada.id, "ember-and-grove")
        await cards.claim_starter(guild.id, bo.id, "tide-and-night")

        off = await fake_discord.slash(ada, channel, "play duel", ante=True,
                                       deck="ember-and-grove")
        assert off.ephemeral and "Ante is off on this server" in off.content
        await fake_discord.slash(boss, channel, "config ante", allowed=True)
        computer = await fake_discord.slash(ada, channel, "play duel", ante=True,
                                            vs_bot=True, deck="ember-and-grove")
        assert computer.ephemeral and "The computer owns no cards" in computer.content
        await fake_discord.slash(ada, channel, "play duel", ante=True, deck="ember-and-grove")
        await bot.service.settle()
        assert any("Taking a seat agrees to it" in str(m.embeds) for m in channel.messages)
        unowned = await fake_discord.slash(bo, channel, "join", deck="grove-and-dawn")
        assert unowned.ephemeral and "bring a deck of your own" in unowned.content
        await fake_discord.slash(bo, channel, "join", deck="tide-and-night")
        await fake_discord.slash(ada, channel, "start")
        await bot.service.settle()
        match = bot.service.match_in(channel.id)
        set_aside = match.state.ante
        assert all(set_aside)
        _, locks = ante_rows(database)
        staked = sorted(copy for copy, ref in locks if ref == match.id)
        assert len(staked) == 2
        table = table_message(channel)
        shown = table.text + "".join(str(e) for e in table.embeds)
        assert set_aside[0] in shown and set_aside[1] in shown
        # A staked copy is locked: it can't be offered meanwhile.
        counts = await cards.card_counts(guild.id, bo.id, set_aside[1])
        assert counts.locked == 1

        await fake_discord.slash(bo, channel, "forfeit")
        await bot.service.settle()
        # Who kept the staked cards, by name, in the channel and in both DMs.
        said = f"Ada wins the ante: {set_aside[0]} (Ada's own) and {set_aside[1]} (from Bo)"
        final = table_message(channel)
        assert final.text.count(said) == 2  # the narration, and the players' field
        for person in (ada, bo):
            assert said in fake_discord.dm_messages(person)[-1].text
        ledger, locks = ante_rows(database)
        assert locks == []
        assert ledger == [(copy, bo.id, ada.id, match.id) for copy in staked
                          if owner_of(database, [copy]) == [ada.id]
                          and (copy, bo.id, ada.id, match.id) in ledger]
        assert owner_of(database, staked) == [ada.id, ada.id]
        assert len(ledger) == 1  # Bo's copy moved; Ada's own stayed hers
        assert await cards.audit(guild.id) == []

        # A cancelled ante duel gives each copy back to whoever staked it.
        await fake_discord.slash(ada, channel, "play duel", ante=True, deck="ember-and-grove")
        await fake_discord.slash(bo, channel, "join", deck="tide-and-night")
        await fake_discord.slash(ada, channel, "start")
        await bot.service.settle()
        second = bot.service.match_in(channel.id)
        _, locks = ante_rows(database)
        again = sorted(copy for copy, ref in locks if ref == second.id)
        before = owner_of(database, again)
        await fake_discord.slash(ada, channel, "cancel")
        await bot.service.settle()
        ledger, locks = ante_rows(database)
        assert locks == [] and len(ledger) == 1
        assert owner_of(database, again) == before
        assert await cards.audit(guild.id) == []


async def test_a_staked_ante_survives_a_restart_and_is_paid_after_it(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    guild = fake_discord.add_guild("Arcana")
    channel = guild.add_text_channel("duels")
    ada, bo = guild.add_user("Ada"), guild.add_user("Bo")
    database = tmp_path / "restart.sqlite3"
    bot = make_bot(database)
    async with fake_discord.running(bot):
        await bot.store.settings.update(guild.id, ante=True)
        cards = await collections(bot)
        await cards.claim_starter(guild.id, ada.id, "night-and-ember")
        await cards.claim_starter(guild.id, bo.id, "dawn-and-tide")
        await fake_discord.slash(ada, channel, "play duel", ante=True, deck="night-and-ember")
        await fake_discord.slash(bo, channel, "join", deck="dawn-and-tide")
        await fake_discord.slash(ada, channel, "start")
        await bot.service.settle()
        match_id = bot.service.match_in(channel.id).id
    _, locks = ante_rows(database)
    staked = sorted(copy for copy, ref in locks if ref == match_id)
    again = make_bot(database)
    async with fake_discord.running(again):
        assert again.service.match_in(channel.id).state.ante == \
            bot.service.get(match_id).state.ante
        await fake_discord.slash(ada, channel, "forfeit")
        await again.service.settle()
        assert owner_of(database, staked) == [bo.id, bo.id]
        assert ante_rows(database)[1] == []


async def test_a_rated_win_brings_a_pack_where_the_server_says_so(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    guild = fake_discord.add_guild("Arcana")
    channel = guild.add_text_channel("duels")
    boss = guild.add_user("Boss", roles=(guild.add_role("Managers", MANAGE_GUILD),))
    ada, bo = guild.add_user("Ada"), guild.add_user("Bo")
    database = tmp_path / "prizes.sqlite3"
    bot = make_bot(database)

    def packs_waiting(user: int) -> list[tuple]:
        with sqlite3.connect(database) as conn:
            return conn.execute("SELECT why, ref FROM pack_credits WHERE user_id = ?"
                                " AND opened_at IS NULL", (user,)).fetchall()

    async def duel_won_by_bo() -> int:
        await fake_discord.slash(ada, channel, "play duel")
        await fake_discord.slash(bo, channel, "join")
        await fake_discord.slash(ada, channel, "start")
        await bot.service.settle()
        match_id = bot.service.match_in(channel.id).id
        await fake_discord.slash(ada, channel, "forfeit")
        await bot.service.settle()
        return match_id

    async with fake_discord.running(bot):
        await duel_won_by_bo()
        assert packs_waiting(bo.id) == []  # off by default
        shown = await fake_discord.slash(boss, channel, "config collections", win_packs=True,
                                         public=False)
        assert "private" in shown.content and "rated wins" in shown.content
        settings = await bot.store.settings.get(guild.id)
        assert (settings.win_packs, settings.collections_public, settings.daily_pack) == (
            True, False, True)
        won = await duel_won_by_bo()
        assert packs_waiting(bo.id) == [("win", won)] and packs_waiting(ada.id) == []
        everything = await fake_discord.slash(boss, channel, "config show")
        assert "**Collections**: private; packs from a daily claim, rated wins, prizes" in \
            everything.content


async def test_only_managers_change_the_collection_settings(store: Store) -> None:
    config = ServerConfig(store)
    with pytest.raises(NotAllowed, match="manage this server"):
        await config.set_collections(Manager(1, "Ada"), 5, public=False)
    assert (await store.settings.get(5)).collections_public is True
    boss = Manager(2, "Boss", manages_server=True)
    changed = await config.set_collections(boss, 5, daily_pack=False)
    assert (changed.collections_public, changed.daily_pack, changed.win_packs) == (
        True, False, False)
    assert await config.set_collections(boss, 5) == changed  # nothing given: shown


async def test_a_start_whose_stake_is_not_owned_starts_nothing(store: Store) -> None:
    match_id = await store.matches.create_lobby(
        game="duel", options={"ante": True}, seed=1, guild_id=5, channel_id=9, host_id=1,
        max_seats=2, seats=[SeatRow(0, 1, "Ada"), SeatRow(1, 2, "Bo")])
    with pytest.raises(CollectionRefusal):
        await store.matches.start(match_id, [SeatRow(0, 1, "Ada"), SeatRow(1, 2, "Bo")], None,
                                  ante=Ante(5, ((1, "Kindlewhip"), (2, "Kindlewhip"))))
    assert (await store.matches.get(match_id)).status == "lobby"
    assert await store.collections.audit(5) == []


async def test_collection_commands_show_nothing_of_a_hand_or_a_library(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """Another person's collection reads the same before a duel is dealt and while it
    is played for ante (hand drawn, a card staked): it is the cards owned, never where
    they are; and a deck can be looked at only by its owner."""
    guild = fake_discord.add_guild("Arcana")
    channel = guild.add_text_channel("duels")
    ada, bo = guild.add_user("Ada"), guild.add_user("Bo")
    bot = make_bot(tmp_path / "hidden.sqlite3")

    async def ada_as_bo_sees_her() -> list[str]:
        pages = []
        for page in (1, 2):
            shown = await fake_discord.slash(bo, channel, "collection", user=ada, page=page)
            assert shown.ephemeral
            pages.append(shown.text + str(shown.embeds))
        return pages

    async with fake_discord.running(bot):
        await bot.store.settings.update(guild.id, ante=True)
        cards = await collections(bot)
        await cards.claim_starter(guild.id, ada.id, "ember-and-grove")
        await cards.claim_starter(guild.id, bo.id, "tide-and-night")
        before = await ada_as_bo_sees_her()
        await fake_discord.slash(ada, channel, "play duel", ante=True, deck="ember-and-grove")
        await fake_discord.slash(bo, channel, "join", deck="tide-and-night")
        await fake_discord.slash(ada, channel, "start")
        await bot.service.settle()
        assert bot.service.match_in(channel.id).state.ante[0] is not None
        assert await ada_as_bo_sees_her() == before
        hers = await fake_discord.slash(bo, channel, "deck show", name="ember-and-grove")
        assert hers.ephemeral and "You have no deck" in hers.content
        await fake_discord.slash(ada, channel, "cancel")


async def test_an_ante_table_refuses_a_deck_whose_cards_cannot_be_staked(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """Basic lands are free to play with but staked only as a copy one owns: a deck of
    basic lands its player never owned is refused at an ante table's seat, saying so,
    instead of being seated and then failing every /start."""
    guild = fake_discord.add_guild("Arcana")
    channel = guild.add_text_channel("duels")
    ada, bo = guild.add_user("Ada"), guild.add_user("Bo")
    bot = make_bot(tmp_path / "lands.sqlite3")
    async with fake_discord.running(bot):
        await bot.store.settings.update(guild.id, ante=True)
        cards = await collections(bot)
        await cards.claim_starter(guild.id, ada.id, "ember-and-grove")
        made = await fake_discord.slash(bo, channel, "deck create", name="lands",
                                        list="20 Dawnfield, 20 Mistshore")
        assert "ready to play" in made.text.lower()
        assert "ante" in made.text  # the deck says it can't be staked

        opened = await fake_discord.slash(bo, channel, "play duel", ante=True, deck="lands")
        assert opened.ephemeral and "Dawnfield" in opened.content \
            and "Mistshore" in opened.content and "basic land" in opened.content
        assert "no longer free" not in opened.content
        with pytest.raises(Exception):  # noqa: B017 (nothing opened in the channel)
            bot.service.match_in(channel.id)

        await fake_discord.slash(ada, channel, "play duel", ante=True, deck="ember-and-grove")
        refused = await fake_discord.slash(bo, channel, "join", deck="lands")
        assert refused.ephemeral and "Dawnfield" in refused.content \
            and "basic land" in refused.content
        match = bot.service.match_in(channel.id)
        assert len(match.seats) == 1
        # Without ante the same deck plays: basic lands are free to play with.
        await fake_discord.slash(ada, channel, "cancel")
        await fake_discord.slash(ada, channel, "play duel", deck="ember-and-grove")
        await fake_discord.slash(bo, channel, "join", deck="lands")
        assert len(bot.service.match_in(channel.id).seats) == 2
        await fake_discord.slash(ada, channel, "cancel")


async def test_a_seat_is_never_won_or_lost_by_the_computers_play(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """/kick hands a person's seat to the computer player. In a duel for ante the host
    could kick the other player and beat the computer for their card: refused, nothing
    changes, and the stake is still paid by the people's own play. Anywhere else the
    kick works, and a match a kicked seat finishes is not rated (Bo's seat won it while
    the computer played)."""
    guild = fake_discord.add_guild("Arcana")
    duels, flank = guild.add_text_channel("duels"), guild.add_text_channel("flank")
    ada, bo = guild.add_user("Ada"), guild.add_user("Bo")
    database = tmp_path / "kick.sqlite3"
    bot = make_bot(database)
    async with fake_discord.running(bot):
        await bot.store.settings.update(guild.id, ante=True)
        cards = await collections(bot)
        await cards.claim_starter(guild.id, ada.id, "ember-and-grove")
        await cards.claim_starter(guild.id, bo.id, "tide-and-night")
        await fake_discord.slash(ada, duels, "play duel", ante=True, deck="ember-and-grove")
        await fake_discord.slash(bo, duels, "join", deck="tide-and-night")
        await fake_discord.slash(ada, duels, "start")
        await bot.service.settle()
        match = bot.service.match_in(duels.id)
        locks = ante_rows(database)[1]
        kicked = await fake_discord.slash(ada, duels, "kick", user=bo)
        assert kicked.ephemeral and "played for ante" in kicked.content
        assert not match.seat_of(bo.id).computer_plays
        assert ante_rows(database)[1] == locks
        await fake_discord.slash(ada, duels, "forfeit")
        await bot.service.settle()
        staked = sorted(copy for copy, ref in locks if ref == match.id)
        assert owner_of(database, staked) == [bo.id, bo.id]

        await fake_discord.slash(ada, flank, "play flank", board="8")
        await fake_discord.slash(bo, flank, "join")
        await fake_discord.slash(ada, flank, "start")
        await bot.service.settle()
        kicked = await fake_discord.slash(ada, flank, "kick", user=bo)
        assert not kicked.ephemeral and "computer player takes their seat" in (
            kicked.content + "".join(m.content for m in flank.messages))
        await fake_discord.slash(ada, flank, "forfeit")
        await bot.service.settle()
        assert await bot.store.stats.rated_players(guild.id, "flank") == 0


async def test_a_cancelled_ante_duel_says_every_staked_card_goes_back(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """/cancel gives each staked card back to whoever staked it (the store pays no
    one): the table says so by name, as the end of a duel says who keeps them, at a
    table of three too."""
    guild = fake_discord.add_guild("Arcana")
    channel = guild.add_text_channel("duels")
    ada, bo, cy = guild.add_user("Ada"), guild.add_user("Bo"), guild.add_user("Cy")
    database = tmp_path / "cancel.sqlite3"
    bot = make_bot(database)
    async with fake_discord.running(bot):
        await bot.store.settings.update(guild.id, ante=True)
        cards = await collections(bot)
        decks = {ada: "ember-and-grove", bo: "tide-and-night", cy: "night-and-ember"}
        for person, deck in decks.items():
            await cards.claim_starter(guild.id, person.id, deck)
        await fake_discord.slash(ada, channel, "play duel", ante=True, seats=3,
                                 deck=decks[ada])
        await fake_discord.slash(bo, channel, "join", deck=decks[bo])
        # Two people at a table of three: the empty seat can't go to the computer. The
        # refusal says why, and not that ante is for two people (a table of three is).
        bots = await fake_discord.slash(ada, channel, "start", bots=True)
        assert bots.ephemeral and "computer owns no cards" in bots.content
        assert "two people" not in bots.content and "/join" in bots.content
        await fake_discord.slash(cy, channel, "join", deck=decks[cy])
        await fake_discord.slash(ada, channel, "start")
        await bot.service.settle()
        match = bot.service.match_in(channel.id)
        a, b, c = match.state.ante
        staked = sorted(copy for copy, ref in ante_rows(database)[1] if ref == match.id)
        owners = owner_of(database, staked)
        await fake_discord.slash(ada, channel, "cancel")
        await bot.service.settle()
        table = next(m for m in reversed(channel.messages)
                     if "Ada cancelled the game." in m.text)
        said = f"No one wins the ante: {a} goes back to Ada, {b} to Bo and {c} to Cy."
        assert table.text.index("Ada cancelled the game.") < table.text.index(said)
        assert owner_of(database, staked) == owners and ante_rows(database)[1] == []

        # Without ante, a cancelled duel says nothing of it.
        await fake_discord.slash(ada, channel, "play duel", deck=decks[ada])
        await fake_discord.slash(bo, channel, "join", deck=decks[bo])
        await fake_discord.slash(ada, channel, "start")
        await bot.service.settle()
        await fake_discord.slash(ada, channel, "cancel")
        await bot.service.settle()
        closed = [m for m in channel.messages if "Ada cancelled the game." in m.text]
        assert len(closed) == 2 and "ante" not in closed[-1].text
