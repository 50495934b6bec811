"""Every game Croupier deals, registered on one line each.

A game is a package of :mod:`rules` exposing ``GAME``, its
:class:`~rules.core.GameInfo`. The registry lives here, outside the shared core,
so that :mod:`rules.core` imports no game and no game imports the registry.
Its presenter (pictures, narration, menus and commands in Discord) is
registered beside the other presenters, in :mod:`bot.games`.

>>> list(games())[:3]
['flank', 'eclipse', 'nails']
>>> get_game("Flank").title
'Flank'
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache

from rules.core import GameInfo
from rules.errors import BadOptions, shown
from rules.phrases import Phrase

GAME_PACKAGES = (
    "rules.flank",
    "rules.eclipse",
    "rules.nails",
    "rules.duel",
)
"""One line per game: the package whose ``GAME`` describes it."""

_EXTRA: dict[str, GameInfo] = {}


@cache
def _shipped() -> dict[str, GameInfo]:
    found: dict[str, GameInfo] = {}
    for package in GAME_PACKAGES:
        info = importlib.import_module(package).GAME
        if not isinstance(info, GameInfo):
            raise TypeError(f"{package}.GAME is not a GameInfo")
        found[info.name] = info
    return found


def shipped_games() -> dict[str, GameInfo]:
    """The games Croupier ships (:data:`GAME_PACKAGES`), without any a test added."""
    return dict(_shipped())


def games() -> dict[str, GameInfo]:
    """Every game by name, in registration order."""
    return {**_shipped(), **_EXTRA}


def get_game(name: str) -> GameInfo:
    """The game called ``name`` (any case); :class:`BadOptions` names an unknown one."""
    known = games()
    info = known.get(name.strip().lower()) if isinstance(name, str) else None
    if info is None:
        raise BadOptions(Phrase("registry.error.no_game", given=shown(name),
                                games=", ".join(known)))
    return info


@contextmanager
def shipped_only() -> Iterator[None]:
    """Inside, :func:`games` is the shipped games alone, whatever a test added: what the
    bot publishes (its commands' catalog is written from them)."""
    added = dict(_EXTRA)
    _EXTRA.clear()
    try:
        yield
    finally:
        _EXTRA.update(added)


def add_game(info: GameInfo) -> GameInfo:
    """Deal one more game than the shipped ones (a test's own game, say)."""
    _EXTRA[info.name] = info
    return info


def remove_game(name: str) -> None:
    """Stop dealing a game added by :func:`add_game`."""
    _EXTRA.pop(name, None)
