"""The fake Discord server (REST API v10 and gateway on 127.0.0.1), built in layers, each
a module: state → waiting → gateway → hub → message store → interactions → REST routes →
:class:`FakeDiscordServer` (``app.py``)."""

from .app import FakeDiscordServer
from .errors import BotError, DiscordAPIError, Rejection, WaitTimeout

__all__ = ["BotError", "DiscordAPIError", "FakeDiscordServer", "Rejection", "WaitTimeout"]
