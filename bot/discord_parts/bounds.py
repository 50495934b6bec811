"""What Croupier accepts from Discord, bounded in one place.

Discord's own client keeps a slash command's options within what the command
declares (ranges, lengths, choices) and writes ids that are snowflakes, but a
stale or forged client sends anything: a page of ``-1``, a tournament number past
SQLite's largest integer, an option the command no longer has, a custom id with
nineteen nines. discord.py passes all of it through (its ``Range`` is only a
declaration), so every slash command is checked here against its own declaration
before it runs (:func:`refusal`), and every number a custom id carries is a
stored-id-sized number by its template (:data:`ID`). A refusal is a sentence that
names the option and the bound (words of the catalogs: :class:`bot.i18n.Text`);
nothing runs.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from discord import AppCommandOptionType, app_commands

from bot.i18n import Number, Text
from rules.errors import shown

LARGEST_ID = 2**63 - 1
"""The largest Discord snowflake, and the largest id SQLite stores (a signed 64-bit integer)."""
LARGEST_INTEGER = 2**53 - 1
"""Discord's bound on an integer option's value, either way, where a command declares none."""
LONGEST_TEXT = 6000
"""Discord's longest string option value."""

_SNOWFLAKE_TYPES = (AppCommandOptionType.user, AppCommandOptionType.channel,
                    AppCommandOptionType.role, AppCommandOptionType.mentionable,
                    AppCommandOptionType.attachment)
_GROUPS = (AppCommandOptionType.subcommand.value, AppCommandOptionType.subcommand_group.value)


def at_most(limit: int) -> str:
    """A regular expression for the decimal numbers from 0 to ``limit`` (no leading
    zero), so that a template refuses a larger one before any code reads it.

    >>> pattern = re.compile(at_most(305))
    >>> [bool(pattern.fullmatch(t)) for t in ("0", "1", "99", "299", "305", "306", "400", "07")]
    [True, True, True, True, True, False, False, False]
    >>> bool(re.fullmatch(at_most(LARGEST_ID), str(LARGEST_ID + 1)))
    False
    """
    digits = str(limit)
    width = len(digits)
    shorter = ["0"] + ([f"[1-9][0-9]{{0,{width - 2}}}"] if width > 1 else [])
    same = []
    for at, digit in enumerate(digits):
        low = 1 if at == 0 else 0
        if int(digit) > low:
            rest = width - at - 1
            same.append(digits[:at] + f"[{low}-{int(digit) - 1}]"
                        + (f"[0-9]{{{rest}}}" if rest else ""))
    same.append(digits)
    return "(?:" + "|".join(shorter + same) + ")"


ID = at_most(LARGEST_ID)
"""A Discord id or a stored id (a match, a trade, a tournament) in a custom id."""


def _leaf(data: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The options given to the subcommand a command's data reaches."""
    options: list[Mapping[str, Any]] = list(data.get("options") or [])
    while options and options[0].get("type") in _GROUPS:
        options = list(options[0].get("options") or [])
    return options


def _bounds(parameter: app_commands.Parameter) -> tuple[float, float]:
    low = parameter.min_value
    high = parameter.max_value
    return (-LARGEST_INTEGER if low is None else low, LARGEST_INTEGER if high is None else high)


def _figure(value: float) -> Number | int:
    """A bound as it is typed: whole numbers ungrouped (as the option takes them),
    a fraction with the reader's decimal mark."""
    return int(value) if value == int(value) else Number(value)


def _number(name: str, parameter: app_commands.Parameter, value: Any) -> Text | None:
    whole = parameter.type is AppCommandOptionType.integer
    if isinstance(value, bool) or not isinstance(value, int if whole else int | float):
        return (Text("bounds.not_whole", option=name, value=shown(value)) if whole
                else Text("bounds.not_number", option=name, value=shown(value)))
    low, high = _bounds(parameter)
    if not low <= value <= high:
        return Text("bounds.out_of_range", option=name, low=_figure(low), high=_figure(high),
                    value=shown(value))
    return None


def _text(name: str, parameter: app_commands.Parameter, value: Any) -> Text | None:
    if not isinstance(value, str):
        return Text("bounds.not_text", option=name, value=shown(value))
    low = parameter.min_value or 0
    high = parameter.max_value or LONGEST_TEXT
    if not low <= len(value) <= high:
        return (Text("bounds.length", option=name, low=low, high=high, length=len(value))
                if low else Text("bounds.too_long", option=name, high=high, length=len(value)))
    return None


def _snowflake(name: str, value: Any) -> Text | None:
    text = str(value)
    if not re.fullmatch(ID, text):
        return Text("bounds.not_an_id", option=name, value=shown(value))
    return None


def _value(parameter: app_commands.Parameter, value: Any) -> Text | None:
    """Why ``value`` does not fit ``parameter``'s declaration, or ``None``."""
    name = parameter.display_name
    if parameter.choices:
        allowed = [choice.value for choice in parameter.choices]
        if value not in allowed or isinstance(value, bool):
            return Text("bounds.not_a_choice", option=name, value=shown(value))
        return None
    if parameter.type in (AppCommandOptionType.integer, AppCommandOptionType.number):
        return _number(name, parameter, value)
    if parameter.type is AppCommandOptionType.string:
        return _text(name, parameter, value)
    if parameter.type is AppCommandOptionType.boolean:
        return None if isinstance(value, bool) else Text("bounds.not_boolean", option=name,
                                                          value=shown(value))
    if parameter.type in _SNOWFLAKE_TYPES:
        return _snowflake(name, value)
    return None


STALE = Text("reply.stale_commands")
"""The refusal of a command, subcommand or option the bot does not have."""


def refusal(command: app_commands.Command[Any, ..., Any] | Any,
            data: Mapping[str, Any]) -> Text | None:
    """Why a slash command's data does not fit the command it names, or ``None``:
    an unknown command or option (a stale or forged client), a required option
    missing, or a value outside the option's declared type, range, length or
    choices. ``command`` is what the tree found for ``data`` (``None``: nothing).

    >>> refusal(None, {"name": "play"}) == STALE
    True
    """
    if not isinstance(command, app_commands.Command):
        return STALE
    declared = {p.display_name: p for p in command.parameters}
    given: dict[str, Any] = {}
    for option in _leaf(data):
        parameter = declared.get(str(option.get("name")))
        if parameter is None or option.get("type") != parameter.type.value:
            return STALE
        given[parameter.display_name] = option.get("value")
    for name, parameter in declared.items():
        if name not in given:
            if parameter.required:
                return Text("bounds.needed", option=name)
            continue
        problem = _value(parameter, given[name])
        if problem is not None:
            return problem
    return None


class OutOfBounds(app_commands.CheckFailure):
    """A slash command refused before it runs (:func:`refusal`); its text is the reason
    (``str()`` in English)."""

    def __init__(self, text: Text) -> None:
        self.text = text
        super().__init__(text.english())


def check(command: Any, data: Mapping[str, Any]) -> None:
    """Raise :class:`OutOfBounds` when :func:`refusal` finds a reason."""
    reason = refusal(command, data)
    if reason is not None:
        raise OutOfBounds(reason)
