"""A game's own commands at the local table (collections and decks, say, for a card
game): which a game has, their help, and the word a line starts with. What a command
is lives in :mod:`bot.terminal_parts.sitting`."""

from __future__ import annotations

import importlib
from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.text import Text

from bot.i18n import say, tr
from bot.terminal_parts.screen import STYLES
from bot.terminal_parts.sitting import LocalCommand
from rules.core import GameInfo


def game_commands(info: GameInfo) -> tuple[LocalCommand, ...]:
    """The game's own commands at the local table (none for most games)."""
    # Imported here: the presenters bring discord.py, which the terminal needs only now.
    from bot.games import presenter_for

    found: list[LocalCommand] = []
    for module in presenter_for(info.name).local_commands:
        found += importlib.import_module(module).LOCAL_COMMANDS
    return tuple(found)


def commands_help(info: GameInfo, commands: Sequence[LocalCommand]) -> RenderableType:
    """A game's own commands: how each is typed (a line per form), then what it does."""
    lines: list[RenderableType] = [Text(tr("terminal.commands.heading", game=info.title),
                                        style=STYLES["heading"])]
    for command in commands:
        lines += [Padding(Text(usage, style="bold"), (0, 0, 0, 2))
                  for usage in say(command.usage).split("\n")]
        lines.append(Padding(Text(say(command.summary), style=STYLES["hint"]), (0, 0, 0, 6)))
    return Group(*lines)


def first_word(line: str) -> tuple[str, str]:
    """``("deck", "show Mine")`` from ``"Deck  show Mine"``: the first word in lower
    case, then the rest as typed."""
    word, _, rest = line.strip().partition(" ")
    return word.lower(), rest.strip()
