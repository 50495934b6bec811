"""End to end: after real matches in a channel, /stats, /leaderboard, /history and
/match show them, and a moderator resets a leaderboard in two steps."""

from __future__ import annotations

import re

from tests.e2e import make_bot, table_message


async def play_and_finish(fake_discord, bot, channel, host, guest, loser) -> int:
    await fake_discord.slash(host, channel, "play flank", board="4")
    await fake_discord.slash(guest, channel, "join")
    await fake_discord.slash(host, channel, "start")
    await bot.service.settle()
    match_id = bot.service.match_in(channel.id).id
    await fake_discord.slash(loser, channel, "forfeit")
    await bot.service.settle()
    return match_id


async def test_figures_after_matches(fake_discord, tmp_path):
    guild = fake_discord.add_guild("Casino")
    channel = guild.add_text_channel("games")
    ada, bo = fake_discord.add_user("Ada"), fake_discord.add_user("Bo")
    mod = fake_discord.add_user("Mod", admin=True)
    bot = make_bot(tmp_path / "figures.sqlite3")
    async with fake_discord.running(bot):
        nothing = await fake_discord.slash(bo, channel, "stats")
        assert "has not finished a match here yet" in nothing.content

        first = await play_and_finish(fake_discord, bot, channel, ada, bo, loser=bo)
        await play_and_finish(fake_discord, bot, channel, ada, bo, loser=bo)
        assert "Result" in table_message(channel).text

        stats = await fake_discord.slash(ada, channel, "stats", game="flank", against=bo)
        text = stats.message.text
        assert "**2** played · 2 W" in text and "rank **1** of 2" in text
        assert "ahead 2" in text and "the computer" in text
        bo_stats = await fake_discord.slash(ada, channel, "stats", user=bo)
        assert "0 W · 2 L" in bo_stats.message.text and "rank **2** of 2" in bo_stats.message.text

        board = await fake_discord.slash(bo, channel, "leaderboard", game="flank")
        lines = board.message.text
        assert lines.index("Ada") < lines.index("Bo") and "2 rated players" in lines

        history = await fake_discord.slash(bo, channel, "history")
        assert f"#{first}" in history.message.text and "Flank" in history.message.text
        assert "vs Ada" in history.message.text

        summary = await fake_discord.slash(bo, channel, "match", id=first)
        assert "Ada" in summary.message.text and "forfeit" in summary.message.text
        unknown = await fake_discord.slash(bo, channel, "match", id=999)
        assert unknown.ephemeral and "no match #999" in unknown.content

        refused = await fake_discord.slash(bo, channel, "resetleaderboard", game="flank")
        assert refused.ephemeral and "moderator" in refused.content
        asked = await fake_discord.slash(mod, channel, "resetleaderboard", game="flank")
        assert asked.ephemeral and "cannot be undone" in asked.content
        done = await fake_discord.click(mod, asked.message, label="Reset it")
        assert "reset" in done.message.text
        empty = await fake_discord.slash(bo, channel, "leaderboard", game="flank")
        assert "Nobody is rated" in empty.message.text


async def names_everywhere(fake_discord, tmp_path, winner: str, loser: str) -> dict[str, str]:
    """Two players called ``winner`` and ``loser`` finish a Flank game; every place
    that then names them: the table, the result post, the winner's /stats against
    the loser, the leaderboard, the loser's /history and /match."""
    channel = fake_discord.add_guild("Casino").add_text_channel("games")
    won, lost = fake_discord.add_user(winner), fake_discord.add_user(loser)
    bot = make_bot(tmp_path / "names.sqlite3")
    async with fake_discord.running(bot):
        first = await play_and_finish(fake_discord, bot, channel, won, lost, loser=lost)
        texts = {"table": table_message(channel).text,
                 "result": next(m for m in channel.messages if "is over" in m.text).text}
        for user, command, options in (
                (won, "stats", {"against": lost}), (lost, "leaderboard", {"game": "flank"}),
                (lost, "history", {}), (lost, "match", {"id": first})):
            texts[command] = (await fake_discord.slash(user, channel, command,
                                                       **options)).message.text
    return texts


async def test_names_with_braces_show_as_they_are_everywhere(fake_discord, tmp_path):
    texts = await names_everywhere(fake_discord, tmp_path, "{boss}", "{0}{s1}")
    table = texts["table"]
    assert "{boss}" in table and "{0}{s1}" in table
    assert "{0}{s1} forfeits" in table
    assert "{boss}" in texts["stats"] and "{0}{s1}" in texts["stats"]
    assert "{boss}" in texts["leaderboard"] and "{0}{s1}" in texts["leaderboard"]
    assert "vs {boss}" in texts["history"]
    assert "{boss}" in texts["match"] and "{0}{s1}" in texts["match"]


async def test_names_with_markdown_show_as_typed_everywhere(fake_discord, tmp_path):
    texts = await names_everywhere(fake_discord, tmp_path, "*Ada*", "__Bo__")
    for where, text in texts.items():
        # Escaped, Discord shows the names as typed; bare, it would show Ada in
        # italics and Bo underlined.
        assert "\\*Ada\\*" in text and "\\_\\_Bo\\_\\_" in text, (where, text)
        assert not re.search(r"(?<!\\)\*Ada|(?<!\\)_Bo", text), (where, text)
    assert "\\_\\_Bo\\_\\_ forfeits" in texts["table"]
