"""End to end, in two languages: a refusal only the clicker sees is written in the
clicker's Discord locale (``Interaction.locale``), whoever else sits at the table and
whatever the server's language; a name or value with braces or markdown stays text in
both languages; nothing is pinged."""

from __future__ import annotations

from bot.i18n import translate
from tests.e2e import make_bot, select_ids, select_values, table_message
from tests.fakediscord.model.constants import MANAGE_GUILD

HOSTILE = "{page} **@everyone** {0} <@1>"


async def test_a_refusal_speaks_the_clickers_language(fake_discord, tmp_path):
    guild = fake_discord.add_guild("Casino")
    guild.preferred_locale = "pt-BR"  # the server's language is not the clicker's
    channel = guild.add_text_channel("t")
    ada, bo = fake_discord.add_user("Ada"), fake_discord.add_user("Bo")
    bot = make_bot(tmp_path / "i18n.sqlite3")
    async with fake_discord.running(bot):
        await fake_discord.slash(ada, channel, "play flank", board="8", stoppers=0)
        await fake_discord.slash(bo, channel, "join")
        again_pt = await fake_discord.slash(bo, channel, "join", locale="pt-BR")
        again_en = await fake_discord.slash(ada, channel, "join", locale="en-US")
        assert again_pt.ephemeral and again_en.ephemeral
        assert again_pt.content == "⚠️ Você já tem um lugar nesta mesa."
        assert again_en.content == "⚠️ You are already seated at this table."

        await fake_discord.slash(ada, channel, "start")
        await bot.service.settle()
        match = bot.service.match_in(channel.id)
        waiting = match.state.pending()[0].seat
        idle = bo if match.seat_of(ada.id).seat == waiting else ada
        table = table_message(channel)
        menu = select_ids(table)[0]
        legal = select_values(table, menu)[0]
        for locale, words in (("pt-BR", "Não é a sua vez."), ("en-GB", "It is not your turn."),
                              ("ja", "It is not your turn.")):
            answer = await fake_discord.select(idle, table, menu, [legal], locale=locale)
            assert answer.ephemeral and answer.content == f"⚠️ {words}", locale
        assert await bot.store.matches.choices(match.id) == []
        # A refusal that is no exception (a button that is not ours) too.
        for locale, words in (("pt-BR", "Esse botão ou menu não é um que eu consiga usar"),
                              ("en-US", "That button or menu is not one I can use")):
            answer = await fake_discord.click_custom(idle, table, "something-else",
                                                     locale=locale)
            assert answer.ephemeral and answer.content.startswith(f"⚠️ {words}"), locale


async def test_a_hostile_value_stays_text_in_both_languages(fake_discord, tmp_path):
    guild = fake_discord.add_guild("Casino")
    channel = guild.add_text_channel("t")
    boss = guild.add_user("Boss", roles=(guild.add_role("M", MANAGE_GUILD),))
    bot = make_bot(tmp_path / "hostile.sqlite3")
    forged = [{"name": "create", "type": 1, "options": [
        {"name": "game", "type": 3, "value": "flank"},
        {"name": "seeding", "type": 3, "value": HOSTILE}]}]
    async with fake_discord.running(bot):
        for locale, words in (("pt-BR", "seeding precisa ser uma das opções, não "),
                              ("en-US", "seeding must be one of its choices, not ")):
            answer = await fake_discord.forged_slash(boss, channel, "tournament", forged,
                                                     locale=locale)
            assert answer.ephemeral
            assert answer.content == f"⚠️ {words}{HOSTILE!r}.", answer.content
            assert answer.message.to_payload()["mentions"] == []
        assert [m for m in channel.messages if not m.ephemeral] == []


def test_the_replies_words_are_the_catalogs() -> None:
    # The reply's frame is a catalog entry too: the warning sign, then the words.
    assert translate("reply.refused", "pt_BR", text=HOSTILE) == f"⚠️ {HOSTILE}"
