"""The local table: play in the terminal against computer players, through the
same match service and SQLite file the Discord bot uses.

Everything about a game comes from its :class:`~rules.core.GameInfo`: its
players, its options (asked for from their declaration), what to type
(``notation_help``), how options group (``option_group``) and its view in
words (``text``). Nothing here names a game: a game's presenter may also give a
:mod:`rich` view (:meth:`~bot.presenters.base.GamePresenter.terminal`), and the
``picture`` command saves the picture its Discord presenter draws of the table.
A game may also bring commands of its own (:class:`LocalCommand`, named by its
presenter's ``local_commands``): typed at the "Which game?" prompt and at the move
prompt of its matches, and one of them may set up the person's seat for a new game.

Each unfinished local game keeps a local "channel" of its own (small numbers
from 0, which no Discord channel has), one per game: ``make run`` offers to
continue it, or lists them when several are saved, and a new game of the same
kind replaces it. Every choice is committed before the next prompt, so Ctrl-C
at any prompt quits at once with nothing lost.
"""

from __future__ import annotations

import asyncio
import codecs
import getpass
import importlib
import io
import os
import sys
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import count
from typing import Any, TypeVar

from rich.console import Console, Group, RenderableType
from rich.markdown import Markdown
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from bot.clock import Clock
from bot.errors import CroupierError, NoMatchHere
from bot.live import LiveMatch, Player, PrivateView
from bot.service import MatchService, Timing, tune_gc
from bot.stats import StatsService
from bot.table_picture import save_picture
from rules.core import Decision, Event, GameInfo, SeatSetup
from rules.errors import BadOptions, RulesError, shown
from rules.options import GameOptions, OptionSpec
from rules.registry import games, get_game
from rules.words import place_label, plural, verdict
from storage import Store
from storage.models import SeatRow

LOCAL_USER = 1
"""The person at the local table (Discord user ids are far larger)."""
DISCORD_HINT = ("To play in Discord instead, put DISCORD_TOKEN=… in .env "
                "(see README.md, 'Connect to Discord') and run `make run` again.")
COMMANDS = ("legal (your options{group}) · board · picture [file] (saves the table's picture "
            "as PNG) · rules · stats · resign · quit (your game is saved; `make run` continues "
            "it; Ctrl-C too)")
QUIT = ("quit", "exit", "q")
YES, NO = ("y", "yes"), ("n", "no")
LEGAL_EXPLAINED = 40
"""Up to this many options, `legal` explains each; beyond, it groups or lists them."""
RECAP = 8
"""Most lines of the computer's last moves repeated at the end of a game."""
MAX_LINE = 4096
"""Longest line read from the terminal; the rest of a longer line is dropped and
what is kept ends in "…", so that it is refused, never half-read."""
PLAIN_WIDTH = 100
"""Width of the plain text given to a ``write`` function."""
STYLES = {"event": "cyan", "private": "magenta", "warning": "bold yellow", "hint": "dim",
          "verdict": "bold green", "prompt": "bold", "heading": "bold"}

ReadLine = Callable[[str], Awaitable[str]]
Write = Callable[[str], None]


class Quit(Exception):
    """The person asked to leave at a prompt."""


# -- output --------------------------------------------------------------------------------
class Screen:
    """Where the local table shows things: a :mod:`rich` console (colour, tables and
    formatted rules on a terminal, plain text when the output is not one) or, for
    tests and callers with an output of their own, a function given each block as
    plain text."""

    def __init__(self, write: Write | None = None, console: Console | None = None) -> None:
        if console is None:
            console = (Console(highlight=False, markup=False, emoji=False) if write is None
                       else Console(file=io.StringIO(), width=PLAIN_WIDTH, color_system=None,
                                    force_terminal=False, highlight=False, markup=False,
                                    emoji=False))
        self.console = console
        self._write = write

    def show(self, renderable: RenderableType) -> None:
        """One block: text as it is (never wrapped or read as markup), or a table."""
        soft = isinstance(renderable, str | Text)
        if self._write is None:
            self.console.print(renderable, soft_wrap=soft)
            return
        with self.console.capture() as captured:
            self.console.print(renderable, soft_wrap=soft)
        text = captured.get()
        self._write("\n".join(line.rstrip() for line in text.rstrip("\n").split("\n")))

    def say(self, text: str, kind: str | None = None) -> None:
        """A line (or lines) of text, styled by ``kind`` (see :data:`STYLES`)."""
        self.show(Text(text, style=STYLES.get(kind or "", "")))

    def warn(self, text: str) -> None:
        """A refusal."""
        self.say(f"⚠ {text}", "warning")

    def prompt(self, text: str) -> None:
        """A prompt, left on its line for the answer."""
        self.console.print(Text(text, style=STYLES["prompt"]), end="", soft_wrap=True)
        self.console.file.flush()


