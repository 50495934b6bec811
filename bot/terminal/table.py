"""The local table: play in the terminal against computer players, through the
same match service and SQLite file the Discord bot uses.

Everything about a game comes from its :class:`~rules.core.GameInfo`: its
players, its options (asked for from their declaration), what to type
(``notation_help``), how options group (``option_group``) and its view in
words (``text``). Nothing here names a game: a game's presenter may also give a
:mod:`rich` view (:meth:`~bot.games.presenter.GamePresenter.terminal`), and the
``picture`` command saves the picture its Discord presenter draws of the table
(``picture hand``: of the person's own hand, in games that draw one).
A game may also bring commands of its own (:class:`LocalCommand`, named by its
presenter's ``local_commands``): typed at the "Which game?" prompt and at the move
prompt of its matches, and one of them may set up the person's seat for a new game.

Each unfinished local game keeps a local "channel" of its own (small numbers
from 0, which no Discord channel has), one per game: ``make run`` offers to
continue it, or lists them when several are saved, and a new game of the same
kind replaces it. Every choice is committed before the next prompt, so Ctrl-C
at any prompt quits at once with nothing lost.

This module is the sitting itself (choosing a game, then playing it); its parts
live beside it: :mod:`bot.terminal_parts.screen` (output and input), :mod:`bot.terminal.transport`
(what the match service shows), :mod:`bot.terminal.words` (what the table says),
:mod:`bot.terminal.help` (the help, and how to answer a decision of several picks),
:mod:`bot.terminal.options` (a game's options typed), :mod:`bot.terminal.commands` (a
game's own commands) and :mod:`bot.terminal_parts.files` (where the files it writes go). The
names callers use are re-exported here.
"""


from __future__ import annotations

import asyncio
import getpass
from collections.abc import Mapping
from itertools import count
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text

from bot.errors import CroupierError, NoMatchHere, said
from bot.i18n import say, speaking, tr
from bot.matches.levels import checked_level, level_label, level_word
from bot.matches.live import LiveMatch, Player
from bot.matches.service import MatchService, Timing, tune_gc
from bot.terminal.commands import commands_help, first_word, game_commands
from bot.terminal.help import COMMANDS, help_text, prompt_text, table_help
from bot.terminal.options import options_example, options_example_value, options_help, read_options
from bot.terminal.picture import save_hand_picture, save_picture
from bot.terminal.transport import TerminalTransport
from bot.terminal.typed import is_word
from bot.terminal.words import (
    LOCAL_USER,
    legal_text,
    numbered,
    result_block,
    rules_words,
    stats_text,
    summary,
    table_view,
)
from bot.terminal_parts.files import pictures_folder
from bot.terminal_parts.screen import (
    MAX_LINE,
    STYLES,
    ReadLine,
    Screen,
    TerminalInput,
    Write,
    titled,
)
from bot.terminal_parts.sitting import LocalCommand, LocalSitting
from rules.core import DEFAULT_LEVEL, LEVELS, NOTHING, GameInfo, SeatSetup
from rules.errors import BadOptions, RulesError, shown
from rules.options import GameOptions, OptionSpec
from rules.registry import games, get_game
from storage import Store

__all__ = ["COMMANDS", "LOCAL_USER", "MAX_LINE", "STYLES", "LocalCommand", "LocalSitting",
           "Quit", "ReadLine", "Screen", "TerminalInput", "TerminalTransport", "Write",
           "commands_help", "game_commands", "help_text", "legal_text", "options_example",
           "options_example_value", "options_help", "play_local", "read_options",
           "result_block", "stats_text", "table_view", "titled"]

QUIT = ("quit", "exit", "q")
YES, NO = ("y", "yes"), ("n", "no")
SAME, NEW = ("s", "same"), ("n", "new")
HELP = ("help", "?")
HAND = ("hand",)
"""``picture hand``: the person's own hand, not the table."""


class Quit(Exception):
    """The person asked to leave at a prompt."""



