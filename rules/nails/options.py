"""Hammer & Nails' options: the deck and the objective."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.errors import BadOptions

OPTIONS_HELP: dict[str, str] = {
    "deck": "workshop (square tiles, default), space (octagons, ships, laser and cows) or "
            "workshop4 (four nail colours, for four players each on their own)",
    "objective": "fewest (the fewest of your nails wins; the workshop default) or most "
                 "(the space default)",
    "teams": "with 4 players: true (default) plays two teams sharing a colour; false gives "
             "each player a colour of their own (the four-colour workshop deck)",
}
DECK_NAMES = ("workshop", "space", "workshop4")


@dataclass(frozen=True, slots=True)
class NailsOptions:
    """The options of one game.

    >>> NailsOptions.from_mapping({"deck": "Space"})
    NailsOptions(deck='space', most_wins=None, teams=None)
    >>> NailsOptions.from_mapping({"objective": "most"}).most_wins
    True
    """

    deck: str = "workshop"
    most_wins: bool | None = None
    """``None``: the deck's own objective."""
    teams: bool | None = None
    """``False``: four players each with a colour; ``None``/``True``: teams of two."""

    @classmethod
    def from_mapping(cls, options: Mapping[str, Any] | None) -> NailsOptions:
        """Read and check options; :class:`BadOptions` names the bad key or value."""
        deck, most, teams = "workshop", None, None
        for key, value in (options or {}).items():
            name = str(key).strip().lower()
            text = str(value).strip().lower()
            if name == "deck":
                if text not in DECK_NAMES:
                    raise BadOptions(f"there is no deck {value!r}; decks: {', '.join(DECK_NAMES)}")
                deck = text
            elif name == "teams":
                if text not in ("true", "false", "yes", "no", "1", "0"):
                    raise BadOptions(f"teams is true or false, not {value!r}")
                teams = text in ("true", "yes", "1")
            elif name == "objective":
                if text not in ("fewest", "most"):
                    raise BadOptions(f"objective is fewest or most, not {value!r}")
                most = text == "most"
            else:
                raise BadOptions(f"Hammer & Nails has no option {key!r}; its options are "
                                 f"{', '.join(OPTIONS_HELP)}")
        return cls(deck=deck, most_wins=most, teams=teams)
