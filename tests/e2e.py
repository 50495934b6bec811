"""Helpers for end-to-end tests: the real Croupier bot against the fake Discord."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.clock import Clock
from bot.config import Settings
from bot.discord_side.client import CroupierBot
from bot.i18n import LOCALES, translate
from bot.i18n.catalogs import PSEUDO
from tests.fakediscord import FakeDiscord
from tests.fakediscord.model import FakeAttachment, FakeChannel, FakeMessage

ERROR_LOGGERS = ("discord", "asyncio", "bot", "commands", "storage")


@asynccontextmanager
async def served(fake: FakeDiscord) -> AsyncIterator[FakeDiscord]:
    """``fake`` started with discord.py pointed at it (``Route.BASE`` and the gateway
    patched, restored afterwards), stopped after; unknown routes or fake crashes fail
    the test. Every fixture that serves a fake Discord serves it so."""
    await fake.start()
    try:
        with fake.patched():
            yield fake
    finally:
        await fake.stop()
    fake.assert_clean()


def make_bot(database: Path, *, clock: Clock | None = None, turn_seconds: int = 300) -> CroupierBot:
    """A Croupier bot on its own SQLite file, settings taken from nothing but arguments."""
    settings = Settings(_env_file=None, database=database, turn_seconds=turn_seconds,
                        warn_seconds=60)
    return CroupierBot(settings, clock=clock)


def deal_the_same(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Every match opened from now on gets ``seed``: a test walks the same game each run."""
    class Seeded:
        def randrange(self, _: int) -> int:
            return seed

    monkeypatch.setattr("bot.matches.lobby.random.SystemRandom", Seeded)


def table_message(channel: FakeChannel) -> FakeMessage:
    """The live table: the newest bot message in the channel with a game embed (its
    footer says "Match #…" in whatever language the server speaks)."""
    heads = tuple({translate("table.footer", locale, match_id=0, step=0).split("0")[0]
                   for locale in (*LOCALES, PSEUDO)})
    for message in reversed(channel.messages):
        if message.deleted or not message.embeds:
            continue
        if message.embeds[0].get("footer", {}).get("text", "").startswith(heads):
            return message
    raise LookupError("no table message in the channel")


def select_ids(message: FakeMessage) -> list[str]:
    """The custom ids of the select menus on a message."""
    found = []
    for row in message.components:
        for component in row.get("components", []):
            if component.get("type") == 3:
                found.append(component["custom_id"])
    return found


def select_values(message: FakeMessage, custom_id: str) -> list[str]:
    """The option values of one select menu."""
    for row in message.components:
        for component in row.get("components", []):
            if component.get("custom_id") == custom_id:
                return [option["value"] for option in component.get("options", [])]
    raise LookupError(custom_id)


async def pictured(fake: FakeDiscord, message: FakeMessage | None,
                   filename: str) -> FakeAttachment:
    """``message``'s picture ``filename`` once it is there: an answer with a picture is
    sent with its words at once, the picture added just after
    (``bot/discord_parts/answer_first.py``)."""
    assert message is not None, "no message"
    await fake.wait_for(lambda: any(a.filename == filename for a in message.attachments),
                        description=f"the picture {filename}")
    return message.attachment(filename)
