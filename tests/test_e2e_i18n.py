"""End to end, in two languages: a refusal only the clicker sees is written in the
clicker's Discord locale (``Interaction.locale``), whoever else sits at the table and
whatever the server's language; a name or value with braces or markdown stays text in
both languages; nothing is pinged."""

from __future__ import annotations

from bot.clock import FakeClock
from bot.games.presenter import shown
from bot.i18n import pseudo, translate
from rules.core import RESIGN
from rules.registry import games, shipped_games
from tests.e2e import make_bot, select_ids, select_values, table_message
from tests.fakediscord.model.constants import MANAGE_GUILD
from tests.pseudo import assert_all_pseudo, pseudo_discord, server_speaks_pseudo

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


async def test_the_platform_in_the_pseudo_locale_shows_no_english(fake_discord, tmp_path):
    """Every word the shared platform shows comes from a catalog: a lobby joined, left
    and started, a deadline's warning and a timeout (a fake clock), a typed /choose,
    /config, /stats, /leaderboard, /history, /match, /rules of every game and /privacy,
    all in the pseudo-locale, leave no English anywhere the fake Discord was sent (game
    titles are names; notation and numbers are no words)."""
    guild = fake_discord.add_guild("Qq")
    channel = guild.add_text_channel("qq")
    jo, li = fake_discord.add_user("Jo"), fake_discord.add_user("Li")
    boss = guild.add_user("Mo", roles=(guild.add_role("Mm", MANAGE_GUILD),))
    clock = FakeClock()
    bot = make_bot(tmp_path / "qps.sqlite3", clock=clock)
    with pseudo_discord(fake_discord):
        async with fake_discord.running(bot):
            await server_speaks_pseudo(bot, guild.id)
            await fake_discord.slash(jo, channel, "play flank", board="4")
            await fake_discord.slash(li, channel, "join")
            await fake_discord.slash(li, channel, "leave")
            lobby = table_message_or_lobby(channel)
            join = pseudo.pseudo(translate("lobby.button.join", "en"))
            await fake_discord.click(li, lobby, label=join)
            await fake_discord.slash(jo, channel, "start")
            await bot.service.settle()
            match = bot.service.match_in(channel.id)

            due = bot.service.next_due()
            assert due is not None
            clock.advance(due - clock.now())  # the warning
            await bot.service.tick()
            clock.advance(bot.service.next_due() - clock.now())  # the deadline: a timeout
            await bot.service.tick()
            await bot.service.settle()
            said = [m.content for m in channel.messages if m.content]
            assert any(text.startswith("<@") and "⏳" in text for text in said), said
            assert any("⏰" in text for text in said), said
            pending = match.state.pending()[0]
            person = jo if match.seats[pending.seat].user_id == jo.id else li
            chosen = await fake_discord.slash(person, channel, "choose",
                                              choice=pending.options[0])
            assert chosen.ephemeral and "⟦" in chosen.content
            await fake_discord.autocomplete(person, channel, "choose", option="choice",
                                            value="")
            await fake_discord.slash(jo, channel, "forfeit")
            await bot.service.settle()
            assert match.finished
            # A second table: someone removed from it in play, then cancelled.
            await fake_discord.slash(jo, channel, "play flank", board="4")
            await fake_discord.slash(li, channel, "join")
            await fake_discord.slash(jo, channel, "start")
            await fake_discord.slash(jo, channel, "table")
            kicked = await fake_discord.slash(jo, channel, "kick", user=li)
            cancelled = await fake_discord.slash(jo, channel, "cancel")
            assert not kicked.ephemeral and not cancelled.ephemeral
            await bot.service.settle()

            for command in ("config show", "config ante", "config deadline"):
                options = {"allowed": True} if command == "config ante" else (
                    {"game": "flank", "seconds": 60, "warning": 10}
                    if command == "config deadline" else {})
                await fake_discord.slash(boss, channel, command, **options)
            await fake_discord.slash(boss, channel, "config web")
            await fake_discord.slash(jo, channel, "stats")
            await fake_discord.slash(jo, channel, "leaderboard", game="flank")
            await fake_discord.slash(jo, channel, "history")
            await fake_discord.slash(jo, channel, "match", id=match.id)
            await fake_discord.slash(jo, channel, "privacy")
            await fake_discord.slash(jo, channel, "privacy", history="hide")
            for name in shipped_games():  # not a test's own game another module added
                rules = await fake_discord.slash(jo, channel, "rules", game=name)
                assert rules.ephemeral and "⟦" in rules.embeds[0]["description"], name
        # Names, and what people type: option names (``/play flank board:4``) and the
        # moves' notation (/match lists a resignation as ``resign``).
        typed = [spec.name for info in games().values() for spec in info.options.specs()]
        titles = [info.title for info in games().values()]
        assert_all_pseudo(fake_discord, allowed=["Jo", "Li", "Mo", RESIGN, *titles, *typed])