# -- input ---------------------------------------------------------------------------------
class TerminalInput:
    """Lines typed at the terminal, read by the event loop itself rather than by a
    thread blocked in :func:`input`, so that Ctrl-C stops a prompt at once: the
    loop cancels the waiting task and nothing is left running.

    Bytes that are not UTF-8 are replaced; a line longer than :data:`MAX_LINE`
    characters is cut and ends in "…"; end of input raises :class:`EOFError`.
    """

    def __init__(self, screen: Screen, fd: int | None = None) -> None:
        self.screen = screen
        self.fd = sys.stdin.fileno() if fd is None else fd
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._partial: list[str] = []
        self._partial_size = 0
        self._cut = False
        self._lines: deque[str] = deque()
        self._eof = False

    async def __call__(self, prompt: str) -> str:
        self.screen.prompt(prompt)
        return await self.line()

    async def line(self) -> str:
        """The next line, without its line ending."""
        while not self._lines:
            if self._eof:
                self.screen.say("")  # the prompt's line was left open
                raise EOFError
            self.feed(await self._read())
        return self._lines.popleft()

    def feed(self, chunk: bytes) -> None:
        """Take in bytes read (``b""``: end of input)."""
        text = self._decoder.decode(chunk, final=not chunk)
        *complete, rest = text.split("\n")
        for piece in complete:
            self._keep(piece)
            self._lines.append(self._take())
        self._keep(rest)
        if not chunk:
            self._eof = True
            if self._partial_size or self._cut:
                self._lines.append(self._take())

    def _keep(self, piece: str) -> None:
        room = MAX_LINE - self._partial_size
        if len(piece) > room:
            piece, self._cut = piece[:room], True
        if piece:
            self._partial.append(piece)
            self._partial_size += len(piece)

    def _take(self) -> str:
        line = "".join(self._partial).removesuffix("\r") + ("…" if self._cut else "")
        self._partial, self._partial_size, self._cut = [], 0, False
        return line

    async def _read(self) -> bytes:
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[bytes] = loop.create_future()

        def readable() -> None:
            if not ready.done():
                try:
                    ready.set_result(os.read(self.fd, 65536))
                except BlockingIOError:
                    pass
                except OSError as error:
                    ready.set_exception(error)

        try:
            loop.add_reader(self.fd, readable)
        except (PermissionError, NotImplementedError, ValueError):
            # A regular file (never "ready" for epoll, and never blocking) or a
            # loop without readers: read it directly.
            return os.read(self.fd, 65536)
        try:
            return await ready
        finally:
            loop.remove_reader(self.fd)


