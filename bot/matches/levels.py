"""The computer's levels in words: what Discord's menus, the tables, the terminal and
the command line say of them, in one place. The rules name the levels
(:data:`rules.core.LEVELS`); the store keeps their keys; people read these words.
"""

from __future__ import annotations

from rules.core import DEFAULT_LEVEL, LEVELS, GameInfo
from rules.errors import BadOptions
from storage.models import SeatRow

MEANING = {
    "easy": "plays like a beginner",
    "normal": "the usual computer player",
    "hard": "thinks ahead, the strongest",
}
"""What each level means, in a few words."""


def checked_level(info: GameInfo, level: str) -> str:
    """``level`` (a key of :data:`~rules.core.LEVELS`) once ``info`` is known to have a
    computer player of that level; :class:`BadOptions` names anything else.

    >>> from rules.registry import games
    >>> checked_level(next(iter(games().values())), "normal")
    'normal'
    >>> checked_level(next(iter(games().values())), "expert")
    Traceback (most recent call last):
    ...
    rules.errors.BadOptions: the computer levels are easy, normal, hard, not 'expert'
    """
    if level in LEVELS and level != DEFAULT_LEVEL and level not in info.levels:
        raise BadOptions(f"{info.title} has no {level} computer player")
    info.computer(level)
    return level


def level_label(level: str) -> str:
    """A level with what it means, for a menu or a help text.

    >>> level_label("hard")
    'hard (thinks ahead, the strongest)'
    """
    return f"{level} ({MEANING[level]})"


def levels_said() -> str:
    """Every level, weakest first, as words.

    >>> levels_said()
    'easy, normal or hard'
    """
    return ", ".join(LEVELS[:-1]) + " or " + LEVELS[-1]


def computer_named(name: str, level: str) -> str:
    """A computer seat's name with its level, wherever a computer seat is named.

    >>> computer_named("Dealer Bot", "hard")
    'Dealer Bot (hard)'
    """
    return f"{name} ({level})"


def seat_named(seat: SeatRow) -> str:
    """A seat's name as plain text: a computer's with its level (a person's seat the
    computer took over keeps the person's name).

    >>> seat_named(SeatRow(1, None, "Ace Bot", is_bot=True, level="easy"))
    'Ace Bot (easy)'
    """
    return computer_named(seat.name, seat.level) if seat.is_bot else seat.name

