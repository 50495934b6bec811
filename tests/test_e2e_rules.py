"""End to end: /rules in a match's channel gives that match's rules, written from the
options chosen and its table's size; /rules with a game elsewhere gives the defaults."""

from __future__ import annotations

from tests.e2e import make_bot


def _options(reply) -> str:
    return next(f["value"] for f in reply.embeds[0]["fields"] if f["name"] == "Options")


async def test_rules_in_a_match_channel_are_that_match_s(fake_discord, tmp_path):
    guild = fake_discord.add_guild("Casino")
    table, elsewhere = guild.add_text_channel("t"), guild.add_text_channel("u")
    ada = fake_discord.add_user("Ada")
    bot = make_bot(tmp_path / "r.sqlite3")
    async with fake_discord.running(bot):
        await fake_discord.slash(ada, table, "play eclipse", seats=4, counterattack=2,
                                 hand_cap=30)
        await bot.service.settle()
        for asked in ({}, {"game": "eclipse"}):
            rules = await fake_discord.slash(ada, table, "rules", **asked)
            assert rules.ephemeral
            text = rules.embeds[0]["description"]
            assert "move exactly 2" in text and "After 30 hands" in text, text
            assert text.startswith("**Eclipse** — 4 players"), text
            assert "exactly 3" not in text and "400" not in text
            assert "this match: 2" in _options(rules) and "this match: 30" in _options(rules)
            assert "match #" in rules.embeds[0]["title"].lower()
        usual = await fake_discord.slash(ada, elsewhere, "rules", game="eclipse")
        text = usual.embeds[0]["description"]
        assert "move exactly 3" in text and "After 400 hands" in text
        assert "2 to 6 players" in text and "this match" not in _options(usual)
        other = await fake_discord.slash(ada, table, "rules", game="flank")
        assert other.embeds[0]["description"].startswith("**Flank**")
        nothing = await fake_discord.slash(ada, elsewhere, "rules")
        assert nothing.ephemeral and not nothing.embeds
        assert "no match in this channel" in nothing.content and "game:" in nothing.content


async def test_rules_of_a_duel_for_three_say_three_players(fake_discord, tmp_path):
    guild = fake_discord.add_guild("Casino")
    table = guild.add_text_channel("t")
    ada = fake_discord.add_user("Ada")
    bot = make_bot(tmp_path / "d.sqlite3")
    async with fake_discord.running(bot):
        await fake_discord.slash(ada, table, "play duel", seats=3, life=9)
        await bot.service.settle()
        rules = await fake_discord.slash(ada, table, "rules")
        text = rules.embeds[0]["description"]
        assert "two players" not in text.lower() and "3 players, a free-for-all" in text
        assert "9 life each" in text
