"""The local table: play in the terminal against computer players, through the
same match service and SQLite file the Discord bot uses."""

from __future__ import annotations

import asyncio
import getpass
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from bot.errors import CroupierError
from bot.live import LiveMatch, Player, PrivateView
from bot.service import MatchService, Timing, tune_gc
from bot.stats import StatsService
from rules.core import Event
from rules.errors import RulesError
from rules.registry import games
from storage import Store
from storage.models import SeatRow

LOCAL_CHANNEL = 0
LOCAL_USER = 1
DISCORD_HINT = ("To play in Discord instead, put DISCORD_TOKEN=… in .env "
                "(see README.md, 'Connect to Discord') and run `make run` again.")
MOVE_HINTS = {
    "flank": "Type a move (e.g. C4, or C4* to add a stopper)",
    "eclipse": "Type your choice (a card like S13f, a number, new, keep, 2:new …)",
    "nails": "Type a placement (tile@cell/turn, like 17@C4/90) or a word (yes, no, cannot, …)",
}
COMMANDS = ("or: legal (your options, explained) · board · rules · stats · resign · quit "
            "(your game is saved; `make run` continues it).")


LEGAL_EXPLAINED = 40
"""Up to this many options, `legal` explains each; beyond, it lists them."""


def help_text(game: str) -> str:
    """What the person may type in ``game``."""
    return f"{MOVE_HINTS.get(game, 'Type your choice')}, {COMMANDS}"

ReadLine = Callable[[str], Awaitable[str]]
Write = Callable[[str], None]


def text_view(match: LiveMatch, seat: int | None) -> str:
    """The game as text for one seat (or the table, for ``None``)."""
    assert match.state is not None
    view = match.state.observe(seat)
    if match.info.text is not None:
        return match.info.text(view, list(match.names))
    return str(view)


class TerminalTransport:
    """Shows the person their table, their private view, and nothing of others'."""

    def __init__(self, write: Write, seat_user: int = LOCAL_USER) -> None:
        self.write = write
        self.seat_user = seat_user

    async def publish(self, match: LiveMatch, events: Sequence[Event]) -> int | None:
        for event in events:
            self.write(f"• {event.render(match.names)}")
        if match.state is not None and match.row.status == "active":
            seat = match.seat_of(self.seat_user)
            self.write(text_view(match, seat.seat if seat else None))
        return None

    async def deliver_private(self, match: LiveMatch, seat: SeatRow, view: PrivateView) -> bool:
        if seat.user_id == self.seat_user:
            for event in view.events:
                self.write(f"  (only you) {event.render(view.names)}")
        return True

    async def notify(self, match: LiveMatch, text: str, mentions: Sequence[int] = ()) -> None:
        self.write(f"! {text}")


async def _stdin_line(prompt: str) -> str:
    return await asyncio.to_thread(input, prompt)


async def play_local(database: str, *, game: str | None = "flank",
                     options: Mapping[str, Any] | None = None, seats: int | None = None,
                     read_line: ReadLine = _stdin_line, write: Write = print,
                     name: str | None = None) -> LiveMatch | None:
    """Play one game in the terminal; returns the match (``None`` if the person quit
    before it began). With ``game`` ``None`` the person is asked which game."""
    store = await Store.open(database)
    service = MatchService(store, TerminalTransport(write),
                           timing=Timing(turn_seconds=7 * 24 * 3600))
    player = Player(LOCAL_USER, name or _user_name())
    try:
        write(f"Croupier — local table (saved in {database}).")
        write(DISCORD_HINT)
        await service.restore()
        tune_gc()
        match = await _resume_or_open(service, player, game, options, seats, read_line, write)
        if match is None:
            return None
        write(help_text(match.info.name))
        await service.settle()
        await _play(service, match, player, read_line, write)
        return match
    finally:
        await service.settle()
        await store.close()


def legal_text(match: LiveMatch, seat: int) -> str:
    """The seat's options, each with what it means when the game can say."""
    assert match.state is not None
    decision = match.state.decision_for(seat)
    if decision is None:
        return "Nothing to choose right now."
    describe = match.info.option_text
    if describe is None or len(decision.options) > LEGAL_EXPLAINED:
        return "Legal: " + ", ".join(decision.options)
    observation = match.state.observe(seat)
    lines = [f"{decision.prompt}"]
    for option in decision.options:
        meaning = describe(observation, decision, option, match.names)
        lines.append(f"  {option:<8} {meaning}" if meaning != option else f"  {option}")
    return "\n".join(lines)