# -- the match service's transport ---------------------------------------------------------
class TerminalTransport:
    """Shows the person their table, their private view, and nothing of others'.

    It also remembers what the others did since the person's last choice, so
    that the end of a game can repeat the computer's last moves.
    """

    def __init__(self, screen: Screen, seat_user: int = LOCAL_USER) -> None:
        self.screen = screen
        self.seat_user = seat_user
        self.hidden: set[int] = set()
        """Matches not shown: those restored at start-up that the person is not at."""
        self._shown: tuple[int, int] | None = None
        self._own: tuple[Event, ...] = ()
        self._own_next = False
        self._since_own: list[str] = []
        self._before_own: list[str] = []

    def own(self, events: Sequence[Event]) -> None:
        """These events came from the person's own choice (not the computer's)."""
        self._own = tuple(events)

    def own_next(self) -> None:
        """The next events shown come from the person (a resignation, say)."""
        self._own_next = True

    def recap(self) -> tuple[str, list[str]]:
        """The computer's last moves, narrated, with a heading: those since the
        person's last choice, or, when that choice ended the game, those before it."""
        if self._since_own:
            return "Since your last move:", self._since_own[-RECAP:]
        return "Before your last move:", self._before_own[-RECAP:]

    async def publish(self, match: LiveMatch, events: Sequence[Event]) -> int | None:
        if match.id in self.hidden:
            return None
        own_batch, self._own_next = self._own_next, False
        for event in events:
            line = event.render(match.names)
            if own_batch or any(event is mine for mine in self._own):
                if self._since_own:
                    self._before_own = self._since_own
                self._since_own = []
            else:
                self._since_own.append(line)
            self.screen.say(f"• {line}", "event")
        if match.state is not None and match.row.status == "active":
            shown_now = (match.id, match.state.step)
            if events or shown_now != self._shown:  # not the same view twice
                seat = match.seat_of(self.seat_user)
                self.screen.show(table_view(match, seat.seat if seat else None))
                self._shown = shown_now
        return None

    async def deliver_private(self, match: LiveMatch, seat: SeatRow, view: PrivateView) -> bool:
        if seat.user_id == self.seat_user and match.id not in self.hidden:
            for event in view.events:
                self.screen.say(f"  (only you) {event.render(view.names)}", "private")
        return True

    async def notify(self, match: LiveMatch, notice: Event, mentions: Sequence[int] = ()
                     ) -> None:
        if match.id not in self.hidden:
            self.screen.say(f"! {notice.render(match.names)}", "hint")


# -- a game's own commands -----------------------------------------------------------------
@dataclass(frozen=True)
class LocalSitting:
    """What a game's own command is given: the person, a way to ask them, the screen,
    and the table's storage and clock."""

    store: Store
    clock: Clock
    screen: Screen
    user_id: int
    name: str
    ask: Callable[[str], Awaitable[str]]
    """One typed answer, stripped; a quit word leaves the table, as at any prompt."""
    ask_yes: Callable[[str, bool, str], Awaitable[bool]]
    """``(prompt, default, meaning)``: a yes or no, asked again when it is neither."""


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


def _first_word(line: str) -> tuple[str, str]:
    """``("deck", "show Mine")`` from ``"Deck  show Mine"``: the first word in lower
    case, then the rest as typed."""
    word, _, rest = line.strip().partition(" ")
    return word.lower(), rest.strip()


# -- words ---------------------------------------------------------------------------------
def help_text(info: GameInfo, commands: Sequence[LocalCommand] = ()) -> str:
    """What the person may type in this game (with the game's own commands)."""
    group = "; legal and a group: that group's, explained" if info.option_group else ""
    typed = info.notation_help or "Type one of the options `legal` lists"
    own = (f" {info.title}'s own: " + ", ".join(c.word for c in commands)
           + " (help explains them)." if commands else "")
    return f"{typed}; or: {COMMANDS.format(group=group)}.{own}"


def text_view(match: LiveMatch, seat: int | None) -> str:
    """The game as text for one seat (or the table, for ``None``)."""
    assert match.state is not None
    view = match.state.observe(seat)
    if match.info.text is not None:
        return match.info.text(view, list(match.names))
    return str(view)


def table_view(match: LiveMatch, seat: int | None) -> RenderableType:
    """The game for one seat (or the table, for ``None``): its presenter's rich view
    when it has one, else its text. Built from the seat's observation only."""
    # Imported here: the presenters bring discord.py, which the terminal needs only now.
    from bot.presenters import presenter_for

    if match.state is not None:
        view = presenter_for(match.info.name).terminal(match.state.observe(seat),
                                                       list(match.names))
        if view is not None:
            return view
    return text_view(match, seat)


