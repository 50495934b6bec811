"""Flank's game options: table size, stoppers, cards per player and the stopper zone."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args

from rules.errors import BadOptions

MAX_BOARD = 26
MAX_STOPPERS = 10
MAX_TABLE_CARDS = 100
"""Most cards per player on the unbounded table (the seed's game uses 25)."""

StopperZone = Literal["none", "orthogonal", "ring"]
STOPPER_ZONES: tuple[StopperZone, ...] = get_args(StopperZone)
"""The values of ``stopper_zone``, the default first."""

OPTIONS_HELP: dict[str, str] = {
    "board": "0 = the unbounded table (default); an even N from 4 to 26 plays on an N×N board",
    "stoppers": "stopper tiles per player, 0–10 (default 5; 0 = none)",
    "cards": "cards per player including the 2 opening cards "
    "(default 25 on the unbounded table, N×N/2 on an N×N board)",
    "stopper_zone": "cells around a stoppered card where no card may be laid: none (default; "
    "then no stopper may leave the opponent without a move), orthogonal (the 4 beside it) "
    "or ring (the 8 around it, the seed's rule)",
}


def _number(key: str, value: Any) -> int:
    if isinstance(value, bool):
        raise BadOptions(f"{key} must be a whole number, not {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        text = value.strip().lower()
        if key == "board":
            # "8x8" is how players write a board size.
            left, sep, right = text.partition("x")
            if sep and left.strip() == right.strip():
                text = left.strip()
            elif text in ("", "none", "unbounded", "off"):
                text = "0"
        if text.isdigit():
            return int(text)
    raise BadOptions(f"{key} must be a whole number, not {value!r}")


def _zone(value: Any) -> StopperZone:
    text = value.strip().lower() if isinstance(value, str) else None
    for zone in STOPPER_ZONES:
        if text == zone:
            return zone
    raise BadOptions(f"stopper_zone must be one of {', '.join(STOPPER_ZONES)}, not {value!r}")


@dataclass(frozen=True, slots=True)
class FlankOptions:
    """The options of one game of Flank.

    A mapping without ``stopper_zone`` (a match stored before the option
    existed, say) gets the default, ``none``.

    >>> FlankOptions.from_mapping({"board": "8", "stoppers": 0})
    FlankOptions(board=8, stoppers=0, cards=32, stopper_zone='none')
    >>> FlankOptions.from_mapping({"stopper_zone": "Ring"})
    FlankOptions(board=0, stoppers=5, cards=25, stopper_zone='ring')
    >>> FlankOptions.from_mapping({"board": 7})
    Traceback (most recent call last):
    ...
    rules.errors.BadOptions: board must be 0 (unbounded) or an even number from 4 to 26, not 7
    """

    board: int = 0
    """0 for the unbounded table, else the side of the N×N board."""
    stoppers: int = 5
    """Stopper tiles per player."""
    cards: int = 25
    """Cards per player, the 2 opening cards included."""
    stopper_zone: StopperZone = "none"
    """Cells around a stoppered card where no card may be laid: ``none``,
    ``orthogonal`` (the 4 beside it) or ``ring`` (the 8 around it)."""

    @property
    def bounded(self) -> bool:
        """True on an N×N board."""
        return self.board != 0

    @classmethod
    def from_mapping(cls, options: Mapping[str, Any] | None) -> FlankOptions:
        """Read and check options; :class:`BadOptions` names the bad key or value."""
        given: dict[str, int] = {}
        zone: StopperZone = "none"
        for key, value in (options or {}).items():
            name = str(key).strip().lower()
            if name not in OPTIONS_HELP:
                raise BadOptions(
                    f"Flank has no option {key!r}; its options are {', '.join(OPTIONS_HELP)}"
                )
            if value is None:
                continue
            if name == "stopper_zone":
                zone = _zone(value)
            else:
                given[name] = _number(name, value)
        board = given.get("board", 0)
        if board != 0 and not (4 <= board <= MAX_BOARD and board % 2 == 0):
            raise BadOptions(
                f"board must be 0 (unbounded) or an even number from 4 to {MAX_BOARD}, not {board}"
            )
        stoppers = given.get("stoppers", 5)
        if not 0 <= stoppers <= MAX_STOPPERS:
            raise BadOptions(f"stoppers must be from 0 to {MAX_STOPPERS}, not {stoppers}")
        most = board * board // 2 if board else MAX_TABLE_CARDS
        cards = given.get("cards", board * board // 2 if board else 25)
        if not 2 <= cards <= most:
            where = f"on a {board}×{board} board" if board else "on the unbounded table"
            raise BadOptions(f"cards must be from 2 to {most} {where}, not {cards}")
        return cls(board=board, stoppers=stoppers, cards=cards, stopper_zone=zone)

    def as_dict(self) -> dict[str, int | str]:
        """The options as a plain mapping (what storage keeps)."""
        return {"board": self.board, "stoppers": self.stoppers, "cards": self.cards,
                "stopper_zone": self.stopper_zone}