def table_message_or_lobby(channel):
    """The newest bot message with buttons: the lobby."""
    for message in reversed(channel.messages):
        if not message.deleted and message.components:
            return message
    raise LookupError("no lobby in the channel")


async def test_a_hostile_name_is_shown_as_typed_at_a_table_in_both_languages(fake_discord,
                                                                            tmp_path):
    """A name with braces and markdown hosts a lobby that another joins, in a Portuguese
    and an English server: the public replies and the lobby's seats show it as typed
    (markdown escaped), never read as a template, in either language's words; the
    lobby passes to the next person when it leaves."""
    for language, words in (("pt_BR", ("entrou", "Lugares", "(anfitrião)")),
                            ("en", ("joins", "Seats", "(host)"))):
        guild = fake_discord.add_guild(f"Casino {language}")
        channel = guild.add_text_channel("t")
        ada, rogue = guild.add_user("Ada"), guild.add_user(HOSTILE)
        bot = make_bot(tmp_path / f"names-{language}.sqlite3")
        async with fake_discord.running(bot):
            await bot.store.settings.update(guild.id, language=language)
            await fake_discord.slash(rogue, channel, "play flank", board="4")
            joined = await fake_discord.slash(ada, channel, "join")
            assert joined.content.startswith("Ada ") and words[0] in joined.content
            await bot.service.settle()
            seats = table_message_or_lobby(channel).embeds[0]["fields"][0]
            assert seats["name"].startswith(words[1])
            assert f"1. {shown(HOSTILE)} {words[2]}" in seats["value"], seats
            await fake_discord.slash(rogue, channel, "leave")
            await bot.service.settle()
            seats = table_message_or_lobby(channel).embeds[0]["fields"][0]
            assert seats["value"] == f"1. Ada {words[2]}\n2. —", seats
            assert not [m for m in channel.messages if m.pinged]


async def test_the_channel_speaks_the_server_s_language_and_each_dm_its_reader_s(
        fake_discord, tmp_path):
    guild = fake_discord.add_guild("Cassino")
    guild.preferred_locale = "pt-BR"
    channel = guild.add_text_channel("t")
    ada, bo = fake_discord.add_user("Ada"), fake_discord.add_user("Bo")
    bot = make_bot(tmp_path / "readers.sqlite3")

    def title(locale: str, match_id: int) -> str:
        view = translate("eclipse.table.private_title", locale)
        return translate("table.private", locale, game="Eclipse", view=view, match_id=match_id)

    async with fake_discord.running(bot):
        await fake_discord.slash(ada, channel, "play eclipse", locale="en-US")
        await fake_discord.slash(bo, channel, "join", locale="pt-BR")
        await fake_discord.slash(ada, channel, "start", locale="en-US")
        await bot.service.settle()
        match = bot.service.match_in(channel.id)
        # The channel reads the server's language, whoever started the match.
        table = table_message(channel)
        assert table.embeds[0]["footer"]["text"] == translate(
            "table.footer", "pt_BR", match_id=match.id, step=match.state.step)
        # Each hand arrives in its reader's language, learnt from their own clicks.
        ada_dm, bo_dm = fake_discord.dm_messages(ada)[-1], fake_discord.dm_messages(bo)[-1]
        assert ada_dm.embeds[0]["title"] == title("en", match.id)
        assert bo_dm.embeds[0]["title"] == title("pt_BR", match.id)
        # Ada's client changes language: her next hand follows.
        await fake_discord.slash(ada, channel, "table", locale="pt-BR")
        seat = match.seat_of(ada.id)
        assert seat is not None
        await bot.service.transport.deliver_private(match, seat, match.private_view(seat.seat))
        assert fake_discord.dm_messages(ada)[-1].embeds[0]["title"] == title("pt_BR", match.id)
