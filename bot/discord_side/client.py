"""The discord.py client: wiring of storage, the match service, cogs and views."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.clock import Clock, SystemClock
from bot.config import Settings
from bot.discord_parts import bounds
from bot.discord_parts.replies import (
    NOBODY,
    RECENT_INTERACTIONS,
    first_in_time,
    hear,
    reader_locale,
    refuse,
    reply_error,
)
from bot.discord_parts.views import DYNAMIC_ITEMS, known_custom_id, on_message, split_answer
from bot.discord_side.cluster import Cluster
from bot.discord_side.stats_views import STATS_ITEMS
from bot.discord_side.tournament_message import TournamentMessages
from bot.discord_side.tournament_posts import TournamentPoster
from bot.discord_side.tournament_views import TOURNAMENT_ITEMS
from bot.discord_side.translator import CommandTranslator
from bot.discord_side.transport import DiscordTransport
from bot.games import Presenters, match_hooks, presenters
from bot.i18n import Text, speak
from bot.matches.deadlines import run_deadlines
from bot.matches.service import MatchService, Timing, tune_gc
from bot.recent import RecentIds
from bot.settings.languages import Languages
from bot.stats.service import StatsService
from bot.tournaments.service import TournamentService
from rules.errors import shown
from storage import Store

log = logging.getLogger(__name__)

EXTENSIONS = ("commands.lobby", "commands.rules", "commands.games", "commands.choose",
              "commands.stats", "commands.config", "commands.tournaments")
ITEMS = (*DYNAMIC_ITEMS, *STATS_ITEMS, *TOURNAMENT_ITEMS)


def extensions() -> tuple[str, ...]:
    """The shared cogs, then every game's own (:attr:`GamePresenter.extensions`)."""
    return EXTENSIONS + tuple(extension for presenter in presenters().values()
                              for extension in presenter.extensions)


UNKNOWN_ITEM = Text("reply.unknown_item")


class ReconnectIsAWarning(logging.Filter):
    """discord.py logs each failed try to reach a gateway that is down as an ERROR
    with a traceback ("Attempting a reconnect in …"), then tries again by itself:
    for a bot in an outage that is expected, so it is logged as a warning, with the
    failure's one-line summary instead of the traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Lower discord.py's reconnect errors to warnings; keep everything."""
        if record.levelno == logging.ERROR and str(record.msg).startswith(
                "Attempting a reconnect"):
            failure = record.exc_info[1] if record.exc_info else None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            if failure is not None:
                record.msg = f"{record.msg} (after {type(failure).__name__}: {failure})"
            record.exc_info = record.exc_text = None
        return True


RECONNECT_IS_A_WARNING = ReconnectIsAWarning()


class CroupierTree(app_commands.CommandTree):
    """The command tree with the one error handler for every slash command."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Handle each interaction once (a repeated delivery was already answered),
        and only while it can still be answered (:func:`~bot.discord_parts.replies.too_late`); a
        slash command only if it fits its own declaration (:func:`bot.discord_parts.bounds.check`:
        a stale or forged client is refused, nothing runs). Autocomplete for a
        command we do not have gets no suggestions."""
        if interaction.type is discord.InteractionType.autocomplete:
            if interaction.command is None:
                await interaction.response.autocomplete([])
                return False
            speak(reader_locale(interaction))  # suggestions in the typist's words
            return True
        if not first_in_time(interaction):
            return False
        await hear(interaction)
        if interaction.type is discord.InteractionType.application_command and int(
                (interaction.data or {}).get("type", 1)) == 1:
            bounds.check(interaction.command, interaction.data or {})
        return True

    async def on_error(self, interaction: discord.Interaction,
                       error: app_commands.AppCommandError) -> None:
        await reply_error(interaction, error)


