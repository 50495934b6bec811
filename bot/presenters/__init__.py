"""Presenters by game: ``presenter_for("flank")``; unknown games get the generic one."""

from __future__ import annotations

from typing import Any

from bot.live import LiveMatch, PrivateView
from bot.presenters.base import GamePresenter
from bot.presenters.eclipse import EclipsePresenter
from bot.presenters.flank import FlankPresenter
from bot.presenters.nails import NailsPresenter
from bot.service import Ack

_PRESENTERS: dict[str, GamePresenter] = {"flank": FlankPresenter(),
                                          "eclipse": EclipsePresenter(),
                                          "nails": NailsPresenter()}
_GENERIC = GamePresenter()


def register_presenter(game: str, presenter: GamePresenter) -> None:
    """Use ``presenter`` for ``game``."""
    _PRESENTERS[game] = presenter


def presenter_for(game: str) -> GamePresenter:
    """The game's presenter, or the generic one."""
    return _PRESENTERS.get(game, _GENERIC)


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
        """One page of a group of a seat's options (see :class:`~bot.views.OptionPicker`)."""
        return presenter_for(match.info.name).option_page(match, view, key, page)

    def result(self, match: LiveMatch) -> str:
        """The result announcement."""
        return presenter_for(match.info.name).result_text(match)

    def acknowledge(self, ack: Ack) -> str:
        """The confirmation of a private choice."""
        return _GENERIC.acknowledge(ack)
