"""The computer's levels in words: what Discord's menus, the tables, the terminal and
the command line say of them, in one place. The rules name the levels
(:data:`rules.core.LEVELS`); the store keeps their keys; people read these words.
"""

from __future__ import annotations

from bot.i18n import Text, tr
from rules.core import DEFAULT_LEVEL, LEVELS, GameInfo
from rules.errors import BadOptions
from storage.models import SeatRow


def level_word(level: str) -> str:
    """A level's name in the locale spoken (an unknown one as it is).

    >>> from bot.i18n import speaking
    >>> with speaking("pt_BR"):
    ...     level_word("hard")
    'difícil'
    """
    if level == "easy":
        return tr("levels.easy")
    if level == "normal":
        return tr("levels.normal")
    if level == "hard":
        return tr("levels.hard")
    return level


def _meaning(level: str) -> str:
    if level == "easy":
        return tr("levels.meaning.easy")
    if level == "hard":
        return tr("levels.meaning.hard")
    return tr("levels.meaning.normal")


def checked_level(info: GameInfo, level: str) -> str:
    """``level`` (a key of :data:`~rules.core.LEVELS`) once ``info`` is known to have a
    computer player of that level; :class:`BadOptions` names anything else.

    >>> from rules.registry import games
    >>> checked_level(next(iter(games().values())), "normal")
    'normal'
    >>> checked_level(next(iter(games().values())), "expert")
    Traceback (most recent call last):
    ...
    rules.errors.BadOptions: core.error.level(levels='easy, normal, hard', level="'expert'")
    """
    if level in LEVELS and level != DEFAULT_LEVEL and level not in info.levels:
        raise BadOptions(Text("levels.error.missing", game=info.title, level=level))
    info.computer(level)
    return level


def level_label(level: str) -> str:
    """A level with what it means, for a menu or a help text, in the locale spoken.

    >>> level_label("hard")
    'hard (thinks ahead, the strongest)'
    """
    return tr("levels.label", level=level_word(level), meaning=_meaning(level))


def levels_said() -> str:
    """Every level, weakest first, as words in the locale spoken.

    >>> levels_said()
    'easy, normal or hard'
    """
    return tr("levels.every", easy=level_word("easy"), normal=level_word("normal"),
              hard=level_word("hard"))


def computer_named(name: str, level: str) -> str:
    """A computer seat's name with its level, wherever a computer seat is named (the
    level in the locale spoken).

    >>> computer_named("Dealer Bot", "hard")
    'Dealer Bot (hard)'
    """
    return tr("levels.named", name=name, level=level_word(level))


def seat_named(seat: SeatRow) -> str:
    """A seat's name as plain text: a computer's with its level (a person's seat the
    computer took over keeps the person's name).

    >>> seat_named(SeatRow(1, None, "Ace Bot", is_bot=True, level="easy"))
    'Ace Bot (easy)'
    """
    return computer_named(seat.name, seat.level) if seat.is_bot else seat.name
