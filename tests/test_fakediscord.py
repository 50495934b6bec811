"""End-to-end tests of the fake Discord with the real discord.py client and a tiny bot.

The bot below is deliberately minimal but uses what the game bot will: app commands in a
cog (with a subcommand group and typed options), a channel message with a PNG and a
persistent view (button + select), in-place edits, ephemeral replies, deferrals,
follow-ups, a modal, autocomplete, DMs with the closed-DMs failure, and a DynamicItem
button that must keep working after a restart. A second tiny bot, ``Dealer``, checks what
it receives: autocomplete over a hand, one answer per interaction id, and only the
custom_ids and select values it offered, for the redelivered and forged interactions.
"""

from __future__ import annotations

import asyncio
import io
import re
import socket
import textwrap
import time
from pathlib import Path
from typing import Any, ClassVar

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.fakediscord import (
    APPLICATION_COMMAND_AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE_WITH_SOURCE,
    DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
    DEFERRED_UPDATE_MESSAGE,
    MODAL,
    UPDATE_MESSAGE,
    BotError,
    CommandNotAvailable,
    DiscordAPIError,
    FakeChannel,
    FakeDiscord,
    InternetAccessBlocked,
    LogCapture,
    NetworkGuard,
    WaitTimeout,
)

pytest_plugins = ["pytester"]


# --- the minimal bot ---------------------------------------------------------------------


def png_bytes(size: tuple[int, int] = (8, 6)) -> bytes:
    """A small real PNG."""
    buffer = io.BytesIO()
    Image.new("RGB", size, "darkgreen").save(buffer, format="PNG")
    return buffer.getvalue()


