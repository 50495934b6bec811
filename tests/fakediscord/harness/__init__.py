"""The test-side API: build a world, act as users, run real discord.py bots against the fake.

Typical use (with the ``fake_discord`` fixture from ``tests/conftest.py``)::

    async def test_ping(fake_discord):
        guild = fake_discord.add_guild("Casino")
        table = guild.add_text_channel("table-1")
        alice = guild.add_user("Alice")
        async with fake_discord.running(make_bot()):
            result = await fake_discord.slash(alice, table, "ping")
            assert result.content == "pong"
            hit = await fake_discord.click(alice, result.message, label="Hit")
            assert hit.type == UPDATE_MESSAGE

Every wait has a timeout, re-checks its condition at once on each change the fake sees
(and every 20 ms for bot-side state the fake cannot see), and fails fast with
:class:`BotError` when the bot logs an ERROR.
"""

from __future__ import annotations

from typing import Any

from .bots import BotRunner
from .clicks import ComponentActions
from .results import InteractionResult
from .slash import CommandActions, CommandNotAvailable

__all__ = ["CommandNotAvailable", "FakeDiscord", "InteractionResult"]


class FakeDiscord(CommandActions, ComponentActions, BotRunner):
    """The fake Discord plus everything a test needs to drive it: world building
    (``world.py``), acting as users (``slash.py``, ``clicks.py``, ``acting.py``) and
    running bots (``bots.py``).

    World building (``add_guild``, ``guild.add_text_channel``, ``add_user``) works before
    or after a bot connected; after, the bot receives the matching gateway events.
    """

    def __init__(self, **kwargs: Any) -> None:
        """Keyword arguments go to :class:`~tests.fakediscord.server.FakeDiscordServer`
        (``token``, ``bot_name``, ``ack_deadline``)."""
        super().__init__(**kwargs)
