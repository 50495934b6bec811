"""What a game's own command at the local table is: the person's sitting it is given
(:class:`LocalSitting`) and how it is typed (:class:`LocalCommand`). A game's outside
builds its commands from these; the terminal table lists and runs them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.clock import Clock
from bot.terminal_parts.screen import Screen
from rules.core import SeatSetup
from rules.phrases import Words
from storage import Store

if TYPE_CHECKING:
    from bot.matches.live import LiveMatch
    from bot.matches.service import MatchService


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
    usage: Words
    """How it is typed, for help: ``pack [file]`` (one line per form; a phrase when it
    has words to translate)."""
    summary: Words
    """What it does, in a few words (a phrase, said in the locale spoken)."""
    run: Callable[[LocalSitting, str], Awaitable[SeatSetup]]
    """Does it with the rest of the line (stripped, as typed). A refusal is a
    :class:`~bot.errors.CroupierError` or a :class:`~rules.errors.RulesError` and
    changes nothing. What it returns, unless ``None``, is the person's seat setup
    for a new game of the command's game: the table starts one with it."""
