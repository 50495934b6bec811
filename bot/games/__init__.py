"""Each game's outside, one package per game (``bot/games/<game>/``): how it looks and
is played in Discord and at the terminal — its presenter, its pictures, its own
commands. Presenters are registered on one line each in :data:`PRESENTER_PACKAGES`.

A game's presenter (pictures, narration, menus, its own slash commands such as
``/flank place``) refines :class:`~bot.games.presenter.GamePresenter`; a game
without one is shown by the generic presenter.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from bot.clock import Clock
from bot.games.presenter import GamePresenter
from bot.matches.commit import Ack
from bot.matches.hooks import MatchHooks
from bot.matches.live import LiveMatch, PrivateView
from storage import Store

PRESENTER_PACKAGES = {
    "flank": "bot.games.flank.presenter",
    "eclipse": "bot.games.eclipse.presenter",
    "nails": "bot.games.nails.presenter",
    "duel": "bot.games.duel.presenter",
}
"""One line per game: the package whose ``PRESENTER`` shows it."""

_GENERIC = GamePresenter()


@cache
def _presenters() -> dict[str, GamePresenter]:
    found: dict[str, GamePresenter] = {}
    for game, package in PRESENTER_PACKAGES.items():
        presenter = importlib.import_module(package).PRESENTER
        if not isinstance(presenter, GamePresenter):
            raise TypeError(f"{package}.PRESENTER is not a GamePresenter")
        found[game] = presenter
    return found


def presenter_for(game: str) -> GamePresenter:
    """The game's presenter, or the generic one."""
    return _presenters().get(game, _GENERIC)


def presenters() -> dict[str, GamePresenter]:
    """Every game's own presenter, by game name."""
    return dict(_presenters())


def match_hooks(store: Store, clock: Clock) -> dict[str, MatchHooks]:
    """Every game's :class:`~bot.matches.hooks.MatchHooks` that has some, by game name: for
    the match service, in Discord and at the local table alike."""
    return {game: presenter.hooks(store, clock)
            for game, presenter in _presenters().items() if presenter.hooks is not None}


class Presenters:
    """Dispatch by the match's game."""

    def table(self, match: LiveMatch, narration: list[str]) -> dict[str, Any]:
        """The public table's message parts."""
        return presenter_for(match.info.name).table(match, narration)

    def private(self, match: LiveMatch, view: PrivateView) -> dict[str, Any]:
        """A seat's private message parts."""
        return presenter_for(match.info.name).private(match, view)

    def option_page(self, match: LiveMatch, view: PrivateView, key: str,
                    page: int) -> dict[str, Any]:
        """One page of a group of a seat's options (see
        :class:`~bot.discord_parts.views.OptionPicker`)."""
        return presenter_for(match.info.name).option_page(match, view, key, page)

    def option_labels(self, match: LiveMatch, view: PrivateView) -> list[str]:
        """What each option of a seat's pending decision is called (a form's fields)."""
        return presenter_for(match.info.name).option_labels(match, view)

    def result(self, match: LiveMatch) -> str:
        """The result announcement."""
        return presenter_for(match.info.name).result_text(match)

    def acknowledge(self, ack: Ack) -> str:
        """The confirmation of a private choice."""
        return _GENERIC.acknowledge(ack)
