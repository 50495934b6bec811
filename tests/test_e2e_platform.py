"""End to end, the parts every game shares: /play generated from each game's declared
options, /rules listing them, and /config."""

from __future__ import annotations

from rules.registry import games
from tests.e2e import make_bot
from tests.fakediscord.model.constants import MANAGE_GUILD


def _subcommands(command) -> dict[str, dict]:
    return {o["name"]: o for o in command.raw.get("options", []) if o.get("type") == 1}


async def test_play_has_a_subcommand_per_game_with_its_declared_options(fake_discord,
                                                                       tmp_path):
    guild = fake_discord.add_guild("Casino")
    guild.add_text_channel("t")
    bot = make_bot(tmp_path / "p.sqlite3")
    async with fake_discord.running(bot):
        play = fake_discord.find_command("play")
        subs = _subcommands(play)
        assert set(games()) <= set(subs)
        for name, info in games().items():
            params = {o["name"]: o for o in subs[name].get("options", [])}
            assert "vs_bot" in params
            for spec in info.options.specs():
                param = params[spec.name]
                assert not param.get("required")
                if spec.kind == "number":
                    assert (param["type"], param["min_value"], param["max_value"]) == (
                        4, spec.minimum, spec.maximum)
                elif spec.kind == "choice":
                    assert [c["value"] for c in param["choices"]] == [
                        str(v) for v in spec.choices]
                else:
                    assert param["type"] == 5
            if info.min_seats != info.max_seats:
                assert (params["seats"]["min_value"], params["seats"]["max_value"]) == (
                    info.min_seats, info.max_seats)


async def test_options_typed_in_play_reach_the_game_and_the_lobby(fake_discord, tmp_path):
    guild = fake_discord.add_guild("Casino")
    channel = guild.add_text_channel("t")
    ada = fake_discord.add_user("Ada")
    bot = make_bot(tmp_path / "o.sqlite3")
    async with fake_discord.running(bot):
        opened = await fake_discord.slash(ada, channel, "play nails", deck="space",
                                          objective="fewest", seats=4, teams=False)
        assert opened.ephemeral  # the space deck has two colours: no four-colour game
        assert "two teams" in opened.content
        opened = await fake_discord.slash(ada, channel, "play eclipse", seats=4,
                                          hand_cap=50, counterattack=0)
        assert "Eclipse opened" in opened.content
        await bot.service.settle()
        match = bot.service.match_in(channel.id)
        assert match.row.options == {"deck": "standard", "counterattack": 0, "hand_cap": 50}
        lobby = channel.messages[-2] if channel.messages[-1].content else channel.messages[-1]
        shown = [f for m in channel.messages if m.embeds for f in m.embeds[0].get("fields", [])]
        assert any("hand_cap 50" in f["value"] for f in shown), lobby


async def test_rules_lists_every_declared_option(fake_discord, tmp_path):
    guild = fake_discord.add_guild("Casino")
    channel = guild.add_text_channel("t")
    ada = fake_discord.add_user("Ada")
    bot = make_bot(tmp_path / "r.sqlite3")
    async with fake_discord.running(bot):
        for name, info in games().items():
            rules = await fake_discord.slash(ada, channel, "rules", game=name)
            options = next(f["value"] for f in rules.embeds[0]["fields"]
                           if f["name"] == "Options")
            assert f"/play {name}" in options
            for spec in info.options.specs():
                assert f"**{spec.name}**" in options


async def test_config_is_for_server_managers_and_sets_deadlines_per_game(fake_discord,
                                                                        tmp_path):
    guild = fake_discord.add_guild("Casino")
    channel = guild.add_text_channel("t")
    boss = guild.add_user("Boss", roles=(guild.add_role("Managers", MANAGE_GUILD),))
    ada = fake_discord.add_user("Ada")
    bot = make_bot(tmp_path / "c.sqlite3")
    async with fake_discord.running(bot):
        config = fake_discord.find_command("config")
        assert int(config.raw["default_member_permissions"]) == MANAGE_GUILD
        done = await fake_discord.slash(boss, channel, "config deadline", game="eclipse",
                                        seconds=45, warning=15)
        assert done.ephemeral and "45 seconds" in done.content
        await fake_discord.slash(boss, channel, "config deadline", game="*", seconds=600)
        await fake_discord.slash(boss, channel, "config ante", allowed=True)
        shown = await fake_discord.slash(boss, channel, "config show")
        assert "Eclipse: 45 s per decision, warning 15 s before" in shown.content
        assert "every game: 600 s" in shown.content and "allowed" in shown.content
        bad = await fake_discord.slash(boss, channel, "config deadline", game="chess",
                                       seconds=45)
        assert bad.ephemeral and "there is no game 'chess'" in bad.content
        await fake_discord.slash(ada, channel, "play eclipse", vs_bot=True)
        await bot.service.settle()
        match = bot.service.match_in(channel.id)
        assert match.row.deadline_at is not None
        assert bot.service._turn_seconds(match) == 45
        settings = await bot.store.settings.get(guild.id)
        assert settings.ante is True
