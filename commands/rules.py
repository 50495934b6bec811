"""/rules: each game's rules and options, privately — in a match's channel, that
match's rules, written from the options it was opened with and its table's size."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_parts.replies import send
from bot.errors import CroupierError, NoMatchHere
from bot.matches.live import LiveMatch
from commands.lobby import game_names
from rules.core import GameInfo
from rules.options import GameOptions
from rules.registry import games, get_game

if TYPE_CHECKING:
    from bot.discord_side.client import CroupierBot


def options_text(info: GameInfo, chosen: GameOptions | None = None) -> str:
    """The options part of ``/rules``: every declared option with what it allows
    and its default, and how to open a game with them; with ``chosen`` (a match's
    options), each option's value in that match too.

    >>> from rules.registry import games
    >>> info = next(i for i in games().values() if i.min_seats < i.max_seats)
    >>> options_text(info).splitlines()[0] == (f"Open with `/play {info.name}` "
    ...     f"({info.min_seats}–{info.max_seats} players); every option may be left out.")
    True
    """
    lines = [f"Open with `/play {info.name}` ({info.seat_range()}); "
             "every option may be left out."]
    for spec in info.options.specs():
        line = f"• **{spec.name}** — {spec.describe().split(': ', 1)[1]}"
        if chosen is not None:
            line += f"; this match: {spec.label(getattr(chosen, spec.name))}"
        lines.append(line)
    return "\n".join(lines)


def table_size(match: LiveMatch) -> int:
    """The seats a match is played with: those taken once it started, the seats
    asked for while it is a lobby."""
    return match.row.max_seats if match.row.status == "lobby" else len(match.seats)


def rules_parts(info: GameInfo, match: LiveMatch | None = None) -> dict[str, Any]:
    """The ``/rules`` reply: the rules of ``match`` (its options, its table's size),
    or of the game at its defaults for any table."""
    if match is None:
        title = f"How to play {info.title}"
        text = info.rules_for()
        chosen = None
    else:
        chosen = info.options.parse(match.row.options)
        title = f"How to play {info.title} — match #{match.id}"
        text = info.rules_for(chosen, table_size(match))
    embed = discord.Embed(title=title, description=text,
                          colour=discord.Colour.dark_green())
    embed.add_field(name="Options", value=options_text(info, chosen), inline=False)
    return {"embed": embed}


class RulesCog(commands.Cog):
    """How to play."""

    def __init__(self, bot: CroupierBot) -> None:
        self.bot = bot

    @app_commands.command(name="rules", description="How to play a game (in a match's "
                                                    "channel: that match's rules).")
    @app_commands.describe(game="Which game (left out in a match's channel: that match's)")
    @app_commands.autocomplete(game=game_names)
    async def rules(self, interaction: discord.Interaction,
                    game: app_commands.Range[str, 1, 40] | None = None) -> None:
        try:
            match: LiveMatch | None = self.bot.service.match_in(interaction.channel_id)
        except NoMatchHere:
            match = None
        if game is None:
            if match is None:
                example = next(iter(games()))
                raise CroupierError(f"There is no match in this channel: name a game, e.g. "
                                    f"`/rules game:{example}`.")
            info = match.info
        else:
            info = get_game(game)
            if match is not None and match.info.name != info.name:
                match = None  # another game than the channel's: its usual rules
        await send(interaction, **rules_parts(info, match), ephemeral=True)


async def setup(bot: CroupierBot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(RulesCog(bot))
