"""The hub the model talks to (:class:`~tests.fakediscord.model.Hub`): it registers what
a world change creates and announces it to the connected bots, as Discord would."""

from __future__ import annotations

from ..model import FakeChannel, FakeGuild, FakeMember, FakeRole, FakeUser
from ..model.constants import DM
from .gateway import INTENT_GUILD_MEMBERS, INTENT_GUILDS, Gateway


class WorldHub(Gateway):
    """Registers and announces new users, members, roles and channels."""

    def _new_user(self, name: str) -> FakeUser:
        user = FakeUser(self.next_id(), name)
        self.users[user.id] = user
        return user

    def _channel_event(self, channel: FakeChannel, action: str) -> None:
        """CHANNEL_<action> or THREAD_<action> (CREATE, UPDATE, DELETE) for ``channel``."""
        payload = channel.to_payload()
        guild_id = channel.guild.id if channel.guild is not None else None
        if channel.is_thread:
            if action == "CREATE":
                payload = {**payload, "newly_created": True}
            self._broadcast(f"THREAD_{action}", payload, guild_id=guild_id,
                            intent=INTENT_GUILDS)
        else:
            self._broadcast(f"CHANNEL_{action}", payload, guild_id=guild_id,
                            intent=INTENT_GUILDS)

    def _channel_added(self, channel: FakeChannel) -> None:
        self.channels[channel.id] = channel
        self._channel_event(channel, "CREATE")

    def _role_added(self, guild: FakeGuild, role: FakeRole) -> None:
        payload = {"guild_id": str(guild.id), "role": role.to_payload()}
        self._broadcast("GUILD_ROLE_CREATE", payload, guild_id=guild.id, intent=INTENT_GUILDS)

    def _member_added(self, member: FakeMember) -> None:
        self.users[member.user.id] = member.user
        if member.user.id == self.bot_user.id:
            return
        payload = {**member.to_payload(), "guild_id": str(member.guild.id)}
        self._broadcast("GUILD_MEMBER_ADD", payload, guild_id=member.guild.id,
                        intent=INTENT_GUILD_MEMBERS)

    def _add_user_to_guild(
        self, guild: FakeGuild, name: str, *, admin: bool, roles: tuple[str | FakeRole, ...]
    ) -> FakeUser:
        user = self._new_user(name)
        guild.add_member(user, admin=admin, roles=roles)
        return user

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The bot's DM channel with ``user`` (created on first use, like Discord does)."""
        channel = self._dm_channels.get(user.id)
        if channel is None:
            channel = FakeChannel(self.next_id(), user.name, DM, self, recipient=user)
            self._dm_channels[user.id] = channel
            self.channels[channel.id] = channel
        return channel
