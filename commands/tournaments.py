"""/tournament: create, open, check in, join, leave, start, standings, pairings,
matches, next, replay, report, drop, add, remove, disqualify, cancel. Thin: parse, call
the tournament service (which checks organiser rights in code: Manage Server or the
organiser role from /config), show. The group is visible to everyone (players join and
read standings); organiser actions are refused by the service, privately.

Without a tournament number a command means the newest tournament under way in this
channel (else on the server); the commands that only read (standings, pairings,
matches) then fall back on the newest of any status, finished or cancelled too, in
this channel and then on the server, so the results of one just ended stay at hand.

Check-in: ``/tournament checkin`` checks you in; an organiser opens or closes the window
with ``/tournament checkin window:open|close``.

Answering in time (Discord allows 3 s, a request to it takes a quarter of a second): a
command answers at once when what it does is a quick write, and defers first when it may
wait for the tournament (a round being opened holds it) or draw pictures. The
tournament message shows a change soon after the answer, never before it
(:class:`~bot.discord_side.tournament_message.TournamentMessages`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_parts.replies import channel_locale, send
from bot.discord_side.tournament_posts import (
    bracket_file,
    draw,
    history_pages,
    messages_of,
    pairings_files,
    pairings_texts,
    standings_files,
    standings_texts,
)
from bot.discord_side.tournament_terms import FORMAT_WORDS, member_of
from bot.discord_side.tournament_views import message_parts
from bot.errors import NoSuchPage
from bot.i18n import Text, speaking, tr, trn
from bot.matches.levels import level_word, levels_said
from bot.tournaments.model import FORMATS, MOST_PLAYERS, TournamentError
from bot.tournaments.terms import entrant_words
from commands.lobby import game_names
from rules.core import DEFAULT_LEVEL, Level
from rules.errors import shown
from rules.registry import games, get_game

if TYPE_CHECKING:
    from bot.discord_side.client import CroupierBot

Tournament = app_commands.Range[int, 1, 2**62]
Computer = app_commands.Range[int, 1, MOST_PLAYERS]
"""A computer player's number: "Computer 3" is 3."""
MOST_COMPUTERS = 64
"""Most computer players one /tournament add enters."""
TOURNAMENT = "The tournament's number (default: the latest here)"
"""What the ``tournament`` option of every subcommand says."""
WHY = "Why (kept with the tournament's record)"
"""What the ``why`` option says."""


def parse_options(text: str | None) -> dict[str, str]:
    """``name=value …`` split into names and values, both left as text: the game's own
    declared options read every value (strictly, as ``/play`` does) and refuse what
    they cannot read with the game's own message.

    >>> parse_options("board=²  cards=20")
    {'board': '²', 'cards': '20'}
    """
    found: dict[str, str] = {}
    for word in (text or "").split():
        name, sep, value = word.partition("=")
        if not sep or not name:
            raise TournamentError(Text("tournaments.command.options", word=shown(word)))
        found[name] = value
    return found


def entrant_meant(user: discord.User | None, computer: int | None) -> tuple[int, str]:
    """The entrant a command names: a person, or "Computer N" by its number (their
    entrant id is -N); exactly one of the two.

    >>> entrant_meant(None, 3)
    (-3, 'Computer 3')
    """
    if (user is None) == (computer is None):
        raise TournamentError(Text("tournaments.command.user_or_computer"))
    if user is not None:
        return user.id, user.display_name
    assert computer is not None
    return -computer, tr("tournaments.computer", number=computer)


def parse_games(text: str | None) -> list[int] | None:
    """A games score such as ``2-1`` (each seat's games won, in seat order)."""
    if not text:
        return None
    try:
        return [int(part) for part in text.replace(":", "-").split("-")]
    except ValueError:
        raise TournamentError(Text("tournaments.command.games_score",
                                   text=shown(text))) from None


