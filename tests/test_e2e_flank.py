"""End to end: the real discord.py client running Croupier against the fake Discord API.

Slash commands, the lobby, moves by slash command and by select menu, refusals,
a finished game with its result posted, and a restart in the middle of a match.
"""

from __future__ import annotations

from bot.clock import FakeClock
from rules.flank import GAME as FLANK
from tests.e2e import make_bot, select_ids, select_values, table_message
from tests.pseudo import assert_all_pseudo, pseudo_discord, server_speaks_pseudo

EXPECTED_COMMANDS = {"play", "join", "leave", "start", "cancel", "kick", "forfeit", "table",
                     "hand", "rules", "flank"}



async def test_two_people_play_flank_to_the_end(fake_discord, tmp_path):
    guild = fake_discord.add_guild("Casino")
    channel = guild.add_text_channel("flank-table")
    ada, bo, cy = (fake_discord.add_user(n) for n in ("Ada", "Bo", "Cy"))
    bot = make_bot(tmp_path / "e2e.sqlite3")
    async with fake_discord.running(bot):
        assert {c.name for c in fake_discord.commands()} >= EXPECTED_COMMANDS

        opened = await fake_discord.slash(ada, channel, "play flank", board="4")
        assert "Flank opened" in opened.content and not opened.ephemeral
        await bot.service.settle()
        lobby = [m for m in channel.messages if m.embeds and "lobby" in m.embeds[0]["title"]][-1]
        joined = await fake_discord.click(bo, lobby, label="Join")
        assert joined.acked
        await bot.service.settle()
        busy = await fake_discord.slash(cy, channel, "play flank")
        assert busy.ephemeral and "already has a game" in busy.content
        refused = await fake_discord.slash(bo, channel, "start")
        assert refused.ephemeral and "Only the host" in refused.content
        started = await fake_discord.slash(ada, channel, "start")
        assert "Flank begins: Ada, Bo." in started.content
        await bot.service.settle()

        match = bot.service.match_in(channel.id)
        table = table_message(channel)
        assert table.attachments and table.attachments[0].data.startswith(b"\x89PNG")
        assert "Ada" in table.embeds[0]["title"] and "Bo" in table.embeds[0]["title"]

        # The first player is drawn from the match's seed: either may start.
        starter, waiter = (ada, bo) if match.state.pending()[0].seat == 0 else (bo, ada)
        wrong = await fake_discord.slash(waiter, channel, "flank place", cell="A1")
        assert wrong.ephemeral and "not your turn" in wrong.content
        bad = await fake_discord.slash(starter, channel, "flank place", cell="Z9")
        assert bad.ephemeral and "Z9" in bad.content
        before = match.state.notation()
        stranger = table_message(channel)
        intruder = await fake_discord.select(cy, stranger, select_ids(stranger)[0],
                                             [select_values(stranger, select_ids(stranger)[0])[0]])
        assert intruder.ephemeral and "not playing" in intruder.content
        assert match.state.notation() == before

        moves = 0
        while not match.finished:
            seat = match.state.pending()[0].seat
            options = match.state.pending()[0].options
            if seat == 0:
                played = await fake_discord.slash(ada, channel, "flank place",
                                                  cell=options[0].rstrip("*"))
                assert played.ephemeral and "You chose" in played.content
            else:
                table = table_message(channel)
                menu = select_ids(table)[0]
                assert menu.endswith(f":{match.state.step}:0")
                cell = select_values(table, menu)[-1]
                chosen = await fake_discord.select(bo, table, menu, [cell])
                assert chosen.type == 6  # deferred update: the table edit is the answer
            moves += 1
            await bot.service.settle()
            assert moves < 40

        result = await fake_discord.wait_for_message(channel, contains="is over")
        outcome = match.state.outcome()
        assert ("Draw" in result.content) == outcome.is_draw
        final = table_message(channel)
        assert any(f["name"] == "Result" for f in final.embeds[0]["fields"])
        assert not select_ids(final)
        row = await bot.store.matches.get(match.id)
        assert row.status == "finished"
        # The channel is free for the next game.
        again = await fake_discord.slash(cy, channel, "play flank", vs_bot=True)
        assert "against the computer" in again.content
        await bot.service.settle()


async def test_against_the_computer_by_select_menu(fake_discord, tmp_path):
    guild = fake_discord.add_guild("Casino")
    channel = guild.add_text_channel("solo")
    ada = fake_discord.add_user("Ada")
    bot = make_bot(tmp_path / "solo.sqlite3")
    async with fake_discord.running(bot):
        await fake_discord.slash(ada, channel, "play flank", vs_bot=True, board="6")
        await bot.service.settle()
        match = bot.service.match_in(channel.id)
        while not match.finished:
            table = table_message(channel)
            menus = select_ids(table)
            assert menus, "the person to move always gets a menu of legal cells"
            await fake_discord.select(ada, table, menus[0], [select_values(table, menus[0])[0]])
            await bot.service.settle()
        await fake_discord.wait_for_message(channel, contains="is over")
        choices = await bot.store.matches.choices(match.id)
        assert {c.source for c in choices} <= {"player", "bot", "forced"}
        assert any(c.source == "bot" for c in choices)


