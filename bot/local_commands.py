"""A game's own commands at the local table (collections and decks, say, for a card
game): what each is given, how it is typed, and their help."""

from __future__ import annotations

import importlib
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.text import Text

from bot.clock import Clock
from bot.local_screen import STYLES, Screen
from rules.core import GameInfo, SeatSetup
from storage import Store

if TYPE_CHECKING:
    from bot.live import LiveMatch
    from bot.service import MatchService


@dataclass(frozen=True)
class LocalSitting:
    """What a game's own command is given: the person, a way to ask them, the screen,
    and the table's match service (its storage and clock)."""

    service: MatchService
    """The table's match service, for a command that changes the match in play."""
    screen: Screen
    user_id: int
    name: str
    ask: Callable[[str], Awaitable[str]]
    """One typed answer, stripped; a quit word leaves the table, as at any prompt."""
    ask_yes: Callable[[str, bool, str], Awaitable[bool]]
    """``(prompt, default, meaning)``: a yes or no, asked again when it is neither."""
    match: LiveMatch | None = None
    """The match being played when the command is typed at its move prompt (``None``
    at the "Which game?" prompt)."""

    @property
    def store(self) -> Store:
        """The table's storage."""
        return self.service.store

    @property
    def clock(self) -> Clock:
        """The table's clock."""
        return self.service.clock


@dataclass(frozen=True)
class LocalCommand:
    """A command a game adds to the local table (listed by the modules its presenter's
    ``local_commands`` names, each as ``LOCAL_COMMANDS``). It is typed as ``word``
    then the rest of the line, at the "Which game?" prompt and at the move prompt
    of the game's own matches (where it comes before the game's moves)."""

    word: str
    """The first word typed, in lower case."""
    usage: str
    """How it is typed, for help: ``pack [file]`` (one line per form)."""
    summary: str
    """What it does, in a few words."""
    run: Callable[[LocalSitting, str], Awaitable[SeatSetup]]
    """Does it with the rest of the line (stripped, as typed). A refusal is a
    :class:`~bot.errors.CroupierError` or a :class:`~rules.errors.RulesError` and
    changes nothing. What it returns, unless ``None``, is the person's seat setup
    for a new game of the command's game: the table starts one with it."""


def game_commands(info: GameInfo) -> tuple[LocalCommand, ...]:
    """The game's own commands at the local table (none for most games)."""
    # Imported here: the presenters bring discord.py, which the terminal needs only now.
    from bot.presenters import presenter_for

    found: list[LocalCommand] = []
    for module in presenter_for(info.name).local_commands:
        found += importlib.import_module(module).LOCAL_COMMANDS
    return tuple(found)


def commands_help(info: GameInfo, commands: Sequence[LocalCommand]) -> RenderableType:
    """A game's own commands: how each is typed (a line per form), then what it does."""
    lines: list[RenderableType] = [Text(f"{info.title} at this table:", style=STYLES["heading"])]
    for command in commands:
        lines += [Padding(Text(usage, style="bold"), (0, 0, 0, 2))
                  for usage in command.usage.split("\n")]
        lines.append(Padding(Text(command.summary, style=STYLES["hint"]), (0, 0, 0, 6)))
    return Group(*lines)


def first_word(line: str) -> tuple[str, str]:
    """``("deck", "show Mine")`` from ``"Deck  show Mine"``: the first word in lower
    case, then the rest as typed."""
    word, _, rest = line.strip().partition(" ")
    return word.lower(), rest.strip()