@app_commands.guild_only()
class TournamentCog(commands.GroupCog, group_name="tournament",
                    group_description="Tournaments on this server."):
    """The /tournament commands."""

    def __init__(self, bot: CroupierBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def service(self) -> Any:
        """The tournament service (made in the bot's setup)."""
        return self.bot.tournaments

    async def _pick(self, interaction: discord.Interaction, given: int | None, *,
                    reading: bool = False) -> int:
        """The tournament meant: the one given, else the newest under way in this
        channel (or on the server). A command that only reads (``reading``) then takes
        the newest of any status, in this channel and then on the server; an action
        never lands on a tournament that is over."""
        if given is not None:
            return given
        who = member_of(interaction)
        here = await self.service.live(who, interaction.channel_id)
        found = here or await self.service.live(who)
        if found:
            return int(found[-1].id)
        if reading:
            latest = (await self.service.latest(who, interaction.channel_id)
                      or await self.service.latest(who))
            if latest is not None:
                return int(latest.id)
            raise TournamentError(Text("tournaments.command.none_yet"))
        raise TournamentError(Text("tournaments.command.none_here"))

    def _refresh(self, tournament_id: int) -> None:
        """Have the tournament message show a change, soon: it never holds up an answer."""
        self.bot.tournament_messages.refresh(tournament_id)

    async def _send_pages(self, interaction: discord.Interaction, texts: list[str],
                          makers: list[Any]) -> None:
        """Every text and picture page, privately, in as many messages as Discord's
        limits need (the interaction was deferred: these are its follow-ups)."""
        for content, batch in messages_of(texts, makers):
            await send(interaction, content or None, files=await draw(batch))

    async def _post_message(self, interaction: discord.Interaction, tournament_id: int) -> None:
        """Post the tournament message (with its buttons) and remember it."""
        with speaking(await channel_locale(interaction)):
            parts = await message_parts(self.bot, tournament_id, interaction.guild_id or 0)
        await send(interaction, parts["content"], ephemeral=False, view=parts["view"])
        message = await interaction.original_response()
        await self.service.set_message(member_of(interaction), tournament_id, message.id)

    @app_commands.command(name="create", description="Create a tournament (organisers).")
    @app_commands.describe(game="The game", format="The format (default: Swiss for two, "
                           "pods for more)", best_of="Games per match of two",
                           rounds="Rounds of Swiss or pods", top_cut="Top cut after Swiss",
                           seeding="Seeding", auto_next="Start the next round by itself",
                           rated="Games move ratings", options="Game options: name=value …",
                           name="The tournament's name",
                           use_threads="Each match in a thread (default) or, if false, a "
                                       "channel of its own (needs Manage Channels)",
                           turn_seconds="Seconds a player has for each decision in the "
                                        "tournament's games (default: the server's)")
    @app_commands.autocomplete(game=game_names)
    @app_commands.choices(
        format=[app_commands.Choice(name=FORMAT_WORDS.get(f, f), value=f) for f in FORMATS],
        best_of=[app_commands.Choice(name=str(n), value=n) for n in (1, 3)],
        top_cut=[app_commands.Choice(name=str(n), value=n) for n in (0, 4, 8)],
        seeding=[app_commands.Choice(name=s, value=s) for s in ("rating", "random")])
    async def create(self, interaction: discord.Interaction,
                     game: app_commands.Range[str, 1, 40], format: str | None = None,
                     best_of: int | None = None,
                     rounds: app_commands.Range[int, 1, 20] | None = None,
                     top_cut: int | None = None, seeding: str | None = None,
                     auto_next: bool | None = None, rated: bool | None = None,
                     options: app_commands.Range[str, 0, 400] | None = None,
                     name: app_commands.Range[str, 1, 100] | None = None,
                     use_threads: bool | None = None,
                     turn_seconds: app_commands.Range[int, 10, 86400] | None = None) -> None:
        """Create a tournament in this channel and post its message."""
        if game not in games():
            raise TournamentError(Text("tournaments.command.no_game", game=shown(game)))
        given = {"best_of": best_of, "rounds": rounds, "top_cut": top_cut,
                 "seeding": seeding, "auto_next": auto_next, "rated": rated,
                 "use_threads": use_threads, "turn_seconds": turn_seconds}
        if name is None:  # the channel reads its name: in the server's language
            with speaking(await channel_locale(interaction)):
                name = tr("tournaments.default_name", game=get_game(game).title)
        row = await self.service.create(
            member_of(interaction), channel_id=interaction.channel_id or 0, game=game,
            format=format, options=parse_options(options),
            settings={k: v for k, v in given.items() if v is not None}, name=name)
        await self._post_message(interaction, row.id)

    @app_commands.command(name="open", description="Open registration (organisers).")
    @app_commands.describe(tournament=TOURNAMENT)
    async def open(self, interaction: discord.Interaction,
                   tournament: Tournament | None = None) -> None:
        """Open registration; the message gets its Join and Leave buttons."""
        tid = await self._pick(interaction, tournament)
        await self.service.open(member_of(interaction), tid)
        self._refresh(tid)
        await send(interaction, tr("tournaments.reply.opened"), ephemeral=True)

    @app_commands.command(name="checkin", description="Check in; organisers open or close "
                                                      "the check-in window.")
    @app_commands.describe(tournament=TOURNAMENT, window="Organisers: open or close check-in")
    @app_commands.choices(window=[app_commands.Choice(name=w, value=w)
                                  for w in ("open", "close")])
    async def checkin(self, interaction: discord.Interaction, window: str | None = None,
                      tournament: Tournament | None = None) -> None:
        """Check in, or open/close the window."""
        tid = await self._pick(interaction, tournament)
        who = member_of(interaction)
        if window == "open":
            await self.service.open_checkin(who, tid)
            with speaking(await channel_locale(interaction)):
                text, public = tr("tournaments.reply.checkin_open"), True
        elif window == "close":
            removed = await self.service.close_checkin(who, tid)
            with speaking(await channel_locale(interaction)):
                text = trn("tournaments.reply.checkin_closed", len(removed))
            public = True
        else:
            await self.service.checkin(who, tid)
            text, public = tr("tournaments.reply.checked_in"), False
        self._refresh(tid)
        await send(interaction, text, ephemeral=not public)

    @app_commands.command(name="join", description="Enter a tournament.")
    @app_commands.describe(tournament=TOURNAMENT)
    async def join(self, interaction: discord.Interaction,
                   tournament: Tournament | None = None) -> None:
        tid = await self._pick(interaction, tournament)
        await self.service.join(member_of(interaction), tid)
        self._refresh(tid)
        await send(interaction, tr("tournaments.reply.joined"))

    @app_commands.command(name="leave", description="Leave a tournament (once it runs: drop).")
    @app_commands.describe(tournament=TOURNAMENT)
    async def leave(self, interaction: discord.Interaction,
                    tournament: Tournament | None = None) -> None:
        tid = await self._pick(interaction, tournament)
        # Once it runs, leaving is dropping: it waits for the tournament.
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.service.leave(member_of(interaction), tid)
        self._refresh(tid)
        await send(interaction, tr("tournaments.reply.left"))

    @app_commands.command(name="start", description="Start: pair round 1 (organisers).")
    @app_commands.describe(tournament=TOURNAMENT)
    async def start(self, interaction: discord.Interaction,
                    tournament: Tournament | None = None) -> None:
        tid = await self._pick(interaction, tournament)
        # Private: a refusal stays private, and the round's pairings are posted anyway.
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = await self.service.start(member_of(interaction), tid)
        self._refresh(tid)
        await send(interaction, tr("tournaments.reply.started", round=view.round))

    @app_commands.command(name="standings", description="The standings (picture and text).")
    @app_commands.describe(tournament=TOURNAMENT)
    async def standings(self, interaction: discord.Interaction,
                        tournament: Tournament | None = None) -> None:
        """Every page of the standings (pictures and text), and the bracket of an
        elimination, only for the person asking."""
        tid = await self._pick(interaction, tournament, reading=True)
        await interaction.response.defer(ephemeral=True, thinking=True)
        found = await self.service.standings(member_of(interaction), tid)
        makers = standings_files(found) if found.lines else []
        bracket = await self.bot.tournament_poster.bracket(found.tournament)
        if bracket is not None:
            makers.append(bracket_file(found.tournament.name, bracket))
        texts = standings_texts(found) if found.lines else [tr("tournaments.reply.no_standings")]
        await self._send_pages(interaction, texts, makers)

    @app_commands.command(name="pairings", description="A round's pairings (picture and text).")
    @app_commands.describe(tournament=TOURNAMENT, round="Which round (default: the current one)")
    async def pairings(self, interaction: discord.Interaction,
                       round: app_commands.Range[int, 1, 100] | None = None,
                       tournament: Tournament | None = None) -> None:
        """Every page of a round's pairings (pictures and text), only for the person
        asking."""
        tid = await self._pick(interaction, tournament, reading=True)
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = await self.service.pairings(member_of(interaction), tid, round)
        if not view.pairings:
            raise TournamentError(Text("tournaments.command.no_pairings"))
        await self._send_pages(interaction, pairings_texts(view), pairings_files(view))

    @app_commands.command(name="matches", description="Every round's matches and games, "
                                                      "with their results.")
    @app_commands.describe(tournament=TOURNAMENT, page="Which page (default: the first)")
    async def matches(self, interaction: discord.Interaction,
                      tournament: Tournament | None = None,
                      page: app_commands.Range[int, 1, 1000] = 1) -> None:
        """A tournament's history, only for the person asking: each round's tables
        with their players, result and place, and each game with its match and
        outcome; a page at a time."""
        tid = await self._pick(interaction, tournament, reading=True)
        await interaction.response.defer(ephemeral=True, thinking=True)
        who = member_of(interaction)
        found = await self.service.get(who, tid)
        rounds = [await self.service.pairings(who, tid, n)
                  for n in range(1, found.round + 1)]
        pages = history_pages(found, rounds, await self.service.games(who, tid))
        if page > len(pages):
            raise NoSuchPage(Text("tournaments.page.matches"), page, len(pages))
        await send(interaction, pages[page - 1])

    @app_commands.command(name="next", description="Pair the next round (organisers).")
    @app_commands.describe(tournament=TOURNAMENT)
    async def next(self, interaction: discord.Interaction,
                   tournament: Tournament | None = None) -> None:
        tid = await self._pick(interaction, tournament)
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = await self.service.next_round(member_of(interaction), tid)
        await send(interaction, tr("tournaments.reply.paired", round=view.round))

    @app_commands.command(name="replay", description="Play a table's game again "
                                                     "(organisers).")
    @app_commands.describe(table="The table", round="The round (default: the current one)",
                           tournament=TOURNAMENT)
    async def replay(self, interaction: discord.Interaction,
                     table: app_commands.Range[int, 1, 1000],
                     round: app_commands.Range[int, 1, 100] | None = None,
                     tournament: Tournament | None = None) -> None:
        """Open a new game for a table whose game was cancelled or abandoned, or could
        not be started."""
        tid = await self._pick(interaction, tournament)
        # Private: a refusal stays private, and starting a game takes a moment.
        await interaction.response.defer(ephemeral=True, thinking=True)
        who = member_of(interaction)
        round_no = round if round is not None else (await self.service.get(who, tid)).round
        pairing = await self.service.replay(who, tid, round_no, table)
        await send(interaction, tr("tournaments.reply.replayed", table=pairing.table))

    @app_commands.command(name="report", description="Enter or correct a table's result "
                                                     "(organisers).")
    @app_commands.describe(table="The table", result="What happened",
                           player="Who won (win) or lost (loss)",
                           games="Games won per seat in seat order, e.g. 2-1",
                           round="The round (default: the current one)", why=WHY,
                           tournament=TOURNAMENT)
    @app_commands.choices(result=[app_commands.Choice(name=r.replace("_", " "), value=r)
                                  for r in ("win", "loss", "draw", "both_lose")])
    async def report(self, interaction: discord.Interaction,
                     table: app_commands.Range[int, 1, 1000], result: str,
                     player: discord.User | None = None,
                     games: app_commands.Range[str, 1, 20] | None = None,
                     round: app_commands.Range[int, 1, 100] | None = None,
                     why: app_commands.Range[str, 0, 200] = "",
                     tournament: Tournament | None = None) -> None:
        tid = await self._pick(interaction, tournament)
        who = member_of(interaction)
        winner = None
        if result in ("win", "loss"):
            if player is None:
                raise TournamentError(Text("tournaments.command.say_player"))
            winner = player.id
            if result == "loss":
                view = await self.service.pairings(who, tid, round)
                seats = next((p.seats for p in view.pairings if p.table == table), ())
                others = [u for u in seats if u != player.id]
                if len(seats) != 2 or len(others) != 1:
                    raise TournamentError(Text("tournaments.command.loss_two"))
                winner = others[0]
        await interaction.response.defer(ephemeral=True, thinking=True)
        pairing = await self.service.report(who, tid, table, round_no=round, winner=winner,
                                            games=parse_games(games),
                                            both_lose=result == "both_lose", why=why)
        await send(interaction, tr("tournaments.reply.reported", round=pairing.round,
                                   table=pairing.table))

    @staticmethod
    async def _said(interaction: discord.Interaction, text: Text) -> None:
        """An organiser's action done after a private deferral: confirmed privately
        (a refusal would have been private too), in the organiser's language; then said
        in the channel, in the server's."""
        await send(interaction, tr("tournaments.reply.done", text=text))
        with speaking(await channel_locale(interaction)):
            public = text.in_locale(None)
        await send(interaction, public, ephemeral=False)

    @app_commands.command(name="drop", description="Drop out (or drop a player: organisers).")
    @app_commands.describe(user="Who to drop (organisers; default: you)",
                           computer="Or the computer player of that number (organisers)",
                           why=WHY, tournament=TOURNAMENT)
    async def drop(self, interaction: discord.Interaction, user: discord.User | None = None,
                   computer: Computer | None = None,
                   why: app_commands.Range[str, 0, 200] = "",
                   tournament: Tournament | None = None) -> None:
        target = (None if user is None and computer is None
                  else entrant_meant(user, computer)[0])
        tid = await self._pick(interaction, tournament)
        await interaction.response.defer(ephemeral=True, thinking=True)
        entrant = await self.service.drop(member_of(interaction), tid, target, why=why)
        await self._said(interaction, Text("tournaments.reply.dropped",
                                           name=entrant_words(entrant.user_id, entrant.name)))

    @app_commands.command(name="add", description="Enter someone, or computer players "
                                                  "(organisers).")
    @app_commands.describe(tournament=TOURNAMENT, user="Who to enter",
                           computers="How many computer players to enter instead",
                           level=f"The computer players' level ({levels_said()}; default "
                                 f"{DEFAULT_LEVEL})")
    async def add(self, interaction: discord.Interaction, user: discord.User | None = None,
                  computers: app_commands.Range[int, 1, MOST_COMPUTERS] | None = None,
                  level: Level | None = None,
                  tournament: Tournament | None = None) -> None:
        """Enter a person, or ``computers`` computer players of ``level`` (exactly one
        of the two)."""
        if (user is None) == (computers is None):
            raise TournamentError(Text("tournaments.command.user_or_computers"))
        if user is not None and level is not None:
            raise TournamentError(Text("tournaments.command.level_for_computers"))
        tid = await self._pick(interaction, tournament)
        who = member_of(interaction)
        if user is not None:
            await self.service.add(who, tid, user.id, user.display_name, is_bot=user.bot)
            text = tr("tournaments.reply.added", name=user.display_name)
        else:
            added = await self.service.add_computers(who, tid, computers,
                                                     level or DEFAULT_LEVEL)
            text = trn("tournaments.reply.computers_added", len(added),
                       level=level_word(level or DEFAULT_LEVEL))
        self._refresh(tid)
        await send(interaction, text)

    @app_commands.command(name="remove", description="Take someone out (organisers).")
    @app_commands.describe(tournament=TOURNAMENT, why=WHY, user="Who to take out",
                           computer="Or the computer player of that number")
    async def remove(self, interaction: discord.Interaction, user: discord.User | None = None,
                     computer: Computer | None = None,
                     why: app_commands.Range[str, 0, 200] = "",
                     tournament: Tournament | None = None) -> None:
        target, name = entrant_meant(user, computer)
        tid = await self._pick(interaction, tournament)
        # Once it runs, removing is dropping: it waits for the tournament.
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.service.remove(member_of(interaction), tid, target, why)
        self._refresh(tid)
        await send(interaction, tr("tournaments.reply.removed", name=name))

    @app_commands.command(name="disqualify", description="Disqualify a player (organisers).")
    @app_commands.describe(tournament=TOURNAMENT, why=WHY, user="Who to disqualify",
                           computer="Or the computer player of that number")
    async def disqualify(self, interaction: discord.Interaction,
                         user: discord.User | None = None, computer: Computer | None = None,
                         why: app_commands.Range[str, 0, 200] = "",
                         tournament: Tournament | None = None) -> None:
        target, name = entrant_meant(user, computer)
        tid = await self._pick(interaction, tournament)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.service.disqualify(member_of(interaction), tid, target, why=why)
        await self._said(interaction, Text("tournaments.reply.disqualified",
                                           name=entrant_words(target, name)))

    @app_commands.command(name="cancel", description="Cancel a tournament (organisers).")
    @app_commands.describe(tournament=TOURNAMENT, why=WHY)
    async def cancel(self, interaction: discord.Interaction,
                     why: app_commands.Range[str, 0, 200] = "",
                     tournament: Tournament | None = None) -> None:
        tid = await self._pick(interaction, tournament)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.service.cancel(member_of(interaction), tid, why=why)
        self._refresh(tid)
        await send(interaction, tr("tournaments.reply.cancelled"))


async def setup(bot: CroupierBot) -> None:
    """Load the cog."""
    await bot.add_cog(TournamentCog(bot))
