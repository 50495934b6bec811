"""Lobbies and the channel they hold: hosts who leave, tables that cannot be posted,
channels freed as soon as a match ends, and names that are data."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from bot.clock import FakeClock
from bot.errors import CannotPost, ChannelBusy, NotAllowed, NotRecorded
from bot.matches.live import LiveMatch, Player, PrivateView
from bot.matches.service import MatchService, Timing
from rules.core import Event
from storage import Store
from storage.models import SeatRow
from tests.recording import RecordingTransport

pytestmark = pytest.mark.engines  # the tests that take a `store` run on both engines

ADA = Player(1, "Ada")
BO = Player(2, "Bo")
CY = Player(3, "Cy")
CHANNEL = 700


def make_service(store: Store, transport: object | None = None) -> MatchService:
    return MatchService(store, transport or RecordingTransport(), clock=FakeClock(),
                        timing=Timing(turn_seconds=120, warn_seconds=30))


async def test_a_host_who_leaves_hands_the_lobby_on_for_good(store, tmp_path):
    service = make_service(store)
    match = await service.open_lobby(ADA, guild_id=1, channel_id=CHANNEL, game="eclipse",
                                     seats=3)
    await service.join(BO, CHANNEL)
    await service.join(CY, CHANNEL)
    await service.leave(ADA, CHANNEL)
    assert match.row.host_id == BO.user_id
    await service.settle()
    assert (await store.matches.get(match.id)).host_id == BO.user_id
    # After a restart the new host is still the host: Cy may not start, Bo may.
    again = make_service(store)
    await again.restore()
    with pytest.raises(NotAllowed):
        await again.start(CY, CHANNEL, fill_with_bots=True)
    started = await again.start(BO, CHANNEL, fill_with_bots=True)
    assert started.row.status == "active"
    await again.settle()


async def test_the_new_host_may_cancel(store):
    service = make_service(store)
    match = await service.open_lobby(ADA, guild_id=1, channel_id=CHANNEL, game="flank")
    await service.join(BO, CHANNEL)
    await service.leave(ADA, CHANNEL)
    await service.cancel(BO, CHANNEL)
    await service.settle()
    assert (await store.matches.get(match.id)).status == "cancelled"


class SlowTransport(RecordingTransport):
    """A transport whose showing of a finished match waits until released."""

    def __init__(self) -> None:
        super().__init__()
        self.release = asyncio.Event()

    async def publish(self, match: LiveMatch, events: Sequence[Event]) -> int | None:
        if match.finished:
            await self.release.wait()
        return await super().publish(match, events)

    async def deliver_private(self, match: LiveMatch, seat: SeatRow, view: PrivateView) -> bool:
        if match.finished:
            await self.release.wait()
        return await super().deliver_private(match, seat, view)


async def test_a_finished_match_frees_its_channel_before_its_last_messages(store):
    transport = SlowTransport()
    service = make_service(store, transport)
    match = await service.open_lobby(ADA, guild_id=1, channel_id=CHANNEL, game="flank",
                                     options={"board": 4})
    await service.join(BO, CHANNEL)
    await service.start(ADA, CHANNEL)
    await service.settle()
    await service.forfeit(BO, CHANNEL)
    assert match.finished
    # The final table and DMs are still on their way …
    await asyncio.sleep(0)
    assert not transport.release.is_set()
    # … and a new game opens in the channel at once.
    again = await asyncio.wait_for(
        service.open_lobby(CY, guild_id=1, channel_id=CHANNEL, game="flank"), 2)
    assert again.id != match.id and service.match_in(CHANNEL) is again
    transport.release.set()
    await service.settle()
    assert service.match_in(CHANNEL) is again


class RefusingTransport(RecordingTransport):
    """A channel where the bot may not post."""

    async def publish(self, match: LiveMatch, events: Sequence[Event]) -> int | None:
        raise CannotPost("missing permission to send messages")


async def test_a_lobby_that_cannot_be_posted_is_not_opened(store):
    service = make_service(store, RefusingTransport())
    with pytest.raises(CannotPost):
        await service.open_lobby(ADA, guild_id=1, channel_id=CHANNEL, game="flank")
    with pytest.raises(CannotPost):
        await service.open_lobby(ADA, guild_id=1, channel_id=CHANNEL, game="flank",
                                 vs_bot=True)
    assert service.live_matches() == []
    assert await store.matches.live_in_channel(CHANNEL) is None


async def test_a_lobby_is_announced_only_once_its_table_is_posted(store):
    transport = RecordingTransport()
    service = make_service(store, transport)
    match = await service.open_lobby(ADA, guild_id=1, channel_id=CHANNEL, game="flank")
    assert transport.published and transport.published[0][0] == match.id
    assert match.row.table_message_id is not None
    with pytest.raises(ChannelBusy):
        await service.open_lobby(BO, guild_id=1, channel_id=CHANNEL, game="flank")


@pytest.mark.parametrize("name", ["{boss}", "{0}", "{s1}", "}{", "{{s0}}", "{s99}"])
async def test_names_are_data_never_templates(store, name):
    transport = RecordingTransport()
    service = make_service(store, transport)
    weird = Player(4, name)
    await service.open_lobby(weird, guild_id=1, channel_id=CHANNEL, game="flank")
    await service.join(BO, CHANNEL)
    await service.leave(weird, CHANNEL)           # "… left; Bo is the host now."
    await service.join(weird, CHANNEL)
    match = await service.start(BO, CHANNEL)
    await service.settle()
    await service.cancel(Player(4, name, is_moderator=True), CHANNEL)
    await service.settle()
    shown = "\n".join(transport.public_texts(match.names))
    assert f"{name} left; Bo is the host now." in shown
    assert f"{name} cancelled the game." in shown


@pytest.mark.parametrize("stored", [False, True], ids=["lost", "stored-but-unanswered"])
async def test_a_failed_write_fails_loudly_and_never_leaves_the_match_stuck(
        store, monkeypatch, discord_errors, stored):
    service = make_service(store)
    await service.open_lobby(ADA, guild_id=1, channel_id=CHANNEL, game="flank",
                             options={"board": 8, "stoppers": 0})
    await service.join(BO, CHANNEL)
    match = await service.start(ADA, CHANNEL)
    await service.settle()
    mover = ADA if match.state.decision_for(0) else BO
    choice = match.state.pending()[0].options[0]
    real = store.matches.record

    async def failing(*args, **kwargs):
        monkeypatch.setattr(store.matches, "record", real)
        if stored:
            await real(*args, **kwargs)
        raise OSError("disk I/O error")

    monkeypatch.setattr(store.matches, "record", failing)
    with pytest.raises(NotRecorded):
        await service.submit(mover.user_id, match.id, choice)
    discord_errors.expect("storing a move failed")
    log = await store.matches.choices(match.id)
    assert match.next_seq == len(log) == (1 if stored else 0)
    assert match.state.step == len(log)
    # The match goes on from what is stored.
    pending = match.state.pending()[0]
    who = ADA if pending.seat == mover_seat(match, ADA) else BO
    await service.submit(who.user_id, match.id, pending.options[0])
    assert len(await store.matches.choices(match.id)) == len(log) + 1
    await service.settle()


def mover_seat(match: LiveMatch, player: Player) -> int:
    seat = match.seat_of(player.user_id)
    assert seat is not None
    return seat.seat


async def test_discord_refusing_a_new_table_is_cannot_post(store):
    """The Discord transport turns a refused post into the refusal a lobby gives."""
    from types import SimpleNamespace

    import discord

    from bot.discord_side.transport import DiscordTransport
    from bot.games import Presenters

    class Refusing:
        async def send(self, **_: object) -> None:
            response = SimpleNamespace(status=403, reason="Forbidden")
            raise discord.Forbidden(response, {"code": 50013, "message": "Missing Permissions"})

    async def english(_guild_id: object) -> str:
        return "en"

    bot = SimpleNamespace(presenters=Presenters(), languages=SimpleNamespace(channel=english),
                          get_partial_messageable=lambda *a, **k: Refusing())
    service = make_service(store, DiscordTransport(bot))  # type: ignore[arg-type]
    with pytest.raises(CannotPost, match="not allowed to post there"):
        await service.open_lobby(ADA, guild_id=1, channel_id=CHANNEL, game="flank")
    assert service.live_matches() == []
    assert await store.matches.live_in_channel(CHANNEL) is None


async def test_a_game_whose_closing_words_fail_still_closes_its_match(store, caplog):
    """What a game says as its match closes without a result (MatchHooks.closing) is
    told after the close is stored: a failure there logs, and the match is closed and
    its channel free all the same."""
    from bot.matches.hooks import MatchHooks

    class Failing(MatchHooks):
        async def closing(self, match: LiveMatch) -> Sequence[Event]:
            raise RuntimeError("broken")

    service = MatchService(store, RecordingTransport(), clock=FakeClock(),
                           timing=Timing(turn_seconds=120, warn_seconds=30),
                           hooks={"flank": Failing()})
    match = await service.open_lobby(ADA, guild_id=1, channel_id=CHANNEL, game="flank")
    await service.join(BO, CHANNEL)
    await service.start(ADA, CHANNEL)
    await service.cancel(ADA, CHANNEL)
    await service.settle()
    assert match.row.status == "cancelled"
    assert (await store.matches.get(match.id)).status == "cancelled"
    again = await service.open_lobby(BO, guild_id=1, channel_id=CHANNEL, game="flank")
    assert again.id != match.id  # the channel is free
    assert "what its game says as it closes failed" in caplog.text


async def test_the_lobby_the_table_and_the_result_speak_the_locale_spoken(store):
    """The shared parts of a table are words from the catalogs: the lobby, its buttons and
    options, the turn, a forfeit's result with its places, and the notices, in pt-BR as
    in English (which is as it always was)."""
    from bot.games import Presenters
    from bot.i18n import narrate, speaking

    transport = RecordingTransport()
    service = make_service(store, transport)
    match = await service.open_lobby(ADA, guild_id=1, channel_id=CHANNEL, game="flank",
                                     options={"board": 6})
    await service.join(BO, CHANNEL)
    presenters = Presenters()
    for locale, words in (("pt_BR", ("Lugares 2/2", "1. Ada (anfitrião)", "board 6×6",
                                     ["Entrar", "Sair", "Começar"])),
                          ("en", ("Seats 2/2", "1. Ada (host)", "board 6×6",
                                  ["Join", "Leave", "Start"]))):
        with speaking(locale):
            lobby = presenters.table(match, [])
        fields = lobby["embed"].fields
        assert fields[0].name == words[0] and fields[0].value.startswith(words[1])
        assert fields[1].value == words[2]
        assert [item.item.label for item in lobby["view"].children] == words[3]
    await service.start(ADA, CHANNEL)
    await service.forfeit(BO, CHANNEL)
    await service.settle()
    with speaking("pt_BR"):
        result = presenters.result(match)
        begun = narrate(match.narration[0], match.names)
    assert result == "**Ada vence** (Bo desistiu)\n🥇 1º Ada\n🥈 2º Bo", result
    assert begun == "Começa a partida de Flank."
    with speaking("en"):
        assert presenters.result(match) == "**Ada wins** (Bo forfeited)\n🥇 1st Ada\n🥈 2nd Bo"