def legal_text(match: LiveMatch, seat: int, group: str | None = None) -> RenderableType:
    """The seat's options: each explained when there are few; grouped (a tile's
    placements, say) when the game groups them; else listed. With ``group``,
    only that group's options, explained."""
    assert match.state is not None
    decision = match.state.decision_for(seat)
    if decision is None:
        return "Nothing to choose right now."
    options = decision.options
    grouping = match.info.option_group
    if group is not None:
        if grouping is None:
            return f"{match.info.title} does not group its options; type legal alone."
        options = tuple(o for o in options if grouping(decision, o) == group)
        if not options:
            groups = sorted({g for o in decision.options
                             if (g := grouping(decision, o)) is not None}, key=_natural)
            return (f"No option is in group {shown(group)}; the groups are "
                    f"{', '.join(groups) or 'none'}.")
    describe = match.info.option_text
    if describe is not None and len(options) <= LEGAL_EXPLAINED:
        observation = match.state.observe(seat)
        table = Table(box=None, show_header=False, padding=(0, 2, 0, 0))
        table.add_column("option", no_wrap=True, style="bold")
        table.add_column("meaning")
        for option in options:
            meaning = describe(observation, decision, option, match.names)
            table.add_row(Text(option), Text("" if meaning == option else meaning))
        return titled(decision.prompt, table)
    if grouping is not None and group is None:
        grouped = _grouped(decision, options, grouping)
        if grouped is not None:
            return grouped
    return f"{decision.prompt} Legal ({len(options)}): {', '.join(options)}"


def titled(title: str, table: Table, kind: str = "heading") -> RenderableType:
    """A heading line, then the table indented under it."""
    return Group(Text(title, style=STYLES[kind]), Padding(table, (0, 0, 0, 2)))


def _natural(key: str) -> tuple[int, int | str]:
    """Number-like group names in numeric order, then the rest."""
    return (0, int(key)) if key.isascii() and key.isdigit() else (1, key)


def _grouped(decision: Decision, options: Sequence[str],
             grouping: Callable[[Decision, str], str | None]) -> str | None:
    """``17: C4, C4/90, D5`` — one line per group, each option without its group."""
    groups: dict[str, list[str]] = {}
    loose: list[str] = []
    for option in options:
        key = grouping(decision, option)
        if key is None:
            loose.append(option)
        else:
            groups.setdefault(key, []).append(option)
    if not groups:
        return None
    lines = [f"{decision.prompt} {plural(len(options), 'option')}, by group "
             f"(legal {next(iter(groups))} explains one group):"]
    for key, members in groups.items():
        lines.append(f"  {key}: " + ", ".join(_rest(key, o) for o in members))
    if loose:
        lines.append("  also: " + ", ".join(loose))
    lines.append(f"Type the whole option, e.g. {next(iter(groups.values()))[0]}.")
    return "\n".join(lines)


def _rest(key: str, option: str) -> str:
    """An option without its group's name and the mark after it (``17@C4`` → ``C4``)."""
    if option.startswith(key) and len(option) > len(key) + 1 and not option[len(key)].isalnum():
        return option[len(key) + 1:]
    return option


def options_help(info: GameInfo) -> RenderableType:
    """Every option of the game, from its declaration."""
    table = Table(box=None, show_header=False, padding=(0, 2, 0, 0))
    table.add_column("name", no_wrap=True, style="bold")
    table.add_column("what")
    for spec in info.options.specs():
        table.add_row(spec.name, f"{spec.description} ({spec.every_choice()}; "
                                 f"default {spec.label(spec.default)})")
    return titled(f"{info.title} options (type name=value):", table)


T = TypeVar("T")


def _numbered(answer: str, items: Sequence[T]) -> T | None:
    """The item a typed list number (from 1, ASCII digits) names, if any.

    >>> _numbered("2", ["a", "b"]), _numbered("٢", ["a", "b"]), _numbered("3", ["a", "b"])
    ('b', None, None)
    """
    if answer.isascii() and answer.isdigit() and len(answer) <= 3 \
            and 1 <= int(answer) <= len(items):
        return items[int(answer) - 1]
    return None


def options_example(options: type[GameOptions]) -> str:
    """Two options set otherwise than by default, as typed: ``deck=space objective=most``
    (options with a single choice are left out)."""
    parts = [f"{spec.name}={value}" for spec in options.specs()
             if (value := options_example_value(spec)) is not None]
    return " ".join(parts[:2])


