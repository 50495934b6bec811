"""/rules: each game's rules and options, privately — in a match's channel, that
match's rules, written from the options it was opened with and its table's size."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_parts.replies import send
from bot.errors import CroupierError, NoMatchHere
from bot.i18n import Phrase, Text, say, tr
from bot.i18n.options import labeller, option_description, option_value
from bot.matches.live import LiveMatch
from commands.lobby import game_names
from rules.core import GameInfo
from rules.options import GameOptions
from rules.phrases import Words
from rules.registry import games, get_game

if TYPE_CHECKING:
    from bot.discord_side.client import CroupierBot


def rules_said(written: Words | Sequence[Words]) -> str:
    """A game's rules as it writes them (:meth:`~rules.core.GameInfo.rules_for`: words,
    or paragraphs of words) in the locale spoken, paragraphs a blank line apart."""
    if isinstance(written, str | Phrase):
        return say(written)
    return "\n\n".join(say(part) for part in written) + "\n"


def options_text(info: GameInfo, chosen: GameOptions | None = None) -> str:
    """The options part of ``/rules`` in the locale spoken: every declared option with
    what it allows and its default, and how to open a game with them; with ``chosen``
    (a match's options), each option's value in that match too.

    >>> from rules.registry import games
    >>> info = next(i for i in games().values() if i.min_seats < i.max_seats)
    >>> options_text(info).splitlines()[0] == (f"Open with `/play {info.name}` "
    ...     f"({info.min_seats}–{info.max_seats} players); every option may be left out.")
    True
    """
    lines = [tr("rules.open_with", game=info.name, seats=say(info.seat_words()))]
    for spec in info.options.specs():
        described = say(spec.describe_words(
            option_description(info.name, spec.name, spec.description), labeller(info.name)))
        if chosen is None:
            lines.append(tr("rules.option", name=spec.name, described=described))
        else:
            value = option_value(info.name, spec, getattr(chosen, spec.name))
            lines.append(tr("rules.option_chosen", name=spec.name, described=described,
                            value=value))
    return "\n".join(lines)


def table_size(match: LiveMatch) -> int:
    """The seats a match is played with: those taken once it started, the seats
    asked for while it is a lobby."""
    return match.row.max_seats if match.row.status == "lobby" else len(match.seats)


def rules_parts(info: GameInfo, match: LiveMatch | None = None) -> dict[str, Any]:
    """The ``/rules`` reply in the locale spoken: the rules of ``match`` (its options,
    its table's size), or of the game at its defaults for any table."""
    if match is None:
        title = tr("rules.title", game=info.title)
        text = rules_said(info.rules_for())
        chosen = None
    else:
        chosen = info.options.parse(match.row.options)
        title = tr("rules.title_match", game=info.title, match_id=match.id)
        text = rules_said(info.rules_for(chosen, table_size(match)))
    embed = discord.Embed(title=title, description=text,
                          colour=discord.Colour.dark_green())
    embed.add_field(name=tr("rules.options"), value=options_text(info, chosen), inline=False)
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
                raise CroupierError(Text("rules.error.no_match", example=example))
            info = match.info
        else:
            info = get_game(game)
            if match is not None and match.info.name != info.name:
                match = None  # another game than the channel's: its usual rules
        await send(interaction, **rules_parts(info, match), ephemeral=True)


async def setup(bot: CroupierBot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(RulesCog(bot))