async def _ask_game(read_line: ReadLine, write: Write) -> tuple[str, int]:
    """Which game and how many players, asked when ``make run`` opens a new table."""
    known = games()
    names = sorted(known)
    while True:
        answer = (await read_line(f"Which game? {' · '.join(names)} [flank] ")).strip().lower()
        game = answer or "flank"
        if game in known:
            break
        write(f"⚠ There is no game {answer!r}.")
    info = known[game]
    if info.min_seats == info.max_seats:
        return game, info.min_seats
    while True:
        answer = (await read_line(f"Players, you included ({info.min_seats}–{info.max_seats}) "
                                  f"[{info.default_seats}] ")).strip()
        seats = int(answer) if answer.isdigit() else info.default_seats if not answer else 0
        if info.min_seats <= seats <= info.max_seats:
            return game, seats
        write(f"⚠ {info.title} takes {info.min_seats}–{info.max_seats} players.")


async def _resume_or_open(service: MatchService, player: Player, game: str | None,
                          options: Mapping[str, Any] | None, seats: int | None,
                          read_line: ReadLine, write: Write) -> LiveMatch | None:
    try:
        match = service.match_in(LOCAL_CHANNEL)
    except CroupierError:
        match = None
    if match is not None and match.playing:
        while True:
            answer = (await read_line(f"Continue your unfinished {match.info.title} game? "
                                      "[Y/n] ")).strip().lower()
            if answer in ("", "y", "yes", "n", "no"):
                break
            write(f"⚠ {answer!r} is neither yes nor no: y continues the game, "
                  "n cancels it and opens a new one.")
        if answer in ("", "y", "yes"):
            seat = match.seat_of(player.user_id)
            write(text_view(match, seat.seat if seat else None))
            return match
        await service.cancel(player, LOCAL_CHANNEL)
        await service.settle()
    elif match is not None:
        await service.cancel(player, LOCAL_CHANNEL)
        await service.settle()
    if game is None:
        game, seats = await _ask_game(read_line, write)
    return await service.open_lobby(player, guild_id=None, channel_id=LOCAL_CHANNEL,
                                    game=game, options=options, seats=seats, vs_bot=True)


async def _play(service: MatchService, match: LiveMatch, player: Player,
                read_line: ReadLine, write: Write) -> None:
    seat = match.seat_of(player.user_id)
    assert seat is not None
    while not match.finished:
        await service.settle()
        if match.finished:
            break
        assert match.state is not None
        decision = match.state.decision_for(seat.seat)
        if decision is None:
            await asyncio.sleep(0)
            continue
        try:
            line = (await read_line(f"{decision.prompt} > ")).strip()
        except EOFError:
            write("\nInput closed; your game is saved.")
            return
        command = line.lower()
        if command in ("quit", "exit", "q"):
            write("Your game is saved; `make run` continues it.")
            return
        if command in ("help", "?", ""):
            write(help_text(match.info.name))
        elif command == "legal":
            write(legal_text(match, seat.seat))
        elif command == "board":
            write(text_view(match, seat.seat))
        elif command == "rules":
            write(match.info.rules_text)
        elif command == "stats":
            write(await stats_text(service.store, player.user_id))
        elif command == "resign":
            await service.forfeit(player, LOCAL_CHANNEL)
        else:
            try:
                await service.submit(player.user_id, match.id, line)
            except (CroupierError, RulesError) as error:
                write(f"⚠ {error}")
    await service.settle()
    _write_result(match, write)
    write(await stats_text(service.store, player.user_id))


async def stats_text(store: Store, user_id: int) -> str:
    """The person's record at the local table, game by game."""
    reports = await StatsService(store).reports(None, user_id)
    if not reports:
        return "No finished games at this table yet."
    lines = ["Your record at this table (games against the computer are not rated):"]
    for report in reports:
        r = report.record
        lines.append(f"  {r.game}: {r.played} played · {r.won} won · {r.lost} lost · "
                     f"{r.drawn} drawn · {r.win_rate:.0%} · streak {r.streak} "
                     f"(best {r.best_streak})")
    return "\n".join(lines)


def _write_result(match: LiveMatch, write: Write) -> None:
    assert match.state is not None
    outcome = match.state.outcome()
    if outcome is None:
        return
    if outcome.is_draw:
        verdict = "A draw"
    else:
        verdict = " and ".join(match.names[s] for s in outcome.winners) + " wins"
    scores = "" if outcome.scores is None else " (" + " – ".join(
        f"{n} {s}" for n, s in zip(match.names, outcome.scores, strict=True)) + ")"
    write(f"Game over: {verdict}{scores}; {outcome.reason}.")


def _user_name() -> str:
    try:
        return getpass.getuser().capitalize() or "You"
    except Exception:
        return "You"