def read_options(info: GameInfo, line: str) -> GameOptions:
    """Options typed as ``name=value`` words (``hand-cap=50 deck=space``), read by the
    game's declaration; :class:`BadOptions` names what is wrong."""
    given: dict[str, str] = {}
    for word in line.split():
        name, equals, value = word.partition("=")
        if not equals:
            spec = info.options.spec(name)
            if spec is None:
                example = options_example(info.options) or "name=value"
                raise BadOptions(f"{shown(word)} is not name=value (e.g. {example})")
            raise BadOptions(f"{shown(word)} has no value: write name=value, e.g. "
                             f"{spec.name}={options_example_value(spec) or spec.default}")
        spec = info.options.spec(name) if name else None
        key = spec.name if spec is not None else name
        if key in given:
            raise BadOptions(f"{shown(key)} is given twice")
        given[key] = value
    return info.options.parse(given)


def options_example_value(spec: OptionSpec) -> str | None:
    """A value of one option other than its default, as typed (``None`` if it has no
    other): the first other choice, or the last when the game decides by default."""
    if spec.kind == "choice":
        others = [c for c in spec.choices if c != spec.default]
        if not others:
            return None
        return str(others[-1] if spec.default is None else others[0])
    if spec.kind == "yes/no":
        return "no" if spec.default else "yes"
    return str(spec.minimum if spec.minimum != spec.default else spec.maximum)


def result_block(match: LiveMatch) -> RenderableType | None:
    """The verdict and the places, ties said as ties (``=2nd``)."""
    assert match.state is not None
    outcome = match.state.outcome()
    if outcome is None:
        return None
    places = outcome.places
    table = Table(box=None, show_header=False, padding=(0, 2, 0, 0))
    table.add_column("place", no_wrap=True)
    table.add_column("player")
    if outcome.scores is not None:
        table.add_column("score", justify="right")
    for seat in sorted(range(len(places)), key=lambda s: places[s]):
        row = match.seats[seat]
        who = row.name + (" (you)" if row.user_id == LOCAL_USER and not row.is_bot else "")
        cells = [place_label(places[seat], places), who]
        if outcome.scores is not None:
            cells.append(str(outcome.scores[seat]))
        table.add_row(*(Text(cell) for cell in cells))
    said = verdict(match.names, places, match.computer_seats)
    return titled(f"Result: {said}; {outcome.reason}.", table, "verdict")


async def stats_text(store: Store, user_id: int) -> RenderableType:
    """The person's record at the local table, game by game."""
    reports = await StatsService(store).reports(None, user_id)
    if not reports:
        return "No finished games at this table yet."
    known = games()
    table = Table(box=None, padding=(0, 2, 0, 0))
    for column in ("game", "played", "won", "lost", "drawn", "win rate", "streak", "best"):
        table.add_column(column, justify="left" if column == "game" else "right")
    for report in reports:
        r = report.record
        title = known[r.game].title if r.game in known else r.game
        table.add_row(title, str(r.played), str(r.won), str(r.lost), str(r.drawn),
                      f"{r.win_rate:.0%}", str(r.streak), str(r.best_streak))
    return titled("Your record at this table (games against the computer are not rated):",
                  table)


def _summary(match: LiveMatch) -> str:
    """``<title>, 3 players, step 14 (match #5)``."""
    step = match.state.step if match.state is not None else 0
    return (f"{match.info.title}, {plural(len(match.seats), 'player')}, step {step} "
            f"(match #{match.id})")