class CroupierBot(commands.Bot):
    """Croupier in Discord."""

    service: MatchService
    store: Store
    tournaments: TournamentService
    tournament_poster: TournamentPoster
    tournament_messages: TournamentMessages

    def __init__(self, settings: Settings, *, clock: Clock | None = None,
                 sync_commands: bool = True, **client_options: Any) -> None:
        """``client_options`` go to discord.py's client (a sharded one's shards)."""
        # No privileged intents: slash commands and components arrive as interactions.
        super().__init__(command_prefix=commands.when_mentioned,
                         intents=discord.Intents.default(), help_command=None,
                         tree_cls=CroupierTree, allowed_mentions=NOBODY, **client_options)
        self.settings = settings
        logging.getLogger("discord.client").addFilter(RECONNECT_IS_A_WARNING)  # once: a set
        self.clock = clock
        self.sync_commands = sync_commands
        self.presenters = Presenters()
        self.recent_interactions = RecentIds(RECENT_INTERACTIONS)
        self._deadline_task: asyncio.Task[None] | None = None
        self._closed_once = False
        self.items: list[type[discord.ui.DynamicItem[Any]]] = []
        """Every persistent button and menu the bot answers (:meth:`add_items`)."""

    def _drop_waiting_ready(self) -> None:
        """After a new gateway session discord.py waits up to 2 s for its guilds before
        dispatching READY; closing does not stop that wait, and a READY dispatched after
        the close fails with an asyncio ERROR. Cancelled, as a newer READY would be,
        after every close: discord.py's own (a session begun while reconnecting after
        an outage) as well as ours."""
        waiting_ready = getattr(self._connection, "_ready_task", None)
        if waiting_ready is not None:
            waiting_ready.cancel()
        # A sharded client waits so for each shard's guilds too.
        for waiting_shard in getattr(self._connection, "_ready_tasks", {}).values():
            waiting_shard.cancel()

    @property
    def stopping(self) -> bool:
        """Whether :meth:`close` has begun (see :func:`bot.discord_parts.replies.stopping`)."""
        return self._closed_once

    def add_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        """Answer these persistent items from now on (after restarts too); a game's
        extension adds its own (a trade's buttons, say)."""
        self.add_dynamic_items(*items)
        self.items.extend(items)

    async def setup_hook(self) -> None:
        """Open storage, restore unfinished matches, load cogs, sync commands."""
        self.store = await Store.open(self.settings.database)
        self.service = MatchService(
            self.store, DiscordTransport(self), clock=self.clock,
            timing=Timing(turn_seconds=self.settings.turn_seconds,
                          warn_seconds=self.settings.warn_seconds),
            hooks=match_hooks(self.store, self.clock or SystemClock()))
        self.stats = StatsService(self.store)
        self.languages = Languages(self.store, preferred=self.preferred_locale)
        # After the match service: it subscribes to match results (its docstring).
        self.tournament_poster = TournamentPoster(self)
        self.tournaments = TournamentService(
            self.store, self.service, self.clock, self.tournament_poster.make_place,
            announce=self.tournament_poster.announce,
            retire=self.tournament_poster.retire_place, room=self.tournament_poster.room)
        self.tournament_messages = TournamentMessages(self)
        self.add_items(*ITEMS)
        for extension in extensions():
            await self.load_extension(extension)
        # Each locale's descriptions and choices come with the commands when they sync.
        await self.tree.set_translator(CommandTranslator(self.tree))
        owns = await self.restores()
        restored = await self.service.restore(owns)
        running = await self.tournaments.restore(owns)
        if running:
            log.info("continued %d running tournaments", len(running))
        tune_gc()
        if restored:
            log.info("restored %d unfinished matches", len(restored))
        if self.sync_commands:
            await self.sync_command_tree()
        self._deadline_task = asyncio.create_task(run_deadlines(self.service),
                                                  name="croupier-deadlines")

    async def restores(self) -> Callable[[int | None], bool] | None:
        """Which servers' unfinished matches this process restores: all of them."""
        return None

    async def sync_command_tree(self) -> list[app_commands.AppCommand]:
        """Publish the slash commands (to one guild when developing: instant)."""
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            return await self.tree.sync(guild=guild)
        return await self.tree.sync()

    def preferred_locale(self, guild_id: int) -> str | None:
        """A server's preferred locale as Discord last reported it (``None`` unknown)."""
        guild = self.get_guild(guild_id)
        return None if guild is None else getattr(guild.preferred_locale, "value", None)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Refuse a button or menu that none of ours will answer (discord.py
        would leave it unanswered): a malformed or forged custom id, or one
        that is not on the message it claims to be on."""
        if interaction.type is discord.InteractionType.modal_submit:
            if not await split_answer(interaction) and first_in_time(interaction):
                await refuse(interaction, UNKNOWN_ITEM)
            return
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        if known_custom_id(custom_id, self.items) and on_message(interaction):
            return
        if first_in_time(interaction):
            try:
                await refuse(interaction, UNKNOWN_ITEM)
            except discord.HTTPException:
                log.info("could not refuse unknown component %s", shown(custom_id))

    async def on_ready(self) -> None:
        """Log who we are."""
        log.info("connected as %s (%s) to %d servers", self.user,
                 self.user.id if self.user else "?", len(self.guilds))

    async def close(self) -> None:
        """Stop timers, let pending table edits finish, close the file. discord.py
        may call this twice (``connect`` closes too), hence the guard."""
        if self._closed_once:
            await super().close()
            self._drop_waiting_ready()
            return
        self._closed_once = True
        if self._deadline_task is not None:
            self._deadline_task.cancel()
        if hasattr(self, "tournaments"):  # first: its steps open matches
            await self.tournaments.wind_down()
        if hasattr(self, "service"):
            await self.service.wind_down()
        await super().close()
        self._drop_waiting_ready()
        if hasattr(self, "store"):
            await self.store.close()


class ShardedCroupierBot(CroupierBot, commands.AutoShardedBot):
    """Croupier on some of the bot's shards: one cluster's (:class:`Cluster`)."""

    def __init__(self, settings: Settings, cluster: Cluster, *, clock: Clock | None = None,
                 sync_commands: bool = True) -> None:
        shards = cluster.shards
        super().__init__(settings, clock=clock, sync_commands=sync_commands,
                         shard_ids=None if shards is None else cluster.shard_ids(shards),
                         shard_count=shards)
        self.cluster = cluster
        # A shard's reconnects are logged by discord.shard, not discord.client.
        logging.getLogger("discord.shard").addFilter(RECONNECT_IS_A_WARNING)

    async def _count_shards(self) -> int:
        """The shard count; without ``--shards``, Discord's recommended count rounded
        up to a multiple of the clusters (:meth:`Cluster.shard_count`), asked once."""
        if self.shard_count is None:
            recommended, _url, _limits = await self.http.get_bot_gateway()
            self.shard_count = self.cluster.shard_count(recommended)
            self.shard_ids = self.cluster.shard_ids(self.shard_count)
        return self.shard_count

    async def restores(self) -> Callable[[int | None], bool] | None:
        """The servers on this cluster's shards (and shard 0's, for matches of no
        server): each cluster restores its own (docs/clusters.md)."""
        count = await self._count_shards()
        mine = frozenset(self.shard_ids or range(count))
        return lambda guild_id: ((guild_id or 0) >> 22) % count in mine

    async def launch_shards(self) -> None:
        """Connect this cluster's shards (:meth:`_count_shards`)."""
        await self._count_shards()
        log.info("cluster %d of %d: shards %s of %d", self.cluster.index, self.cluster.count,
                 self.shard_ids, self.shard_count)
        await super().launch_shards()


def make_bot(settings: Settings, cluster: Cluster | None = None, *,
             clock: Clock | None = None, sync_commands: bool = True) -> CroupierBot:
    """The bot for ``cluster``: today's unsharded :class:`CroupierBot` for one process
    without a shard count, else a :class:`ShardedCroupierBot` on the cluster's shards."""
    if cluster is None or not cluster.sharded:
        return CroupierBot(settings, clock=clock, sync_commands=sync_commands)
    return ShardedCroupierBot(settings, cluster, clock=clock, sync_commands=sync_commands)
