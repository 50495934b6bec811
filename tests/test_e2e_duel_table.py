"""The pieces of Arcane Duel's table that are not the duel itself, through the real
discord.py client and the fake Discord: /card, the deck a seat brings with /play and
/join, a damage split's form (any game's split: the test game of every decision shape),
and forged buttons."""

from __future__ import annotations

from tests.e2e import make_bot
from tests.images import opened
from tests.test_decisions import shapes  # noqa: F401  (the fixture registering "shapes")

REFUSAL = "⚠️"


async def test_card_shows_a_picture_privately_and_suggests_names(fake_discord, tmp_path):
    guild = fake_discord.add_guild("Arcana")
    channel = guild.add_text_channel("duels")
    ada = fake_discord.add_user("Ada")
    bot = make_bot(tmp_path / "cards.sqlite3")
    async with fake_discord.running(bot):
        suggested = await fake_discord.autocomplete(ada, channel, "card", option="name",
                                                    value="kind")
        assert suggested[0]["value"] == "Kindlewhip" and len(suggested) <= 25
        shown = await fake_discord.slash(ada, channel, "card", name="Kindlewhip")
        assert shown.ephemeral and "Deal 2 damage" in shown.text
        picture = shown.message.attachments[0]
        assert picture.filename == "card-kindlewhip.png"
        assert opened(picture.data).width >= 300
        public = await fake_discord.slash(ada, channel, "card", name="kindlewhip", public=True)
        assert not public.ephemeral and "Kindlewhip" in public.text
        wrong = await fake_discord.slash(ada, channel, "card", name="Kindlewip")
        assert wrong.ephemeral and "Did you mean Kindlewhip" in wrong.content
        odd = await fake_discord.slash(ada, channel, "card", name="@everyone **" + "x" * 80)
        assert odd.ephemeral and "no card called" in odd.content
        assert "\\*\\*" in odd.content  # shown as typed, its markdown escaped


async def test_each_seat_brings_the_deck_it_names(fake_discord, tmp_path):
    guild = fake_discord.add_guild("Arcana")
    channel = guild.add_text_channel("duels")
    ada, bo = fake_discord.add_user("Ada"), fake_discord.add_user("Bo")
    bot = make_bot(tmp_path / "decks.sqlite3")
    async with fake_discord.running(bot):
        await fake_discord.slash(ada, channel, "play duel", deck="night-and-ember")
        offered = await fake_discord.autocomplete(bo, channel, "join", option="deck",
                                                  value="grove")
        assert {o["value"] for o in offered} == {"ember-and-grove", "grove-and-dawn"}
        wrong = await fake_discord.slash(bo, channel, "join", deck="my best deck")
        assert wrong.ephemeral and "no deck called" in wrong.content
        match = bot.service.match_in(channel.id)
        assert len(match.seats) == 1  # the refused join changed nothing
        await fake_discord.slash(bo, channel, "join", deck="grove-and-dawn")
        await fake_discord.slash(ada, channel, "start")
        await bot.service.settle()
        stored = await bot.store.matches.get(match.id)
        assert [s.setup for s in stored.seats] == [{"deck": "night-and-ember"},
                                                   {"deck": "grove-and-dawn"}]
        table = next(m for m in reversed(channel.messages) if m.attachments)
        assert table.attachments[0].filename.startswith(f"duel-{match.id}-")
        await fake_discord.slash(ada, channel, "cancel")


async def start_shapes(fake_discord, bot, channel, ada, bo):
    """A game of Shapes between Ada and Bo, opened, joined and started by command."""
    await fake_discord.slash(ada, channel, "play shapes")
    await fake_discord.slash(bo, channel, "join")
    await fake_discord.slash(ada, channel, "start")
    await bot.service.settle()
    return bot.service.match_in(channel.id)


async def test_a_split_is_made_in_a_form_and_a_wrong_one_changes_nothing(
        fake_discord, tmp_path, shapes):  # noqa: F811
    guild = fake_discord.add_guild("Arcana")
    channel = guild.add_text_channel("shapes")
    ada, bo = fake_discord.add_user("Ada"), fake_discord.add_user("Bo")
    bot = make_bot(tmp_path / "split.sqlite3")
    async with fake_discord.running(bot):
        match = await start_shapes(fake_discord, bot, channel, ada, bo)
        await fake_discord.slash(ada, channel, "choose", choice="a")
        await bot.service.settle()
        hand = await fake_discord.slash(bo, channel, "hand")  # Shapes has no DMs
        assert hand.ephemeral and "Split 3" in hand.text
        form = await fake_discord.click(bo, hand.message, label="Divide…")
        assert form.type == 9  # a modal
        inputs = {c["custom_id"] for row in form.interaction.modal["components"]
                  for c in ([row.get("component")] if row.get("component")
                            else row.get("components", []))}
        assert inputs == {"x", "y"}
        wrong = await fake_discord.submit_modal(bo, form, {"x": "2", "y": "2"})
        assert wrong.ephemeral and "add up to 3" in wrong.content
        assert match.state.log == ["a"]
        for bad in ("٣", "1,y", "-1"):
            typed_badly = await fake_discord.submit_modal(bo, form, {"x": bad, "y": "2"})
            assert typed_badly.ephemeral and "not a whole number" in typed_badly.content
        assert match.state.log == ["a"]
        right = await fake_discord.submit_modal(bo, form, {"x": "1", "y": "2"})
        assert right.ephemeral and "x=1,y=2" in right.content
        assert match.state.log == ["a", "x=1,y=2"]
        again = await fake_discord.submit_modal(bo, form, {"x": "3", "y": ""})
        assert again.ephemeral and match.state.log == ["a", "x=1,y=2"]  # stale: nothing
        await fake_discord.slash(ada, channel, "cancel")


async def test_forged_choice_buttons_are_refused(fake_discord, tmp_path, shapes):  # noqa: F811
    guild = fake_discord.add_guild("Arcana")
    channel = guild.add_text_channel("shapes")
    ada, bo = fake_discord.add_user("Ada"), fake_discord.add_user("Bo")
    bot = make_bot(tmp_path / "forged.sqlite3")
    async with fake_discord.running(bot):
        match = await start_shapes(fake_discord, bot, channel, ada, bo)
        step = match.state.step
        table = next(m for m in reversed(channel.messages) if m.embeds)
        for custom_id in (f"cr:do:{match.id}:{step}:a",          # private, on the table
                          f"cr:do:{match.id}:{step}:EVIL",       # not a word
                          f"cr:split:{match.id}:{step}",          # private, on the table
                          f"cr:do:{match.id}:{step}:" + "a" * 40):
            answer = await fake_discord.click_custom(ada, table, custom_id)
            assert answer.ephemeral and answer.content.startswith(REFUSAL), custom_id
        assert match.state.log == []
        await fake_discord.slash(ada, channel, "cancel")