# -- the table -----------------------------------------------------------------------------
async def play_local(database: str, *, game: str | None = None,
                     options: Mapping[str, Any] | None = None, seats: int | None = None,
                     read_line: ReadLine | None = None, write: Write | None = None,
                     name: str | None = None, console: Console | None = None
                     ) -> LiveMatch | None:
    """Play one game in the terminal; returns the match (``None`` if the person left
    before one began). With ``game`` ``None`` the person is asked which game,
    how many players and which options; with a game, its unfinished local game is
    offered first. Output goes to ``write`` as plain text if given, else to the
    ``console`` (by default the terminal); input comes from ``read_line`` if given,
    else from the terminal."""
    screen = Screen(write, console)
    read = read_line or TerminalInput(screen)
    store = await Store.open(database)
    transport = TerminalTransport(screen)
    service = MatchService(store, transport, timing=Timing(turn_seconds=7 * 24 * 3600))
    player = Player(LOCAL_USER, name or _user_name())
    table = _Table(service, transport, player, read, screen)
    try:
        screen.say(f"Croupier — local table (saved in {database}).")
        screen.say(DISCORD_HINT, "hint")
        transport.hidden = {m.id for m in await service.restore()}
        tune_gc()
        await table.close_lobbies()
        match = table.match = await table.resume_or_open(game, options, seats)
        table.commands = game_commands(match.info)
        screen.say(help_text(match.info, table.commands), "hint")
        await service.settle()
        await table.play()
        return match
    except Quit:
        screen.say("Bye.")
        return table.match
    except EOFError:
        screen.say("Input closed; " + ("your game is saved." if table.match else "bye."))
        return table.match
    except asyncio.CancelledError:  # Ctrl-C
        if table.match is not None and table.match.playing:
            screen.say("\nBye — your game is saved; `make run` continues it.")
        else:
            screen.say("\nBye — your unfinished games are kept." if table.saved() else "\nBye.")
        # The drivers are idle at a prompt; while the computer plays, Ctrl-C lands in
        # settle(), whose gather cancels them: a move not yet committed is simply
        # made again on resuming (it depends only on the match's seed and step).
        raise
    finally:
        await service.settle()
        await store.close()


