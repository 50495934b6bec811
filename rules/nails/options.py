"""Hammer & Nails' options: the deck, the objective, teams and how the final round ends."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from rules.options import GameOptions

DECK_NAMES = ("workshop", "space", "workshop4")


class NailsOptions(GameOptions):
    """The options of one game.

    >>> NailsOptions.parse({"deck": "Space"})
    NailsOptions(deck='space', objective=None, teams=None, final_round='each')
    >>> NailsOptions.parse({"objective": "most"}).most_wins
    True
    """

    title: ClassVar[str] = "Hammer & Nails"

    deck: Literal["workshop", "space", "workshop4"] = Field(
        "workshop", description="workshop (square tiles), space (octagons, ships, lasers, cows) "
                                "or workshop4 (four colours)")
    objective: Literal["fewest", "most"] | None = Field(
        None, description="whether the fewest or the most of your nails win "
                          "(unset: the deck's own)")
    teams: bool | None = Field(
        None, description="with 4 players: two teams sharing a colour (yes, the default) "
                          "or a colour each (no)")
    final_round: Literal["each", "dealer"] = Field(
        "each", description="once someone goes out, each other player has one last turn "
                            "(each) or the round ends (dealer)")

    @property
    def most_wins(self) -> bool | None:
        """``None``: the deck's own objective."""
        return None if self.objective is None else self.objective == "most"
