"""Storage: the only place that speaks SQL. Open one :class:`Store` per process.

The package's names are loaded when first used (PEP 562): the writer process
imports :mod:`storage.writer` and only the modules whose writes it unpickles, not
every repository of the bot (it starts once per store opened, hundreds of times in
the test suite).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from storage.db import Database
    from storage.errors import ChannelBusy, DuplicateInteraction, StorageError
    from storage.models import (
        ChoiceRow,
        GameTiming,
        GuildSettings,
        MatchRow,
        SeatResult,
        SeatRow,
    )
    from storage.store import Store

_WHERE = {
    "ChannelBusy": "storage.errors", "DuplicateInteraction": "storage.errors",
    "StorageError": "storage.errors", "ChoiceRow": "storage.models",
    "GameTiming": "storage.models", "GuildSettings": "storage.models",
    "MatchRow": "storage.models", "SeatResult": "storage.models", "SeatRow": "storage.models",
    "Database": "storage.db", "Store": "storage.store",
}

__all__ = [
    "ChannelBusy", "ChoiceRow", "Database", "DuplicateInteraction", "GameTiming", "GuildSettings",
    "MatchRow", "SeatResult", "SeatRow", "StorageError", "Store",
]


def __getattr__(name: str) -> Any:
    """One of the package's names, from the module that defines it."""
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'storage' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