# -- the table -----------------------------------------------------------------------------
async def play_local(database: str, *, game: str | None = None,
                     options: Mapping[str, Any] | None = None, seats: int | None = None,
                     level: str | None = DEFAULT_LEVEL,
                     read_line: ReadLine | None = None, write: Write | None = None,
                     name: str | None = None, console: Console | None = None,
                     locale: str | None = None) -> LiveMatch | None:
    """Play in the terminal, a game and then, as long as the person asks for another,
    more; returns the last match (``None`` if the person left before one began).
    With ``game`` ``None`` the person is asked which game, how many players and
    which options; with a game, its unfinished local game is offered first (only
    one with the ``options``, ``seats`` and ``level`` asked for, when they are
    given). The computer players of a new game play at ``level``, or at the level
    the person picks when asked (``None``: asked for each new game). Output
    goes to ``write`` as plain text if given, else to the ``console`` (by default
    the terminal); input comes from ``read_line`` if given, else from the terminal.
    Pictures are saved beside the database (:func:`pictures_folder`). Everything is said
    in ``locale`` (any code :func:`bot.i18n.locale_of` reads; ``None``: English)."""
    with speaking(locale):
        return await _play_local(database, game=game, options=options, seats=seats,
                                 level=level, read_line=read_line, write=write, name=name,
                                 console=console)


async def _play_local(database: str, *, game: str | None,
                      options: Mapping[str, Any] | None, seats: int | None,
                      level: str | None, read_line: ReadLine | None, write: Write | None,
                      name: str | None, console: Console | None) -> LiveMatch | None:
    screen = Screen(write, console)
    read = read_line or TerminalInput(screen)
    store = await Store.open(database)
    transport = TerminalTransport(screen)
    service = MatchService(store, transport, timing=Timing(turn_seconds=7 * 24 * 3600))
    player = Player(LOCAL_USER, name or _user_name())
    table = _Table(service, transport, player, read, screen, pictures_folder(database), level)
    try:
        screen.say(tr("terminal.table.opening", database=database))
        screen.say(tr("terminal.table.discord_hint"), "hint")
        transport.hidden = {m.id for m in await service.restore()}
        tune_gc()
        await table.close_lobbies()
        match = table.match = await table.resume_or_open(game, options, seats)
        while True:
            table.commands = game_commands(match.info)
            screen.say(help_text(match.info, table.commands), "hint")
            await service.settle()
            if not await table.play():
                return match
            match = table.match = await table.again()
    except Quit:
        screen.say(tr("terminal.table.bye"))
        return table.match
    except EOFError:
        screen.say(tr("terminal.table.closed_saved") if table.match is not None
                   and table.match.playing else tr("terminal.table.closed_bye"))
        return table.match
    except asyncio.CancelledError:  # Ctrl-C
        if table.match is not None and table.match.playing:
            screen.say("\n" + tr("terminal.table.bye_saved"))
        else:
            screen.say("\n" + (tr("terminal.table.bye_kept") if table.saved()
                               else tr("terminal.table.bye")))
        # The drivers are idle at a prompt; while the computer plays, Ctrl-C lands in
        # settle(), whose gather cancels them: a move not yet committed is simply
        # made again on resuming (it depends only on the match's seed and step).
        raise
    finally:
        await service.settle()
        service.thinker.close()
        await store.close()


