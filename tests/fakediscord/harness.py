"""The test-side API: build a world, act as users, run real discord.py bots against the fake.

Typical use (with the ``fake_discord`` fixture from ``tests/conftest.py``)::

    async def test_ping(fake_discord):
        guild = fake_discord.add_guild("Casino")
        table = guild.add_text_channel("table-1")
        alice = guild.add_user("Alice")
        async with fake_discord.running(make_bot()):
            result = await fake_discord.slash(alice, table, "ping")
            assert result.content == "pong"
            hit = await fake_discord.click(alice, result.message, label="Hit")
            assert hit.type == UPDATE_MESSAGE

Every wait has a timeout, re-checks its condition at once on each change the fake sees
(and every 20 ms for bot-side state the fake cannot see), and fails fast with
:class:`BotError` when the bot logs an ERROR.
"""

from __future__ import annotations

import asyncio
import errno
import gc
import ipaddress
import logging
import mimetypes
import re
import socket
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager, contextmanager
from typing import Any, Self, TypeVar

import discord
import pytest
import yarl
from discord import gateway as discord_gateway
from discord import http as discord_http

from .model import (
    ADMINISTRATOR,
    APPLICATION_COMMAND,
    APPLICATION_COMMAND_AUTOCOMPLETE,
    BUTTON,
    CHANNEL_MESSAGE_WITH_SOURCE,
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
    DEFERRED_UPDATE_MESSAGE,
    LABEL,
    LINK_BUTTON_STYLE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    SELECT_TYPES,
    STRING_SELECT,
    TEXT_INPUT,
    UPDATE_MESSAGE,
    Component,
    FakeAttachment,
    FakeChannel,
    FakeCommand,
    FakeGuild,
    FakeInteraction,
    FakeMessage,
    FakeRole,
    FakeUser,
    find_component,
)
from .server import FakeDiscordServer, WaitTimeout

ClientT = TypeVar("ClientT", bound=discord.Client)

__all__ = [
    "CommandNotAvailable",
    "FakeDiscord",
    "InteractionResult",
    "InternetAccessBlocked",
    "LogCapture",
    "NetworkGuard",
]


class CommandNotAvailable(LookupError):
    """Discord would not offer this command to this user here (permissions or context)."""


