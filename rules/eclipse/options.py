"""Eclipse's game options: the deck, the counterattack number and the hand cap."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.eclipse.cards import DECKS, Deck
from rules.errors import BadOptions

OPTIONS_HELP: dict[str, str] = {
    "deck": f"which deck: {', '.join(DECKS)} (default standard: 60 symbol cards, 12 followers)",
    "counterattack": "cards a counterattack moves, 1–12 (default 3; 0 = no counterattacks)",
    "hand_cap": "the game ends after this many hands, 10–10000 (default 400)",
}


def _number(key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise BadOptions(f"{key} must be a whole number, not {value!r}")
    text = str(value).strip()
    if not text.isdigit():
        raise BadOptions(f"{key} must be a whole number, not {value!r}")
    return int(text)


@dataclass(frozen=True, slots=True)
class EclipseOptions:
    """The options of one game of Eclipse.

    >>> EclipseOptions.from_mapping({"counterattack": "4"}).counterattack
    4
    >>> EclipseOptions.from_mapping({"deck": "tarot"})
    Traceback (most recent call last):
    ...
    rules.errors.BadOptions: there is no deck 'tarot'; decks: standard
    """

    deck: str = "standard"
    counterattack: int = 3
    """Cards a counterattack moves (the requisite counterattack number); 0 turns them off."""
    hand_cap: int = 400

    @property
    def cards(self) -> Deck:
        """The deck itself."""
        return DECKS[self.deck]

    @classmethod
    def from_mapping(cls, options: Mapping[str, Any] | None) -> EclipseOptions:
        """Read and check options; :class:`BadOptions` names the bad key or value."""
        given: dict[str, Any] = {}
        for key, value in (options or {}).items():
            name = str(key).strip().lower().replace("-", "_")
            if name not in OPTIONS_HELP:
                raise BadOptions(f"Eclipse has no option {key!r}; its options are "
                                 f"{', '.join(OPTIONS_HELP)}")
            if value is None:
                continue
            if name == "deck":
                deck = str(value).strip().lower()
                if deck not in DECKS:
                    raise BadOptions(f"there is no deck {value!r}; decks: {', '.join(DECKS)}")
                given[name] = deck
            else:
                given[name] = _number(name, value)
        counter = given.get("counterattack", 3)
        if not 0 <= counter <= 12:
            raise BadOptions(f"counterattack must be from 0 to 12, not {counter}")
        cap = given.get("hand_cap", 400)
        if not 10 <= cap <= 10000:
            raise BadOptions(f"hand_cap must be from 10 to 10000, not {cap}")
        return cls(deck=given.get("deck", "standard"), counterattack=counter, hand_cap=cap)

    def as_dict(self) -> dict[str, Any]:
        """The options as a plain mapping (what storage keeps)."""
        return {"deck": self.deck, "counterattack": self.counterattack,
                "hand_cap": self.hand_cap}