class Counter(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"counter:(?P<n>\d+)"):
    """A button whose state lives in its custom_id, so any bot process can handle it."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {n}", custom_id=f"counter:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(self.n + 1))
        where = "dm" if interaction.guild is None else "guild"
        await interaction.response.edit_message(content=f"count={self.n + 1} ({where})", view=view)


class TableView(discord.ui.View):
    """Persistent view: fixed custom_ids and no timeout."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Hit", custom_id="table:hit", style=discord.ButtonStyle.primary)
    async def hit(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.edit_message(content=f"{interaction.user.display_name} hit")

    @discord.ui.button(label="Peek", custom_id="table:peek")
    async def peek(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.send_message("your hole card: 7", ephemeral=True)

    @discord.ui.button(label="Slow", custom_id="table:slow")
    async def slow(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.defer()
        await asyncio.sleep(0)  # "work"
        await interaction.edit_original_response(content="dealt slowly")

    @discord.ui.select(
        custom_id="table:bet",
        placeholder="Bet",
        min_values=1,
        max_values=2,
        options=[
            discord.SelectOption(label="Low", value="1"),
            discord.SelectOption(label="High", value="5"),
            discord.SelectOption(label="All in", value="100"),
        ],
    )
    async def bet(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.send_message(f"bet {'+'.join(select.values)}", ephemeral=True)


class Feedback(discord.ui.Modal, title="Feedback"):
    text: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Your words", custom_id="fb:text")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"thanks: {self.text.value}", ephemeral=True)


class Games(commands.Cog):
    say = app_commands.Group(name="say", description="Say things")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(description="Ping")
    async def ping(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong")

    @say.command(name="hello", description="Greet someone")
    async def hello(
        self,
        interaction: discord.Interaction,
        name: str,
        times: int,
        loud: bool,
        target: discord.Member | None = None,
    ) -> None:
        text = " ".join([f"hello {name}"] * times)
        if loud:
            text = text.upper()
        if target is not None:
            text += f" to {target.display_name} ({type(target).__name__})"
        await interaction.response.send_message(f"{text} | {type(times).__name__}")

    @app_commands.command(description="Deal a table")
    async def table(self, interaction: discord.Interaction) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        file = discord.File(io.BytesIO(png_bytes()), filename="table.png")
        embed = discord.Embed(title="Table 1").set_image(url="attachment://table.png")
        await interaction.channel.send("Table open", file=file, embed=embed, view=TableView())
        await interaction.response.send_message("dealt", ephemeral=True)

    @app_commands.command(description="DM me")
    async def dm(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(10))
        try:
            await interaction.user.send("your cards: A K", view=view)
        except discord.Forbidden as exc:
            await interaction.response.send_message(f"cannot DM you ({exc.code})", ephemeral=True)
        else:
            await interaction.response.send_message("sent", ephemeral=True)

    @app_commands.command(description="A counter")
    async def counter(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(0))
        await interaction.response.send_message("count=0", view=view)

    @app_commands.command(description="Think, then answer")
    async def think(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True, ephemeral=True)
        await interaction.followup.send("thought hard")
        await interaction.followup.send("and more", file=discord.File(io.BytesIO(b"x"), "x.txt"))

    @app_commands.command(description="Explode")
    async def boom(self, interaction: discord.Interaction) -> None:
        raise RuntimeError("kaboom")

    @app_commands.command(description="Leave feedback")
    async def feedback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(Feedback())

    @app_commands.command(description="Pick a game")
    @app_commands.describe(game="Which game")
    async def pick(self, interaction: discord.Interaction, game: str) -> None:
        await interaction.response.send_message(f"picked {game}")

    @pick.autocomplete("game")
    async def pick_game(self, interaction: discord.Interaction, current: str) -> list[Any]:
        names = ["flank", "faro", "whist", "hearts"]
        return [app_commands.Choice(name=n, value=n) for n in names if n.startswith(current)]

    @app_commands.command(name="reset", description="Admins only")
    @app_commands.default_permissions(manage_guild=True)
    async def reset(self, interaction: discord.Interaction) -> None:
        perms = interaction.permissions
        await interaction.response.send_message(f"reset by admin={perms.administrator}")


class MiniBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.synced: list[app_commands.AppCommand] = []

    async def setup_hook(self) -> None:
        await self.add_cog(Games(self))
        self.add_view(TableView())
        self.add_dynamic_items(Counter)
        self.synced = await self.tree.sync()


class Pick(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"pick:(?P<n>\d+)"):
    """A card button whose number lives in its custom_id; only offered numbers count."""

    OFFERED = frozenset({1, 2})

    def __init__(self, n: int) -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=f"Pick {n}", custom_id=f"pick:{n}", disabled=n not in self.OFFERED
        )
        super().__init__(button)
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> Pick:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        verdict = "picked" if self.n in self.OFFERED else "refused pick"
        await interaction.response.send_message(f"{verdict} {self.n}", ephemeral=True)


class Offer(discord.ui.View):
    """Card buttons (the third one disabled) and a menu of two cards."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        for n in (1, 2, 3):
            self.add_item(Pick(n))

    @discord.ui.select(
        custom_id="menu",
        options=[discord.SelectOption(label="S1"), discord.SelectOption(label="S2")],
    )
    async def menu(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        offered = {option.value for option in select.options}
        smuggled = [value for value in select.values if value not in offered]
        text = f"refused {', '.join(smuggled)}" if smuggled else f"chose {select.values[0]}"
        await interaction.response.send_message(text, ephemeral=True)


class Dealer(commands.Bot):
    """Checks what it receives: suggestions from its hand, one answer per interaction id
    (``duplicates`` counts the repeats it ignored), and only what it offered."""

    HAND: ClassVar[dict[str, str]] = {"S1": "Spade 1", "S2": "Spade 2", "H7": "Heart 7"}

    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.too_many = False
        self.typed: list[tuple[str, str | None]] = []
        self.answered: set[int] = set()
        self.duplicates = 0

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Pick)

        async def suggest(interaction: discord.Interaction, current: str) -> list[Any]:
            self.typed.append((current, interaction.namespace.note))
            if self.too_many:
                return [app_commands.Choice(name=f"card {n}", value=f"C{n}") for n in range(30)]
            return [
                app_commands.Choice(name=name, value=code)
                for code, name in self.HAND.items()
                if current.lower() in name.lower()
            ]

        @self.tree.command(description="Play a card from your hand")
        @app_commands.autocomplete(choice=suggest)
        async def choose(
            interaction: discord.Interaction, choice: str, note: str | None = None
        ) -> None:
            await interaction.response.send_message(f"chose {choice}", ephemeral=True)

        @self.tree.command(description="Deal (managers only)")
        @app_commands.default_permissions(manage_guild=True)
        @app_commands.autocomplete(card=suggest)
        async def deal(interaction: discord.Interaction, card: str) -> None:
            await interaction.response.send_message(f"dealt {card}")

        @self.tree.command(description="Roll a die, once per interaction")
        async def roll(interaction: discord.Interaction) -> None:
            if interaction.id in self.answered:
                self.duplicates += 1
                return
            self.answered.add(interaction.id)
            await interaction.response.send_message("rolled 4")

        @self.tree.command(description="Offer cards")
        async def offer(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("Pick a card", view=Offer())

        await self.tree.sync()


@pytest.fixture
def world(fake_discord: FakeDiscord) -> dict[str, Any]:
    guild = fake_discord.add_guild("Casino")
    return {
        "guild": guild,
        "table": guild.add_text_channel("table-1"),
        "alice": guild.add_user("Alice"),
        "bob": guild.add_user("Bob"),
        "boss": guild.add_user("Boss", admin=True),
    }


# --- tests -------------------------------------------------------------------------------


async def test_commands_sync_and_ping(fake_discord: FakeDiscord, world: dict[str, Any]) -> None:
    bot = MiniBot()
    async with fake_discord.running(bot):
        names = {c.name for c in fake_discord.commands()}
        assert {"ping", "say", "table", "dm", "counter", "think", "boom", "reset"} <= names
        # The ids the fake assigned came back to discord.py intact.
        assert {c.id for c in bot.synced} == {c.id for c in fake_discord.commands()}
        assert bot.get_guild(world["guild"].id) is not None

        result = await fake_discord.slash(world["alice"], world["table"], "ping")
        assert result.type == CHANNEL_MESSAGE_WITH_SOURCE
        assert result.content == "pong"
        assert not result.ephemeral
        assert result.message is world["table"].messages[-1]
        assert result.message.author is fake_discord.bot_user


async def test_subcommand_options_are_typed(
    fake_discord: FakeDiscord, world: dict[str, Any]
) -> None:
    alice, bob, table = world["alice"], world["bob"], world["table"]
    async with fake_discord.running(MiniBot()):
        result = await fake_discord.slash(alice, table, "say hello", name="Bob", times=2, loud=True)
        assert result.content == "HELLO BOB HELLO BOB | int"
        result = await fake_discord.slash(
            alice, table, "say hello", name="x", times=1, loud=False, target=bob
        )
        assert result.content == "hello x to Bob (Member) | int"

        # The Discord client's own rules, enforced before anything is sent:
        with pytest.raises(TypeError, match="missing required option 'times'"):
            await fake_discord.slash(alice, table, "say hello", name="x", loud=True)
        with pytest.raises(TypeError, match="expects an int"):
            await fake_discord.slash(alice, table, "say hello", name="x", times="2", loud=True)
        with pytest.raises(LookupError, match="needs a subcommand"):
            await fake_discord.slash(alice, table, "say")


async def test_file_button_select_and_ephemeral(
    fake_discord: FakeDiscord, world: dict[str, Any]
) -> None:
    alice, bob, table = world["alice"], world["bob"], world["table"]
    async with fake_discord.running(MiniBot()):
        mark = fake_discord.mark()
        dealt = await fake_discord.slash(alice, table, "table")
        assert dealt.ephemeral and dealt.content == "dealt"
        assert dealt.message.visible_to(alice) and not dealt.message.visible_to(bob)

        msg = await fake_discord.wait_for_message(table, contains="Table open", after=mark)
        png = msg.attachment("table.png")
        assert png.data == png_bytes() and png.content_type == "image/png"
        assert png.image_size == (8, 6)
        assert msg.embeds[0]["image"]["url"] == png.url  # attachment:// resolved
        async with aiohttp.ClientSession() as session, session.get(png.url) as response:
            assert await response.read() == png.data
        assert [b.label for b in msg.buttons] == ["Hit", "Peek", "Slow"]
        bet = msg.find_component("table:bet")
        assert [o.label for o in bet.options] == ["Low", "High", "All in"]

        hit = await fake_discord.click(bob, msg, label="Hit")
        assert hit.type == UPDATE_MESSAGE and hit.message is msg
        assert msg.content == "Bob hit" and msg.edit_count == 1
        assert msg.history[0].content == "Table open"
        assert msg.attachments == [png]  # an edit without attachments keeps them

        peek = await fake_discord.click(alice, msg, "table:peek")
        assert peek.ephemeral and peek.content == "your hole card: 7"

        chosen = await fake_discord.select(alice, msg, "table:bet", ["1", "100"])
        assert chosen.ephemeral and chosen.content == "bet 1+100"
        with pytest.raises(ValueError, match="not an option"):
            await fake_discord.select(alice, msg, "table:bet", ["7"])

        slow = await fake_discord.click(alice, msg, label="Slow")
        assert slow.type == DEFERRED_UPDATE_MESSAGE
        assert (await slow.final()) is msg
        assert msg.content == "dealt slowly" and msg.edit_count == 2


async def test_deferral_followups_modal_autocomplete(
    fake_discord: FakeDiscord, world: dict[str, Any]
) -> None:
    alice, table = world["alice"], world["table"]
    async with fake_discord.running(MiniBot()):
        result = await fake_discord.slash(alice, table, "think")
        assert result.type == DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
        final = await result.final()
        assert final.content == "thought hard" and final.ephemeral  # replaced the "thinking"
        followups = await result.followups(2)
        # Only the follow-up that replaced the deferral inherits its ephemerality.
        assert followups[1].content == "and more" and not followups[1].ephemeral
        assert followups[1].attachment("x.txt").data == b"x"
        assert [m.content for m in result.all_messages()] == ["thought hard", "and more"]

        opened = await fake_discord.slash(alice, table, "feedback")
        assert opened.type == MODAL and opened.modal is not None
        assert opened.find_component("fb:text").label == "Your words"
        with pytest.raises(ValueError, match="required"):
            await fake_discord.submit_modal(alice, opened, {"fb:text": ""})
        submitted = await fake_discord.submit_modal(alice, opened, {"fb:text": "great"})
        assert submitted.content == "thanks: great"

        choices = await fake_discord.autocomplete(alice, table, "pick", "game", "f")
        assert [c["value"] for c in choices] == ["flank", "faro"]


async def test_dms_and_closed_dms(fake_discord: FakeDiscord, world: dict[str, Any]) -> None:
    alice, bob, table = world["alice"], world["bob"], world["table"]
    fake_discord.set_dms_closed(bob)
    async with fake_discord.running(MiniBot()):
        sent = await fake_discord.slash(alice, table, "dm")
        assert sent.content == "sent"
        (dm,) = fake_discord.dm_messages(alice)
        assert dm.content == "your cards: A K" and dm.channel.is_dm

        # A DM interaction: `user` instead of `member`, no guild.
        clicked = await fake_discord.click(alice, dm, "counter:10")
        assert clicked.type == UPDATE_MESSAGE and dm.content == "count=11 (dm)"

        refused = await fake_discord.slash(bob, table, "dm")
        assert refused.content == "cannot DM you (50007)"
        assert fake_discord.dm_messages(bob) == []
        assert [(r.status, r.code) for r in fake_discord.rejections] == [(403, 50007)]


async def test_restart_keeps_dynamic_and_persistent_items(
    fake_discord: FakeDiscord, world: dict[str, Any]
) -> None:
    alice, table = world["alice"], world["table"]
    async with fake_discord.running(MiniBot()):
        first = await fake_discord.slash(alice, table, "counter")
        await fake_discord.slash(alice, table, "table")
    table_msg = await fake_discord.wait_for_message(table, contains="Table open")

    async with fake_discord.running(MiniBot()) as second_bot:
        assert fake_discord.identify_count == 2
        clicked = await fake_discord.click(alice, first.message, "counter:0")
        assert clicked.message.content == "count=1 (guild)"
        again = await fake_discord.click(alice, first.message, label="Count 1")
        assert again.message.content == "count=2 (guild)"
        await fake_discord.click(alice, table_msg, "table:hit")
        assert table_msg.content == "Alice hit"
        # The old commands are still synced (ids kept across the second bulk overwrite).
        assert {c.id for c in second_bot.synced} == {c.id for c in fake_discord.commands()}


async def test_reconnect_resumes_session(fake_discord: FakeDiscord, world: dict[str, Any]) -> None:
    alice, table = world["alice"], world["table"]
    async with fake_discord.running(MiniBot()):
        (conn_query,) = fake_discord.connection_queries
        # discord.py 2.7 asks for zlib-stream here (zstd-stream if a zstd module exists).
        assert conn_query.get("compress") in ("zlib-stream", "zstd-stream")
        assert conn_query["v"] == "10" and conn_query["encoding"] == "json"

        await fake_discord.request_reconnect()
        await fake_discord.wait_for(lambda: fake_discord.resume_count == 1)
        result = await fake_discord.slash(alice, table, "ping")
        assert result.content == "pong"
        assert fake_discord.identify_count == 1


async def test_permissions_and_visibility(fake_discord: FakeDiscord, world: dict[str, Any]) -> None:
    alice, boss, table = world["alice"], world["boss"], world["table"]
    async with fake_discord.running(MiniBot()):
        with pytest.raises(CommandNotAvailable):
            await fake_discord.slash(alice, table, "reset")
        result = await fake_discord.slash(boss, table, "reset")
        assert result.content == "reset by admin=True"


async def test_protocol_edges(fake_discord: FakeDiscord, world: dict[str, Any]) -> None:
    """Raw HTTP against the fake: double acknowledgement, bad token, unknown route."""
    alice, table = world["alice"], world["table"]
    async with fake_discord.running(MiniBot()):
        result = await fake_discord.slash(alice, table, "ping")
    inter = result.interaction
    url = f"{fake_discord.api_base}/interactions/{inter.id}/{inter.token}/callback"
    async with aiohttp.ClientSession() as session:
        async with session.post(url, json={"type": 4, "data": {"content": "again"}}) as response:
            assert response.status == 400
            assert response.headers["Content-Type"] == "application/json"
            assert (await response.json())["code"] == 40060
        headers = {"Authorization": "Bot wrong"}
        async with session.get(f"{fake_discord.api_base}/users/@me", headers=headers) as response:
            assert response.status == 401
        headers = {"Authorization": f"Bot {fake_discord.token}"}
        async with session.get(f"{fake_discord.api_base}/nope", headers=headers) as response:
            assert response.status == 404
            assert (await response.json())["message"].startswith("unknown route")
    assert fake_discord.unhandled == ["GET /api/v10/nope"]
    fake_discord.unhandled.clear()  # deliberate; the fixture fails tests that leave any

    client = discord.Client(intents=discord.Intents.none())
    with pytest.raises(discord.LoginFailure):
        await client.login("not-the-token")
    await client.close()


async def test_bot_errors_fail_fast_and_are_captured(
    fake_discord: FakeDiscord, world: dict[str, Any], discord_errors: LogCapture
) -> None:
    async with fake_discord.running(MiniBot()):
        started = time.monotonic()
        with pytest.raises(BotError, match="kaboom"):
            await fake_discord.slash(world["alice"], world["table"], "boom")
        assert time.monotonic() - started < 2  # did not sit out the 5 s timeout
    # The fixture would fail this test at teardown...
    with pytest.raises(pytest.fail.Exception, match="kaboom"):
        discord_errors.assert_clean(collect_garbage=False)
    # ...unless the test consumes the error it provoked.
    (record,) = discord_errors.expect("kaboom", logger="discord.app_commands")
    assert record.levelname == "ERROR"


def test_discord_errors_fixture_fails_a_test(pytester: pytest.Pytester) -> None:
    """Nested pytest run: a test whose bot logs an ERROR is reported as failed."""
    conftest = Path(__file__).with_name("conftest.py").read_text()
    pytester.makeconftest(conftest)
    pytester.makeini(
        "[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\n"
    )
    pytester.makepyfile(
        textwrap.dedent(
            """
            import logging

            def test_logs_error(discord_errors):
                logging.getLogger("discord.ui.view").error("Ignoring exception in view")

            def test_quiet(discord_errors):
                logging.getLogger("discord").warning("just a warning")
            """
        )
    )
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-q")
    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines(
        ["*1 ERROR log record(s) during the test:", "discord.ui.view: Ignoring exception in view"]
    )


def test_no_internet(no_internet: NetworkGuard) -> None:
    started = time.monotonic()
    before = len(no_internet.attempts)
    with pytest.raises(InternetAccessBlocked):
        socket.create_connection(("93.184.216.34", 80), timeout=5)
    with pytest.raises(InternetAccessBlocked), socket.socket() as sock:
        sock.connect(("1.1.1.1", 443))
    with pytest.raises(InternetAccessBlocked):
        socket.getaddrinfo("example.com", 443)
    assert time.monotonic() - started < 1  # refused locally, no timeout involved
    assert len(no_internet.attempts) == before + 3
    # Loopback stays usable (the fake depends on it).
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        socket.create_connection(server.getsockname(), timeout=1).close()


async def test_no_internet_for_aiohttp() -> None:
    async with aiohttp.ClientSession() as session:
        with pytest.raises(aiohttp.ClientError):
            await session.get("http://93.184.216.34/", timeout=aiohttp.ClientTimeout(total=5))


async def test_rest_surface_through_discord_py(
    fake_discord: FakeDiscord, world: dict[str, Any]
) -> None:
    """Bot-initiated REST calls (no interaction) and live world changes, via discord.py."""
    alice, table, guild = world["alice"], world["table"], world["guild"]
    bot = MiniBot()
    seen: list[discord.Message] = []

    async def remember(message: discord.Message) -> None:
        seen.append(message)

    bot.add_listener(remember, "on_message")
    async with fake_discord.running(bot):
        channel = bot.get_channel(table.id)
        assert isinstance(channel, discord.TextChannel)
        sent = await channel.send("v1", file=discord.File(io.BytesIO(b"one"), "one.txt"))
        stored = fake_discord.messages[sent.id]
        # Edit: keep the old attachment, add a new one; then replace all of them.
        two = discord.File(io.BytesIO(b"2"), "two.txt")
        await sent.edit(content="v2", attachments=[*sent.attachments, two])
        assert [a.filename for a in stored.attachments] == ["one.txt", "two.txt"]
        edited = await sent.edit(attachments=[discord.File(io.BytesIO(b"3"), "three.txt")])
        assert [a.filename for a in edited.attachments] == ["three.txt"]
        assert await edited.attachments[0].read() == b"3"
        await sent.add_reaction("🎲")
        fetched = await channel.fetch_message(sent.id)
        assert fetched.content == "v2" and str(fetched.reactions[0].emoji) == "🎲"
        history = [m.id async for m in channel.history(limit=10)]
        assert history[0] == sent.id

        thread = await sent.create_thread(name="side bets")
        await thread.send("in the thread")
        assert fake_discord.channels[thread.id].messages[-1].content == "in the thread"

        user = await bot.fetch_user(alice.id)
        member = await bot.get_guild(guild.id).fetch_member(alice.id)
        assert user.global_name == "Alice" and member.id == alice.id

        class Board(discord.ui.LayoutView):
            container: discord.ui.Container[Any] = discord.ui.Container(
                discord.ui.TextDisplay("## Board"),
                discord.ui.ActionRow(discord.ui.UserSelect(custom_id="pick:user")),
            )

        v2 = await channel.send(view=Board())
        assert fake_discord.messages[v2.id].contains("## Board")
        assert fake_discord.messages[v2.id].find_component("pick:user").kind == "user_select"

        await sent.delete()
        assert stored.deleted and stored not in table.messages

        # World changes after connecting reach the bot's cache.
        lounge = guild.add_text_channel("lounge")
        await fake_discord.wait_for(lambda: bot.get_channel(lounge.id) is not None)
        said = await fake_discord.send_message(alice, table, "hi bot")
        await fake_discord.wait_for(lambda: any(m.id == said.id for m in seen))
        # No MESSAGE_CONTENT intent: Discord blanks other people's message content.
        assert next(m for m in seen if m.id == said.id).content == ""


async def test_autocomplete_suggests_and_is_held_to_discords_limits(
    fake_discord: FakeDiscord, world: dict[str, Any], discord_errors: LogCapture
) -> None:
    """Type 4 APPLICATION_COMMAND_AUTOCOMPLETE in, type 8 suggestions out."""
    alice, boss, table = world["alice"], world["boss"], world["table"]
    bot = Dealer()
    async with fake_discord.running(bot):
        suggestions = await fake_discord.autocomplete(
            alice, table, "choose", option="choice", value="spade", note="quick"
        )
        assert suggestions == [
            {"name": "Spade 1", "value": "S1"},
            {"name": "Spade 2", "value": "S2"},
        ]
        # The bot saw the focused text and the option filled in before it.
        assert bot.typed == [("spade", "quick")]
        (asked,) = [i for i in fake_discord.interactions.values() if i.type == 4]
        assert asked.response_type == APPLICATION_COMMAND_AUTOCOMPLETE_RESULT
        focused = [o for o in asked.payload["data"]["options"] if o.get("focused")]
        assert focused == [{"name": "choice", "type": 3, "value": "spade", "focused": True}]
        chosen = await fake_discord.slash(alice, table, "choose", choice="S1")
        assert chosen.content == "chose S1"

        # Discord offers no command, hence no suggestions, to who may not use it.
        with pytest.raises(CommandNotAvailable):
            await fake_discord.autocomplete(alice, table, "deal", option="card", value="h")
        assert await fake_discord.autocomplete(boss, table, "deal", "card", "heart") == [
            {"name": "Heart 7", "value": "H7"}
        ]
        with pytest.raises(LookupError, match="no autocomplete"):
            await fake_discord.autocomplete(alice, table, "choose", option="note", value="q")

        # More than 25 suggestions: refused as Discord refuses them.
        bot.too_many = True
        with pytest.raises(BotError, match="Ignoring exception in autocomplete"):
            await fake_discord.autocomplete(alice, table, "choose", option="choice", value="")
        refusal = fake_discord.rejections[-1]
        assert (refusal.status, refusal.code) == (400, 50035)
        assert refusal.errors == {"data": {"choices": {"_errors": [
            {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 25 or fewer in length."}]}}}
    discord_errors.expect("Ignoring exception in autocomplete", logger="discord.app_commands")


async def test_a_redelivered_interaction_cannot_be_answered_twice(
    fake_discord: FakeDiscord, world: dict[str, Any], discord_errors: LogCapture
) -> None:
    """The same INTERACTION_CREATE twice: a bot answering both gets 400 / 40060."""
    alice, table = world["alice"], world["table"]
    async with fake_discord.running(MiniBot()):
        first = await fake_discord.slash(alice, table, "ping")
        again = await fake_discord.redeliver(first)
        inter = first.interaction
        assert again.interaction is inter and inter.deliveries == 2
        with pytest.raises(BotError, match="40060"):
            await fake_discord.wait_for(lambda: False, description="the bot's second answer")
        assert first.callback_attempts == 2
        refusal = fake_discord.rejections[-1]
        assert refusal.path.endswith(f"/interactions/{inter.id}/{inter.token}/callback")
        assert (refusal.status, refusal.code, refusal.message) == (
            400,
            40060,
            "Interaction has already been acknowledged.",
        )
        assert [m.content for m in table.messages] == ["pong"]
    discord_errors.expect("40060", logger="discord.app_commands")


async def test_a_redelivered_interaction_answered_once(
    fake_discord: FakeDiscord, world: dict[str, Any]
) -> None:
    alice, table = world["alice"], world["table"]
    bot = Dealer()
    async with fake_discord.running(bot):
        first = await fake_discord.slash(alice, table, "roll")
        again = await fake_discord.redeliver(first)
        await fake_discord.wait_for(lambda: bot.duplicates == 1)
        await fake_discord.wait_until_idle(quiet=0.2)
        assert again.callback_attempts == 1 and fake_discord.rejections == []
        assert [m.content for m in table.messages] == ["rolled 4"]


async def test_wait_until_idle_times_out_while_busy(
    fake_discord: FakeDiscord, world: dict[str, Any]
) -> None:
    alice, table = world["alice"], world["table"]

    async def chatter() -> None:
        while True:
            await fake_discord.send_message(alice, table, "still here")
            await asyncio.sleep(0.02)

    task = asyncio.create_task(chatter())
    try:
        with pytest.raises(WaitTimeout, match="without activity"):
            await fake_discord.wait_until_idle(quiet=0.3, timeout=0.6)
    finally:
        task.cancel()
    await fake_discord.wait_until_idle(quiet=0.05)


async def test_forged_component_interactions_reach_the_bot(
    fake_discord: FakeDiscord, world: dict[str, Any]
) -> None:
    """``click_custom`` sends what no honest client would: a click on a disabled button,
    values a menu never offered, a custom_id the message does not have."""
    alice, table = world["alice"], world["table"]
    async with fake_discord.running(Dealer()):
        await fake_discord.slash(alice, table, "offer")
        offer = await fake_discord.wait_for_message(table, contains="Pick a card")
        honest = await fake_discord.click(alice, offer, "pick:1")
        assert honest.content == "picked 1"

        with pytest.raises(PermissionError, match="disabled"):
            await fake_discord.click(alice, offer, "pick:3")
        forced = await fake_discord.click_custom(alice, offer, custom_id="pick:3")
        assert forced.ephemeral and forced.content == "refused pick 3"
        assert forced.interaction.payload["data"] == {"custom_id": "pick:3", "component_type": 2}
        assert forced.interaction.message is offer

        with pytest.raises(ValueError, match="not an option"):
            await fake_discord.select(alice, offer, "menu", ["C4"])
        smuggled = await fake_discord.click_custom(alice, offer, custom_id="menu", values=["C4"])
        assert smuggled.content == "refused C4"
        assert smuggled.interaction.payload["data"]["values"] == ["C4"]
        assert smuggled.interaction.payload["data"]["component_type"] == 3

        # A custom_id the message lacks: discord.py rebuilds a DynamicItem only from a
        # component on the interaction's message, so the bot never even hears of it.
        forged = await fake_discord.click_custom(alice, offer, custom_id="pick:999", wait=False)
        await fake_discord.wait_until_idle()
        assert not forged.acked and forged.interaction.callback_attempts == 0

        # Forged or not, a user can only click on a message they can see.
        elsewhere = fake_discord.add_guild("Elsewhere")
        eve = fake_discord.add_user("Eve", guild=elsewhere)
        with pytest.raises(LookupError, match="not a member"):
            await fake_discord.click_custom(eve, offer, custom_id="pick:1")


async def test_fault_injection_as_the_readme_shows(
    fake_discord: FakeDiscord, world: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A patched ``create_message`` refuses what the test wants, as Discord would."""
    alice, table = world["alice"], world["table"]
    real = fake_discord.create_message

    def refuse_dms(channel: FakeChannel, *args: Any, **kwargs: Any) -> Any:
        if channel.is_dm:
            raise DiscordAPIError(403, 50013, "Missing Permissions")
        return real(channel, *args, **kwargs)

    monkeypatch.setattr(fake_discord, "create_message", refuse_dms)
    async with fake_discord.running(MiniBot()):
        refused = await fake_discord.slash(alice, table, "dm")
        assert refused.content == "cannot DM you (50013)"
    assert fake_discord.dm_messages(alice) == []
    assert [(r.status, r.code) for r in fake_discord.rejections] == [(403, 50013)]


async def test_threads_need_the_thread_permissions_as_on_discord(
    fake_discord: FakeDiscord,
) -> None:
    """Creating a public thread (also from a message) without Create Public Threads, or
    a private one without Create Private Threads: 403, 50013, and no thread."""
    from tests.fakediscord.model.constants import (
        CREATE_PRIVATE_THREADS,
        CREATE_PUBLIC_THREADS,
        DEFAULT_BOT_PERMISSIONS,
        DEFAULT_EVERYONE_PERMISSIONS,
    )

    public = ~CREATE_PUBLIC_THREADS
    denied = fake_discord.add_guild("No threads",
                                    everyone_permissions=DEFAULT_EVERYONE_PERMISSIONS & public,
                                    bot_permissions=DEFAULT_BOT_PERMISSIONS & public)
    table = denied.add_text_channel("table")
    bot = MiniBot()
    async with fake_discord.running(bot):
        channel = bot.get_channel(table.id)
        assert isinstance(channel, discord.TextChannel)
        assert not channel.permissions_for(channel.guild.me).create_public_threads
        with pytest.raises(discord.Forbidden) as refused:
            await channel.create_thread(name="side bets", type=discord.ChannelType.public_thread)
        assert refused.value.code == 50013
        sent = await channel.send("start here")
        with pytest.raises(discord.Forbidden):
            await sent.create_thread(name="from a message")
        assert denied.threads == []
        # Private threads are their own permission, still granted here.
        private = await channel.create_thread(name="quiet")
        assert private.type is discord.ChannelType.private_thread
        denied.everyone.permissions &= ~CREATE_PRIVATE_THREADS
        for role in denied.roles:
            role.permissions &= ~CREATE_PRIVATE_THREADS
        with pytest.raises(discord.Forbidden):
            await channel.create_thread(name="quieter")
    assert [(r.status, r.code) for r in fake_discord.rejections] == [(403, 50013)] * 3
    assert [t.name for t in denied.threads] == ["quiet"]
