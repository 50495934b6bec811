"""End to end, as a hostile or unlucky user: the same interaction delivered twice,
forged, stale and malformed buttons and menus. Each gets one answer (a refusal,
privately, where it is refused), no ERROR is logged, nothing changes, and the
public table is never replaced."""

from __future__ import annotations

from tests.e2e import make_bot, select_ids, select_values, table_message

REFUSAL = "⚠️"


async def _flank_between(fake_discord, bot, channel, ada, bo):
    await fake_discord.slash(ada, channel, "play flank", board="8", stoppers=0)
    await fake_discord.slash(bo, channel, "join")
    await fake_discord.slash(ada, channel, "start")
    await bot.service.settle()
    return bot.service.match_in(channel.id)


def _snapshot(message) -> tuple:
    return (message.id, message.content, repr(message.embeds), repr(message.components))


async def test_an_interaction_delivered_twice_is_answered_once(fake_discord, tmp_path):
    guild = fake_discord.add_guild("Casino")
    channel = guild.add_text_channel("t")
    ada, bo = fake_discord.add_user("Ada"), fake_discord.add_user("Bo")
    bot = make_bot(tmp_path / "twice.sqlite3")
    async with fake_discord.running(bot):
        match = await _flank_between(fake_discord, bot, channel, ada, bo)
        mover = ada if match.seat_of(ada.id).seat == match.state.pending()[0].seat else bo
        table = table_message(channel)
        menu = select_ids(table)[0]
        picked = await fake_discord.select(mover, table, menu, [select_values(table, menu)[0]])
        await bot.service.settle()
        again = await fake_discord.redeliver(picked)
        await fake_discord.wait_until_idle(quiet=0.3)
        await bot.service.settle()
        assert again.callback_attempts == 1 and fake_discord.rejections == []
        assert len(await bot.store.matches.choices(match.id)) == 1
        # A slash command too: one move, one reply.
        other = ada if mover is bo else bo
        cell = match.state.pending()[0].options[0]
        placed = await fake_discord.slash(other, channel, "flank place", cell=cell)
        await fake_discord.redeliver(placed)
        await fake_discord.wait_until_idle(quiet=0.3)
        await bot.service.settle()
        assert placed.callback_attempts == 1 and fake_discord.rejections == []
        assert len(await bot.store.matches.choices(match.id)) == 2


async def test_forged_and_malformed_components_are_refused_and_change_nothing(
        fake_discord, tmp_path):
    guild = fake_discord.add_guild("Casino")
    channel = guild.add_text_channel("t")
    ada, bo, cy = (fake_discord.add_user(n) for n in ("Ada", "Bo", "Cy"))
    bot = make_bot(tmp_path / "forged.sqlite3")
    async with fake_discord.running(bot):
        match = await _flank_between(fake_discord, bot, channel, ada, bo)
        table = table_message(channel)
        before = _snapshot(table)
        step = match.state.step
        waiting = match.state.pending()[0].seat
        idle = ada if match.seat_of(ada.id).seat != waiting else bo
        menu = select_ids(table)[0]
        legal = select_values(table, menu)[0]
        forged = [
            (ada, f"cr:pick:{match.id + 1}:{step}:0", [legal]),     # another match
            (ada, f"cr:pick:{match.id}:{step}:٣", [legal]),         # not ASCII digits
            (ada, "cr:pick:" + "9" * 80, [legal]),                  # malformed
            (ada, f"cr:page:{match.id}:{step}:17:1", None),         # a private page button
            (ada, f"cr:keys:{match.id}:{step}", ["17"]),            # a private picker
            (ada, "something-else", None),                          # not ours at all
        ]
        for user, custom_id, values in forged:
            answer = await fake_discord.click_custom(user, table, custom_id, values)
            assert answer.ephemeral and answer.content.startswith(REFUSAL), custom_id
            assert "not one I can use" in answer.content
        refused = [
            (idle, [legal], "not your turn"),                   # another seat
            (cy, [legal], "not playing in this match"),          # no seat at all
            (waiting_user(match, ada, bo), ["Z99"], "z99 is off the"),  # never offered
        ]
        for user, values, words in refused:
            answer = await fake_discord.click_custom(user, table, menu, values)
            assert answer.ephemeral and words in answer.content.lower().replace("’", "'"), \
                answer.content
        await bot.service.settle()
        assert _snapshot(table_message(channel)) == before
        assert match.state.step == step
        assert await bot.store.matches.choices(match.id) == []


def waiting_user(match, ada, bo):
    seat = match.state.pending()[0].seat
    return ada if match.seat_of(ada.id).seat == seat else bo


async def test_a_stale_private_menu_is_refused(fake_discord, tmp_path):
    guild = fake_discord.add_guild("Casino")
    channel = guild.add_text_channel("t")
    ada, bo = fake_discord.add_user("Ada"), fake_discord.add_user("Bo")
    bot = make_bot(tmp_path / "stale.sqlite3")
    async with fake_discord.running(bot):
        match = await _flank_between(fake_discord, bot, channel, ada, bo)
        mover = waiting_user(match, ada, bo)
        hand = await fake_discord.slash(mover, channel, "hand")
        menu = select_ids(hand.message)[0]
        cell = select_values(hand.message, menu)[0]
        # The move is made elsewhere; the ephemeral menu is now of an earlier step.
        await fake_discord.slash(mover, channel, "flank place", cell=cell)
        await bot.service.settle()
        stale = await fake_discord.click_custom(mover, hand.message, menu, [cell])
        assert stale.ephemeral and "earlier turn" in stale.content
        assert len(await bot.store.matches.choices(match.id)) == 1