class _Table:
    """One sitting at the local table: choosing a game, then playing it."""

    def __init__(self, service: MatchService, transport: TerminalTransport, player: Player,
                 read: ReadLine, screen: Screen) -> None:
        self.service = service
        self.transport = transport
        self.player = player
        self.read = read
        self.screen = screen
        self.match: LiveMatch | None = None
        self.commands: tuple[LocalCommand, ...] = ()
        """The game's own commands, while playing it."""

    async def ask(self, prompt: str) -> str:
        """One answer, stripped; the quit words leave."""
        answer = (await self.read(prompt)).strip()
        if answer.lower() in QUIT:
            raise Quit
        return answer

    async def ask_yes(self, prompt: str, default: bool, meaning: str) -> bool:
        """A yes-or-no answer; ``meaning`` says what each does when it is neither."""
        while True:
            answer = (await self.ask(prompt)).lower()
            if not answer:
                return default
            if answer in YES or answer in NO:
                return answer in YES
            self.screen.warn(f"{shown(answer)} is neither yes nor no: {meaning}")

    # -- choosing a game -------------------------------------------------------------------
    def saved(self) -> list[LiveMatch]:
        """The person's unfinished local games, the latest first."""
        found = [m for m in self.service.live_matches()
                 if m.row.guild_id is None and m.playing and m.seat_of(LOCAL_USER) is not None]
        return sorted(found, key=lambda m: -m.id)

    async def close_lobbies(self) -> None:
        """A lobby left over at the local table (never started) is closed."""
        for match in self.service.live_matches():
            if (match.row.guild_id is None and match.row.status == "lobby"
                    and match.row.host_id == LOCAL_USER):
                await self.service.cancel(self.player, match.row.channel_id)
        await self.service.settle()

    async def resume_or_open(self, game: str | None, options: Mapping[str, Any] | None,
                             seats: int | None) -> LiveMatch:
        info = get_game(game) if game is not None else None
        saved = [m for m in self.saved() if info is None or m.info.name == info.name]
        resumed = await self.offer(saved)
        if resumed is not None:
            self.transport.hidden.discard(resumed.id)
            seat = resumed.seat_of(LOCAL_USER)
            self.screen.show(table_view(resumed, seat.seat if seat else None))
            return resumed
        interactive = info is None
        setup: SeatSetup = None
        if info is None:
            info, setup = await self.ask_game()
        return await self.open(info, options, seats, interactive, setup)

    async def offer(self, saved: list[LiveMatch]) -> LiveMatch | None:
        """Offer the unfinished games: one as a question, several as a list."""
        if not saved:
            return None
        if len(saved) == 1:
            match = saved[0]
            if await self.ask_yes(f"Continue your unfinished {_summary(match)}? [Y/n] ", True,
                                  f"y continues the game; n starts a new one (a new "
                                  f"{match.info.title} game replaces this one)."):
                return match
            return None
        listing = Table(box=None, show_header=False, padding=(0, 2, 0, 0))
        for number, match in enumerate(saved, start=1):
            listing.add_row(str(number), Text(_summary(match)))
        self.screen.show(titled("Your unfinished games:", listing))
        while True:
            answer = (await self.ask(f"Continue which? 1–{len(saved)}, or n for a new game "
                                     "[1] ")).lower()
            if answer in NO or answer == "new":
                return None
            if not answer:
                return saved[0]
            if (picked := _numbered(answer, saved)) is not None:
                return picked
            self.screen.warn(f"{shown(answer)} is not one of 1–{len(saved)} or n.")

    async def ask_game(self) -> tuple[GameInfo, SeatSetup]:
        """The game to play, and the person's seat setup when one of the games' own
        commands made one (a deck of their own, say). Those commands are done here
        too, between the questions."""
        known = list(games().values())
        listing = " · ".join(f"{n}. {info.title} ({info.seat_range()})"
                             for n, info in enumerate(known, start=1))
        own = [(info, commands) for info in known if (commands := game_commands(info))]
        by_word = {c.word: (info, c) for info, commands in own for c in commands}
        if own:
            self.screen.say("Also here: " + "; ".join(
                f"{info.title}'s {', '.join(c.word for c in commands)}"
                for info, commands in own) + " (help explains them).", "hint")
        while True:
            answer = await self.ask(f"Which game? {listing} [{known[0].name}] ")
            if not answer:
                return known[0], None
            if (picked := _numbered(answer, known)) is not None:
                return picked, None
            by_title = {info.title.lower(): info for info in known}
            if answer.lower() in by_title:
                return by_title[answer.lower()], None
            word, rest = _first_word(answer)
            if word in ("help", "?") and own:
                for info, commands in own:
                    self.screen.show(commands_help(info, commands))
                continue
            if word in by_word:
                info, command = by_word[word]
                setup = await self.run_command(command, rest)
                if setup is not None:
                    return info, setup
                continue
            try:
                return get_game(answer), None
            except BadOptions as refusal:
                self.screen.warn(f"{refusal} (or 1–{len(known)}).")

    async def run_command(self, command: LocalCommand, rest: str) -> SeatSetup:
        """One of a game's own commands; its refusal is shown, and changes nothing."""
        sitting = LocalSitting(self.service.store, self.service.clock, self.screen,
                               self.player.user_id, self.player.name, self.ask, self.ask_yes)
        try:
            return await command.run(sitting, rest)
        except (CroupierError, RulesError) as refusal:
            self.screen.warn(str(refusal))
            return None

    async def ask_seats(self, info: GameInfo) -> int:
        if info.min_seats == info.max_seats:
            return info.min_seats
        players = OptionSpec("players", "number", info.default_seats, "",
                             minimum=info.min_seats, maximum=info.max_seats)
        while True:
            answer = await self.ask(f"Players, you included ({info.min_seats}–"
                                    f"{info.max_seats}) [{info.default_seats}] ")
            if not answer:
                return info.default_seats
            try:
                return players.read(answer)
            except BadOptions as refusal:
                self.screen.warn(str(refusal))

    async def ask_options(self, info: GameInfo) -> GameOptions:
        if not info.options.specs():
            return info.options.parse({})
        example = options_example(info.options)
        prompt = ("Options (Enter for the defaults"
                  + (f"; e.g. {example}" if example else "") + "; ? lists them) ")
        while True:
            answer = await self.ask(prompt)
            if answer in ("?", "help"):
                self.screen.show(options_help(info))
                continue
            try:
                return read_options(info, answer)
            except BadOptions as refusal:
                self.screen.warn(f"{refusal} (? lists the options)")

    async def open(self, info: GameInfo, options: Mapping[str, Any] | GameOptions | None,
                   seats: int | None, interactive: bool, setup: SeatSetup = None
                   ) -> LiveMatch:
        """Open a new game against the computer, with the person's seat ``setup``,
        asking again (players, then options) whenever the game refuses them."""
        if interactive:
            seats = await self.ask_seats(info)
            options = await self.ask_options(info)
        while True:
            try:
                return await self._open(info, options, seats, setup)
            except BadOptions as refusal:
                self.screen.warn(f"{info.title}: {refusal}")
            seats = await self.ask_seats(info)
            options = await self.ask_options(info)

    async def _open(self, info: GameInfo, options: Mapping[str, Any] | GameOptions | None,
                    seats: int | None, setup: SeatSetup = None) -> LiveMatch:
        replaced = [m for m in self.saved() if m.info.name == info.name]
        given = options.stored() if isinstance(options, GameOptions) else options
        match = await self.service.open_lobby(self.player, guild_id=None,
                                              channel_id=self.free_channel(), game=info.name,
                                              options=given, seats=seats, vs_bot=True,
                                              setup=setup)
        for old in replaced:  # one unfinished local game of each kind
            await self.service.cancel(self.player, old.row.channel_id)
            self.screen.say(f"Your unfinished {info.title} game (match #{old.id}) is "
                            "cancelled: the new one replaces it.", "hint")
        return match

    def free_channel(self) -> int:
        """The lowest local channel with no game in it."""
        for channel in count():
            try:
                self.service.match_in(channel)
            except NoMatchHere:
                return channel
        raise AssertionError("unreachable")

    # -- playing ---------------------------------------------------------------------------
    async def play(self) -> None:
        match = self.match
        assert match is not None
        seat = match.seat_of(self.player.user_id)
        assert seat is not None
        screen = self.screen
        while not match.finished and match.row.status == "active":
            await self.service.settle()
            if match.finished or match.row.status != "active":
                break
            assert match.state is not None
            decision = match.state.decision_for(seat.seat)
            if decision is None:
                await asyncio.sleep(0.01)
                continue
            try:
                line = (await self.read(f"{decision.prompt} > ")).strip()
            except EOFError:
                screen.say("Input closed; your game is saved.")
                return
            command, _, rest = line.lower().partition(" ")
            if line.lower() in QUIT:
                screen.say("Your game is saved; `make run` continues it.")
                return
            own = {c.word: c for c in self.commands}
            if line.lower() in ("help", "?", ""):
                screen.say(help_text(match.info, self.commands), "hint")
                if self.commands and line:
                    screen.show(commands_help(match.info, self.commands))
            elif command == "legal":
                screen.show(legal_text(match, seat.seat, rest.strip() or None))
            elif line.lower() == "board":
                screen.show(table_view(match, seat.seat))
            elif command == "picture":
                self.save_picture(line.partition(" ")[2])
            elif line.lower() == "rules":
                screen.show(Markdown(match.info.rules_text))
            elif line.lower() == "stats":
                screen.show(await stats_text(self.service.store, self.player.user_id))
            elif command in own:
                if await self.run_command(own[command], _first_word(line)[1]) is not None:
                    screen.warn(f"That starts a new {match.info.title} game: finish or resign "
                                "this one first, then type it at the start (`make run`).")
            elif line.lower() == "resign":
                if await self.ask_yes("Resign this game? [y/N] ", False,
                                      "y resigns, n goes on playing."):
                    self.transport.own_next()
                    await self.service.forfeit(self.player, match.row.channel_id)
            else:
                try:
                    ack = await self.service.submit(self.player.user_id, match.id, line)
                except (CroupierError, RulesError) as error:
                    screen.warn(str(error))
                else:
                    self.transport.own(ack.events)
        await self.service.settle()
        await self.finish(seat.seat)

    def save_picture(self, typed: str) -> None:
        """The ``picture [file]`` command: the public table's picture saved as PNG."""
        assert self.match is not None
        saved, said = save_picture(self.match, typed)
        if saved:
            self.screen.say(said, "hint")
        else:
            self.screen.warn(said)

    async def finish(self, seat: int) -> None:
        """The end of a game: the final position as the person's seat sees it, the
        computer's last moves, the places and the person's record."""
        match = self.match
        assert match is not None
        if match.state is None or match.state.outcome() is None:
            return
        self.screen.say("── The final position ──", "heading")
        self.screen.show(table_view(match, seat))
        heading, recap = self.transport.recap()
        if recap:
            self.screen.say(heading, "heading")
            for line in recap:
                self.screen.say(f"  {line}", "event")
        result = result_block(match)
        if result is not None:
            self.screen.show(result)
        self.screen.show(await stats_text(self.service.store, self.player.user_id))


def _user_name() -> str:
    try:
        return getpass.getuser().capitalize() or "You"
    except Exception:
        return "You"