class InteractionResult:
    """What the bot did with one simulated interaction.

    The message accessors read the *current* state of the response message, so after a
    later edit ``result.content`` shows the edited text.
    """

    def __init__(self, fake: FakeDiscord, interaction: FakeInteraction) -> None:
        self.fake = fake
        self.interaction = interaction

    # --- state ------------------------------------------------------------------------

    @property
    def type(self) -> int | None:
        """The callback type (4 message, 5 deferred, 6 deferred update, 7 update, 8 choices,
        9 modal), ``None`` while unacknowledged."""
        return self.interaction.response_type

    @property
    def acked(self) -> bool:
        """Whether the bot acknowledged the interaction."""
        return self.interaction.acked

    @property
    def deferred(self) -> bool:
        """Whether the bot deferred (5 or 6)."""
        return self.type in (DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE, DEFERRED_UPDATE_MESSAGE)

    @property
    def message(self) -> FakeMessage | None:
        """The response message: the new one for 4/5, the component's message for 6/7."""
        return self.interaction.original

    @property
    def content(self) -> str:
        """Current content of the response message ("" if none)."""
        return self.message.content if self.message else ""

    @property
    def text(self) -> str:
        """Content, embed texts and text displays of the response message."""
        return self.message.text if self.message else ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        """Embeds of the response message."""
        return self.message.embeds if self.message else []

    @property
    def components(self) -> list[dict[str, Any]]:
        """Raw components of the response message."""
        return self.message.components if self.message else []

    @property
    def attachments(self) -> list[FakeAttachment]:
        """Attachments of the response message."""
        return self.message.attachments if self.message else []

    files = attachments

    @property
    def ephemeral(self) -> bool:
        """Whether the response message is ephemeral."""
        return bool(self.message and self.message.ephemeral)

    @property
    def modal(self) -> dict[str, Any] | None:
        """The modal the bot opened (type 9): ``custom_id``, ``title``, ``components``."""
        return self.interaction.modal

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete choices (type 8)."""
        data = self.interaction.response_data or {}
        return list(data.get("choices") or [])

    def find_component(
        self, custom_id: str | None = None, *, label: str | None = None, kind: str | None = None
    ) -> Component:
        """A component of the response message, or of the modal for type 9."""
        if self.modal is not None:
            return find_component(
                self.modal.get("components") or [], custom_id, label=label, kind=kind, where="modal"
            )
        if self.message is None:
            raise LookupError(f"interaction answered with type {self.type} has no message")
        return self.message.find_component(custom_id, label=label, kind=kind)

    # --- waiting ----------------------------------------------------------------------

    async def acknowledged(self, timeout: float = 5.0) -> Self:
        """Wait until the bot sent its initial callback."""
        await self.fake.wait_for(
            lambda: self.interaction.acked,
            timeout,
            description=f"the bot to acknowledge {self._describe()}",
        )
        return self

    async def final(self, timeout: float = 5.0) -> FakeMessage:
        """The message the user finally sees: immediately for 4/7; for a deferral, after
        the bot edited the original response or sent a follow-up."""
        await self.acknowledged(timeout)
        inter = self.interaction
        if self.type in (CHANNEL_MESSAGE_WITH_SOURCE, UPDATE_MESSAGE):
            assert inter.original is not None
            return inter.original
        if self.type == DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE:
            original = inter.original
            assert original is not None
            await self.fake.wait_for(
                lambda: original.deleted or not original.loading,
                timeout,
                description=f"the deferred response to {self._describe()} to be completed",
            )
            if original.deleted:
                raise AssertionError(f"the bot deleted the deferred response to {self._describe()}")
            return original
        if self.type == DEFERRED_UPDATE_MESSAGE:
            await self.fake.wait_for(
                lambda: inter.original_edits or inter.followups,
                timeout,
                description=f"an edit or follow-up after deferring {self._describe()}",
            )
            if inter.original_edits and inter.original is not None:
                return inter.original
            return inter.followups[0]
        raise ValueError(f"callback type {self.type} produces no message")

    async def followups(self, n: int = 1, timeout: float = 5.0) -> list[FakeMessage]:
        """Wait for at least ``n`` follow-up messages and return all of them."""
        await self.fake.wait_for(
            lambda: len(self.interaction.followups) >= n,
            timeout,
            description=f"{n} follow-up(s) to {self._describe()}",
        )
        return list(self.interaction.followups)

    def all_messages(self) -> list[FakeMessage]:
        """Original response (if this interaction created one) plus follow-ups, no repeats."""
        inter = self.interaction
        found: list[FakeMessage] = []
        created = inter.response_type in (
            CHANNEL_MESSAGE_WITH_SOURCE,
            DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
        )
        if created and inter.original is not None:
            found.append(inter.original)
        for message in inter.followups:
            if message not in found:
                found.append(message)
        return found

    def _describe(self) -> str:
        inter = self.interaction
        if inter.command_name:
            return f"/{inter.command_name}"
        custom_id = (inter.payload.get("data") or {}).get("custom_id")
        return f"interaction type {inter.type} ({custom_id})"

    def __repr__(self) -> str:
        return f"<InteractionResult {self._describe()} type={self.type} message={self.message!r}>"


class FakeDiscord(FakeDiscordServer):
    """The fake Discord plus everything a test needs to drive it.

    World building (``add_guild``, ``guild.add_text_channel``, ``add_user``) works before
    or after a bot connected; after, the bot receives the matching gateway events.
    """

    def __init__(self, **kwargs: Any) -> None:
        """Keyword arguments go to :class:`FakeDiscordServer` (``token``, ``bot_name``,
        ``ack_deadline``)."""
        super().__init__(**kwargs)
        self._bots: dict[int, tuple[discord.Client, asyncio.Task[None]]] = {}

    # --- world building ---------------------------------------------------------------

    def add_guild(
        self,
        name: str = "Test Server",
        *,
        channels: Sequence[str] = (),
        everyone_permissions: int = DEFAULT_EVERYONE_PERMISSIONS,
        bot_permissions: int = DEFAULT_BOT_PERMISSIONS,
    ) -> FakeGuild:
        """Create a guild the bot is in (with its managed role), optionally with channels."""
        guild = FakeGuild(self.next_id(), name, self, owner_id=self.owner.id)
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
        self._broadcast("GUILD_CREATE", guild.to_payload())
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
        user = FakeUser(self.next_id(), name)
        self.users[user.id] = user
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

    # --- reading ----------------------------------------------------------------------

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

    # --- simulated users --------------------------------------------------------------

    def _check_presence(self, user: FakeUser, channel: FakeChannel) -> None:
        if channel.guild is not None:
            channel.guild.member(user)
        elif channel.recipient is not user:
            raise PermissionError(f"{user!r} cannot use the DM channel of {channel.recipient!r}")

    def _check_command_access(self, cmd: FakeCommand, user: FakeUser, channel: FakeChannel) -> None:
        contexts = cmd.raw.get("contexts")
        if channel.guild is None:
            if not cmd.allowed_in_dm():
                raise CommandNotAvailable(f"/{cmd.name} is not available in DMs")
            return
        if contexts is not None and 0 not in contexts:
            raise CommandNotAvailable(f"/{cmd.name} is not available in servers")
        needed = cmd.default_member_permissions
        perms = channel.guild.member(user).permissions
        if needed is not None and not perms & ADMINISTRATOR and perms & needed != needed:
            raise CommandNotAvailable(
                f"/{cmd.name} needs permissions {needed:#x}; {user.name} has {perms:#x}"
            )

    async def _result(
        self, inter: FakeInteraction, wait: bool, timeout: float
    ) -> InteractionResult:
        await self.flush()
        result = InteractionResult(self, inter)
        if wait:
            await result.acknowledged(timeout)
        return result

    async def slash(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        options: Mapping[str, Any] | None = None,
        /,
        *,
        timeout: float = 5.0,
        wait: bool = True,
        locale: str = "en-US",
        **kwargs: Any,
    ) -> InteractionResult:
        """Run a slash command as ``user`` in ``channel`` and wait for the acknowledgement.

        ``command`` is the full name ("play", "flank place", "admin game reset"); options
        are keyword arguments (or the ``options`` mapping when a name clashes with a
        parameter here); ``None`` leaves an option empty. Values: ``str``, ``int``,
        ``float``, ``bool``, users (:class:`FakeUser`), channels, roles, or
        ``(filename, bytes)`` for attachments.
        Discord's client-side rules are enforced: required options, choices, min/max,
        and whether the user may see the command at all (:class:`CommandNotAvailable`).
        """
        # None means "left empty", which is how optional options are usually skipped.
        values = {k: v for k, v in {**(options or {}), **kwargs}.items() if v is not None}
        parts = command.strip().lstrip("/").split()
        self._check_presence(user, channel)
        cmd = self.find_command(parts[0], channel)
        self._check_command_access(cmd, user, channel)
        leaf_defs, wrap = _command_path(cmd, parts)
        resolved: dict[str, dict[str, Any]] = {}
        leaf = self._option_values(leaf_defs, values, channel, resolved)
        data: dict[str, Any] = {"id": str(cmd.id), "name": cmd.name, "type": 1}
        wrapped = wrap(leaf)
        if wrapped:
            data["options"] = wrapped
        if resolved:
            data["resolved"] = resolved
        if cmd.guild_id is not None:
            data["guild_id"] = str(cmd.guild_id)
        inter = self.start_interaction(
            APPLICATION_COMMAND, user, channel, data, command_name=" ".join(parts), locale=locale
        )
        return await self._result(inter, wait, timeout)

    async def autocomplete(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        focused: str,
        value: str,
        options: Mapping[str, Any] | None = None,
        /,
        *,
        timeout: float = 5.0,
        **kwargs: Any,
    ) -> list[dict[str, Any]]:
        """Type ``value`` into option ``focused`` of a command; return the bot's choices."""
        values = {**(options or {}), **kwargs}
        parts = command.strip().lstrip("/").split()
        self._check_presence(user, channel)
        cmd = self.find_command(parts[0], channel)
        leaf_defs, wrap = _command_path(cmd, parts)
        resolved: dict[str, dict[str, Any]] = {}
        leaf = self._option_values(leaf_defs, values, channel, resolved, required=False)
        spec = next((d for d in leaf_defs if d["name"] == focused), None)
        if spec is None or not spec.get("autocomplete"):
            raise LookupError(f"option {focused!r} of /{command} has no autocomplete")
        leaf.append({"name": focused, "type": spec["type"], "value": value, "focused": True})
        data: dict[str, Any] = {
            "id": str(cmd.id),
            "name": cmd.name,
            "type": 1,
            "options": wrap(leaf),
        }
        if resolved:
            data["resolved"] = resolved
        if cmd.guild_id is not None:
            data["guild_id"] = str(cmd.guild_id)
        inter = self.start_interaction(
            APPLICATION_COMMAND_AUTOCOMPLETE, user, channel, data, command_name=" ".join(parts)
        )
        result = await self._result(inter, True, timeout)
        return result.choices

    async def context_menu(
        self,
        user: FakeUser,
        channel: FakeChannel,
        name: str,
        target: FakeUser | FakeMessage,
        *,
        timeout: float = 5.0,
        wait: bool = True,
        locale: str = "en-US",
    ) -> InteractionResult:
        """Use a user (target is a user) or message (target is a message) context menu."""
        self._check_presence(user, channel)
        ctype = 3 if isinstance(target, FakeMessage) else 2
        cmd = self.find_command(name, channel, type=ctype)
        self._check_command_access(cmd, user, channel)
        resolved: dict[str, dict[str, Any]] = {}
        if isinstance(target, FakeMessage):
            resolved["messages"] = {str(target.id): target.to_payload()}
        else:
            self._resolve_user(target, channel, resolved)
        data: dict[str, Any] = {
            "id": str(cmd.id),
            "name": cmd.name,
            "type": ctype,
            "target_id": str(target.id),
            "resolved": resolved,
        }
        if cmd.guild_id is not None:
            data["guild_id"] = str(cmd.guild_id)
        inter = self.start_interaction(
            APPLICATION_COMMAND, user, channel, data, command_name=name, locale=locale
        )
        return await self._result(inter, wait, timeout)

    async def click(
        self,
        user: FakeUser,
        message: FakeMessage | int,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        timeout: float = 5.0,
        wait: bool = True,
        locale: str = "en-US",
    ) -> InteractionResult:
        """Click a button (by ``custom_id`` or ``label``) as ``user``; works in DMs too.

        Refuses what the Discord client would not allow: disabled or link buttons, other
        people's ephemeral messages, channels the user is not in.
        """
        msg = self._visible_message(user, message)
        comp = msg.find_component(custom_id, label=label)
        if comp.type != BUTTON:
            raise TypeError(f"{comp!r} is not a button")
        if comp.style == LINK_BUTTON_STYLE or comp.custom_id is None:
            raise TypeError(f"{comp!r} is a link button; clicking it sends no interaction")
        data: dict[str, Any] = {"custom_id": comp.custom_id, "component_type": BUTTON}
        return await self._use_component(user, msg, comp, data, locale, wait, timeout)

    async def select(
        self,
        user: FakeUser,
        message: FakeMessage | int,
        custom_id: str | None = None,
        values: Sequence[str | FakeUser | FakeRole | FakeChannel] = (),
        *,
        label: str | None = None,
        timeout: float = 5.0,
        wait: bool = True,
        locale: str = "en-US",
    ) -> InteractionResult:
        """Choose ``values`` in a select menu (``label`` matches the placeholder).

        String selects take option values; user/role/channel selects take the objects.
        The count must respect min/max values, as in the client.
        """
        msg = self._visible_message(user, message)
        comp = msg.find_component(custom_id, label=label)
        if not comp.is_select:
            raise TypeError(f"{comp!r} is not a select menu")
        data = self._select_data(comp, list(values), msg.channel)
        return await self._use_component(user, msg, comp, data, locale, wait, timeout)

    async def _use_component(
        self,
        user: FakeUser,
        msg: FakeMessage,
        comp: Component,
        data: dict[str, Any],
        locale: str,
        wait: bool,
        timeout: float,
    ) -> InteractionResult:
        """Send the MESSAGE_COMPONENT interaction for a button or select, as the client would."""
        if comp.disabled:
            raise PermissionError(f"{comp!r} is disabled")
        if "id" in comp.raw:
            data["id"] = comp.raw["id"]
        inter = self.start_interaction(
            MESSAGE_COMPONENT, user, msg.channel, data, message=msg, locale=locale
        )
        return await self._result(inter, wait, timeout)

    async def submit_modal(
        self,
        user: FakeUser,
        opened_by: InteractionResult | FakeInteraction,
        values: Mapping[str, str | Sequence[str]] | None = None,
        *,
        timeout: float = 5.0,
        wait: bool = True,
        locale: str = "en-US",
    ) -> InteractionResult:
        """Fill in and submit the modal the bot opened in answer to ``opened_by``.

        ``values`` maps text-input custom_ids to text (select custom_ids to lists of
        values); unspecified inputs keep their pre-filled value. Required inputs and
        length limits are enforced.
        """
        source = opened_by.interaction if isinstance(opened_by, InteractionResult) else opened_by
        modal = source.modal
        if modal is None:
            raise ValueError(f"{source!r} was not answered with a modal")
        if user is not source.user:
            raise PermissionError("only the user who opened a modal can submit it")
        remaining = dict(values or {})
        components = [_modal_answer(c, remaining) for c in modal.get("components") or []]
        if remaining:
            raise TypeError(f"modal {modal['custom_id']!r} has no inputs {sorted(remaining)}")
        data = {"custom_id": modal["custom_id"], "components": components}
        inter = self.start_interaction(
            MODAL_SUBMIT,
            user,
            source.channel,
            data,
            message=source.message,
            command_name=source.command_name,
            locale=locale,
        )
        return await self._result(inter, wait, timeout)

    async def send_message(self, user: FakeUser, channel: FakeChannel, content: str) -> FakeMessage:
        """Post a plain message as ``user`` (the bot receives MESSAGE_CREATE)."""
        self._check_presence(user, channel)
        message = FakeMessage(self.next_id(), channel, user, content=content)
        self._store_message(message)
        await self.flush()
        return message

    # --- helpers for building payloads ------------------------------------------------

    def _visible_message(self, user: FakeUser, message: FakeMessage | int) -> FakeMessage:
        msg = self.messages.get(message) if isinstance(message, int) else message
        if msg is None or msg.deleted:
            raise LookupError(f"message {message!r} does not exist (deleted?)")
        self._check_presence(user, msg.channel)
        if not msg.visible_to(user):
            raise PermissionError(f"{user!r} cannot see ephemeral message {msg.id}")
        return msg

    def _resolve_user(
        self, user: FakeUser, channel: FakeChannel, resolved: dict[str, dict[str, Any]]
    ) -> None:
        resolved.setdefault("users", {})[str(user.id)] = user.to_payload()
        guild = channel.guild
        if guild is not None and user.id in guild.members:
            member = guild.members[user.id].to_payload(with_user=False, with_permissions=True)
            resolved.setdefault("members", {})[str(user.id)] = member

    def _resolve_channel(self, target: FakeChannel, resolved: dict[str, dict[str, Any]]) -> None:
        payload = {
            k: v
            for k, v in target.to_payload().items()
            if k in ("id", "name", "type", "parent_id", "thread_metadata", "guild_id")
        }
        payload["permissions"] = str(DEFAULT_EVERYONE_PERMISSIONS)
        resolved.setdefault("channels", {})[str(target.id)] = payload

    def _option_values(
        self,
        defs: list[dict[str, Any]],
        values: Mapping[str, Any],
        channel: FakeChannel,
        resolved: dict[str, dict[str, Any]],
        *,
        required: bool = True,
    ) -> list[dict[str, Any]]:
        by_name = {d["name"]: d for d in defs}
        unknown = sorted(set(values) - set(by_name))
        if unknown:
            raise TypeError(f"unknown option(s) {unknown}; the command has {sorted(by_name)}")
        out = []
        for spec in defs:
            name = spec["name"]
            if name not in values:
                if required and spec.get("required"):
                    raise TypeError(f"missing required option {name!r}")
                continue
            value = self._convert_option(spec, values[name], channel, resolved)
            out.append({"name": name, "type": spec["type"], "value": value})
        return out

    def _convert_option(
        self,
        spec: dict[str, Any],
        value: Any,
        channel: FakeChannel,
        resolved: dict[str, dict[str, Any]],
    ) -> Any:
        name, otype = spec["name"], spec["type"]

        def bad(expected: str) -> TypeError:
            return TypeError(f"option {name!r} expects {expected}, got {value!r}")

        if otype == 3:
            if not isinstance(value, str):
                raise bad("a str")
            lo, hi = spec.get("min_length", 0), spec.get("max_length", 6000)
            if not lo <= len(value) <= hi:
                raise ValueError(f"option {name!r}: length must be {lo}..{hi}")
        elif otype == 4:
            if not isinstance(value, int) or isinstance(value, bool):
                raise bad("an int")
        elif otype == 10:
            if not isinstance(value, int | float) or isinstance(value, bool):
                raise bad("a number")
        elif otype == 5:
            if not isinstance(value, bool):
                raise bad("a bool")
        elif otype == 6:
            if not isinstance(value, FakeUser):
                raise bad("a FakeUser")
            self._resolve_user(value, channel, resolved)
            return str(value.id)
        elif otype == 7:
            if not isinstance(value, FakeChannel):
                raise bad("a FakeChannel")
            allowed = spec.get("channel_types")
            if allowed and value.type not in allowed:
                raise ValueError(f"option {name!r} accepts channel types {allowed}")
            self._resolve_channel(value, resolved)
            return str(value.id)
        elif otype == 8:
            if not isinstance(value, FakeRole):
                raise bad("a FakeRole")
            resolved.setdefault("roles", {})[str(value.id)] = value.to_payload()
            return str(value.id)
        elif otype == 9:
            if isinstance(value, FakeUser):
                self._resolve_user(value, channel, resolved)
            elif isinstance(value, FakeRole):
                resolved.setdefault("roles", {})[str(value.id)] = value.to_payload()
            else:
                raise bad("a FakeUser or FakeRole")
            return str(value.id)
        elif otype == 11:
            if not (isinstance(value, tuple) and len(value) == 2):
                raise bad("a (filename, bytes) tuple")
            filename, data = value
            att_id = self.next_id()
            att = FakeAttachment(
                att_id,
                filename,
                _guess_type(filename),
                bytes(data),
                url=f"{self.base_url}/attachments/{channel.id}/{att_id}/{filename}",
                ephemeral=True,
            )
            self.uploads[att_id] = att
            resolved.setdefault("attachments", {})[str(att_id)] = att.to_payload()
            return str(att_id)
        else:
            raise TypeError(f"option type {otype} of {name!r} is not supported by the fake")
        if otype in (4, 10):
            lo, hi = spec.get("min_value"), spec.get("max_value")
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                raise ValueError(f"option {name!r} must be within {lo}..{hi}")
        choices = spec.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise ValueError(f"option {name!r} must be one of {[c['value'] for c in choices]}")
        return value

    def _select_data(
        self, comp: Component, values: list[Any], channel: FakeChannel
    ) -> dict[str, Any]:
        if not comp.min_values <= len(values) <= comp.max_values:
            raise ValueError(
                f"{comp!r} takes {comp.min_values}..{comp.max_values} values, got {len(values)}"
            )
        data: dict[str, Any] = {"custom_id": comp.custom_id, "component_type": comp.type}
        if comp.type == STRING_SELECT:
            valid = [o.value for o in comp.options]
            values = [str(v) for v in values]  # option values are always strings
            for value in values:
                if value not in valid:
                    raise ValueError(f"{value!r} is not an option of {comp!r}; options: {valid}")
            data["values"] = values
            return data
        resolved: dict[str, dict[str, Any]] = {}
        ids = []
        for value in values:
            if isinstance(value, FakeUser):
                self._resolve_user(value, channel, resolved)
            elif isinstance(value, FakeRole):
                resolved.setdefault("roles", {})[str(value.id)] = value.to_payload()
            elif isinstance(value, FakeChannel):
                self._resolve_channel(value, resolved)
            else:
                raise TypeError(
                    f"{comp.kind} values must be users, roles or channels, got {value!r}"
                )
            ids.append(str(value.id))
        data["values"] = ids
        data["resolved"] = resolved
        return data

    # --- running bots -----------------------------------------------------------------

    @contextmanager
    def patched(self) -> Iterator[Self]:
        """Point discord.py at this fake (``Route.BASE``, ``DEFAULT_GATEWAY``), then restore."""
        old_base = discord_http.Route.BASE
        old_gateway = discord_gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord_http.Route.BASE = self.api_base
        discord_gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url + "/")
        try:
            yield self
        finally:
            discord_http.Route.BASE = old_base
            discord_gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    async def start_bot(
        self, bot: discord.Client, *, timeout: float = 10.0, fast_ready: bool = True
    ) -> None:
        """``login`` + ``connect(reconnect=False)`` in a task, then wait for ``on_ready``.

        ``fast_ready`` lowers discord.py's ``guild_ready_timeout`` (2 s by default: the
        wait for more GUILD_CREATEs after the last one before firing ``on_ready``) to
        0.1 s, since the fake sends all guilds at once.
        """
        if self.api_base != discord_http.Route.BASE:
            raise RuntimeError(
                "discord.py is not pointed at this fake; use `with fake.patched():` "
                "or the fake_discord fixture"
            )
        if fast_ready:
            state = bot._connection
            state.guild_ready_timeout = min(state.guild_ready_timeout, 0.1)
        try:
            await bot.login(self.token)
        except BaseException:
            await bot.close()
            raise
        task = asyncio.create_task(bot.connect(reconnect=False), name=f"fake-discord-bot-{id(bot)}")
        self._bots[id(bot)] = (bot, task)
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait(
            {ready, task}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if ready in done:
            return
        ready.cancel()
        await asyncio.gather(ready, return_exceptions=True)
        await self.stop_bot(bot)
        raise WaitTimeout(f"bot did not become ready within {timeout}s")

    async def stop_bot(self, bot: discord.Client, *, timeout: float = 10.0) -> None:
        """Close the bot, wait for its connect task and for the fake to see it leave."""
        entry = self._bots.pop(id(bot), None)
        session_id = bot.ws.session_id if bot.ws is not None else None
        await bot.close()
        if entry is not None:
            await asyncio.wait_for(entry[1], timeout)
        if session_id is not None and session_id in self.sessions:
            session = self.sessions[session_id]
            await self.wait_for(
                lambda: session.conn is None,
                timeout,
                description="the gateway connection to close",
                fail_on_bot_error=False,
            )

    @asynccontextmanager
    async def running(self, bot: ClientT, *, timeout: float = 10.0) -> AsyncIterator[ClientT]:
        """``async with fake.running(bot):`` starts the bot and always stops it."""
        await self.start_bot(bot, timeout=timeout)
        try:
            yield bot
        finally:
            await self.stop_bot(bot, timeout=timeout)

    async def stop(self) -> None:
        """Stop bots still running, then the server."""
        for bot, _task in list(self._bots.values()):
            await self.stop_bot(bot)
        await super().stop()


# --- payload helpers -----------------------------------------------------------------------


def _guess_type(filename: str) -> str:
    return mimetypes.guess_type(filename)[0] or "application/octet-stream"


OptionList = list[dict[str, Any]]


def _command_path(
    cmd: FakeCommand, parts: list[str]
) -> tuple[OptionList, Callable[[OptionList], OptionList]]:
    """Leaf option definitions for "cmd [group] [sub]" and a function nesting leaf values."""
    subs = [o for o in cmd.options if o.get("type") in (1, 2)]
    rest = parts[1:]
    if not subs:
        if rest:
            raise LookupError(f"/{cmd.name} has no subcommand {' '.join(rest)!r}")
        return cmd.options, lambda leaf: leaf
    if not rest:
        raise LookupError(f"/{cmd.name} needs a subcommand: {cmd.subcommand_names()}")

    def pick(options: list[dict[str, Any]], name: str) -> dict[str, Any]:
        for opt in options:
            if opt["name"] == name and opt.get("type") in (1, 2):
                return opt
        raise LookupError(f"no subcommand {' '.join(parts)!r}; have {cmd.subcommand_names()}")

    first = pick(subs, rest[0])
    if first["type"] == 1:
        if len(rest) != 1:
            raise LookupError(f"{' '.join(parts)!r}: {first['name']!r} is not a group")
        return first.get("options") or [], lambda leaf: [
            {"type": 1, "name": first["name"], "options": leaf}
        ]
    if len(rest) != 2:
        raise LookupError(f"{' '.join(parts)!r}: group {first['name']!r} needs a subcommand")
    sub = pick(first.get("options") or [], rest[1])
    return sub.get("options") or [], lambda leaf: [
        {
            "type": 2,
            "name": first["name"],
            "options": [{"type": 1, "name": sub["name"], "options": leaf}],
        }
    ]


def _modal_answer(comp: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """Mirror one modal component into its submission shape, taking values out of ``values``."""
    ctype = comp.get("type")
    answer: dict[str, Any] = {"type": ctype}
    if "id" in comp:
        answer["id"] = comp["id"]
    if ctype == 1:
        answer["components"] = [_modal_answer(c, values) for c in comp.get("components") or []]
    elif ctype == LABEL:
        answer["component"] = _modal_answer(comp["component"], values)
    elif ctype == TEXT_INPUT:
        custom_id = comp["custom_id"]
        text = values.pop(custom_id, comp.get("value") or "")
        if not isinstance(text, str):
            raise TypeError(f"text input {custom_id!r} takes a str")
        lo, hi = comp.get("min_length", 0), comp.get("max_length", 4000)
        if comp.get("required", True) and not text:
            raise ValueError(f"text input {custom_id!r} is required")
        if text and not lo <= len(text) <= hi:
            raise ValueError(f"text input {custom_id!r} must be {lo}..{hi} characters")
        answer.update(custom_id=custom_id, value=text)
    elif ctype in SELECT_TYPES:
        custom_id = comp["custom_id"]
        defaults = [o["value"] for o in comp.get("options") or [] if o.get("default")]
        chosen = values.pop(custom_id, defaults)
        answer.update(custom_id=custom_id, values=[str(v) for v in chosen])
    return answer


# --- pytest helpers: log capture and network guard -----------------------------------------


class LogCapture(logging.Handler):
    """Collects ERROR records from the given loggers (default ``discord`` and ``asyncio``).

    ``asyncio`` is included because "Unclosed client session", "Task was destroyed but it
    is pending" and "Task exception was never retrieved" are reported there.
    """

    def __init__(
        self, loggers: Sequence[str] = ("discord", "asyncio"), level: int = logging.ERROR
    ) -> None:
        super().__init__(level)
        self.logger_names = tuple(loggers)
        self.records: list[logging.LogRecord] = []
        self._saved_levels: dict[str, int] = {}

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def install(self) -> None:
        """Attach to the loggers (making sure ERROR records are not filtered out)."""
        for name in self.logger_names:
            logger = logging.getLogger(name)
            self._saved_levels[name] = logger.level
            if logger.getEffectiveLevel() > self.level:
                logger.setLevel(self.level)
            logger.addHandler(self)

    def uninstall(self) -> None:
        """Detach and restore logger levels."""
        for name in self.logger_names:
            logger = logging.getLogger(name)
            logger.removeHandler(self)
            logger.setLevel(self._saved_levels.get(name, logging.NOTSET))

    def __enter__(self) -> Self:
        self.install()
        return self

    def __exit__(self, *exc: object) -> None:
        self.uninstall()

    def expect(
        self, pattern: str | None = None, *, logger: str | None = None
    ) -> list[logging.LogRecord]:
        """Remove and return the records matching ``pattern`` (regex searched in the message
        and traceback) and ``logger`` (prefix); fail if there are none."""
        matched, kept = [], []
        for record in self.records:
            text = self._text(record)
            ok = (pattern is None or re.search(pattern, text)) and (
                logger is None or record.name.startswith(logger)
            )
            (matched if ok else kept).append(record)
        if not matched:
            raise AssertionError(
                f"no ERROR log matching {pattern!r} (logger {logger!r}); got:\n{self.format()}"
            )
        self.records = kept
        return matched

    def clear(self) -> None:
        """Forget every record."""
        self.records.clear()

    @staticmethod
    def _text(record: logging.LogRecord) -> str:
        text = f"{record.name}: {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            text += "\n" + "".join(logging.Formatter().formatException(record.exc_info))
        return text

    def format(self, record: logging.LogRecord | None = None) -> str:  # type: ignore[override]
        """All records (or one), with tracebacks."""
        if record is not None:
            return self._text(record)
        return "\n\n".join(self._text(r) for r in self.records) or "(none)"

    def assert_clean(self, *, collect_garbage: bool = True) -> None:
        """``pytest.fail`` if any record is left. ``collect_garbage`` first runs the GC so
        unclosed sessions and destroyed tasks are reported now, not in a later test."""
        if collect_garbage:
            gc.collect()
        if self.records:
            count = len(self.records)
            pytest.fail(
                f"{count} ERROR log record(s) during the test:\n{self.format()}", pytrace=False
            )


class InternetAccessBlocked(OSError):
    """A test tried to reach a non-loopback address."""


def _is_loopback(host: Any) -> bool:
    if isinstance(host, bytes):
        host = host.decode()
    if not isinstance(host, str):
        return False
    if host.lower() in ("localhost", "localhost.", "ip6-localhost"):
        return True
    try:
        ip = ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped.is_loopback
    return ip.is_loopback


def _is_ip_literal(host: Any) -> bool:
    if isinstance(host, bytes):
        host = host.decode()
    try:
        ipaddress.ip_address(str(host).split("%")[0])
    except ValueError:
        return False
    return True


class NetworkGuard:
    """Makes every socket connection to a non-loopback address fail immediately.

    Patches ``socket.socket.connect``/``connect_ex``/``sendto``, ``socket.create_connection``
    and ``socket.getaddrinfo`` (so no DNS query leaves the machine). Unix sockets and
    127.0.0.0/8, ::1 and ``localhost`` are allowed. Every refused attempt is recorded in
    ``attempts``.
    """

    def __init__(self) -> None:
        self.attempts: list[str] = []

    def _refuse(self, what: str, target: Any) -> InternetAccessBlocked:
        self.attempts.append(f"{what} {target!r}")
        return InternetAccessBlocked(
            errno.ENETUNREACH, f"tests may not use the network: {what} {target!r} was blocked"
        )

    def check_address(self, family: int, address: Any, what: str = "connect") -> None:
        """Raise :class:`InternetAccessBlocked` unless ``address`` is local."""
        if family == getattr(socket, "AF_UNIX", None) or isinstance(address, str | bytes):
            return
        if isinstance(address, tuple) and address and _is_loopback(address[0]):
            return
        raise self._refuse(what, address)

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Apply the patches through ``monkeypatch`` (undone when it is)."""
        guard = self
        real_connect = socket.socket.connect
        real_connect_ex = socket.socket.connect_ex
        real_sendto = socket.socket.sendto
        real_create_connection = socket.create_connection
        real_getaddrinfo = socket.getaddrinfo

        def connect(sock: socket.socket, address: Any) -> None:
            guard.check_address(sock.family, address)
            return real_connect(sock, address)

        def connect_ex(sock: socket.socket, address: Any) -> int:
            guard.check_address(sock.family, address, "connect_ex")
            return real_connect_ex(sock, address)

        def sendto(sock: socket.socket, data: Any, *args: Any) -> int:
            guard.check_address(sock.family, args[-1], "sendto")
            return real_sendto(sock, data, *args)

        def create_connection(address: Any, *args: Any, **kwargs: Any) -> socket.socket:
            if not _is_loopback(address[0]):
                raise guard._refuse("create_connection", address)
            return real_create_connection(address, *args, **kwargs)

        def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
            # IP literals resolve without DNS; names other than localhost would query it.
            if host not in (None, "", b"") and not _is_ip_literal(host) and not _is_loopback(host):
                raise guard._refuse("getaddrinfo", host)
            return real_getaddrinfo(host, *args, **kwargs)

        monkeypatch.setattr(socket.socket, "connect", connect)
        monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
        monkeypatch.setattr(socket.socket, "sendto", sendto)
        monkeypatch.setattr(socket, "create_connection", create_connection)
        monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