async def test_a_name_saying_everyone_never_pings_the_server(fake_discord, tmp_path):
    """Names people choose are echoed in public replies: a nickname "@everyone" and a
    tournament called "@here …" ping nobody but the people a message means to."""
    from tests.fakediscord.model.constants import MANAGE_GUILD

    guild = fake_discord.add_guild("Casino")
    channel, tables = guild.add_text_channel("t"), guild.add_text_channel("tables")
    boss = guild.add_user("Boss", roles=(guild.add_role("M", MANAGE_GUILD),))
    loud = guild.add_user("@everyone")
    bot = make_bot(tmp_path / "loud.sqlite3")
    async with fake_discord.running(bot):
        await fake_discord.slash(boss, channel, "tournament create", game="flank",
                                 name="@here come", seeding="random", options="board=4")
        await fake_discord.slash(boss, channel, "tournament open")
        await fake_discord.slash(loud, channel, "tournament join")
        await fake_discord.slash(boss, channel, "tournament add", computers=1)
        await (await fake_discord.slash(boss, channel, "tournament start")).final()
        await bot.tournaments.settle()
        dropped = await fake_discord.slash(boss, channel, "tournament drop", user=loud)
        said = (await dropped.followups(2))[-1]
        assert said.content == "@everyone is dropped." and not said.ephemeral
        await bot.tournaments.settle()
        await fake_discord.slash(loud, tables, "play flank", board="4")
        await bot.service.settle()
        posted = [m for place in (channel, tables, *guild.threads) for m in place.messages]
        loud_ones = [m for m in posted if "@everyone" in m.content or "@here" in m.content]
        assert len(loud_ones) >= 5
        assert not [m.content[:60] for m in loud_ones if m.pings_everyone]


async def test_a_name_that_mentions_someone_pings_nobody(fake_discord, tmp_path):
    """A member whose display name is ``<@VICTIM>`` is echoed in lobby lines ("… joins
    (2/3).", "Eclipse begins: …", "… forfeits.", "… was removed."), in tournament
    lines ("… is dropped.") and a tournament may be named so: Discord renders each as a
    mention of the victim, and no message may ping them. The people a message means to
    ping (a round's players) still are."""
    from tests.fakediscord.model.constants import MANAGE_GUILD

    guild = fake_discord.add_guild("Casino")
    lobby, kicks, events = (guild.add_text_channel(n) for n in ("lobby", "kicks", "events"))
    victim = guild.add_user("Victim")
    mention = f"<@{victim.id}>"
    ada = guild.add_user("Ada")
    boss = guild.add_user("Boss", roles=(guild.add_role("M", MANAGE_GUILD),))
    rogue = guild.add_user(mention)
    bot = make_bot(tmp_path / "mentions.sqlite3")
    async with fake_discord.running(bot):
        await fake_discord.slash(ada, lobby, "play eclipse", seats=3)
        joined = await fake_discord.slash(rogue, lobby, "join")
        assert mention in joined.content
        await fake_discord.slash(ada, lobby, "start", bots=True)
        await bot.service.settle()
        await fake_discord.slash(rogue, lobby, "forfeit")
        await bot.service.settle()

        await fake_discord.slash(ada, kicks, "play flank", board="8")
        await fake_discord.slash(rogue, kicks, "join")
        await fake_discord.slash(ada, kicks, "kick", user=rogue)
        await bot.service.settle()

        await fake_discord.slash(boss, events, "tournament create", game="flank",
                                 name=f"Cup of {mention}", seeding="random",
                                 options="board=4")
        await fake_discord.slash(boss, events, "tournament open")
        await fake_discord.slash(rogue, events, "tournament join")
        await fake_discord.slash(boss, events, "tournament add", computers=1)
        await (await fake_discord.slash(boss, events, "tournament start")).final()
        await bot.tournaments.settle()
        dropped = await fake_discord.slash(boss, events, "tournament drop", user=rogue)
        await dropped.followups(2)
        await bot.tournaments.settle()
        await bot.service.settle()

        posted = [m for place in (lobby, kicks, events, *guild.threads)
                  for m in place.messages]
        naming = [m for m in posted if mention in m.content]
        assert len(naming) >= 6, [m.content[:60] for m in posted]
        assert not [m.content[:80] for m in posted if victim.id in m.pinged]
        # What is meant to ping still does: the round's thread pings its player.
        assert [m for m in posted if rogue.id in m.pinged]


async def test_a_command_cut_short_by_the_bot_stopping_is_no_error(fake_discord, tmp_path,
                                                                     caplog):
    """A command still at work when the bot stops meets a closed store and a closed
    session: expected, logged as such, never an ERROR (nor an unanswered task's
    traceback)."""
    import asyncio
    import logging

    from tests.fakediscord.model.constants import MANAGE_GUILD

    guild = fake_discord.add_guild("Casino")
    channel = guild.add_text_channel("t")
    boss = guild.add_user("Boss", roles=(guild.add_role("M", MANAGE_GUILD),))
    bot = make_bot(tmp_path / "stop.sqlite3")
    entered, gate = asyncio.Event(), asyncio.Event()
    caplog.set_level(logging.INFO, logger="bot.discord_parts.replies")
    async with fake_discord.running(bot):
        remember = bot.tournaments.set_message

        async def slow(*args, **kwargs):
            entered.set()
            await gate.wait()
            return await remember(*args, **kwargs)

        bot.tournaments.set_message = slow
        made = asyncio.create_task(fake_discord.slash(boss, channel, "tournament create",
                                                      game="flank", options="board=4"))
        await entered.wait()
        await bot.close()
        gate.set()
        assert not (await made).ephemeral
        for _ in range(100):
            if "cut short by the bot stopping" in caplog.text:
                break
            await asyncio.sleep(0.01)
        assert "cut short by the bot stopping (StorageError)" in caplog.text