class _Table:
    """One sitting at the local table: choosing a game, then playing it."""

    def __init__(self, service: MatchService, transport: TerminalTransport, player: Player,
                 read: ReadLine, screen: Screen, pictures: Path, level: str | None) -> None:
        self.service = service
        self.level = level
        """The computer players' level in new games (``None``: asked for each)."""
        self.pictures = pictures
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
        if is_word(answer, QUIT, tr("terminal.word.quit")):
            raise Quit
        return answer

    async def ask_yes(self, prompt: str, default: bool, meaning: str) -> bool:
        """A yes-or-no answer; ``meaning`` says what each does when it is neither."""
        while True:
            answer = (await self.ask(prompt)).lower()
            if not answer:
                return default
            if is_word(answer, YES, tr("terminal.word.yes")):
                return True
            if is_word(answer, NO, tr("terminal.word.no")):
                return False
            self.screen.warn(tr("terminal.ask.not_yes_no", answer=shown(answer),
                                meaning=meaning))

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
        """A saved game the person continues, or a new one. With a game named, only
        its saved game is offered, and only when it has the options and players
        asked for; one with others is replaced by the new game, once confirmed."""
        info = get_game(game) if game is not None else None
        saved = [m for m in self.saved() if info is None or m.info.name == info.name]
        other = [m for m in saved if info is not None and not _as_asked(m, info, options,
                                                                         seats, self.level)]
        resumed = await self.offer([m for m in saved if m not in other])
        if resumed is None and other and not await self.ask_yes(
                tr("terminal.resume.other", game=summary(other[0])), True,
                tr("terminal.resume.other_meaning")):
            resumed = other[0]
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
            if await self.ask_yes(tr("terminal.resume.one", game=summary(match)), True,
                                  tr("terminal.resume.one_meaning", title=match.info.title)):
                return match
            return None
        listing = Table(box=None, show_header=False, padding=(0, 2, 0, 0))
        for number, match in enumerate(saved, start=1):
            listing.add_row(str(number), Text(summary(match)))
        self.screen.show(titled(tr("terminal.resume.list"), listing))
        while True:
            answer = (await self.ask(tr("terminal.resume.which", last=len(saved)))).lower()
            if is_word(answer, (*NO, "new"), tr("terminal.word.new")):
                return None
            if not answer:
                return saved[0]
            if (picked := numbered(answer, saved)) is not None:
                return picked
            self.screen.warn(tr("terminal.resume.not_one", answer=shown(answer),
                                last=len(saved)))

    async def ask_game(self) -> tuple[GameInfo, SeatSetup]:
        """The game to play, and the person's seat setup when one of the games' own
        commands made one (a deck of their own, say). Those commands are done here
        too, between the questions."""
        known = list(games().values())
        listing = " · ".join(tr("terminal.choose.listed", number=n, game=info.title,
                                players=say(info.seat_words()))
                             for n, info in enumerate(known, start=1))
        own = [(info, commands) for info in known if (commands := game_commands(info))]
        by_word = {c.word: (info, c) for info, commands in own for c in commands}
        if own:
            self.screen.say(tr("terminal.choose.also", commands="; ".join(
                tr("terminal.choose.own", game=info.title,
                   words=", ".join(c.word for c in commands))
                for info, commands in own)), "hint")
        while True:
            answer = await self.ask(tr("terminal.choose.which", games=listing,
                                       first=known[0].name))
            if not answer:
                return known[0], None
            if (picked := numbered(answer, known)) is not None:
                return picked, None
            by_title = {info.title.lower(): info for info in known}
            if answer.lower() in by_title:
                return by_title[answer.lower()], None
            word, rest = first_word(answer)
            if is_word(word, HELP, tr("terminal.word.help")):
                self.screen.show(table_help(known, own))
                continue
            if is_word(answer, ("stats",), tr("terminal.word.stats")):
                self.screen.show(await stats_text(self.service.store, self.player.user_id))
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
                self.screen.warn(tr("terminal.choose.refused", refusal=said(refusal, None),
                                    last=len(known)))

    async def run_command(self, command: LocalCommand, rest: str) -> SeatSetup:
        """One of a game's own commands; its refusal is shown, and changes nothing."""
        sitting = LocalSitting(self.service, self.screen, self.player.user_id,
                               self.player.name, self.ask, self.ask_yes, self.match)
        try:
            return await command.run(sitting, rest)
        except (CroupierError, RulesError) as refusal:
            self.screen.warn(said(refusal, None))
            return None

    async def ask_seats(self, info: GameInfo) -> int:
        if info.min_seats == info.max_seats:
            return info.min_seats
        players = OptionSpec(tr("terminal.seats.name"), "number", info.default_seats, "",
                             minimum=info.min_seats, maximum=info.max_seats)
        least, most, usual = info.min_seats, info.max_seats, info.default_seats
        while True:
            answer = await self.ask(tr("terminal.seats.ask", least=least, most=most,
                                       usual=usual))
            if not answer:
                return info.default_seats
            if is_word(answer, HELP, tr("terminal.word.help")):
                self.screen.say(tr("terminal.seats.help", least=least, most=most,
                                   usual=usual), "hint")
                continue
            try:
                return players.read(answer)
            except BadOptions as refusal:
                self.screen.warn(said(refusal, None))

    async def ask_options(self, info: GameInfo) -> GameOptions:
        if not info.options.specs():
            return info.options.parse({})
        example = options_example(info.options)
        prompt = (tr("terminal.options.ask_example", example=example) if example
                  else tr("terminal.options.ask"))
        while True:
            answer = await self.ask(prompt)
            if is_word(answer, HELP, tr("terminal.word.help")):
                self.screen.show(options_help(info))
                continue
            try:
                return read_options(info, answer)
            except BadOptions as refusal:
                self.screen.warn(tr("terminal.options.refused", refusal=said(refusal, None)))

    async def ask_level(self, info: GameInfo) -> str:
        """The computer players' level, asked when the game has more than one."""
        offered = [level for level in LEVELS if level == DEFAULT_LEVEL or level in info.levels]
        if len(offered) == 1:
            return offered[0]
        names = {level: level_word(level) for level in offered}
        listing = " · ".join(f"{n}. {names[level]}" for n, level in enumerate(offered, start=1))
        while True:
            answer = (await self.ask(tr("terminal.level.ask", levels=listing,
                                        usual=names[DEFAULT_LEVEL]))).lower()
            if not answer:
                return DEFAULT_LEVEL
            if is_word(answer, HELP, tr("terminal.word.help")):
                self.screen.say(tr("terminal.level.help", levels="; ".join(
                    level_label(level) for level in offered), usual=names[DEFAULT_LEVEL]),
                    "hint")
                continue
            picked = numbered(answer, offered) or next(
                (level for level in offered if answer in (level, names[level].lower())), None)
            if picked is not None:
                return picked
            self.screen.warn(tr("terminal.level.not_one", answer=shown(answer),
                                levels=", ".join(names.values()), last=len(offered)))

    async def open(self, info: GameInfo, options: Mapping[str, Any] | GameOptions | None,
                   seats: int | None, interactive: bool, setup: SeatSetup = None
                   ) -> LiveMatch:
        """Open a new game against the computer, with the person's seat ``setup``,
        asking again (players, then options) whenever the game refuses them; the
        computer's level is asked once, unless the sitting has one."""
        if interactive:
            seats = await self.ask_seats(info)
            options = await self.ask_options(info)
        level = None
        if self.level is not None:
            try:
                level = checked_level(info, self.level)
            except BadOptions as refusal:
                self.screen.warn(tr("terminal.level.refused", refusal=said(refusal, None)))
        level = level or await self.ask_level(info)
        while True:
            try:
                return await self._open(info, options, seats, setup, level)
            except BadOptions as refusal:
                self.screen.warn(tr("terminal.open.refused", game=info.title,
                                    refusal=said(refusal, None)))
            seats = await self.ask_seats(info)
            options = await self.ask_options(info)

    async def _open(self, info: GameInfo, options: Mapping[str, Any] | GameOptions | None,
                    seats: int | None, setup: SeatSetup = None,
                    level: str = DEFAULT_LEVEL) -> LiveMatch:
        replaced = [m for m in self.saved() if m.info.name == info.name]
        given = options.stored() if isinstance(options, GameOptions) else options
        match = await self.service.open_lobby(self.player, guild_id=None,
                                              channel_id=self.free_channel(), game=info.name,
                                              options=given, seats=seats, vs_bot=True,
                                              setup=setup, computer_level=level)
        for old in replaced:  # one unfinished local game of each kind
            await self.service.cancel(self.player, old.row.channel_id)
            self.screen.say(tr("terminal.open.replaced", game=info.title, match_id=old.id),
                            "hint")
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
    async def play(self) -> bool:
        """Play the match until it ends (``True``, once its end is shown) or the
        person leaves it, saved (``False``)."""
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
                line = (await self.read(prompt_text(decision, match.names))).strip()
            except EOFError:
                screen.say(tr("terminal.table.closed_saved"))
                return False
            command, _, rest = line.lower().partition(" ")
            if is_word(line, QUIT, tr("terminal.word.quit")):
                screen.say(tr("terminal.table.saved"))
                return False
            own = {c.word: c for c in self.commands}
            if not line and decision.takes_nothing:
                line = NOTHING  # Enter picks none, as the prompt says
            if not line or is_word(line, HELP, tr("terminal.word.help")):
                # The game's own commands are explained below, not merely named.
                screen.say(help_text(match.info, (), decision), "hint")
                if self.commands:
                    screen.show(commands_help(match.info, self.commands))
            elif is_word(command, ("legal",), tr("terminal.word.legal")):
                screen.show(legal_text(match, seat.seat, rest.strip() or None))
            elif is_word(line, ("board",), tr("terminal.word.board")):
                screen.show(table_view(match, seat.seat))
            elif is_word(command, ("picture",), tr("terminal.word.picture")):
                self.save_picture(line.partition(" ")[2].strip(), seat.seat)
            elif is_word(line, ("rules",), tr("terminal.word.rules")):
                screen.show(Markdown(rules_words(match.info.rules_for(match.row.options,
                                                                      len(match.seats)))))
            elif is_word(line, ("stats",), tr("terminal.word.stats")):
                screen.show(await stats_text(self.service.store, self.player.user_id))
            elif command in own:
                if await self.run_command(own[command], first_word(line)[1]) is not None:
                    screen.warn(tr("terminal.table.starts_new", game=match.info.title))
            elif is_word(line, ("resign",), tr("terminal.word.resign")):
                if await self.ask_yes(tr("terminal.table.resign"), False,
                                      tr("terminal.table.resign_meaning")):
                    await self.service.forfeit(self.player, match.row.channel_id)
            else:
                try:
                    await self.service.submit(self.player.user_id, match.id, line)
                except (CroupierError, RulesError) as error:
                    screen.warn(said(error, None))
        await self.service.settle()
        await self.finish(seat.seat)
        return True

    def save_picture(self, typed: str, seat: int) -> None:
        """``picture [file]``: the public table's picture saved as PNG; ``picture hand
        [file]``: the person's own hand (``seat``'s, never another's). With no file,
        in the pictures folder."""
        assert self.match is not None
        word, rest = first_word(typed)
        if is_word(word, HAND, tr("terminal.word.hand")):
            saved, said = save_hand_picture(self.match, seat, rest, self.pictures)
        else:
            saved, said = save_picture(self.match, typed, self.pictures)
        if saved:
            self.screen.say(said, "hint")
        else:
            self.screen.warn(said)

    async def finish(self, seat: int) -> None:
        """The end of a game: the final position as the person's seat sees it, then
        the result, said once (the verdict, why, and the places), and the person's
        record. What the game narrated was shown as it happened."""
        match = self.match
        assert match is not None
        if match.state is None or match.state.outcome() is None:
            return
        self.screen.say(tr("terminal.table.final_position"), "heading")
        self.screen.show(table_view(match, seat))
        result = result_block(match)
        if result is not None:
            self.screen.show(result)
        self.screen.show(await stats_text(self.service.store, self.player.user_id))

    async def again(self) -> LiveMatch:
        """After a game: the same again (its game, players, options and the person's
        own setup), another game chosen afresh, or quit (:class:`Quit`)."""
        match = self.match
        assert match is not None
        same = summary(match, progress=False)
        while True:
            answer = (await self.ask(tr("terminal.again.ask", game=same))).lower()
            if not answer or is_word(answer, SAME, tr("terminal.word.same")):
                seat = match.seat_of(LOCAL_USER)
                try:
                    return await self._open(match.info, match.row.options, len(match.seats),
                                            seat.setup if seat is not None else None,
                                            match.row.computer_level)
                except (BadOptions, CroupierError, RulesError) as refusal:
                    self.screen.warn(tr("terminal.again.refused", game=match.info.title,
                                        refusal=said(refusal, None)))
                    return await self.resume_or_open(None, None, None)
            if is_word(answer, NEW, tr("terminal.word.new")):
                return await self.resume_or_open(None, None, None)
            self.screen.warn(tr("terminal.again.not_one", answer=shown(answer)))


def _as_asked(match: LiveMatch, info: GameInfo, options: Mapping[str, Any] | None,
              seats: int | None, level: str | None = None) -> bool:
    """Whether a saved match has the options, players and computer level asked for
    (any, when none are asked for; options the game refuses are not asked for:
    opening says why)."""
    if seats is not None and len(match.seats) != seats:
        return False
    if level is not None and match.row.computer_level != level:
        return False
    if not options:
        return True
    try:
        wanted = info.options.parse(options)
    except BadOptions:
        return True
    try:
        return info.options.parse(match.row.options) == wanted
    except BadOptions:
        return False


def _user_name() -> str:
    try:
        return getpass.getuser().capitalize() or tr("terminal.table.you")
    except Exception:
        return tr("terminal.table.you")
