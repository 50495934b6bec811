"""Building the world a test plays in (guilds, channels, users) and reading it back
(messages, DMs, synced commands), before or while a bot is connected."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import pytest

from ..model import FakeChannel, FakeCommand, FakeGuild, FakeMessage, FakeRole, FakeUser
from ..model.constants import DEFAULT_BOT_PERMISSIONS, DEFAULT_EVERYONE_PERMISSIONS
from ..server import FakeDiscordServer


class WorldBuilding(FakeDiscordServer):
    """World building works before or after a bot connected; after, the bot receives the
    matching gateway events."""

    def add_guild(
        self,
        name: str = "Test Server",
        *,
        channels: Sequence[str] = (),
        everyone_permissions: int = DEFAULT_EVERYONE_PERMISSIONS,
        bot_permissions: int = DEFAULT_BOT_PERMISSIONS,
        shard: tuple[int, int] | None = None,
    ) -> FakeGuild:
        """Create a guild the bot is in (with its managed role), optionally with channels;
        with ``shard=(shard_id, num_shards)``, one whose events go to that shard."""
        guild_id = self.next_id() if shard is None else self._ids.on_shard(*shard)
        guild = FakeGuild(guild_id, name, self, owner_id=self.owner.id)
        guild.bot_permissions = bot_permissions
        # The @everyone role shares the guild's id, as on Discord.
        guild.roles.append(FakeRole(guild.id, "@everyone", everyone_permissions))
        bot_role = FakeRole(
            self.next_id(),
            self.bot_user.name,
            bot_permissions,
            position=1,
            managed=True,
            bot_id=self.bot_user.id,
        )
        guild.roles.append(bot_role)
        # A connected bot learns about the guild from one GUILD_CREATE, not piecemeal.
        with self._quietly():
            guild.add_member(self.bot_user, roles=(bot_role,))
            for channel_name in channels:
                guild.add_text_channel(channel_name)
        self.guilds[guild.id] = guild
        self._broadcast("GUILD_CREATE", guild.to_payload(), guild_id=guild.id)
        return guild

    def add_user(
        self,
        name: str,
        *,
        admin: bool = False,
        roles: tuple[str | FakeRole, ...] = (),
        guild: FakeGuild | None = None,
    ) -> FakeUser:
        """Create a user and make them a member of ``guild`` (default: every guild so far).

        ``admin`` grants an "Admin" role with Administrator; ``roles`` are role names
        (created on demand) or roles.
        """
        user = self._new_user(name)
        for target in [guild] if guild is not None else list(self.guilds.values()):
            target.add_member(user, admin=admin, roles=roles)
        return user

    def set_dms_closed(self, user: FakeUser, closed: bool = True) -> None:
        """Make DMs to ``user`` fail with 403 / 50007, like a user who blocks server DMs."""
        user.dms_closed = closed

    def user(self, name: str) -> FakeUser:
        """The user with this display name."""
        for user in self.users.values():
            if user.name == name:
                return user
        raise LookupError(f"no user {name!r}")

    def channel(self, name: str) -> FakeChannel:
        """The guild channel or thread with this name (any guild)."""
        for channel in self.channels.values():
            if channel.name == name and channel.guild is not None:
                return channel
        raise LookupError(f"no channel {name!r}")

    def dm_messages(self, user: FakeUser) -> list[FakeMessage]:
        """Live messages in the bot's DM with ``user`` (empty if never opened)."""
        channel = self._dm_channels.get(user.id)
        return list(channel.messages) if channel else []

    def all_messages(self) -> list[FakeMessage]:
        """Every live message in every channel, oldest first."""
        return sorted(self.messages.values(), key=lambda m: m.id)

    def mark(self) -> int:
        """A checkpoint: messages created afterwards have larger ids (see ``after=``)."""
        return self.next_id()

    async def wait_for_message(
        self,
        where: FakeChannel | FakeUser | None = None,
        *,
        contains: str | re.Pattern[str] | None = None,
        author: FakeUser | None = None,
        after: int | None = None,
        ephemeral: bool | None = None,
        predicate: Callable[[FakeMessage], object] | None = None,
        timeout: float = 5.0,
    ) -> FakeMessage:
        """Wait for a live message matching every given filter and return the newest one.

        ``where`` is a channel, or a user (meaning the bot's DM with them); ``contains``
        is searched in :attr:`FakeMessage.text` (a compiled regex is searched with
        ``search``); ``after`` is a :meth:`mark` or message id; ``author`` defaults to
        anyone; ``ephemeral`` picks only (non-)ephemeral ones; ``predicate`` is an extra
        ``FakeMessage -> bool``.
        """

        def matches(message: FakeMessage) -> bool:
            if isinstance(where, FakeChannel) and message.channel is not where:
                return False
            if isinstance(where, FakeUser) and (
                not message.channel.is_dm or message.channel.recipient is not where
            ):
                return False
            if author is not None and message.author is not author:
                return False
            if after is not None and message.id <= after:
                return False
            if ephemeral is not None and message.ephemeral != ephemeral:
                return False
            if isinstance(contains, re.Pattern):
                if not contains.search(message.text):
                    return False
            elif contains is not None and contains not in message.text:
                return False
            return predicate is None or bool(predicate(message))

        def newest() -> FakeMessage | None:
            for message in reversed(self.all_messages()):
                if matches(message):
                    return message
            return None

        filters = ", ".join(
            f"{k}={v!r}"
            for k, v in {
                "where": where,
                "contains": contains,
                "author": author,
                "after": after,
            }.items()
            if v is not None
        )
        return await self.wait_for(newest, timeout, description=f"a message with {filters}")

    def commands(self, guild: FakeGuild | None = None) -> list[FakeCommand]:
        """Synced global commands, plus ``guild``'s commands if given."""
        found = list(self.global_commands)
        if guild is not None:
            found += self.guild_commands.get(guild.id, [])
        return found

    def find_command(
        self, name: str, channel: FakeChannel | None = None, *, type: int = 1
    ) -> FakeCommand:
        """The synced command a user in ``channel`` would get for ``name`` (guild first)."""
        guild = channel.guild if channel is not None else None
        candidates = (self.guild_commands.get(guild.id, []) if guild else []) + self.global_commands
        for cmd in candidates:
            if cmd.name == name and cmd.type == type:
                return cmd
        known = [c.name for c in candidates]
        raise LookupError(f"no synced command {name!r} (type {type}); synced: {known}")

    def assert_clean(self) -> None:
        """Fail if the bot used a route the fake lacks or the fake itself crashed."""
        problems = []
        if self.unhandled:
            problems.append(f"routes the fake does not implement were called: {self.unhandled}")
        if self.server_errors:
            problems.append(f"the fake crashed: {self.server_errors}")
        if problems:
            pytest.fail("\n".join(problems), pytrace=False)