async def test_rules_hand_and_table_commands(fake_discord, tmp_path):
    guild = fake_discord.add_guild("Casino")
    channel = guild.add_text_channel("t")
    ada = fake_discord.add_user("Ada")
    bot = make_bot(tmp_path / "r.sqlite3")
    async with fake_discord.running(bot):
        rules = await fake_discord.slash(ada, channel, "rules", game="flank")
        assert rules.ephemeral and "stopper" in rules.embeds[0]["description"].lower()
        unknown = await fake_discord.slash(ada, channel, "rules", game="chess")
        assert unknown.ephemeral and "there is no game 'chess'" in unknown.content
        nothing = await fake_discord.slash(ada, channel, "hand")
        assert nothing.ephemeral and "no match" in nothing.content
        await fake_discord.slash(ada, channel, "play flank", vs_bot=True)
        await bot.service.settle()
        hand = await fake_discord.slash(ada, channel, "hand")
        assert hand.ephemeral and "no hidden hand" in hand.embeds[0]["description"]
        assert select_ids(hand.message)
        first = table_message(channel)
        await fake_discord.slash(ada, channel, "table")
        await bot.service.settle()
        assert table_message(channel).id != first.id
        bad = await fake_discord.slash(ada, channel, "play flank", board="8", cards=200)
        assert bad.ephemeral and "cards must be from 2 to 32 on the 8×8 board" in bad.content


async def test_restart_mid_match_keeps_the_table_buttons_and_deadline(
        fake_discord, tmp_path):
    guild = fake_discord.add_guild("Casino")
    channel = guild.add_text_channel("long-game")
    ada = fake_discord.add_user("Ada")
    database = tmp_path / "restart.sqlite3"
    clock = FakeClock()
    first = make_bot(database, clock=clock)
    async with fake_discord.running(first):
        await fake_discord.slash(ada, channel, "play flank", vs_bot=True)
        await first.service.settle()
        match = first.service.match_in(channel.id)
        table = table_message(channel)
        await fake_discord.select(ada, table, select_ids(table)[0],
                                  [select_values(table, select_ids(table)[0])[0]])
        await first.service.settle()
        notation, step = match.state.notation(), match.state.step
        old_table = table_message(channel)
    clock.advance(30)
    second = make_bot(database, clock=clock)
    async with fake_discord.running(second):
        await second.service.settle()
        resumed = second.service.match_in(channel.id)
        assert resumed.state.notation() == notation and resumed.state.step == step
        assert second.service.next_due() is not None  # the deadline is armed again
        # The menu on the table posted by the first process still works.
        table = table_message(channel)
        assert table.id == old_table.id
        menu = select_ids(table)[0]
        await fake_discord.select(ada, table, menu, [select_values(table, menu)[0]])
        await second.service.settle()
        assert resumed.state.step > step
        assert len(await second.store.matches.choices(resumed.id)) >= 3


def newest_menu(channel, step: int) -> tuple[object, str] | None:
    """The newest message in the channel with a select menu of step ``step``, and that
    menu (found by its custom id, whatever the language of the table around it)."""
    for message in reversed(channel.messages):
        for menu in select_ids(message) if not message.deleted else ():
            if f":{step}:" in menu:
                return message, menu
    return None


async def test_a_game_in_the_pseudo_locale_shows_no_english(fake_discord, tmp_path):
    """Every word Flank shows comes from a catalog: a whole game (the smallest board,
    against the computer) with /rules, /hand, a refusal and a typed move, in the
    pseudo-locale, leaves no English anywhere the fake Discord was sent."""
    guild = fake_discord.add_guild("Qq")
    channel = guild.add_text_channel("qq")
    jo = fake_discord.add_user("Jo")
    bot = make_bot(tmp_path / "qps.sqlite3")
    with pseudo_discord(fake_discord):
        async with fake_discord.running(bot):
            await server_speaks_pseudo(bot, guild.id)
            rules = await fake_discord.slash(jo, channel, "rules", game="flank")
            assert rules.ephemeral and "⟦" in rules.embeds[0]["description"]
            await fake_discord.slash(jo, channel, "play flank", vs_bot=True, board="4")
            await bot.service.settle()
            match = bot.service.match_in(channel.id)
            refused = await fake_discord.slash(jo, channel, "flank place", cell="Z9")
            assert refused.ephemeral and "Z9" in refused.content
            await fake_discord.slash(jo, channel, "hand")
            typed, moves = False, 0
            while not match.finished:
                moves += 1
                assert moves < 20, match.state.notation()
                decision = match.state.pending()[0]
                if not typed:
                    typed = True
                    await fake_discord.slash(jo, channel, "flank place",
                                             cell=decision.options[-1].rstrip("*"),
                                             stopper=decision.options[-1].endswith("*"))
                else:
                    found = newest_menu(channel, match.state.step)
                    assert found is not None, "the person to move always gets a menu"
                    table, menu = found
                    await fake_discord.select(jo, table, menu, [select_values(table, menu)[0]])
                await bot.service.settle()
            await bot.service.settle()
    assert match.finished
    # The game's title and the computer's name are names, not words; the options' names
    # are typed in /play as they are (/rules lists them).
    options = [spec.name for spec in FLANK.options.specs()]
    assert_all_pseudo(fake_discord, allowed=["Jo", "Flank", "Croupier Bot", *options])
